"""The System interface: what a rule-system package gives the host (S-SYS-2).

A system package's `__init__.py` defines `SYSTEM = System(...)` and imports
nothing heavy: the host reads `name`, `verbs` and the help texts to build
`narateer --help` and to dispatch a verb, at the cost of importing this module.
Everything else is named by a dotted path ("package.module:attr") in `hooks`
and imported only when a command calls it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:  # neither is imported for `narateer --help` (pathlib brings urllib.parse and ipaddress)
    from fractions import Fraction
    from pathlib import Path

# The hooks the host calls, and what each must be (the docs list them in docs/systems.md).
HOOKS = {
    "ruleset": "(data, overrides, where, checked=False) -> ruleset value; BadInput naming the key path "
               "(checked=True: the same files passed before, the checks may be skipped)",
    "parse_sheet": "(char_id, doc, label, rules) -> frozen sheet record with .id, .name and .dice",
    "new_state": "(enc_id, participants, rules) -> dict: a new encounter's state",
    "load_state": "(data: dict, label, checked=False) -> dict: a validated encounter state "
                  "(checked=True: the host's cache holds it as it was when it passed)",
    "verify_log": "(entries: list, rules) -> str | None: the first problem, re-checked by the system's own code",
    "log_checker": "(rules, continuity: bool) -> fn(entry) -> str | None, optional: a fresh check for one log, "
                   "fed its entries in order (checks that span entries; `continuity` is False for the campaign "
                   "log); default: verify_log([entry], rules) per entry",
    "undo_fields": "(sheets: {id: (sheet now, sheet restored)}) -> dict, optional: the undo entry's own fields "
                   "in place of `dice` (a system whose entries log no dice)",
    "render": "module with one text formatter per result kind: fn(data: dict) -> str",
    "sheet_schema": "a narateer_cli.store.schema table of the sheet: `check` lists all its problems",
    "beats": "(total, target) -> bool: success comparison, the one place it is written",
    "parse_faces": "(text, option) -> list of faces | None: physical faces typed at the table",
    "headline": "(kind, data: dict) -> (words, success: bool | None) | None: the outcome line that leads "
                "a result's text, coloured (T-COLOR); default: a check's outcome",
    "summary": "(command, actor, declaration, result) -> str | None: a logged action in words (encounter log, "
               "report, git commit messages); None: the host's default",
    "complete": "(param_name, campaign, params: dict) -> list[str]: shell completion of a game-specific "
                "parameter (skill, attribute, card, weapon, condition, dr/tier ...) from the campaign on disk",
    "face_names": "(face) -> str: one die face in words for reports (Miss, Hit, Crit); default str(face)",
    "fresh_sheet": "(doc, rules) -> doc: a copied sheet's round-trip document with fresh counters (T-COPY)",
    "chance": "(entry_check: dict, rules) -> Fraction: probability of the logged outcome (P-LUCK)",
    "chance_ratio": "(entry_check: dict, rules) -> (numerator, denominator) | None: the same chance as whole "
                    "numbers, optional: a writing command then logs it without importing fractions (start-up time)",
    "check_files": "(root: Path, rules) -> list of problems (`file:line: message` text, or values with .text()): "
                   "the system's own data files (beyond characters/ and encounters/) that `check` validates",
    "view": "(state, sheets: {id: plain doc}, rules) -> {participants: {id: fields}, hidden?: {id: observers}}: "
            "the players' screen (V-1); the host's default gives names, conditions and counters as pools",
    "public_entry": "(entry: dict) -> dict | None: a log entry as the party may see it (V-2: no recorded "
                    "totals, no secrets); None leaves it out",
    "last_check": "(entry: dict) -> {actor, skill, faces, total, target, outcome} | None: the roll `serve` shows",
}


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
    hooks     hook name -> "module:attr" (see HOOKS)
    rules_file  inside the package: every table and knob (default rules.yaml)
    example   folder inside the package that `init --example` copies (None: no example)
    counters  key paths in a sheet that are counters (merged as sums)
    folders   the system's own data folders beside characters/ and encounters/ (`init` creates them)
    pointers  another system's verb -> what to use in this one instead
    example_hint  what `init --example` suggests doing next in this game's example campaign (None: nothing)
    """

    __slots__ = ("name", "title", "summary", "package", "verbs", "hooks", "rules_file", "example", "counters",
                 "pointers", "example_hint", "folders")

    def __init__(self, name: str, title: str, summary: str, package: str, verbs: Mapping[str, tuple[str, str]],
                 hooks: Mapping[str, str], rules_file: str = "rules.yaml", example: str | None = "example",
                 counters: tuple[str, ...] = (), pointers: Mapping[str, str] | None = None,
                 example_hint: str | None = None, folders: tuple[str, ...] = ()):
        values = dict(name=name, title=title, summary=summary, package=package, verbs=dict(verbs),
                      hooks=dict(hooks), rules_file=rules_file, example=example, counters=tuple(counters),
                      pointers=dict(pointers or {}), example_hint=example_hint, folders=tuple(folders))
        for key, value in values.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, key, value):
        raise AttributeError(f"System is frozen: cannot set {key}")

    def __repr__(self):
        return f"System({self.name!r}, package={self.package!r})"

    # -- the pieces, imported on demand -------------------------------------------------
    def hook(self, name: str) -> Any:
        """The object a hook names, imported now; None when the system does not provide it."""
        target = self.hooks.get(name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        loaded = importlib.import_module(module)
        return getattr(loaded, attr) if attr else loaded

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

    def verify_log(self, entries: list, rules) -> str | None:
        return self.require("verify_log")(entries, rules)

    def beats(self, total, target) -> bool:
        return self.require("beats")(total, target)

    def parse_faces(self, text: str | None, option: str = "--faces"):
        return self.require("parse_faces")(text, option)

    def chance(self, entry_check: dict, rules) -> Fraction:
        return self.require("chance")(entry_check, rules)

    def formatter(self, kind: str) -> Callable[[dict], str] | None:
        module = self.hook("render")
        if module is None:
            return None
        return getattr(module, "FORMATTERS", {}).get(kind) or getattr(module, kind, None)
