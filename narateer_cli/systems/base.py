"""The System interface: what a rule-system package gives the host (S-SYS-2).

A system package's `__init__.py` defines `SYSTEM = System(...)` and imports
nothing heavy: the host reads `name`, `verbs` and the help texts to build
`narateer --help` and to dispatch a verb, at the cost of importing this module.
Everything else is named by a dotted path ("package.module:attr") in `hooks`
and imported only when a command calls it. The hooks, their signatures and
their defaults are the interface in `interface.py` (S-SYS-9): `validate`
holds a system to it when it loads, `System.hook` when a hook is imported.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:  # neither is imported for `narateer --help` (pathlib brings urllib.parse and ipaddress)
    from fractions import Fraction
    from pathlib import Path

def merge_rules(base: dict, over: dict) -> dict:
    """A campaign's `rules:` over a system's defaults, key by key: mappings merge, every other value replaces."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            out[key] = merge_rules(base[key], value)
        else:
            out[key] = value
    return out


class System:
    """One game behind the shared command line (a frozen record; no dataclasses import at start-up).

    name      as written in narateer.yaml `system:` and given to `init --system`
    title     for help headings
    summary   one line for `narateer systems`
    package   the package's import path
    verbs     verb -> (module path, short help): every command this system implements, its own
              verbs and the shared verbs that are game-specific (roll, new, show ...);
              the module defines `<verb>_cmd` (dashes as underscores)
    hooks     hook name -> "module:attr" (the methods of interface.SystemHooks)
    rules_file  inside the package: every table and knob (default rules.yaml)
    example   folder inside the package that `init --example` copies (None: no example)
    counters  key paths in a sheet that are counters (merged as sums)
    folders   the system's own data folders beside characters/ and encounters/ (`init` creates them)
    pointers  another system's verb -> what to use in this one instead
    example_hint  what `init --example` suggests doing next in this game's example campaign (None: nothing)
    config_keys   narateer.yaml keys this game reads beside the host's (`check` knows them)
    params    completion (T-COMPLETE): click parameter name -> what it holds: "character", "encounter",
              "pair:NAME" (OTHER:NAME, the second half completed as NAME) or "signed:NAME" (+NAME / -NAME);
              over the host's own names; any other parameter goes to the `complete` hook
    explicit_null  the game's sheets spell an empty value `null` (the host's edits write it so)
    """

    __slots__ = ("name", "title", "summary", "package", "verbs", "hooks", "rules_file", "example", "counters",
                 "pointers", "example_hint", "folders", "config_keys", "params", "explicit_null", "_found", "_checked")

    def __init__(self, name: str, title: str, summary: str, package: str, verbs: Mapping[str, tuple[str, str]],
                 hooks: Mapping[str, str], rules_file: str = "rules.yaml", example: str | None = "example",
                 counters: tuple[str, ...] = (), pointers: Mapping[str, str] | None = None,
                 example_hint: str | None = None, folders: tuple[str, ...] = (), config_keys: tuple[str, ...] = (),
                 params: Mapping[str, str] | None = None, explicit_null: bool = False):
        values = dict(name=name, title=title, summary=summary, package=package, verbs=dict(verbs),
                      hooks=dict(hooks), rules_file=rules_file, example=example, counters=tuple(counters),
                      pointers=dict(pointers or {}), example_hint=example_hint, folders=tuple(folders),
                      config_keys=tuple(config_keys), params=dict(params or {}), explicit_null=bool(explicit_null), _found={}, _checked=False)
        for key, value in values.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, key, value):
        raise AttributeError(f"System is frozen: cannot set {key}")

    def __repr__(self):
        return f"System({self.name!r}, package={self.package!r})"

    # -- the pieces, imported on demand -------------------------------------------------
    def hook(self, name: str) -> Any:
        """The object a hook names, imported now (and checked against the interface the first time);
        None when the system does not provide it. A target that does not import or does not fit is
        BadInput naming the package and the hook (S-SYS-9)."""
        found = self._found.get(name, self._found)
        if found is not self._found:
            return found
        target = self.hooks.get(name)
        found = None if target is None else self._import(name, target)
        self._found[name] = found
        return found

    def _import(self, name: str, target: str) -> Any:
        module, _, attr = target.partition(":")
        try:
            loaded = importlib.import_module(module)
            found = getattr(loaded, attr) if attr else loaded
        except Exception as exc:  # any failure of a plug-in's module is its package's, named as such
            raise self.broken(f"hooks[{name!r}]", f"names {target}, which does not import "
                                                  f"({type(exc).__name__}: {exc})") from None
        if self._checked:  # a plug-in (see `validate`)
            from . import interface

            problem = interface.check_target(name, found)
            if problem is not None:
                raise self.broken(f"hooks[{name!r}]", f"{target} {problem}")
        return found

    def get(self, name: str) -> Any:
        """The hook, or the interface's documented default when the system leaves it out."""
        found = self.hook(name)
        if found is not None:
            return found
        from . import interface

        return interface.default(name, self)

    def broken(self, part: str, problem: str):
        """BadInput (exit 2) for a part of this system that breaks the interface (S-SYS-9)."""
        return broken(self.name, self.package, part, problem)

    def require(self, name: str) -> Callable:
        found = self.hook(name)
        if found is None:
            from ..errors import BadInput

            raise BadInput(f"the {self.name} system does not provide {name}",
                           fix=f"its package {self.package} must name it in SYSTEM.hooks")
        return found

    def command(self, verb: str):
        """The click command of one verb (imports its module)."""
        module, _ = self.verbs[verb]
        return getattr(importlib.import_module(module), verb.replace("-", "_") + "_cmd")

    @property
    def folder(self) -> Path:
        from pathlib import Path

        return Path(importlib.import_module(self.package).__file__).resolve().parent

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
        """The system's sheet record; the document is first checked against `sheet_schema` (S-SYS-4)
        unless it is `checked` already (a parse cached under this very ruleset)."""
        if not checked:
            self.check_sheet(doc, label, rules)
        return self.require("parse_sheet")(char_id, doc, label, rules)

    def check_sheet(self, doc, label: str, rules):
        """BadInput (exit 2) for the first error the sheet schema finds; nothing when there is no schema."""
        table = self.hook("sheet_schema")
        if table is not None and isinstance(doc, dict):
            from ..store import schema

            schema.require(doc, table, label, rules)

    def log_checker(self, rules, continuity: bool = True) -> Callable[[dict], str | None]:
        """A fresh checker for one log (S-SYS-6): fed its entries in order, each gives its first problem."""
        return self.require("log_checker")(rules, continuity)

    def chance(self, entry_check: dict, rules) -> Fraction:
        return self.require("chance")(entry_check, rules)

    def formatter(self, kind: str) -> Callable[[dict], str] | None:
        module = self.hook("render")
        if module is None:
            return None
        return getattr(module, "FORMATTERS", {}).get(kind) or getattr(module, kind, None)


