"""The Python API (S-SYS-12): open a campaign and run any verb of its game with the command line's
arguments, getting the typed result back instead of printed text.

    from narateer_cli.api import open_campaign

    camp = open_campaign("my-campaign")
    result = camp.run("roll", "selka", "stealth", "--dr", "3", "--faces", "2,1")
    result.kind        # "check": the result's kind, as the formatters name it
    result.value       # the typed result record the game returned (a mapping for some verbs)
    result.to_json()   # exactly the object `narateer roll ... --json` prints
    result.words()     # the text it prints without --json

A verb runs exactly as from the shell: it takes the campaign lock, is logged, sealed, committed to git
when asked, and undoable. Bad input raises `narateer_cli.errors.BadInput` (its `exit_code` is 2), a
refusal `Refused` (3); both carry the one-line message the command line prints (`.line()`).
Nothing is printed: what a command would say on stderr (a warning, a secret roll's pointer) is in
`result.notes`.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from .errors import BadInput, NarateerError


class Result:
    """One command's result: its kind, the typed value the game returned, and what it noted on stderr."""

    def __init__(self, kind: str, value, notes: tuple[str, ...] = (), system=None):
        self.kind, self.value, self.notes, self.system = kind, value, notes, system

    def to_json(self) -> dict:
        """The object `--json` prints for this command (the same JSON text, read back)."""
        from .render import plain

        return json.loads(json.dumps(plain(self.value), ensure_ascii=False))

    def words(self) -> str:
        """The text the command line prints for this result (without --json, uncoloured)."""
        from .render import plain, words

        return words(self.kind, plain(self.value), self.system)

    def __repr__(self):
        return f"Result({self.kind!r}, {self.value!r})"


class Campaign:
    """A campaign folder; `run` plays one verb in it."""

    def __init__(self, root: Path):
        self.root = root

    def run(self, verb: str, *args, seed: int | None = None, asked: list | None = None) -> Result | None:
        """Run `narateer VERB ARGS...` in this campaign; the last result it produced (None for `--help`).
        `seed` seeds every random roll, as `--seed` does. `asked`: the faces typed so far for a command that
        asks for them die by die (`--faces ask`, T-ASK); the first die beyond them raises
        `narateer_cli.ask.FacesWanted` (nothing written), whose `.wanted` says which die."""
        results, notes = _invoke(["--campaign", str(self.root), *(["--seed", str(seed)] if seed is not None else []),
                                  verb, *(str(a) for a in args)], asked)
        if not results:
            return None
        kind, value = results[-1]
        return Result(kind, value, notes, self.system())

    def system(self):
        """The campaign's rule system (its formatters give a result's words)."""
        from .store.campaign import Campaign as Files

        return Files(self.root).system


def open_campaign(path) -> Campaign:
    """The campaign in folder `path` (it must hold narateer.yaml): bad input otherwise."""
    from .store.campaign import find_root

    return Campaign(find_root(str(path)))


def _invoke(argv: list[str], asked: list | None = None) -> tuple[list, tuple[str, ...]]:
    """Run the command group in this process with its output captured: ([(kind, value)...], stderr lines)."""
    import click

    from . import render
    from .cli import _valid_text, cli

    if "narateer_cli.store.private" in sys.modules:
        sys.modules["narateer_cli.store.private"].forget()
    from . import ask

    captured, err, old_err = [], io.StringIO(), sys.stderr
    render.CAPTURE, sys.stderr, ask.NEVER = captured, err, True  # the API never reads faces from a terminal
    ask.REMOTE = None if asked is None else [str(face) for face in asked]
    try:
        _valid_text(argv)
        cli.main(args=argv, prog_name="narateer", standalone_mode=False)
    except click.exceptions.Exit:
        pass
    except click.UsageError as exc:
        raise BadInput(exc.format_message(), fix="see `narateer " + " ".join(argv[2:3]) + " --help`") from None
    except click.ClickException as exc:
        raise BadInput(exc.format_message(), fix="see `narateer --help`") from None
    finally:
        render.CAPTURE, sys.stderr, ask.NEVER, ask.REMOTE = None, old_err, False, None
    if "narateer_cli.store.cache" in sys.modules:  # the command succeeded: keep what it parsed
        sys.modules["narateer_cli.store.cache"].flush()
    return captured, tuple(line for line in err.getvalue().splitlines() if line)


__all__ = ["Campaign", "Result", "open_campaign", "BadInput", "NarateerError"]
