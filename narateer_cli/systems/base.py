"""The System interface: what a rule-system package gives the host; each game is one package.

A system package's `__init__.py` defines `SYSTEM = System(...)` and imports
nothing heavy: the host reads `name`, `verbs` and the help texts to build
`narateer --help` and to dispatch a verb, at the cost of importing this module.
The hooks are the methods of one class, a subclass of `interface.Game`, in the
module `game` names (its `GAME`), imported when a command first asks for a
hook. The hooks, their signatures and their defaults are the interface in
`interface.py`: mypy holds the built-in games to it, `System.game`
holds a plug-in to it when its game module loads.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:  # neither is imported for `narateer --help` (pathlib brings urllib.parse and ipaddress)
    from fractions import Fraction
    from pathlib import Path

    from .interface import Game

# The module a game names in `SYSTEM.verbs` for a verb the host owns (`verbs={"heal": (HOST_COMMAND, help)}`):
# the host makes the command from the game's words (`Game.verb_words`) and calls the game's methods to compute.
HOST_COMMAND = "narateer_cli.commands.shared"
# verb -> the game methods its host command calls
HOST_OWNED: dict[str, tuple[str, ...]] = {"condition": ("condition",), "heal": ("heal",),
                                          "turn": ("turn_start", "turn_end"), "new": ("copied",),
                                          "encounter": (), "dice": ("dice",)}


def merge_rules(base: dict, over: dict) -> dict:
    """A campaign's `rules:` over a system's defaults, key by key: mappings merge, every other value replaces."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            out[key] = merge_rules(base[key], value)
        else:
            out[key] = value
    return out


# What the host's own parameter names hold, beside each system's `params`: "character", "encounter", "pair:NAME"
# (OTHER:NAME, the second half completed as NAME), "signed:NAME" (+NAME / -NAME). Shell completion offers by them,
# and every command matches the character ids among them without case (`Selka` is `selka`).
HOST_PARAMS = {"char": "character", "chars": "character", "actor": "character", "actors": "character",
               "source": "character", "enc_id": "encounter", "in_encounter": "encounter", "encounter": "encounter",
               "changes": "signed:condition"}


