"""K-4: every result kind a game can name has its text formatter, spelt one way, looked up in one table.

A game's results are put in words by its own `formatters` alone and the host's by the host's own table
(`render.HostKind`), so no kind needs a prefix. This walks the source of every built-in game, both example
games and the coin toy for each kind their commands can produce (an `Outcome(kind=...)`, an `.replace(kind=...)`,
a `Show(kind, ...)`, an `emit(app, kind, ...)`, or a helper of the game that hands one of its parameters on
to those), and checks that each is a snake_case name its formatters give words to.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from narateer_cli import systems
from narateer_cli.render import FORMATTERS, WITH_SYSTEM, HostKind
from narateer_cli.systems.base import formatters_problem, is_kind
from tests.conftest import REPO

GAMES = {"narateer": REPO / "narateer_cli/systems/narateer",
         "d20-cards": REPO / "narateer_cli/systems/d20_cards",
         "open-adventure": REPO / "narateer_cli/systems/open_adventure",
         "moves": REPO / "examples/narateer-moves/narateer_moves",
         "pool": REPO / "examples/narateer-pool/narateer_pool",
         "coin": REPO / "tests/systems/toy/coin_system"}
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _callee(call: ast.Call) -> str | None:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None


def _positional(fn) -> list[str]:
    return [a.arg for a in fn.args.posonlyargs + fn.args.args]


def _defaults(fn) -> dict:
    a, pos = fn.args, fn.args.posonlyargs + fn.args.args
    found = dict(zip([p.arg for p in pos][len(pos) - len(a.defaults):], a.defaults))
    found.update({k.arg: d for k, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
    return found


class Kinds:
    """The kinds a game's source can produce: {kind: [file:line, ...]}, and the places where a kind is made
    by anything but a name spelt out (`loose`)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.trees = {p: ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in sorted(folder.rglob("*.py"))}
        self.passes: dict[str, tuple[str, int | None]] = {}  # helper -> (parameter it hands on as a kind, its place)
        self.kinds: dict[str, list[str]] = {}
        self.loose: list[str] = []
        self._helpers()
        for path, tree in self.trees.items():
            self._visit(tree, None, path)

    def given(self, call: ast.Call) -> list:
        """The expressions a call passes as a result kind."""
        name, found = _callee(call), []
        if name in ("Outcome", "replace"):
            found += [k.value for k in call.keywords if k.arg == "kind"]
        if name == "Show" and call.args:
            found.append(call.args[0])
        if name == "emit" and len(call.args) > 1:
            found.append(call.args[1])
        if name in self.passes:
            param, place = self.passes[name]
            found += [k.value for k in call.keywords if k.arg == param]
            if place is not None and len(call.args) > place:
                found.append(call.args[place])
        return found

    def _helpers(self):
        defs = [n for tree in self.trees.values() for n in ast.walk(tree)
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        grew = True
        while grew:
            grew = False
            for fn in (f for f in defs if f.name not in self.passes):
                params = _positional(fn) + [a.arg for a in fn.args.kwonlyargs]
                handed = {e.id for call in ast.walk(fn) if isinstance(call, ast.Call) for e in self.given(call)
                          if isinstance(e, ast.Name) and e.id in params}
                if handed:
                    param = sorted(handed)[0]
                    place = _positional(fn).index(param) if param in _positional(fn) else None
                    self.passes[fn.name], grew = (param, place), True

    def _visit(self, node, fn, path: Path):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call):
                for expr in self.given(child):
                    where = f"{path.relative_to(self.folder)}:{child.lineno}"
                    for kind in self._resolve(expr, fn, where):
                        self.kinds.setdefault(kind, []).append(where)
            self._visit(child, child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else fn, path)

    def _resolve(self, expr, fn, where: str) -> set:
        if isinstance(expr, ast.Constant) and expr.value is None:
            return set()  # an outcome rendered by nothing
        if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
            return {expr.value}
        if isinstance(expr, ast.IfExp):
            return self._resolve(expr.body, fn, where) | self._resolve(expr.orelse, fn, where)
        if isinstance(expr, ast.Name) and fn is not None:
            if self.passes.get(fn.name, ("",))[0] == expr.id:  # a helper's parameter: its callers name the kind
                default = _defaults(fn).get(expr.id)
                return set() if default is None else self._resolve(default, fn, where)
            assigned = [n.value for n in ast.walk(fn) if isinstance(n, ast.Assign)
                        and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)]
            if assigned:
                return set().union(*(self._resolve(value, fn, where) for value in assigned))
        self.loose.append(f"{where}: {ast.unparse(expr)}")
        return set()


