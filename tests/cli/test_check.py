"""`narateer check` lists every problem as file:line: message, with the line of the key at fault."""

from __future__ import annotations

from tests.conftest import run


def test_check_names_the_line_of_a_bad_override(camp):
    (camp / "narateer.yaml").write_text("autocommit: false\nrules:\n  faces: [0, 1, 2]\n  disadvantage: everything\n")
    r = run(camp, "check")
    assert r.code == 1
    assert r.out.startswith("narateer.yaml:4: rules.disadvantage")


def test_check_lists_every_problem_with_its_line(camp):
    state = camp / "encounters" / "ambush.yaml"
    state.write_text(state.read_text().replace("round: 1", "round: one"))
    sheet = camp / "characters" / "kai.yaml"
    sheet.write_text(sheet.read_text().replace("stealth: 2", "stealth: two"))
    r = run(camp, "--json", "check")
    assert r.code == 1
    problems = r.json["problems"]
    assert "characters/kai.yaml:4: skill stealth must be a whole number, not 'two'; write a number there" in problems
    assert any(p.startswith("encounters/ambush.yaml:3: round") for p in problems)
    assert len(problems) == 2


def test_check_passes_the_example_campaign(camp):
    r = run(camp, "check")
    assert (r.code, r.out.strip()) == (0, "campaign ok")
