"""Secret rolls (P-SECRET-1..3): commitments in the log, the roll in private, unveil and verify."""

from __future__ import annotations

import hashlib
import json
import os
import stat

from tests.conftest import ok, refused, reseal_secret, run, sheet_dice, snapshot

PRIVATE = {"faces", "rerolled", "final_faces", "total", "margin", "success", "outcome"}


def log_entries(camp, log="campaign"):
    path = camp / "encounters" / f"{log}.log.yaml"
    return [json.loads(line[2:]) for line in path.read_text().splitlines() if line.startswith("- {")]


def keys_anywhere(node) -> set:
    if isinstance(node, dict):
        return set(node) | set().union(*(keys_anywhere(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(set(), *(keys_anywhere(v) for v in node))
    return set()


def recorded(camp):
    from ruamel.yaml import YAML

    state = YAML(typ="safe").load((camp / "encounters" / "ambush.yaml").read_text())
    return state["recorded"], state["hidden"]


def secret_roll(camp):
    """Selka's Stealth check vs DR 3 with faces Crit, Hit (total 3, a tie: failure), kept secret."""
    shown = ok(camp, "roll", "selka", "stealth", "--dr", "3", "--boost", "1", "--faces", "2,1", "--secret")
    return shown, log_entries(camp)[-1]


def test_the_guide_sees_the_roll_and_the_log_holds_only_a_commitment(camp):
    shown, entry = secret_roll(camp)
    assert shown["total"] == 3 and shown["faces"] == [2, 1] and shown["success"] is False  # the Guide's screen
    assert not PRIVATE & keys_anywhere(entry["result"]) and "reroll_faces" not in entry["result"]
    assert entry["result"]["dice_before"] == {"ready": 5, "used": 0}
    assert entry["result"]["dice_after"] == {"ready": 3, "used": 2}
    assert entry["actor"] == "selka" and entry["declaration"]["boost"] == 1
    assert len(entry["commitment"]) == 64
    # the dice the table sees still move
    assert sheet_dice(camp, "selka") == {"ready": 3, "used": 2}
    record_path = camp / ".narateer" / "secrets" / f"{entry['id']}.json"
    assert stat.S_IMODE(os.stat(record_path).st_mode) == 0o600
    record = json.loads(record_path.read_text())
    canonical = json.dumps(record["result"], sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    assert hashlib.sha256(bytes.fromhex(record["salt"]) + canonical).hexdigest() == entry["commitment"]
    data = ok(camp, "verify", "campaign")
    assert data["ok"] is True and data["secret"] == [entry["id"]] and data["lost"] == []


def test_unveil_round_trip_and_verify(camp):
    _, entry = secret_roll(camp)
    out = ok(camp, "unveil", entry["id"])
    assert [u["entry"] for u in out["unveiled"]] == [entry["id"]]
    unveil = log_entries(camp)[-1]
    assert unveil["unveils"] == entry["id"] and len(unveil["salt"]) == 32
    assert unveil["result"]["total"] == 3 and unveil["result"]["final_faces"] == [2, 1]
    data = ok(camp, "verify", "campaign")
    assert data["ok"] is True and data["secret"] == []
    refused(camp, 3, "unveil", entry["id"], contains="already unveiled")


def test_a_tampered_unveil_fails_verify(camp):
    _, entry = secret_roll(camp)
    ok(camp, "unveil", entry["id"])
    path = camp / "encounters" / "campaign.log.yaml"
    text = path.read_text()
    path.write_text(text.replace('"total": 3', '"total": 4'))
    r = run(camp, "--json", "verify", "campaign")
    assert r.code == 1 and "do not hash to the commitment" in r.json["problem"]


def test_an_unveil_whose_faces_do_not_give_its_total_fails_verify(camp):
    """The hash matches (the roller committed to a false total), but the rules give another total."""
    from narateer_cli.store import secrets

    _, entry = secret_roll(camp)
    record_path = camp / ".narateer" / "secrets" / f"{entry['id']}.json"
    record = json.loads(record_path.read_text())
    lie = {**record["result"], "total": 4, "success": True}
    salt = bytes.fromhex(record["salt"])
    path = camp / "encounters" / "campaign.log.yaml"
    lines = path.read_text().splitlines(keepends=True)
    forged = json.loads(lines[-1][2:])
    forged["commitment"] = secrets.commitment(salt, lie)
    lines[-1] = "- " + json.dumps(forged) + "\n"
    path.write_text("".join(lines))
    reseal_secret(camp, record_path, {**record, "result": lie, "commitment": forged["commitment"]})
    ok(camp, "unveil", entry["id"])
    r = run(camp, "--json", "verify", "campaign")
    assert r.code == 1 and "total 4 does not follow" in r.json["problem"]


def test_a_lost_secret_is_reported_and_not_an_error(camp):
    _, entry = secret_roll(camp)
    (camp / ".narateer" / "secrets" / f"{entry['id']}.json").unlink()
    data = ok(camp, "verify", "campaign")
    assert data["ok"] is True and data["secret"] == [entry["id"]] and data["lost"] == [entry["id"]]
    refused(camp, 3, "unveil", entry["id"], contains="lost")
    out = ok(camp, "unveil", "--all")
    assert out == {"unveiled": [], "lost": [entry["id"]]}


def test_unknown_id_and_bad_usage(camp):
    secret_roll(camp)
    refused(camp, 2, "unveil", "0123456789ab", contains="no log entry")
    refused(camp, 2, "unveil", contains="give one ENTRY_ID or --all")
    refused(camp, 2, "condition", "selka", "+slowed", "--secret", contains="rolls nothing")


def test_unveil_all(camp):
    secret_roll(camp)
    ok(camp, "roll", "selka", "stealth", "--dr", "1", "--faces", "1", "--secret")
    out = ok(camp, "unveil", "--all")
    assert len(out["unveiled"]) == 2
    entries = log_entries(camp)  # G-LOG-1: the two unveils chain, they do not fork the log
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
    assert [e["parent"] for e in entries[1:]] == [e["id"] for e in entries[:-1]]
    assert ok(camp, "verify", "campaign")["secret"] == []


def test_undo_after_an_unveil_says_a_published_result_stays(camp):
    _, entry = secret_roll(camp)
    unveil = ok(camp, "unveil", entry["id"])["unveiled"][0]["unveil"]
    err = refused(camp, 3, "undo", "campaign", contains=f"the last entry ({unveil}) publishes secret roll {entry['id']}",
                  rule="H-4")
    assert "checkout" not in err and "P-SECRET-3" not in err


def test_every_random_dr_is_secret(camp):
    shown = ok(camp, "dr", "hard", "--random", "--faces", "1,2,0")
    entry = log_entries(camp)[-1]
    assert shown["dr"] == 11 and "dr" not in entry["result"] and "faces" not in entry["result"]
    ok(camp, "unveil", entry["id"])
    assert log_entries(camp)[-1]["result"]["dr"] == 11
    assert ok(camp, "verify", "campaign")["ok"] is True


def test_an_unveiled_random_dr_is_recomputed_from_its_faces(camp):
    """The Guide commits to DR 12 with faces that give 11: the hash matches, the rules do not."""
    from narateer_cli.store import secrets

    ok(camp, "dr", "hard", "--random", "--faces", "1,2,0")
    entry = log_entries(camp)[-1]
    record_path = camp / ".narateer" / "secrets" / f"{entry['id']}.json"
    record = json.loads(record_path.read_text())
    lie = {**record["result"], "dr": 12}
    path = camp / "encounters" / "campaign.log.yaml"
    lines = path.read_text().splitlines(keepends=True)
    forged = {**entry, "commitment": secrets.commitment(bytes.fromhex(record["salt"]), lie)}
    lines[-1] = "- " + json.dumps(forged) + "\n"
    path.write_text("".join(lines))
    reseal_secret(camp, record_path, {**record, "result": lie})
    ok(camp, "unveil", entry["id"])
    r = run(camp, "--json", "verify", "campaign")
    assert r.code == 1 and "random DR 12 does not follow" in r.json["problem"]


def test_a_guide_sheet_rolls_in_secret(camp):
    path = camp / "characters" / "sentry.yaml"
    path.write_text(path.read_text() + "guide: true\n")
    ok(camp, "roll", "sentry", "observation", "--dr", "1", "--faces", "2")
    entry = log_entries(camp)[-1]
    assert entry["commitment"] and "total" not in entry["result"]


def test_a_secret_hide_keeps_its_total_private(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "hide", "selka", "--from", "bandit", "--from", "mira", "--boost", "1", "--faces", "2,1",
       "--secret")
    hide = log_entries(encounter_camp, "ambush")[-1]
    state = recorded(encounter_camp)
    sealed = f"sealed:{hide['id']}:{hide['seals']['state.recorded.selka']}"  # P2-SEAL-1: a commitment in its place
    assert state == ({"selka": sealed}, {"selka": {"bandit": sealed, "mira": sealed}})
    assert set(hide["seals"]) == {"state.recorded.selka", "state.hidden.selka.bandit", "state.hidden.selka.mira"}
    # the Guide's machine holds the record: it reads the recorded total as a number (P2-SEAL-1)
    assert ok(encounter_camp, "encounter", "show")["hidden"] == {"selka": {"bandit": 3, "mira": 3}}
    assert "recorded total" in run(encounter_camp, "encounter", "show").out and hide["id"] not in \
        run(encounter_camp, "encounter", "show").out
    assert not PRIVATE & keys_anywhere(hide["result"]) and "recorded_total" not in hide["result"]
    ok(encounter_camp, "turn", "end")
    ok(encounter_camp, "turn", "start", "bandit")
    found = ok(encounter_camp, "search", "bandit", "--for", "selka", "--boost", "1", "--faces", "2,2")
    assert found["target"] == 3 and found["found"] is True  # compared with the private total
    search = log_entries(encounter_camp, "ambush")[-1]
    assert search["commitment"] and "target" not in search["result"] and "chance" not in search["result"]["check"]
    assert recorded(encounter_camp)[0] == {"selka": sealed}
    # without the private record (another machine), a comparison refuses until the Hide is unveiled
    record = encounter_camp / ".narateer" / "secrets" / f"{hide['id']}.json"
    kept = record.read_bytes()
    record.unlink()
    refused(encounter_camp, 3, "encounter", "join", "beast", contains="the Guide holds a secret that decides this",
            rule="P2-SEAL-3")
    assert "selka    mira    sealed" in run(encounter_camp, "encounter", "show").out  # no number, no commitment
    record.write_bytes(kept)
    ok(encounter_camp, "unveil", "--all")
    record.unlink()
    joined = ok(encounter_camp, "encounter", "join", "beast")  # the unveil in the log gives the total
    assert joined["compared"][0]["recorded"] == 3
    assert ok(encounter_camp, "verify")["ok"] is True


def test_refusals_change_no_byte(camp):
    _, entry = secret_roll(camp)
    before = snapshot(camp)
    refused(camp, 2, "unveil", "fedcba987654", contains="no log entry has id fedcba987654")
    ok(camp, "unveil", entry["id"])
    refused(camp, 3, "unveil", entry["id"], contains="is already unveiled")
    assert snapshot(camp) != before


def test_a_secret_exchange_hides_what_landed_and_verifies_once_unveiled(encounter_camp):
    ok(encounter_camp, "turn", "start", "mira")
    shown = ok(encounter_camp, "exchange", "mira", "bandit", "--response", "guard", "--boost", "2", "--faces", "2,2,1",
               "--response-faces", "1", "--secret")
    entry = log_entries(encounter_camp, "ambush")[-1]
    assert shown["lands"] and not (PRIVATE | {"lands", "hit_margin", "damage"}) & keys_anywhere(entry["result"])
    ok(encounter_camp, "unveil", entry["id"])
    data = ok(encounter_camp, "verify")
    assert data["ok"] is True and data["secret"] == []


def test_an_undone_secret_roll_is_neither_unveiled_nor_counted_as_sealed(camp):
    """P-SECRET-3, P-LUCK-2: undo takes a secret roll back; `unveil --all` then has nothing to publish and
    `stats` waits for no sealed roll (it never counts below zero)."""
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "3", "--faces", "1", "--secret")
    ok(camp, "undo")
    assert ok(camp, "unveil", "--all")["unveiled"] == []
    assert ok(camp, "stats")["scope"]["sealed"] == 0
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "3", "--faces", "1", "--secret")
    assert ok(camp, "stats")["scope"]["sealed"] == 1
    assert len(ok(camp, "unveil", "--all")["unveiled"]) == 1
    assert ok(camp, "stats")["scope"]["sealed"] == 0
