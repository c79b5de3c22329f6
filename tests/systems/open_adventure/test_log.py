"""Open Adventure logs through the host's log lines (G-LOG-1, G-LOG-5), undo and verify read them, and
the merge driver adds point pools up (G-MERGE-1, G-MERGE-2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import json_error, ok, refused, run, snapshot

CAMPAIGN_LOG = "encounters/campaign.log.yaml"


def entries(camp: Path, rel: str) -> list[dict]:
    lines = (camp / rel).read_text().splitlines()
    assert all(line.startswith("- {") for line in lines)  # one JSON object per line (G-LOG-1)
    return [json.loads(line[2:]) for line in lines]


def test_every_sheet_change_outside_an_encounter_goes_to_the_campaign_log_G_LOG_5(oa):
    start = snapshot(oa)
    ok(oa, "roll", "amicus", "coordination", "--ds", "6", "--stunt", "--faces", "3")  # W-5: body 10 -> 7
    ok(oa, "points", "goblin", "challenge", "-3")
    ok(oa, "wound", "amicus")
    ok(oa, "heal", "amicus")
    ok(oa, "new", "kara", "--attribute", "strength=3", "--points", "body=9")
    log = entries(oa, CAMPAIGN_LOG)
    assert [e["command"] for e in log] == ["roll", "points", "wound", "heal", "new"]
    assert [e["seq"] for e in log] == [1, 2, 3, 4, 5]
    assert log[0]["parent"] is None and all(e["parent"] == p["id"] for p, e in zip(log, log[1:]))
    assert log[0]["dice"]["amicus"]["before"]["points.body"] == 10
    assert log[0]["dice"]["amicus"]["after"]["points.body"] == 7
    assert log[1]["dice"]["goblin"] == {"before": {"wounds": 0, "challenge_points": 6},
                                        "after": {"wounds": 0, "challenge_points": 3}}
    assert log[2]["dice"]["amicus"]["after"]["wounds"] == 1 and log[3]["dice"]["amicus"]["after"]["wounds"] == 0
    assert log[4]["dice"] == {"kara": {"before": {}, "after": {"points.body": 9, "wounds": 0}}}
    v = ok(oa, "verify", "campaign")
    assert v["ok"] and v["entries"] == 5 and v["encounter"] == "campaign"
    for _ in range(5):
        ok(oa, "undo")
    back = snapshot(oa)
    assert {k: v for k, v in back.items() if k != CAMPAIGN_LOG} == start
    assert [e["command"] for e in entries(oa, CAMPAIGN_LOG)][5:] == ["undo"] * 5
    assert ok(oa, "verify")["ok"]


def test_a_check_that_changes_no_sheet_is_still_logged_so_stats_counts_it_T2_OA(oa):
    before = snapshot(oa)
    ok(oa, "roll", "laria", "intellect", "--ds", "6", "--faces", "5")  # W-3: no Stunt, no sheet to write
    ok(oa, "resolve", "laria", "--intent", "read the runes", "--check", "intellect", "--ds", "6", "--faces", "2")
    after = snapshot(oa)
    assert {k: v for k, v in after.items() if k != CAMPAIGN_LOG} == before  # only the log grew
    assert [(e["command"], e["actor"]) for e in entries(oa, CAMPAIGN_LOG)] == [("roll", "laria"), ("resolve", "laria")]
    [row] = ok(oa, "stats")["actors"]
    assert row["actor"] == "laria" and row["checks"] == 2
    assert ok(oa, "verify", "campaign")["ok"]
    assert run(oa, "undo").out.rstrip().endswith("; no file to restore")
    before_dry = snapshot(oa)
    ok(oa, "roll", "laria", "intellect", "--ds", "6", "--faces", "5", "--dry-run")  # a dry run is no check
    assert snapshot(oa) == before_dry


def test_in_an_encounter_the_encounter_log_holds_the_stunt_and_verify_checks_continuity(oa):
    ok(oa, "encounter", "new", "hall", "amicus", "goblin", "--reaction", "amicus=9")
    ok(oa, "turn", "start")
    ok(oa, "roll", "amicus", "coordination", "--ds", "6", "--stunt", "--faces", "3")  # body 10 -> 7
    ok(oa, "turn", "end")
    ok(oa, "points", "amicus", "body", "-2")  # in the encounter: its log, 7 -> 5
    assert not (oa / CAMPAIGN_LOG).exists()
    rel = "encounters/hall.log.yaml"
    log = entries(oa, rel)
    assert [e["command"] for e in log] == ["encounter new", "turn start", "roll", "turn end", "points"]
    assert log[-1]["dice"]["amicus"]["before"]["points.body"] == 7
    assert ok(oa, "verify")["ok"]
    # a hand edit that breaks the pool's continuity is caught (G-LOG-2)
    text = (oa / rel).read_text()
    lines = text.splitlines(keepends=True)
    lines[-1] = lines[-1].replace('"before": {"points.body": 7', '"before": {"points.body": 8')
    (oa / rel).write_text("".join(lines))
    r = run(oa, "--json", "verify")
    assert r.code == 1 and "do not continue" in r.json["problem"]


def test_undo_refuses_once_the_entry_is_no_longer_the_tip_G_MERGE_4(oa):
    ok(oa, "points", "amicus", "body", "-1")
    rel = oa / CAMPAIGN_LOG
    first = json.loads(rel.read_text().splitlines()[0][2:])  # another clone's entry, pulled after ours
    rel.write_text(rel.read_text() + '- {"seq": 2, "id": "feedfacecafe", "parent": "%s", "at": "%s", '
                   '"command": "note", "actor": null}\n' % (first["id"], first["at"]))
    r = run(oa, "--json", "undo")
    assert r.code == 3 and json_error(r, 3)["rule"] == "G-MERGE-4" and "G-MERGE-4" not in r.err


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_two_clones_each_losing_points_keep_both_losses_G_MERGE_1(oa, tmp_path):
    from tests.store.test_git_trust import git, repo

    repo(oa)
    ok(oa, "git-setup")
    git(oa, "add", "-A")
    git(oa, "commit", "-qm", "setup", "--allow-empty")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(oa), str(other))
    ok(other, "git-setup")
    ok(oa, "roll", "amicus", "coordination", "--ds", "6", "--stunt", "--faces", "3")  # body 10 -> 7
    git(oa, "add", "-A")
    git(oa, "commit", "-qm", "lantern")
    ok(other, "points", "amicus", "body", "-2")  # body 10 -> 8
    git(other, "add", "-A")
    git(other, "commit", "-qm", "bruise")
    git(oa, "pull", "-q", "--no-rebase", str(other), "main")
    assert ok(oa, "show", "amicus")["points"]["body"] == 5  # 10 - 3 - 2
    assert run(oa, "check").code == 0 and ok(oa, "verify", "campaign")["ok"]
    ok(oa, "wound", "amicus")  # the next writer joins the branches with a merge entry (G-MERGE-2)
    log = entries(oa, CAMPAIGN_LOG)
    assert log[-2]["command"] == "merge" and log[-2]["dice"]["amicus"]["after"]["points.body"] == 5
    assert ok(oa, "verify", "campaign")["ok"]


def test_the_campaign_log_id_is_reserved_G_LOG_5(oa):
    refused(oa, 2, "encounter", "new", "campaign", "amicus", "goblin", contains="reserved for the campaign log")