def formatters_of(name: str, monkeypatch) -> dict:
    folder = GAMES[name]
    if name in systems.BUILTIN:
        return dict(systems.load_system(name).formatters())
    monkeypatch.syspath_prepend(str(folder.parent))
    importlib.invalidate_caches()
    return dict(importlib.import_module(f"{folder.name}.game").GAME.formatters)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_K_4_every_kind_a_game_can_produce_has_its_formatter(name, monkeypatch):
    found = Kinds(GAMES[name])
    table = formatters_of(name, monkeypatch)
    assert formatters_problem(table) is None
    assert found.loose == [], "a kind made by anything but a name spelt out where it is made"
    assert found.kinds, "the walk found no kind at all"
    missing = {kind: places for kind, places in found.kinds.items() if kind not in table}
    assert missing == {}, f"kinds {name} produces with no formatter"
    assert all(is_kind(kind) for kind in found.kinds)
    unused = set(table) - set(found.kinds)
    assert unused == set(), f"formatters of {name} for kinds nothing produces"


def test_K_4_the_walk_follows_a_helper_that_hands_a_kind_on(tmp_path):
    (tmp_path / "commands.py").write_text(
        "def told(s, verb, n=1, kind='tally'):\n"
        "    return Outcome(verb, None, {}, {}, kind=kind)\n\n"
        "def moved(s, verb):\n"
        "    return told(s, verb, kind=verb)\n\n"
        "def a(s):\n    return moved(s, 'wound') if s else told(s, 'x')\n\n"
        "def b(app, tier):\n    kind = 'dr_ladder' if tier is None else 'dr'\n    emit(app, kind, {})\n\n"
        "def c(s):\n    return Show('oa-' + 'check', {})\n")
    found = Kinds(tmp_path)
    assert set(found.kinds) == {"tally", "wound", "dr_ladder", "dr"}
    assert found.loose == ["commands.py:15: 'oa-' + 'check'"]


def test_K_4_every_host_kind_has_the_host_formatter_and_only_the_host_names_them():
    assert set(FORMATTERS) | set(WITH_SYSTEM) == set(HostKind)
    assert all(is_kind(kind.value) and kind.name == kind.value for kind in HostKind)
    games = {(REPO / "narateer_cli" / "systems" / name) for name in ("narateer", "d20_cards", "open_adventure")}
    host = [p for p in (REPO / "narateer_cli").rglob("*.py") if not games & set(p.parents)]
    spelt = [f"{p.relative_to(REPO)}: {m.group(0)}" for p in host
             for m in re.finditer(r"\b(?:emit\(app, |Show\(|out\(|headline\()\"[a-z_-]+\"", p.read_text())]
    assert spelt == [], "the host names its own kinds as HostKind, never as text a game's kind could be"


@pytest.mark.parametrize("table, part", [({"oa-check": str}, "'oa-check'"), ({"turn start": str}, "'turn start'"),
                                         ({"Roll": str}, "'Roll'"), ({"roll": "text"}, "str"), ([], "list")])
def test_K_4_a_formatters_table_spelt_otherwise_is_named(table, part):
    problem = formatters_problem(table)
    assert problem is not None and part in problem
