"""Secret rolls in d20-cards (P-SECRET-1, P-SECRET-3): an act logged as a commitment, unveiled, verified."""

from __future__ import annotations

import json

from tests.cli.test_secret_rolls import keys_anywhere
from tests.conftest import ok, reseal_secret, run

HIDDEN = {"faces", "face", "total", "hit", "lands", "damage", "success", "outcome"}


def last_entry(root):
    lines = (root / "encounters" / "fight.log.yaml").read_text().splitlines()
    return json.loads(lines[-1][2:])


def feint(root):
    """An attack card that deals no damage, on mira's sheet: the act a secret may seal (S-SYS-8)."""
    (root / "actions" / "feint.yaml").write_text("name: Feint\ncost: {ap: 1}\natk: fin\nrange: reach\n")
    sheet = root / "characters" / "mira.yaml"
    sheet.write_text(sheet.read_text().replace("actions: [strike,", "actions: [feint, strike,"))


def test_a_secret_act_round_trip(d20):  # noqa: F811
    feint(d20)
    shown = ok(d20, "act", "mira", "feint", "--target", "bandit", "--faces", "11", "--secret")
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
    feint(d20)
    ok(d20, "act", "mira", "feint", "--target", "bandit", "--faces", "11", "--secret")
    ok(d20, "unveil", "--all")
    path = d20 / "encounters" / "fight.log.yaml"
    path.write_text(path.read_text().replace('"face": 11', '"face": 12'))
    r = run(d20, "--json", "verify")
    assert r.code == 1 and "commitment" in r.json["problem"]


def test_an_unveiled_act_whose_faces_do_not_give_its_hit_fails_verify(d20):  # noqa: F811
    """The hash matches (the Guide committed to a false hit), but the rules give a miss."""
    from narateer_cli.store import secrets

    feint(d20)
    ok(d20, "act", "mira", "feint", "--target", "bandit", "--faces", "2", "--secret")
    entry = last_entry(d20)
    record_path = d20 / ".narateer" / "secrets" / f"{entry['id']}.json"
    record = json.loads(record_path.read_text())
    lie = json.loads(json.dumps(record["result"]))
    lie["targets"][0]["attack"]["hit"] = True
    path = d20 / "encounters" / "fight.log.yaml"
    lines = path.read_text().splitlines(keepends=True)
    lines[-1] = "- " + json.dumps({**entry, "commitment": secrets.commitment(bytes.fromhex(record["salt"]), lie)}) + "\n"
    path.write_text("".join(lines))
    reseal_secret(d20, record_path, {**record, "result": lie})
    ok(d20, "unveil", entry["id"])
    r = run(d20, "--json", "verify")
    assert r.code == 1 and "attack hit is True in the log; the rules give False" in r.json["problem"]


def test_each_attack_records_its_chance_and_stats_count_it(d20):  # noqa: F811
    """Mira's Strike: d20 + 4 against bandit's Physical AC 14 (a natural 20 hits, a natural 1 misses)."""
    from fractions import Fraction

    def hit(face):
        return face == 20 or (face != 1 and face + 4 >= 14)

    plain = Fraction(sum(hit(f) for f in range(1, 21)), 20)
    ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "11")
    assert last_entry(d20)["result"]["targets"][0]["attack"]["chance"] == f"{plain.numerator}/{plain.denominator}"
    [row] = ok(d20, "stats")["actors"]
    assert row["actor"] == "mira" and row["checks"] == 1 and row["successes"] == 1
    assert row["expected_exact"] == f"{plain.numerator}/{plain.denominator}"
    assert row["percentile"] == round(float((1 - plain) * 100 + plain * 50), 1)


def test_an_attack_with_advantage_records_the_chance_of_the_better_of_two(d20):  # noqa: F811
    ok(d20, "act", "mira", "strike", "--target", "bandit", "--advantage", "--faces", "11,5")
    miss = sum(1 for f in range(1, 21) if not (f == 20 or (f != 1 and f + 4 >= 14)))
    assert last_entry(d20)["result"]["targets"][0]["attack"]["chance"] == f"{400 - miss * miss}/400"


