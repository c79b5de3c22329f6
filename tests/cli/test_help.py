"""Every command and subcommand has `--help` with an example."""

from __future__ import annotations

import pytest

from narateer_cli.systems import HOST_VERBS, load_system
from tests.conftest import run

COMMANDS = list(dict.fromkeys([*HOST_VERBS, *load_system("narateer").verbs]))
SUBCOMMANDS = [("encounter", "new"), ("encounter", "show"), ("encounter", "log"), ("encounter", "join"),
               ("turn", "start"), ("turn", "end")]
ALL = [(name,) for name in COMMANDS] + SUBCOMMANDS


@pytest.mark.parametrize("words", ALL, ids=" ".join)
def test_help_has_an_example(words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # help needs no campaign
    r = run(None, *words, "--help")
    assert r.code == 0, r.err
    assert r.err == ""
    assert "Example" in r.out
    assert f"narateer {' '.join(words)}" in r.out  # the usage line names the command


def test_top_level_help_lists_every_command(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(None, "--help")
    assert r.code == 0
    assert "Example" in r.out
    for name in COMMANDS:
        assert f"  {name} " in r.out


@pytest.mark.parametrize("group, subs", [("encounter", ["new", "show", "log", "join"]), ("turn", ["start", "end"])])
def test_group_help_lists_its_subcommands(group, subs, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(None, group, "--help")
    assert r.code == 0
    for sub in subs:
        assert f"  {sub} " in r.out
