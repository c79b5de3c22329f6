"""The `narateer` command: the click group, shared options, and the one error handler.

Command modules are imported only when their command runs (or help lists
them), and the rules engine, YAML and tables only inside command bodies, so
`narateer --help` costs no more than importing click. Every NarateerError
becomes one stderr line and the contract's exit status here, nowhere else.
"""

from __future__ import annotations

import os
import sys

import click

# name -> (module, short help); the short help is shown by `narateer --help`
# without importing the module.
COMMANDS = {
    "init": ("core", "Create a campaign (--example adds sample characters)."),
    "new": ("core", "Create a character file."),
    "show": ("core", "Show a character sheet with its Readiness table."),
    "readiness": ("core", "Readiness Scores; --write records them on the sheet."),
    "check": ("core", "Validate the whole campaign; list every problem."),
    "roll": ("rolls", "Make one Skill Check."),
    "dice": ("rolls", "Roll a bare pool of Action Dice."),
    "dr": ("rolls", "The DR ladder, or a random DR."),
    "odds": ("rolls", "Exact chance and distribution for N dice."),
    "behind": ("rolls", "Behind-the-screen check: Readiness vs a target."),
    "encounter": ("scene", "Create, show and read encounters."),
    "turn": ("scene", "Start and end activations."),
    "resolve": ("scene", "Resolve a declared Action by its path."),
    "condition": ("scene", "Add or remove conditions."),
    "refresh": ("scene", "Return Used dice to Ready."),
    "wound": ("scene", "Wound a character (moves dice to wounded)."),
    "heal": ("scene", "Heal wounds (wounded dice back to Used)."),
    "undo": ("scene", "Revert the last logged action."),
    "verify": ("scene", "Re-check an encounter log."),
    "hide": ("stealth", "Hide from observers."),
    "search": ("stealth", "Search for a hidden creature."),
    "reveal": ("stealth", "End hiding."),
    "move": ("stealth", "Spend movement."),
    "exchange": ("combat", "A Combat Exchange."),
    "react": ("combat", "A Reaction (Opportunity Attack)."),
    "git-setup": ("gitcmds", "Register the merge driver in this clone."),
    "merge-driver": ("gitcmds", "git's merge driver for campaign YAML."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return list(COMMANDS)

    def get_command(self, ctx, name):
        entry = COMMANDS.get(name)
        if entry is None:
            return None
        import importlib

        module = importlib.import_module(f"narateer_cli.commands.{entry[0]}")
        return getattr(module, name.replace("-", "_") + "_cmd")

    def format_commands(self, ctx, formatter):
        rows = [(name, help_) for name, (_, help_) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


class App:
    """Per-invocation settings shared by every command."""

    def __init__(self, campaign_dir=None, seed=None, as_json=False):
        self.campaign_dir = campaign_dir
        self.seed = seed
        self.as_json = as_json
        self._campaign = None

    @property
    def campaign(self):
        if self._campaign is None:
            from .store.campaign import Campaign, find_root

            self._campaign = Campaign(find_root(self.campaign_dir))
        return self._campaign

    def rng(self):
        import random

        seed = self.seed
        if seed is None and os.environ.get("NARATEER_SEED", "").strip():
            text = os.environ["NARATEER_SEED"].strip()
            try:
                seed = int(text)
            except ValueError:
                from .engine.errors import BadInput

                raise BadInput(f"NARATEER_SEED={text!r} is not a whole number", fix="set it to a number or unset it")
        return random.Random(seed)


def _help_width() -> int:
    """Help text width as click would choose it, without importing shutil (start-up time)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0")) or os.get_terminal_size(sys.__stdout__.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 80
    return max(min(columns, 100) - 2, 50)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "terminal_width": _help_width()})
@click.option("--campaign", "campaign_dir", metavar="DIR", help="Campaign folder (default: nearest narateer.yaml upwards, or $NARATEER_CAMPAIGN).")
@click.option("--seed", type=int, help="Seed every random roll (or set NARATEER_SEED).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object for scripts.")
@click.version_option("0.1.0", prog_name="narateer")
@click.pass_context
def cli(ctx, campaign_dir, seed, as_json):
    """narateer: resolve Narateer actions from the shell, exactly by the rules.

    Characters are YAML files under characters/, encounters under
    encounters/, in a campaign folder you keep in git.

    \b
    Example:
      narateer roll selka stealth --dr 3 --boost 2
    """
    ctx.obj = App(campaign_dir, seed, as_json)


def _one_line(text: str) -> str:
    return " ".join(str(text).split()).rstrip(".")


def _commits() -> int:
    """Actions this process has committed so far (without importing the store for --help)."""
    return getattr(sys.modules.get("narateer_cli.store.txn"), "COMMITS", 0)


def _valid_text(args):
    """G-TRUST-5: every text argument is valid text, checked before anything is read or written
    (a byte that is not UTF-8 arrives as a lone surrogate)."""
    for number, arg in enumerate(args, 1):
        if isinstance(arg, str) and any("\ud800" <= ch <= "\udfff" for ch in arg):
            from .errors import BadInput

            shown = arg.encode("utf-8", "backslashreplace").decode("utf-8")
            raise BadInput(f"argument {number} ({shown!r}) is not valid text (a byte that is not UTF-8, "
                           "or a lone surrogate)", rule="G-TRUST-5", fix="give it as UTF-8 text")


def main(argv=None):
    """Entry point: runs the group and turns every failure into one line and an exit status."""
    from .engine.errors import NarateerError

    commits = _commits()
    try:
        _valid_text(sys.argv[1:] if argv is None else argv)
        result = cli.main(args=argv, prog_name="narateer", standalone_mode=False)
        code = result if isinstance(result, int) and not isinstance(result, bool) else 0
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx else "narateer"
        sys.stderr.write(f"narateer: {_one_line(exc.format_message())}; see '{where} --help'\n")
        code = 2
    except click.ClickException as exc:
        sys.stderr.write(f"narateer: {_one_line(exc.format_message())}\n")
        code = exc.exit_code
    except NarateerError as exc:
        sys.stderr.write(f"narateer: {_one_line(exc.line())}\n")
        code = exc.exit_code
    except (KeyboardInterrupt, click.Abort):
        sys.stderr.write("narateer: interrupted after the action was saved whole\n" if _commits() > commits
                         else "narateer: interrupted; nothing was written\n")
        code = 130
    except BrokenPipeError:
        code = 0
    except Exception as exc:  # never a traceback for a user
        if os.environ.get("NARATEER_DEBUG"):
            raise
        sys.stderr.write(f"narateer: internal error ({type(exc).__name__}: {_one_line(exc)}); "
                         "nothing was written; rerun with NARATEER_DEBUG=1 and report it\n")
        code = 2
    if code in (0, 1) and "narateer_cli.store.cache" in sys.modules:
        try:  # the command succeeded: keep what it parsed for the next one
            sys.modules["narateer_cli.store.cache"].flush()
        except KeyboardInterrupt:
            pass
    if argv is None:  # a real process: the command is over; a late Ctrl-C must not kill the interpreter's exit
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if isinstance(code, int) and code:
        sys.exit(code)
    return 0


if __name__ == "__main__":
    main()
