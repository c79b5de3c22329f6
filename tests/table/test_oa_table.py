"""At the table in Open Adventure: log rows and report in its words, completion of attributes and
specializations, the outcome line first."""

from __future__ import annotations

import pytest

from tests.conftest import ok, run
from tests.table.test_complete_shell_report import completions


@pytest.fixture
def oa(tmp_path):
    root = tmp_path / "oa"
    assert run(None, "init", str(root), "--system", "open-adventure", "--example").code == 0
    ok(root, "encounter", "new", "hall", "bloodwind", "warheart", "goblin", "orc", "--reaction", "bloodwind=9",
       "--reaction", "warheart=5")
    ok(root, "turn", "start")
    return root


def test_roll_outcome_first_coloured_and_logged_in_words(oa):
    r = run(oa, "--color", "always", "roll", "bloodwind", "strength", "--mo", "--specialization", "axes",
            "--vs", "goblin:body", "--stunt", "--targets", "3", "--faces", "4,7")
    assert r.out.splitlines()[0] == "\x1b[32m\x1b[1mSuccess\x1b[0m"
    ok(oa, "points", "goblin", "challenge", "-3")
    rows = run(oa, "encounter", "log").out.splitlines()[2:]
    assert "faces 4,7 = 11; Success" in rows[2] and "challenge points 6 -> 3" in rows[3]
    md = run(oa, "report").out
    row = next(line for line in md.splitlines() if line.startswith("| 3 |"))
    assert "| 4 7 |" in row and row.rstrip().endswith("| Success |")


def test_completion_of_attributes_specializations_and_ds(oa):
    assert "strength" in completions(oa, "narateer roll bloodwind ")
    assert completions(oa, "narateer roll bloodwind strength --specialization ax") == ["axes"]
    assert "moderate" in completions(oa, "narateer roll bloodwind strength --ds ")
