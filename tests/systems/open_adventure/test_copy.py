"""T-COPY in Open Adventure: `new ID --from OTHER [--count N]` through the command line."""

from __future__ import annotations

from tests.conftest import ok, refused, run


def test_copy_refills_pools_to_their_maximum_and_drops_wounds_and_conditions(oa):
    path = oa / "characters" / "bloodwind.yaml"
    path.write_text(path.read_text().replace("points: {body: 12", "points_max: {body: 12, mind: 8, spirit: 9}\n"
                                             "points: {body: 12"))
    ok(oa, "points", "bloodwind", "body", "-5")
    ok(oa, "wound", "bloodwind", "1")
    ok(oa, "condition", "bloodwind", "+prone")
    r = ok(oa, "new", "twin", "--from", "bloodwind")
    assert r["ids"] == ["twin"]
    text = (oa / "characters" / "twin.yaml").read_text()
    assert "points: {body: 12, mind: 8, spirit: 9}" in text and "wounds: 0" in text and "conditions: []" in text
    assert text.splitlines()[0] == path.read_text().splitlines()[0]  # the comment line survives
    shown = ok(oa, "show", "twin")
    assert shown["name"] == "Bloodwind" and shown["wounds"] == 0
    assert "points: {body: 7" in path.read_text()  # the original is untouched


def test_count_makes_numbered_statblocks_logged_once_and_undone_together(oa):
    r = ok(oa, "new", "gob", "--from", "goblin", "--count", "3")
    assert r["ids"] == ["gob-1", "gob-2", "gob-3"]
    for n in (1, 2, 3):
        assert ok(oa, "show", f"gob-{n}")["name"] == f"Goblin {n}"
    log = run(oa, "--json", "encounter", "log", "campaign").json["entries"]
    assert log[-1]["command"] == "new" and log[-1]["declaration"] == {"from": "goblin", "count": 3}
    assert run(oa, "undo", "campaign").code == 0
    assert not (oa / "characters" / "gob-2.yaml").exists()


def test_copy_errors_write_nothing(oa):
    refused(oa, 2, "new", "x", "--count", "2", contains="--count needs --from")
    refused(oa, 2, "new", "x", "--from", "goblinn", contains="goblin")
    refused(oa, 2, "new", "x", "--from", "goblin", "--npc", contains="--from")
    refused(oa, 2, "new", "x", "--from", "goblin", "--reaction", "0",  # a Reaction Score of 0 is given too
            contains="the other sheet options do not go with it")
    refused(oa, 2, "new", "bloodwind", "--from", "goblin", contains="already exists")
