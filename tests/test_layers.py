"""The house plan as tools hold it: import-linter's contracts in pyproject.toml, and mypy over the kit
and the games.

A game imports `narateer_cli.kit` and its own package; no game imports another; the host imports no game;
storage knows no command line and no rendering; rendering reads no storage.
"""

from __future__ import annotations

import pkgutil
import sys
import tomllib

import narateer_cli
from tests.conftest import REPO

CONTRACTS = {c["name"]: c for c in tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]}
PRIVATE = "Games import only the kit of the host"


def host_modules() -> set[str]:
    """Every top-level module of the host and every part of its `systems` package that is no game."""
    top = {f"narateer_cli.{m.name}" for m in pkgutil.iter_modules(narateer_cli.__path__)}
    systems = {f"narateer_cli.systems.{m.name}" for m in pkgutil.iter_modules(narateer_cli.systems.__path__)
               if not m.ispkg}
    return (top - {"narateer_cli.systems", "narateer_cli.kit", "narateer_cli.__main__"}) | systems


def test_K_1_the_import_contracts_hold(monkeypatch, capsys):
    from importlinter.cli import lint_imports

    monkeypatch.syspath_prepend(str(REPO / "examples" / "narateer-moves"))
    monkeypatch.syspath_prepend(str(REPO / "examples" / "narateer-pool"))
    monkeypatch.syspath_prepend(str(REPO / "examples" / "narateer-forge"))
    monkeypatch.chdir(REPO)
    code = lint_imports(no_cache=True)
    out = capsys.readouterr().out
    assert code == 0, out[out.find("Broken contracts"):] or out
    assert out.count(" KEPT") == len(CONTRACTS)


def test_K_1_every_host_module_but_the_kit_is_private_to_the_host():
    """A module added to the host is private at once: the contract must name it (and the host's 'names no
    game' contract must cover it)."""
    import narateer_cli.systems  # noqa: F401  (for its __path__)

    private = set(CONTRACTS[PRIVATE]["forbidden_modules"])
    assert private == host_modules(), (sorted(host_modules() - private), sorted(private - host_modules()))
    assert set(CONTRACTS["The host names no game"]["source_modules"]) == host_modules() | {"narateer_cli.kit"}


def test_K_1_the_kit_lists_for_type_checkers_what_it_loads_later():
    """`kit._LATER` (what a game may read, loaded on first use) and the `TYPE_CHECKING` imports that let mypy
    see the same names are one list written twice: they must agree."""
    import ast

    from narateer_cli import kit

    tree = ast.parse((REPO / "narateer_cli" / "kit.py").read_text())
    block = next(n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING")
    typed = {a.asname or a.name for n in block.body if isinstance(n, ast.ImportFrom) for a in n.names}
    assert typed == set(kit._LATER)
    for name in kit._LATER:  # each resolves
        assert getattr(kit, name) is not None, name
    assert not [n for n in kit.__all__ if n not in vars(kit) and n not in kit._LATER]


def test_K_1_mypy_holds_the_kit_and_the_games(monkeypatch):
    """mypy over the files `[tool.mypy]` names (the kit, the games, records and outcomes), as `mypy` run at the
    repository root: its incremental cache there (`.mypy_cache`, kept between runs) makes a run after a small
    change a few seconds."""
    from mypy import api

    monkeypatch.chdir(REPO)
    out, err, status = api.run([])
    assert status == 0, out + err


def test_K_1_a_name_the_kit_does_not_hold_is_an_error_naming_the_docs():
    from narateer_cli import kit

    try:
        kit.txn  # the transaction is the host's
    except AttributeError as exc:
        assert "docs/write-a-game.md" in str(exc)
    else:
        raise AssertionError("kit.txn resolved")
    assert sys.modules["narateer_cli.kit"] is kit
