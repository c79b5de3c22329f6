"""T-ASK in d20-cards: `--faces ask` asks each d20 as it is rolled, on a terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.systems.d20_cards.conftest import fight
from tests.conftest import ok, refused
from tests.table.test_ask import on_terminal


@pytest.fixture
def d20(tmp_path) -> Path:
    return fight(tmp_path, "mira", "bandit")


def test_faces_ask_prompts_for_the_attack_d20_and_asks_again_off_the_die(d20):
    code, out = on_terminal(d20, ["act", "mira", "strike", "--target", "bandit",
                                  "--faces", "ask"],
                            [("attack d20", "21"), ("die 1 of 1", "15")])
    assert code == 0, out
    assert out.count("die 1 of 1") == 2  # 21 is off the d20: asked again
    entry = ok(d20, "encounter", "log")["entries"][-1]
    assert entry["command"] == "act" and "15" in str(entry["result"])
    assert ok(d20, "verify")["ok"] is True


def test_without_a_terminal_faces_ask_is_exit_2(d20):
    refused(d20, 2, "act", "mira", "strike", "--target", "bandit", "--faces", "ask", contains="terminal")
