"""The Python API: open a campaign and run any verb of its game with the command line's
arguments, getting the typed result back instead of printed text.

    from narateer_cli.api import open_campaign

    camp = open_campaign("my-campaign")
    result = camp.run("roll", "selka", "stealth", "--dr", "3", "--faces", "2,1")
    result.kind        # "check": the result's kind, as the formatters name it
    result.value       # the typed result record the game returned (a mapping for some verbs)
    result.to_json()   # exactly the object `narateer roll ... --json` prints
    result.words()     # the text it prints without --json

    camp.roll("selka", "stealth", dr=3, faces="2,1")   # the same call, by keyword: each verb's own options
    camp.encounter.new("ambush", "selka", "brute")     # a verb's subcommands are attributes

A verb runs exactly as from the shell: it takes the campaign lock, is logged, sealed, committed to git
when asked, and undoable. Bad input raises `narateer_cli.errors.BadInput` (its `exit_code` is 2), a
refusal `Refused` (3); both carry the one-line message the command line prints (`.line()`).
Nothing is printed: what a command would say on stderr (a warning, a secret roll's pointer) is in
`result.notes`. Each call writes to a sink of its own (`narateer_cli.sink`), so calls from several threads
at once keep their own results and notes; writes to one campaign take its lock in turn.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .errors import BadInput, NarateerError


class Result:
    """One command's result: its kind, the typed value the game returned, and what it noted on stderr."""

    def __init__(self, kind: str, value, notes: tuple[str, ...] = (), system=None):
        from .commands.common import Logged

        self.kind, self.notes, self.system = kind, notes, system
        self.value = value.record if isinstance(value, Logged) else value  # the game's own typed value
        self._shown = value  # what the command line prints: the result as logged (each check's `chance`)

    def to_json(self) -> dict:
        """The object `--json` prints for this command (the same JSON text, read back)."""
        from .render import plain

        return json.loads(json.dumps(plain(self._shown), ensure_ascii=False))

    def words(self) -> str:
        """The text the command line prints for this result (without --json, uncoloured). A warning on the
        way (a game's summary that fails) joins `notes`, never the process's stderr."""
        from .render import plain, words
        from .sink import Kept, using

        with using(Kept()) as call:
            text = words(self.kind, plain(self._shown), self.system)
        self.notes = (*self.notes, *(note for note in call.notes if note not in self.notes))
        return text

    def __repr__(self):
        return f"Result({self.kind!r}, {self.value!r})"


class Campaign:
    """A campaign folder; `run` plays one verb in it."""

    def __init__(self, root: Path):
        self.root = root

    def run(self, verb: str, *args, seed: int | None = None, asked: list | None = None,
            own: frozenset | None = None, waits=(), guided: list | None = None) -> Result | None:
        """Run `narateer VERB ARGS...` in this campaign; the last result it produced (None for `--help`).
        `seed` seeds every random roll, as `--seed` does. `asked`: the faces typed so far for a command that
        asks for them die by die (`--faces ask`); the first die beyond them raises
        `narateer_cli.ask.FacesWanted` (nothing written), whose `.wanted` says which die. `own`: the options
        whose dice a player may give (a player's page); another creature's die is then rolled here, and a face
        typed for it raises `narateer_cli.ask.NotTheirs` (nothing written). `waits`: the options of another
        creature's dice that wait for the Guide rather than being rolled here; `guided`: the Guide's faces for
        them so far, each (option, text); the first such die beyond them raises `narateer_cli.ask.GuideWanted`
        (nothing written)."""
        results, notes = _invoke(["--campaign", str(self.root), *(["--seed", str(seed)] if seed is not None else []),
                                  verb, *(str(a) for a in args)], asked, own, waits, guided)
        if not results:
            return None
        kind, value = results[-1]
        return Result(kind, value, notes, self.system())

    def __getattr__(self, name: str) -> Verb:
        """`camp.roll(...)`, `camp.encounter.new(...)`: a verb of the campaign's game as a call whose
        keywords are the verb's own options (their Python names: `dr=3`, `boost=2`, `secret=True`)."""
        if name.startswith("_"):
            raise AttributeError(name)
        return Verb(self, (name.replace("_", "-"),))

    def command(self, words: tuple[str, ...]):
        """The click command of a verb (and subcommands) in this campaign's game; AttributeError naming the
        verbs there are."""
        from . import systems
        from .cli import verb_command

        system, verb = self.system(), words[0]
        command = verb_command(system, verb)
        if command is None:
            raise AttributeError(f"{system.name} has no verb {verb!r}: its verbs are "
                                 + ", ".join(sorted({*system.verbs, *systems.HOST_VERBS})))
        for word in words[1:]:
            sub = getattr(command, "commands", {}).get(word)
            if sub is None:
                raise AttributeError(f"`{' '.join(words[:-1])}` has no subcommand {word!r}: "
                                     + ", ".join(sorted(getattr(command, "commands", {}))))
            command = sub
        return command

    def system(self):
        """The campaign's rule system (its formatters give a result's words)."""
        from .store.campaign import Campaign as Files

        return Files(self.root).system