class System:
    """One game behind the shared command line (a frozen record; no dataclasses import at start-up).

    name      as written in narateer.yaml `system:` and given to `init --system`
    title     for help headings
    summary   one line for `narateer systems`
    package   the package's import path
    verbs     verb -> (module path, short help): every command this system implements, its own
              verbs and the shared verbs that are game-specific (roll, new, show ...);
              the module defines `<verb>_cmd` (dashes as underscores); HOST_COMMAND as the module:
              the host's command of a verb every table shares, computed by the game's methods
    game      the module that defines `GAME`, an instance of the game's `interface.Game` subclass (its hooks)
    rules_file  inside the package: every table and knob (default rules.yaml)
    example   folder inside the package that `init --example` copies (None: no example)
    counters  key paths in a sheet that are counters (merged as sums)
    state_counters  key paths in an encounter state that are counters (merged as sums, at least 0 unless
              `bounds` says otherwise): Narateer's proactive uses left this activation, `uses.*`
    bounds    counter key path (`*` matches any key) -> (lowest, highest): the range the rules keep it in, so a
              merge that adds both clones' changes past it is named, not kept; lowest a whole number or None (no
              floor), highest a whole number, None (no maximum) or the key path of the sheet's value that caps it
              (`hp.max`). A counter not named here is at least 0 and has no maximum
    folders   the system's own data folders beside characters/ and encounters/ (`init` creates them)
    pointers  another system's verb -> what to use in this one instead
    example_hint  what `init --example` suggests doing next in this game's example campaign (None: nothing)
    config_keys   narateer.yaml keys this game reads beside the host's (`check` knows them)
    params    shell completion: click parameter name -> what it holds: "character", "encounter",
              "pair:NAME" (OTHER:NAME, the second half completed as NAME) or "signed:NAME" (+NAME / -NAME);
              over the host's own names; any other parameter goes to the `complete` hook
    explicit_null  the game's sheets spell an empty value `null` (the host's edits write it so)
    """

    name: str
    title: str
    summary: str
    package: str
    verbs: dict[str, tuple[str, str]]
    game_module: str
    rules_file: str
    example: str | None
    counters: tuple[str, ...]
    state_counters: tuple[str, ...]
    bounds: dict[str, tuple[int | None, int | str | None]]
    pointers: dict[str, str]
    example_hint: str | None
    folders: tuple[str, ...]
    config_keys: tuple[str, ...]
    params: dict[str, str]
    explicit_null: bool
    _found: dict[str, Any]
    _checked: bool
    _game: Game | None

    __slots__ = ("name", "title", "summary", "package", "verbs", "game_module", "rules_file", "example", "counters",
                 "state_counters", "bounds", "pointers", "example_hint", "folders", "config_keys", "params", "explicit_null", "_found", "_checked",
                 "_game")

    def __init__(self, name: str, title: str, summary: str, package: str, verbs: Mapping[str, tuple[str, str]],
                 game: str, rules_file: str = "rules.yaml", example: str | None = "example",
                 counters: tuple[str, ...] = (), pointers: Mapping[str, str] | None = None,
                 bounds: Mapping[str, tuple[int | None, int | str | None]] | None = None,
                 state_counters: tuple[str, ...] = (),
                 example_hint: str | None = None, folders: tuple[str, ...] = (), config_keys: tuple[str, ...] = (),
                 params: Mapping[str, str] | None = None, explicit_null: bool = False):
        values = dict(name=name, title=title, summary=summary, package=package, verbs=dict(verbs),
                      game_module=game, rules_file=rules_file, example=example, counters=tuple(counters),
                      bounds=dict(bounds or {}), state_counters=tuple(state_counters),
                      pointers=dict(pointers or {}), example_hint=example_hint, folders=tuple(folders),
                      config_keys=tuple(config_keys), params=dict(params or {}), explicit_null=bool(explicit_null), _found={}, _checked=False,
                      _game=None)
        for key, value in values.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, key, value):
        raise AttributeError(f"System is frozen: cannot set {key}")

    def __repr__(self):
        return f"System({self.name!r}, package={self.package!r})"

    # -- the pieces, imported on demand -------------------------------------------------
    @property
    def game(self) -> Game:
        """The game's hooks: `GAME` of the game module, imported now (a plug-in's is checked against the
        interface the first time). A module that does not import or does not fit is BadInput naming the
        package and the part."""
        if self._game is not None:
            return self._game
        from ..errors import NarateerError

        try:
            game = importlib.import_module(self.game_module).GAME
        except NarateerError:  # the host's own word on the game's code (an import it may not make)
            raise
        except Exception as exc:  # any failure of a plug-in's module is its package's, named as such
            raise self.broken("game", f"names {self.game_module}, which does not import "
                                      f"({type(exc).__name__}: {exc})") from None
        if self._checked:  # a plug-in (see `validate`)
            from . import interface

            problems = interface.check_game(game) + self._owned_problems(game)
            if problems:
                raise self.broken(*problems[0])
        object.__setattr__(self, "_game", game)
        return game

    def _owned_problems(self, game) -> list[tuple[str, str]]:
        """(part, problem) for a verb listed as the host's whose host command has nothing to call."""
        from . import interface

        found = []
        for verb, (module, _) in self.verbs.items():
            if module != HOST_COMMAND:
                continue
            if verb not in HOST_OWNED:
                found.append((f"verbs[{verb!r}]", f"names the host's command, and the host owns none for {verb}: "
                                                  f"only {', '.join(HOST_OWNED)}"))
            found += [(f"GAME.{name}", f"is needed by the host's {verb} command") for name in HOST_OWNED.get(verb, ())
                      if not interface.provided(game, name)]
        return found

    def hook(self, name: str) -> Any:
        """The hook the game gives (a bound method, or a property's value), or None when the game leaves it
        to the interface's default."""
        found = self._found.get(name, self._found)
        if found is not self._found:
            return found
        from . import interface

        game = self.game
        found = getattr(game, name) if interface.provided(game, name) else None
        self._found[name] = found
        return found

    def gives(self, name: str) -> bool:
        """Whether the game gives this hook itself (reads its class: a property is not evaluated)."""
        from . import interface

        return interface.provided(self.game, name)

    def get(self, name: str) -> Any:
        """The hook, or the interface's documented default when the game leaves it out."""
        return getattr(self.game, name)

    def broken(self, part: str, problem: str):
        """BadInput (exit 2) for a part of this system that breaks the interface, naming the part."""
        return broken(self.name, self.package, part, problem)

    def require(self, name: str) -> Callable:
        found = self.hook(name)
        if found is None:
            from ..errors import BadInput

            raise BadInput(f"the {self.name} system does not provide {name}",
                           fix=f"its package {self.package} must define it in its Game class")
        return found

    def command(self, verb: str):
        """The click command of one verb (imports its module; the host's own for HOST_COMMAND)."""
        module, _ = self.verbs[verb]
        if module == HOST_COMMAND:  # found by name, as every verb's module is (storage never loads commands)
            return importlib.import_module(module).command_for(self, verb)
        from ..errors import NarateerError

        try:
            loaded = importlib.import_module(module)
        except NarateerError:  # the host's own word on the game's code (an import it may not make)
            raise
        except Exception as exc:  # a verb's module that fails to import (a dependency missing) is its package's
            raise self.broken(f"verbs[{verb!r}]", f"names {module}, which does not import "
                                                  f"({type(exc).__name__}: {exc})") from None
        return getattr(loaded, verb.replace("-", "_") + "_cmd")

    @property
    def folder(self) -> Path:
        from pathlib import Path

        init = importlib.import_module(self.package).__file__
        assert init is not None, "a system package has an __init__.py (it defines SYSTEM)"
        return Path(init).resolve().parent

    @property
    def rules_path(self) -> Path:
        return self.folder / self.rules_file

    @property
    def example_dir(self) -> Path | None:
        return self.folder / self.example if self.example else None

    def rules_data(self) -> dict:
        """The package's ruleset file as plain data (the shipped defaults)."""
        from ..store import yamlio

        label = f"{self.package.replace('.', '/')}/{self.rules_file}"
        return yamlio.load_safe(self.rules_path.read_text(encoding="utf-8"), label) or {}

    def ruleset(self, overrides: dict | None, where: str = "narateer.yaml", data: dict | None = None,
                checked: bool = False):
        """The campaign's ruleset: `overrides` (its `rules:`) over the defaults, validated. `checked`: these
        very files built a ruleset before (the host's config cache says so), so the checks may be skipped."""
        return self.require("ruleset")(self.rules_data() if data is None else data, overrides or {}, where,
                                       checked=checked)

    def parse_sheet(self, char_id: str, doc, label: str, rules, checked: bool = False):
        """The system's sheet record; the document is first checked against `sheet_schema` (a misspelt key is bad input)
        unless it is `checked` already (a parse cached under this very ruleset)."""
        if not checked:
            self.check_sheet(doc, label, rules)
        return _read_only_record(self.require("parse_sheet")(char_id, doc, label, rules), label)

    def check_sheet(self, doc, label: str, rules):
        """BadInput (exit 2) for the first error the sheet schema finds; nothing when there is no schema."""
        table = self.hook("sheet_schema")
        if table is not None and isinstance(doc, dict):
            from ..store import schema

            schema.require(doc, table, label, rules)

    def log_checker(self, rules, continuity: bool = True) -> Callable[[dict], str | None]:
        """A fresh checker for one log, fed its entries in order: each gives its first problem, re-derived by the
        game's own rules."""
        return self.require("log_checker")(rules, continuity)

    def chance(self, entry_check: dict, rules) -> Fraction:
        return self.require("chance")(entry_check, rules)

    def logged_result(self, command: str, result):
        """An entry's result as the game's record of its command (`Game.results`), read back by `from_json`; the
        result as logged when the game names no record for the command, or the result is no JSON object.
        ValueError saying why when it does not read back (a damaged or older entry)."""
        table = self._found.get(" results")  # a key no hook has: the game's table, read once
        if table is None:
            table = self._found[" results"] = dict(self.get("results"))
        kind = table.get(command) if isinstance(result, dict) else None
        if kind is None:
            return result
        try:
            return kind.from_json(result)
        except Exception as exc:  # whatever an entry holds, a reader reports it and goes on
            raise ValueError(f"its result does not read back as {kind.__name__} ({type(exc).__name__}: {exc})") \
                from None

    def formatters(self) -> Mapping[str, Callable[[dict], str]]:
        """The game's result kinds, each with its text formatter (`Game.formatters`), checked the first time:
        each kind a snake_case name, each formatter a function; else BadInput naming the kind."""
        table = self._found.get(" formatters")  # a key no hook has: the table as checked
        if table is None:
            table = self.get("formatters")
            problem = formatters_problem(table)
            if problem is not None:
                raise self.broken("GAME.formatters", problem)
            self._found[" formatters"] = table
        return table

    def formatter(self, kind: str, by=None) -> Callable[[dict], str]:
        """The text formatter of one of the game's result kinds; GameFault when its formatters name no such
        kind, naming `by` (the game's function that made the result) when known."""
        found = self.formatters().get(kind) if isinstance(kind, str) else None
        if found is not None:
            return found
        from ..readonly import GameFault, function_name
        from ..suggest import closest

        near = closest(str(kind), list(self.formatters()))
        who = function_name(by) if by is not None else f"the {self.name} game"
        raise GameFault(f"{who} made a result of kind {kind!r}, and the {self.name} game's formatters name no "
                        "such kind", rule="K-4", fix=(f"did you mean {' or '.join(near)}? Else add" if near else "add")
                        + f" {kind!r} to the game's formatters (kind -> text formatter)")


