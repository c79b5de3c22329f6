"""Every d20-cards command and subcommand has `--help` with an example, inside a d20-cards campaign."""

from __future__ import annotations

import pytest

from narateer_cli.systems.d20_cards import SYSTEM
from tests.conftest import run

SUBS = [("card", "show"), ("card", "list"), ("encounter", "new"), ("encounter", "show"), ("encounter", "log"),
        ("encounter", "join"), ("turn", "start"), ("turn", "end")]
ALL = [(verb,) for verb in SYSTEM.verbs] + SUBS


@pytest.fixture(scope="module")
def camp(tmp_path_factory):
    root = tmp_path_factory.mktemp("help") / "c"
    assert run(None, "init", str(root), "--system", "d20-cards").code == 0
    return root


@pytest.mark.parametrize("words", ALL, ids=" ".join)
def test_help_has_an_example(camp, words):
    r = run(camp, *words, "--help")
    assert r.code == 0 and r.err == ""
    assert "Example" in r.out and f"narateer {' '.join(words)}" in r.out


def test_top_level_help_groups_d20_verbs(camp):
    r = run(camp, "--help")
    assert "d20 action cards commands (system: d20-cards):" in r.out
    assert "  act " in r.out.split("d20 action cards commands")[1]