class Verb:
    """One verb of a campaign as a Python call: positional words are the verb's arguments in order,
    keywords its options by their Python names; `seed` and `asked` are `Campaign.run`'s."""

    def __init__(self, campaign: Campaign, words: tuple[str, ...]):
        self.campaign, self.words = campaign, words

    def __getattr__(self, name: str) -> Verb:
        if name.startswith("_"):
            raise AttributeError(name)
        return Verb(self.campaign, (*self.words, name.replace("_", "-")))

    def __call__(self, *args, seed: int | None = None, asked: list | None = None, **options) -> Result | None:
        argv = words_for(self.campaign.command(self.words), " ".join(self.words), args, options)
        return self.campaign.run(*self.words, *argv, seed=seed, asked=asked)

    @property
    def __doc__(self):  # type: ignore[override]  # help(camp.roll) shows the verb's own help
        return self.campaign.command(self.words).help

    def __repr__(self):
        return f"<narateer verb {' '.join(self.words)}>"


def words_for(command, verb: str, args: tuple, options: dict) -> list[str]:
    """The command line's words for a call: `args` in the order of the command's arguments, then each
    keyword as its option (a flag when True, repeated for a list). An unknown keyword is a TypeError naming
    the closest options."""
    import click

    params = {p.name: p for p in command.params if p.name}
    for table in _tables(command.callback):  # a declared field's keyword is its table's (`--check`: check=)
        params.update({keyword: params[field] for keyword, field in table.keywords().items() if field in params})
    words = [str(a) for a in args]
    for key, value in options.items():
        param = params.get(key)
        if not isinstance(param, click.Option):
            raise _not_an_option(verb, key, param, params)
        words += _option_words(param, value)
    return words


def _tables(callback) -> list:
    """The tables of declared fields (`kit.declared`) a command's function was built with."""
    tables, fn = [], callback
    while fn is not None:
        if getattr(fn, "declared", None) is not None and fn.declared not in tables:
            tables.append(fn.declared)
        fn = getattr(fn, "__wrapped__", None)
    return tables


def _option_words(param, value) -> list[str]:
    """One keyword's words: nothing for None (or False, for a flag with no off switch)."""
    if value is None or value is False and not param.secondary_opts:
        return []
    if param.is_flag:
        return [param.opts[0] if value else param.secondary_opts[0]]
    if param.multiple and isinstance(value, (list, tuple)):
        return [word for item in value for word in (param.opts[0], str(item))]
    return [param.opts[0], ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)]


def _not_an_option(verb: str, key: str, param, params: dict) -> TypeError:
    import click

    from .suggest import closest

    if isinstance(param, click.Argument):
        return TypeError(f"{verb}: {key} is an argument: give it in order, not by keyword")
    near = closest(key, [k for k, p in params.items() if isinstance(p, click.Option)])
    return TypeError(f"{verb} has no option {key!r}" + (f" (did you mean {' or '.join(near)}?)" if near else ""))


def open_campaign(path) -> Campaign:
    """The campaign in folder `path` (it must hold narateer.yaml): bad input otherwise."""
    from .store.campaign import find_root

    return Campaign(find_root(str(path)))


def _invoke(argv: list[str], asked: list | None = None, own=None, waits=(),
            guided: list | None = None) -> tuple[list, tuple[str, ...]]:
    """Run the command group in this thread with a sink of its own: ([(kind, value)...], stderr lines).
    Nothing global is swapped: the results and notes go to this call's sink (its App carries it, and code
    without an App reaches it through the context variable of `narateer_cli.sink`, which is this thread's
    own), so calls in other threads at the same time keep theirs."""
    import click

    from .cli import _valid_text, cli
    from .sink import Kept, using

    if "narateer_cli.store.private" in sys.modules:  # each call looks again: a folder may have moved
        sys.modules["narateer_cli.store.private"].forget()
    with using(Kept(asked, own, waits, guided)) as call:  # the API never reads faces from a terminal; a page's typed faces are its own
        try:
            _valid_text(argv)
            cli.main(args=argv, prog_name="narateer", standalone_mode=False)
        except click.exceptions.Exit:
            pass
        except click.UsageError as exc:
            raise BadInput(exc.format_message(), fix="see `narateer " + " ".join(argv[2:3]) + " --help`") from None
        except click.ClickException as exc:
            raise BadInput(exc.format_message(), fix="see `narateer --help`") from None
        if "narateer_cli.store.cache" in sys.modules:  # the command succeeded: keep what it parsed
            sys.modules["narateer_cli.store.cache"].flush()
    return call.kept, tuple(call.notes)


__all__ = ["Campaign", "Result", "Verb", "open_campaign", "BadInput", "NarateerError"]
