"""At the table in the d20 action cards system: log rows, report, completion, copies, colour, aliases."""

from __future__ import annotations

import pytest

from tests.conftest import ok, run
from tests.table.test_complete_shell_report import completions


@pytest.fixture
def d20(tmp_path):
    root = tmp_path / "d20"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    return root


def play_encounter(camp):
    ok(camp, "encounter", "new", "fight", "mira", "bandit")
    ok(camp, "turn", "start", "mira")
    ok(camp, "act", "mira", "strike", "--target", "bandit", "--faces", "11")
    ok(camp, "damage", "bandit", "3")
    ok(camp, "condition", "bandit", "+prone")


def test_log_rows_are_in_words(d20):
    play_encounter(d20)
    rows = run(d20, "encounter", "log").out.splitlines()[2:]
    assert len(rows) == 5
    assert "mira performs Strike" in rows[2] and "hit" in rows[2]
    assert "bandit: 3 damage" in rows[3] and "+prone" in rows[4]
    by = run(d20, "encounter", "log", "--actor", "bandit", "--last", "1").out.splitlines()[2:]
    assert len(by) == 1 and "+prone" in by[0]


def test_report_markdown(d20):
    play_encounter(d20)
    md = run(d20, "report").out
    assert "## Encounter fight" in md and "### Round 1" in md and "mira performs Strike" in md


def test_completion_of_cards_targets_and_conditions(d20):
    assert "act" in completions(d20, "narateer ac")
    cards = completions(d20, "narateer act mira ")
    assert "strike" in cards
    assert "bandit" in completions(d20, "narateer act mira strike --target ")
    assert "+hidden" in completions(d20, "narateer condition bandit +")


def test_copies_start_fresh(d20):
    play_encounter(d20)
    r = ok(d20, "new", "thug", "--from", "bandit", "--count", "2")
    assert r["ids"] == ["thug-1", "thug-2"]
    text = (d20 / "characters" / "thug-2.yaml").read_text()
    assert "name: Bandit 2" in text and "conditions: []" in text and "current: 20, max: 20" in text


def test_aliases_and_seed_line(d20):
    config = d20 / "narateer.yaml"
    config.write_text(config.read_text() + "aliases:\n  d: dice $1\n")
    r = run(d20, "--seed", "5", "d", "d20")
    assert r.code == 0 and r.out.rstrip().endswith("(seeded 5)")


def test_outcome_line_first_and_coloured(d20):
    ok(d20, "encounter", "new", "fight", "mira", "bandit")
    ok(d20, "turn", "start", "mira")
    r = run(d20, "--color", "always", "act", "mira", "strike", "--target", "bandit", "--faces", "11")
    first = r.out.splitlines()[0]
    assert first == "\x1b[32m\x1b[1mStrike lands on bandit\x1b[0m", first
    assert "\x1b[" not in run(d20, "--json", "--color", "always", "encounter", "log").out
