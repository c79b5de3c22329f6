"""Secret rolls and luck in Open Adventure (P-SECRET-1, P-SECRET-3, P-LUCK-2), through the host."""

from __future__ import annotations

import json

from tests.cli.test_secret_rolls import keys_anywhere
from tests.conftest import ok, run

HIDDEN = {"faces", "faces_text", "total", "success", "outcome", "critical_failure", "shortfall", "effect"}


def last_entry(root, log="hall"):
    return json.loads((root / "encounters" / f"{log}.log.yaml").read_text().splitlines()[-1][2:])


def scene(oa):
    ok(oa, "encounter", "new", "hall", "bloodwind", "warheart", "goblin", "orc",
       "--reaction", "bloodwind=9", "--reaction", "warheart=5")
    ok(oa, "turn", "start")
    ok(oa, "turn", "end")
    ok(oa, "turn", "start")


def test_a_secret_roll_round_trip(oa):
    scene(oa)
    shown = ok(oa, "roll", "goblin", "spear", "--vs", "bloodwind:body", "--faces", "1,1", "--secret")
    entry = last_entry(oa)
    assert entry["commitment"] and not HIDDEN & keys_anywhere(entry["result"])
    assert shown["critical_failure"] is True  # the Guide's screen
    assert ok(oa, "verify")["secret"] == [entry["id"]]
    ok(oa, "unveil", entry["id"])
    assert last_entry(oa)["result"]["critical_failure"] is True
    data = ok(oa, "verify")
    assert data["ok"] is True and data["secret"] == []
    path = oa / "encounters" / "hall.log.yaml"
    path.write_text(path.read_text().replace('"shortfall": 5', '"shortfall": 4'))
    r = run(oa, "--json", "verify")
    assert r.code == 1 and "commitment" in r.json["problem"]


def test_stats_counts_open_adventure_checks(oa):
    scene(oa)
    ok(oa, "roll", "goblin", "spear", "--vs", "bloodwind:body", "--faces", "1,1")
    [row] = ok(oa, "stats")["actors"]
    assert row["actor"] == "goblin" and row["checks"] == 1 and row["successes"] == 0
