"""`condition CHAR -NAME` removes NAME in every system: a signed word is an argument, never a bundle of
short flags (`-hidden` was read as `-h` and printed help, exit 0, nothing changed)."""

from __future__ import annotations

import pytest

from tests.conftest import ok, run


@pytest.mark.parametrize("system, char, name", [
    ("narateer", "selka", "slowed"),
    ("open-adventure", "amicus", "hurt"),
    ("d20-cards", "bandit", "hidden"),
])
def test_a_minus_word_removes_the_condition(tmp_path, system, char, name):
    root = tmp_path / "c"
    assert run(None, "init", str(root), "--system", system, "--example").code == 0
    sheet = root / "characters" / f"{char}.yaml"
    ok(root, "condition", char, f"+{name}")
    assert name in sheet.read_text()
    r = run(root, "--json", "condition", char, f"-{name}")
    assert r.code == 0 and "Usage:" not in r.out, r.out
    assert name not in sheet.read_text()


def test_help_and_options_still_work_beside_signed_words(tmp_path):
    root = tmp_path / "c"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    assert run(root, "condition", "bandit", "-h").out.startswith("Usage: narateer condition")
    ok(root, "encounter", "new", "brawl", "mira", "bandit")
    data = ok(root, "condition", "bandit", "+nullified:1", "-hidden", "--rounds", "2")
    assert data["conditions_added"] == ["nullified:1"]