def test_secret_bare_dice_are_sealed_in_the_campaign_log(tmp_path):
    """P-SECRET-1: `dice --secret` outside an encounter logs only a commitment; unveil publishes it."""
    root = tmp_path / "c"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    r = run(root, "dice", "2d6+3", "--faces", "4,5", "--secret")
    assert r.code == 0 and r.out == "2d6+3: [4, 5] = 12\n"
    log = root / "encounters" / "campaign.log.yaml"
    entry = json.loads(log.read_text().splitlines()[-1][2:])
    assert entry["command"] == "dice" and entry["commitment"] and "total" not in keys_anywhere(entry["result"])
    assert "4" not in json.dumps(entry["declaration"])
    unveiled = ok(root, "unveil", "--all")["unveiled"]
    assert [u["entry"] for u in unveiled] == [entry["id"]] and unveiled[0]["result"]["total"] == 12


def test_s_sys_8_a_secret_act_that_deals_damage_is_refused_before_any_roll(d20):  # noqa: F811
    """S-SYS-8: bandit's HP on its sheet would tell the party whether a secret strike hit; refused, exit 3."""
    from tests.conftest import refused

    err = refused(d20, 3, "act", "mira", "strike", "--target", "bandit", "--faces", "11", "--secret",
                  rule="S-SYS-8")
    assert "a secret strike would show its outcome: its damage changes bandit's HP on the sheet" in err
    assert "drop --secret" in err
    # bad faces are still bad input first (exit 2 beats 3)
    refused(d20, 2, "act", "mira", "strike", "--target", "bandit", "--faces", "21", "--secret",
            contains="face '21' is not a face of a d20")
    # a DC card with damage too, whatever its save
    refused(d20, 3, "act", "mira", "stun-word", "--target", "bandit", "--save-faces", "bandit=20", "--secret",
            rule="S-SYS-8")
    assert ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "11")["targets"][0]["lands"]


def test_s_sys_8_a_guide_sheet_is_secret_so_its_damage_cards_are_refused_too(d20):  # noqa: F811
    from tests.conftest import refused

    sheet = d20 / "characters" / "mira.yaml"
    sheet.write_text("guide: true\n" + sheet.read_text())
    refused(d20, 3, "act", "mira", "strike", "--target", "bandit", "--faces", "11", rule="S-SYS-8")
    feint(d20)
    ok(d20, "act", "mira", "feint", "--target", "bandit", "--faces", "11")
    assert last_entry(d20)["commitment"]


def test_s_sys_8_a_secret_act_logs_nothing_of_its_target_until_unveiled(d20):  # noqa: F811
    """The raw log line of a secret act holds no HP, no state and no outcome of its target; unveil shows the
    hit, verify and undo stay clean."""
    from tests.conftest import snapshot

    feint(d20)
    bandit = (d20 / "characters" / "bandit.yaml").read_bytes()
    before = snapshot(d20)
    ok(d20, "act", "mira", "feint", "--target", "bandit", "--faces", "11", "--secret")
    raw = (d20 / "encounters" / "fight.log.yaml").read_text().splitlines()[-1]
    entry = json.loads(raw[2:])
    assert '"hp"' not in raw and '"hit"' not in raw and '"lands"' not in raw and '"face"' not in raw
    assert list(entry["state"]) == ["mira"]  # the performer's declared cost: AP 3 -> 2
    assert entry["state"]["mira"]["after"] == {"resources": {"ap": {"current": 2, "max": 3}}}
    assert (d20 / "characters" / "bandit.yaml").read_bytes() == bandit
    assert ok(d20, "verify")["ok"] is True
    ok(d20, "unveil", entry["id"])
    shown = last_entry(d20)["result"]["targets"][0]
    assert shown["attack"]["face"] == 11 and shown["attack"]["hit"] is True and shown["lands"] is True
    data = ok(d20, "verify")
    assert data["ok"] is True and data["secret"] == []
    mira = (d20 / "characters" / "mira.yaml").read_bytes()
    ok(d20, "act", "mira", "feint", "--target", "bandit", "--faces", "3", "--secret")
    ok(d20, "undo")  # a sealed act undoes like an open one
    assert (d20 / "characters" / "mira.yaml").read_bytes() == mira
    assert ok(d20, "verify")["ok"] is True
    assert {k: v for k, v in snapshot(d20).items() if k.startswith("characters/") and k != "characters/mira.yaml"} \
        == {k: v for k, v in before.items() if k.startswith("characters/") and k != "characters/mira.yaml"}
