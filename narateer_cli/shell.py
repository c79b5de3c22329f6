"""`narateer shell`: one interpreter, a prompt, the same commands without the prefix.

prompt_toolkit is imported here and only here, when the shell starts (it costs
about a third of a second, which no other command pays). Each line runs through
the same `main` as a fresh `narateer` process would: the same errors, exit
statuses and output, and each command takes the campaign lock for its own run
only. History lives in the private folder (`history`); completion is the same as the
shell's (`narateer_cli.complete`), read from the campaign on disk. The shell
greets with a banner, and reads a few words itself: `help [VERB]`, `clear`,
`exit`/`quit`; a misspelt verb gets the host's "did you mean".
"""

from __future__ import annotations

import shlex
import sys

PROMPT = "narateer> "
LEAVE = {"exit", "quit"}
OWN = ("help", "clear", "exit", "quit")  # the words the shell reads itself
TIPS = "type a command without `narateer`; `help` lists them, `help VERB` explains one; Tab completes; " \
       "`clear` clears the screen; Ctrl-D or `exit` leaves"


def banner(root) -> str:
    """What the shell says first: the campaign, its game, and how to get around."""
    from .safetext import printable
    from .systems import system_name

    return f"narateer shell in {printable(root.name)} ({system_name(root) or 'narateer'})\n{TIPS}\n"


def completer():
    from click.shell_completion import ShellComplete
    from prompt_toolkit.completion import Completer, Completion

    from . import complete
    from .cli import cli

    class CampaignCompleter(Completer):
        def __init__(self, prefix):
            self.prefix = prefix

        def get_completions(self, document, complete_event):
            text = document.text_before_cursor
            try:
                words = shlex.split(text)
            except ValueError:
                return
            incomplete = "" if not words or text.endswith((" ", "\t")) else words.pop()
            args = self.prefix + words
            complete.LINE[:] = args
            try:
                found = ShellComplete(cli, {}, complete.PROG, complete.ENV).get_completions(args, incomplete)
            except Exception:  # a half-typed line completes nothing, never breaks the prompt
                return
            for item in found:
                yield Completion(item.value, start_position=-len(incomplete), display_meta=item.help or "")

    return CampaignCompleter


def run(root, prefix: list[str], input=None, output=None) -> int:
    """The prompt loop; `prefix` holds the global options every line runs with (the campaign, --color)."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory

    from . import complete

    complete.ACTIVE = True
    from .cli import cli
    from .store.private import folder

    cli.extra_words = OWN

    session = PromptSession(history=FileHistory(str(folder(root) / "history")), input=input, output=output,
                            completer=completer()(prefix), complete_while_typing=False)
    sys.stdout.write(banner(root))
    sys.stdout.flush()
    try:
        return _loop(session, prefix)
    finally:
        cli.extra_words = ()  # a command line outside the shell has no `help` word


def _loop(session, prefix) -> int:
    from .cli import main

    while True:
        try:
            line = session.prompt(PROMPT)
        except KeyboardInterrupt:  # Ctrl-C clears the line
            continue
        except EOFError:  # Ctrl-D leaves
            return 0
        words = _words(line)
        if words is None:
            continue
        if words[0] in LEAVE:
            return 0
        if words[0] == "shell":
            sys.stderr.write("narateer: already in the shell; type a command, or Ctrl-D to leave\n")
            continue
        if words[0] == "clear":
            _clear(session.output)
            continue
        if words[0] == "help":  # `help` is the group's help, `help encounter log` that command's
            words = words[1:] + ["--help"]
        try:
            main(prefix + words)
        except SystemExit:
            pass  # the error's one line is printed; the prompt returns
        if words == ["--help"]:
            sys.stdout.write(f"\nIn the shell: {TIPS}.\n")
        sys.stdout.flush()


def _clear(output):
    """`clear`: an empty screen with the prompt at its top."""
    output.erase_screen()
    output.cursor_goto(0, 0)
    output.flush()


def _words(line: str) -> list[str] | None:
    try:
        words = shlex.split(line)
    except ValueError as exc:
        sys.stderr.write(f"narateer: {exc}; close the quote\n")
        return None
    if words and words[0] == "narateer":
        words = words[1:]
    return words or None
