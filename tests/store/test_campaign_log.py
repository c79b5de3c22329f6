"""The campaign log (G-LOG-5) and `encounter end`: every change to a sheet is logged somewhere,
so it can be verified and undone."""

from __future__ import annotations

from tests.conftest import ok, refused, run, sheet_dice

CAMPAIGN_LOG = "encounters/campaign.log.yaml"


def test_a_change_outside_an_encounter_is_logged_and_undone(camp):
    ok(camp, "wound", "selka")
    assert [e["command"] for e in ok(camp, "encounter", "log", "campaign")["entries"]] == ["wound"]
    data = ok(camp, "verify", "campaign")
    assert data == {"encounter": "campaign", "entries": 1, "ok": True, "problem": None, "secret": [], "lost": []}
    assert ok(camp, "verify")["encounter"] == "campaign"  # no current encounter: the campaign log
    ok(camp, "undo")
    assert sheet_dice(camp, "selka").get("wounded", 0) == 0
    assert ok(camp, "verify", "campaign")["entries"] == 2
    refused(camp, 3, "undo", "campaign",
            contains="nothing to undo in encounter campaign")  # the undo entry itself is not undone


def test_new_and_readiness_write_are_logged(camp):
    ok(camp, "new", "zed", "--dice", "4", "--vital", "agility=3", "--skill", "stealth=2")
    ok(camp, "readiness", "zed", "--write")
    text = (camp / CAMPAIGN_LOG).read_text()
    assert '"command": "new"' in text and '"command": "readiness"' in text
    ok(camp, "undo", "campaign")
    ok(camp, "undo", "campaign")
    assert not (camp / "characters" / "zed.yaml").exists()


def test_encounter_end_sends_later_changes_to_the_campaign_log(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "encounter", "end")
    assert "encounter:" not in (encounter_camp / "narateer.yaml").read_text()
    log = (encounter_camp / "encounters" / "ambush.log.yaml").read_text()
    assert '"command": "encounter end"' in log
    ok(encounter_camp, "wound", "selka")
    assert '"command": "wound"' in (encounter_camp / CAMPAIGN_LOG).read_text()
    assert '"command": "wound"' not in (encounter_camp / "encounters" / "ambush.log.yaml").read_text()
    assert run(encounter_camp, "check").code == 0
    # undo in the encounter's log reopens it
    ok(encounter_camp, "undo", "ambush")
    assert "encounter: ambush" in (encounter_camp / "narateer.yaml").read_text()


def test_the_campaign_id_is_reserved(camp):
    refused(camp, 2, "encounter", "new", "campaign", "selka", contains="reserved")