def is_kind(kind) -> bool:
    """Whether `kind` is spelt as a result kind is: a snake_case name (`turn_start`, `dry_run`)."""
    return isinstance(kind, str) and kind.isascii() and kind.isidentifier() and kind.islower() and kind[0] != "_"


def formatters_problem(table) -> str | None:
    """What is wrong with a game's `formatters` value, or None: it maps each kind, a snake_case name, to a
    function."""
    if not hasattr(table, "items"):
        return f"must be a mapping of result kind -> text formatter, not {type(table).__name__}"
    for kind, fn in table.items():
        if not is_kind(kind):
            return f"names the kind {kind!r}: a kind is a snake_case name, such as {'turn_start'!r}"
        if not callable(fn):
            return f"gives {kind!r} a {type(fn).__name__}, not a function of the result's data"
    return None


def _read_only_record(sheet, label: str):
    """A sheet record (a `kit.Record`) whose dict and list fields are read-only views, as the document it was
    parsed from is: a command that changes one (`sheet.actions["skirmish"] = 3`) is refused at once, naming
    its function, rather than computing with a sheet that no file holds. Another kind of record is kept as
    it is."""
    from ..record import Record

    if isinstance(sheet, Record):
        from ..readonly import view

        values = sheet.__dict__
        for name in sheet._fields:
            if isinstance(values.get(name), (dict, list)):
                values[name] = view(values[name], label)
    return sheet


