"""Secret rolls in d20-cards (P-SECRET-1, P-SECRET-3): an act logged as a commitment, unveiled, verified."""

from __future__ import annotations

import json

from tests.conftest import ok, run
from tests.systems.d20_cards.test_cli import d20  # noqa: F401 (the fixture)

HIDDEN = {"faces", "face", "total", "hit", "lands", "damage", "success", "outcome"}


def keys_anywhere(node) -> set:
    if isinstance(node, dict):
        return set(node) | set().union(*(keys_anywhere(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(set(), *(keys_anywhere(v) for v in node))
    return set()


def last_entry(root):
    lines = (root / "encounters" / "fight.log.yaml").read_text().splitlines()
    return json.loads(lines[-1][2:])


def test_a_secret_act_round_trip(d20):  # noqa: F811
    shown = ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "11", "--secret")
    assert shown["targets"][0]["attack"]["total"] == 15  # the Guide's screen
    entry = last_entry(d20)
    assert entry["commitment"] and not HIDDEN & keys_anywhere(entry["result"])
    assert "faces" not in entry["declaration"]
    data = ok(d20, "verify")
    assert data["ok"] is True and data["secret"] == [entry["id"]]
    ok(d20, "unveil", entry["id"])
    assert last_entry(d20)["result"]["targets"][0]["attack"]["face"] == 11
    data = ok(d20, "verify")
    assert data["ok"] is True and data["secret"] == []


def test_a_tampered_d20_unveil_fails_verify(d20):  # noqa: F811
    ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "11", "--secret")
    ok(d20, "unveil", "--all")
    path = d20 / "encounters" / "fight.log.yaml"
    path.write_text(path.read_text().replace('"face": 11', '"face": 12'))
    r = run(d20, "--json", "verify")
    assert r.code == 1 and "commitment" in r.json["problem"]


def test_an_unveiled_act_whose_faces_do_not_give_its_hit_fails_verify(d20):  # noqa: F811
    """The hash matches (the Guide committed to a false hit), but the rules give a miss."""
    from narateer_cli.store import secrets

    ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "2", "--secret")
    entry = last_entry(d20)
    record_path = d20 / ".narateer" / "secrets" / f"{entry['id']}.json"
    record = json.loads(record_path.read_text())
    lie = json.loads(json.dumps(record["result"]))
    lie["targets"][0]["attack"]["hit"] = True
    path = d20 / "encounters" / "fight.log.yaml"
    lines = path.read_text().splitlines(keepends=True)
    lines[-1] = "- " + json.dumps({**entry, "commitment": secrets.commitment(bytes.fromhex(record["salt"]), lie)}) + "\n"
    path.write_text("".join(lines))
    record_path.write_text(json.dumps({**record, "result": lie}))
    ok(d20, "unveil", entry["id"])
    r = run(d20, "--json", "verify")
    assert r.code == 1 and "hit/miss is wrong" in r.json["problem"]