def entrywise(verify_log: Callable[[list, Any], str | None]) -> Callable:
    """A `log_checker` hook from a function that checks a list of entries, each on its own: for a game
    whose checks never span entries."""

    def log_checker(rules, continuity: bool = True):
        return lambda entry: verify_log([entry], rules)

    return log_checker


def broken(name: str, package: str, part: str, problem: str):
    from ..errors import BadInput

    return BadInput(f"the rule system {name} (package {package}) is broken: {part} {problem}", rule="S-SYS-9",
                    fix=f"fix {package}, or reinstall it")


def validate(system, name: str, package: str) -> System:
    """`system` as the interface wants it (S-SYS-9), checked without importing a hook; else BadInput
    naming the package and the part. From then on each hook is checked when first imported. The registry
    validates plug-ins; the built-in systems ship with the host and the test suite holds them to the
    interface, so `narateer --help` and a roll import nothing more for them."""
    if not isinstance(system, System):
        raise broken(name, package, "SYSTEM", f"is a {type(system).__name__}, not a "
                                              "narateer_cli.systems.base.System")
    from . import interface

    problems = [("name", f"must be {name!r}, the name it is installed under")] if system.name != name else []
    problems += [(f"verbs[{verb!r}]", "must be (module path, short help)") for verb, value in system.verbs.items()
                 if not (isinstance(value, (tuple, list)) and len(value) == 2 and all(isinstance(v, str) for v in value))]
    problems += interface.check_names(system.hooks)
    if problems:
        part, problem = problems[0]
        raise broken(name, system.package or package, part, problem)
    object.__setattr__(system, "_checked", True)
    return system
