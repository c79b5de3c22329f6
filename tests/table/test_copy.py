"""T-COPY: `new ID --from OTHER [--count N]` through the command line."""

from __future__ import annotations

from tests.conftest import ok, refused, run, sheet_dice


def test_copy_has_fresh_dice_no_conditions_and_keeps_the_rest(camp):
    ok(camp, "wound", "selka", "1")
    ok(camp, "condition", "selka", "+slowed")
    r = ok(camp, "new", "scout", "--from", "selka")
    assert r["ids"] == ["scout"]
    text = (camp / "characters" / "scout.yaml").read_text()
    original = (camp / "characters" / "selka.yaml").read_text()
    assert sheet_dice(camp, "scout") == {"ready": 5, "used": 0, "wounded": 0}
    assert "conditions: []" in text and "name: Selka" in text
    assert text.splitlines()[0] == original.splitlines()[0]  # the comment line is kept
    assert "knife: {attack_cost: 1, damage: 2}" in text
    shown = ok(camp, "show", "scout")
    assert shown["conditions"] == [] and shown["dice"]["ready"] == 5


def test_count_makes_numbered_copies_and_one_log_entry(camp):
    r = ok(camp, "new", "bandit", "--from", "sentry", "--count", "3", "--name", "Bandit")
    assert r["ids"] == ["bandit-1", "bandit-2", "bandit-3"]
    for n in (1, 2, 3):
        assert ok(camp, "show", f"bandit-{n}")["name"] == f"Bandit {n}"
    ok(camp, "encounter", "new", "raid", "bandit-1", "bandit-2", "bandit-3", "selka")
    log = run(camp, "--json", "encounter", "log", "campaign").json["entries"]
    assert log[-1]["command"] == "new" and log[-1]["declaration"] == {"from": "sentry", "count": 3}
    r = run(camp, "undo", "campaign")
    assert r.code == 0 and not (camp / "characters" / "bandit-2.yaml").exists()


def test_copy_errors_write_nothing(camp):
    refused(camp, 2, "new", "x", "--count", "2", contains="--count needs --from")
    refused(camp, 2, "new", "x", "--from", "selkaa", contains="selka")
    refused(camp, 2, "new", "x", "--from", "selka", "--count", "0", contains="--count")
    refused(camp, 2, "new", "x", "--from", "selka", "--skill", "stealth=1", contains="--from")
    refused(camp, 2, "new", "sentry", "--from", "selka", contains="already exists")
    ok(camp, "new", "b", "--from", "selka", "--count", "2")
    refused(camp, 2, "new", "b", "--from", "selka", "--count", "2", contains="b-1.yaml already exists")