def entrywise(verify_log: Callable[[list, Any], str | None]) -> Callable:
    """A `log_checker` hook from a function that checks a list of entries, each on its own: for a game
    whose checks never span entries."""

    def log_checker(rules, continuity: bool = True):
        return EachEntry(verify_log, rules)

    return log_checker


class EachEntry:
    """A checker made by `entrywise`: one entry at a time, as a list of one. An object rather than a closure, so
    that `check` can keep it with the rest of a log's checked state."""

    def __init__(self, verify_log: Callable[[list, Any], str | None], rules):
        self.verify_log, self.rules = verify_log, rules

    def __call__(self, entry) -> str | None:
        return self.verify_log([entry], self.rules)


def broken(name: str, package: str, part: str, problem: str):
    from ..errors import BadInput

    return BadInput(f"the rule system {name} (package {package}) is broken: {part} {problem}", rule="S-SYS-9",
                    fix=f"fix {package}, or reinstall it")


def validate(system, name: str, package: str) -> System:
    """`system` as the interface wants it, and its game class (`check_game`); else BadInput
    naming the package and the part. The registry validates plug-ins; the built-in games ship with the host and mypy and
    the test suite hold them to the interface, so `narateer --help` and a roll import nothing more for
    them."""
    if not isinstance(system, System):
        raise broken(name, package, "SYSTEM", f"is a {type(system).__name__}, not a narateer_cli.kit.System")
    problems = [("name", f"must be {name!r}, the name it is installed under")] if system.name != name else []
    problems += [(f"verbs[{verb!r}]", "must be (module path, short help)") for verb, value in system.verbs.items()
                 if not (isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, str) for v in value))]
    if not isinstance(system.game_module, str) or not system.game_module:
        problems.append(("game", f"must name the module that defines GAME, not {system.game_module!r}"))
    if problems:
        part, problem = problems[0]
        raise broken(name, system.package or package, part, problem)
    object.__setattr__(system, "_checked", True)
    from ..readonly import guard_imports

    guard_imports(system.package)
    system.game  # a plug-in's game class is checked now (importing its module imports no hook's module)
    return system
