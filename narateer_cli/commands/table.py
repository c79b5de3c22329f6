"""At the table: `completion` prints the shell's completion script; `shell` is the prompt."""

from __future__ import annotations

import click


@click.command(name="completion", help="""Print the completion script for bash, zsh or fish.

It completes verbs and aliases, options, character ids, the named character's
skills (then the untrained ones) and weapons, encounter ids, conditions and DR
tiers, from the campaign on disk.

\b
Examples (bash: in ~/.bashrc, zsh: ~/.zshrc, fish: its completions folder):
  eval "$(narateer completion bash)"
  eval "$(narateer completion zsh)"
  narateer completion fish > ~/.config/fish/completions/narateer.fish""")
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion_cmd(shell):
    import sys

    from ..complete import script

    sys.stdout.write(script(shell).rstrip("\n") + "\n")


@click.command(name="shell", help="""An interactive prompt in this campaign: the same commands without
the `narateer` prefix and without start-up time per command.

History is kept in the campaign's private folder and Tab completes as in the shell.
`help` lists the commands, `help VERB` explains one, `clear` clears the screen.
An error prints its one line and the prompt returns; Ctrl-C clears the line,
Ctrl-D (or `exit`) leaves.

\b
Example:
  narateer shell
  narateer> roll selka stealth --dr 3 --boost 2""")
@click.pass_context
def shell_cmd(ctx):
    from .. import shell

    app = ctx.obj
    root = app.campaign.root
    prefix = ["--campaign", str(root), "--color", app.color]
    raise click.exceptions.Exit(shell.run(root, prefix))
