"""W-1..W-15 and the exit-3 table through the command line, on a fresh example campaign.

Refusals: exit 3, one stderr line naming the rule, stdout empty, every file byte-for-byte unchanged.
"""

from __future__ import annotations

import os

import pytest
from ruamel.yaml import YAML

from tests.conftest import ok, refused, run, snapshot


def sheet(root, cid) -> dict:
    return YAML(typ="safe").load((root / "characters" / f"{cid}.yaml").read_text())


def edit(root, cid, **values):
    """Change a sheet's top-level values (a test's starting position)."""
    y = YAML(typ="rt")
    path = root / "characters" / f"{cid}.yaml"
    doc = y.load(path.read_text())
    doc.update(values)
    with open(path, "w") as fh:
        y.dump(doc, fh)


def test_w1_act_strike_prints_and_writes(d20):
    r = run(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "15")
    assert r.code == 0, r.err
    assert r.out == ("Strike lands on bandit\n"  # T-COLOR: the outcome first
                     "mira performs Strike: 2 AP (AP 3 -> 1)\n"
                     "  bandit: d20 15 FIN +4 = 19 vs Physical AC 14: hit\n"
                     "    12 + Overkill 10 = 22 damage; HP 20 -> -2 (Critical Condition)\n")
    assert sheet(d20, "bandit")["hp"]["current"] == -2 and sheet(d20, "mira")["resources"]["ap"]["current"] == 1


def test_w1_json_shape(d20):
    data = ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "15")
    assert data["system"] == "d20-cards" and data["kind"] == "attack"
    t = data["targets"][0]
    assert t["attack"] == {"attribute": "fin", "bonus": 4, "faces": [15], "face": 15, "penalty": 0, "mod": 0,
                           "total": 19, "ac_kind": "physical", "ac": 14, "hit": True,
                           "chance": "11/20"}  # P-LUCK-1: faces 10..20 of the d20 hit AC 14 with +4
    assert t["damage"] == {"base": 12, "overkill": 10, "modifier": 2, "dealt": 22, "doubled": False, "taken": 22,
                           "hp_before": 20, "hp_after": -2, "concentration_check": None}
    assert (data["resources_before"], data["resources_after"], data["paid"]) == ({"ap": 3}, {"ap": 1}, {"ap": 2})
    assert "attack_ties" in data["rules_used"]


@pytest.mark.parametrize("face,hit,dealt", [("10", True, 12), ("9", False, None)])
def test_w2_w3(d20, face, hit, dealt):
    t = ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", face)["targets"][0]
    assert t["attack"]["hit"] is hit and (t["damage"] or {}).get("dealt") == dealt
    assert sheet(d20, "mira")["resources"]["ap"]["current"] == 1


@pytest.mark.parametrize("face,total,hit", [("19", 13, False), ("20", 14, True)])
def test_w4_unseen(d20, face, total, hit):
    t = ok(d20, "act", "mira", "strike", "--target", "bandit", "--unseen", "bandit", "--faces", face)["targets"][0]
    assert (t["attack"]["penalty"], t["attack"]["total"], t["attack"]["hit"]) == (-10, total, hit)


def test_w5_ranges(d20):
    refused(d20, 3, "act", "mira", "firebolt", "--target", "bandit", "--distance", "12", "--unseen", "bandit",
            rule="R-CARD-RANGE-2")
    refused(d20, 3, "act", "mira", "strike", "--target", "bandit", "--distance", "bandit=1.5",
            rule="R-CARD-RANGE-4")
    t = ok(d20, "act", "mira", "firebolt", "--target", "bandit", "--distance", "12", "--faces", "20")["targets"][0]
    assert (t["in_range"], t["attack"]["total"], t["attack"]["hit"], t["damage"]["dealt"]) == ("beyond", 11, True, 6)


def test_w5_firebolt_on_oneself(d20):
    t = ok(d20, "act", "mira", "firebolt", "--target", "mira", "--faces", "11")["targets"][0]
    assert (t["distance"], t["attack"]["ac"], t["attack"]["hit"]) == (0, 12, True)


def test_w6_stun_word_saves(d20):
    t = ok(d20, "act", "mira", "stun-word", "--target", "bandit", "--save-faces", "bandit=9")["targets"][0]
    assert (t["save"]["total"], t["save"]["dc"], t["save"]["resisted"], t["damage"]) == (11, 11, True, None)
    ok(d20, "turn", "start", "mira")
    t = ok(d20, "act", "mira", "stun-word", "--target", "bandit", "--save-faces", "bandit=8")["targets"][0]
    assert (t["save"]["resisted"], t["damage"]["dealt"], sheet(d20, "bandit")["hp"]["current"]) == (False, 6, 14)


@pytest.mark.parametrize("face,kept", [("5", True), ("4", False)])
def test_w7_concentration_check(d20, face, kept):
    ok(d20, "act", "mira", "ward")
    data = ok(d20, "damage", "mira", "7", "--concentration-faces", face)
    assert data["damage"]["concentration_check"]["kept"] is kept
    mira = sheet(d20, "mira")
    assert (mira["concentrating"] is not None) is kept
    assert mira["cooldowns"] == ({} if kept else {"ward": {"rounds": 1}})


def _round(root, n):
    """Another round: tor's turn, then mira's."""
    ok(root, "turn", "start", "tor")
    return ok(root, "turn", "start", "mira")


def test_w8_through_turn_start(d20):
    ok(d20, "act", "mira", "ward")
    ok(d20, "act", "mira", "firebolt", "--target", "bandit", "--faces", "2")
    t = _round(d20, 2)
    assert t["round"] == 2 and t["cooldowns_ended"] == ["firebolt"]
    assert sheet(d20, "mira")["concentrating"] == {"card": "ward", "rounds": 1}
    t = _round(d20, 3)
    assert t["concentration_ended"] == "ward" and sheet(d20, "mira")["cooldowns"] == {"ward": {"rounds": 1}}
    refused(d20, 3, "act", "mira", "ward", contains="ward: 1 round left", rule="R-CARD-CD-1")
    t = _round(d20, 4)
    assert t["cooldowns_ended"] == ["ward"]
    ok(d20, "act", "mira", "ward")


def test_w9_charges_and_proper_rest(d20):
    for expected in ((2, 1), (1, 0)):
        data = ok(d20, "act", "mira", "stun-word", "--target", "bandit", "--save-faces", "bandit=20")
        assert (data["charges"]["before"], data["charges"]["after"]) == expected
        _round(d20, 0)
    err = refused(d20, 3, "act", "mira", "stun-word", "--target", "bandit", rule="R-CARD-CD-4")
    assert err == ("narateer: stun-word has no charges left; once the encounter ends: narateer rest mira --proper\n")
    data = ok(d20, "rest", "mira", "--proper", "--mid-encounter")  # the Guide's ruling: a rest in the fight
    assert data["actors"][0]["charges"] == {"stun-word": [0, 2]} and sheet(d20, "mira")["charges"]["stun-word"] == 2


def test_w10_swan_song(d20):
    edit(d20, "mira", hp={"current": 0, "max": 30})
    data = ok(d20, "act", "mira", "last-stand", "--target", "bandit", "--faces", "2")
    assert data["conditions_added"] == ["swan_song"] and "swan_song" in sheet(d20, "mira")["conditions"]
    d = ok(d20, "damage", "mira", "12")["damage"]
    assert (d["doubled"], d["taken"], d["hp_after"]) == (True, 24, -24)
    ok(d20, "condition", "mira", "+dying")
    t = _round(d20, 2)
    assert (t["drain"]["dealt"], t["drain"]["taken"], t["drain"]["hp_after"]) == (1, 2, -26)
    ok(d20, "condition", "mira", "+stabilized")
    assert "dying" not in sheet(d20, "mira")["conditions"] and "swan_song" not in sheet(d20, "mira")["conditions"]
    assert ok(d20, "damage", "mira", "12")["damage"]["taken"] == 12


def test_w10_refused_above_critical(d20):
    edit(d20, "mira", hp={"current": 5, "max": 30})
    refused(d20, 3, "act", "mira", "last-stand", "--target", "bandit", rule="R-CARD-PROP-9")


def test_w11_odds(d20):
    t = ok(d20, "odds", "mira", "strike", "--target", "bandit")["targets"][0]
    assert (t["need_face"], t["p_lands_exact"], t["expected_damage_exact"]) == (10, "11/20", "121/10")
    assert ok(d20, "odds", "mira", "strike", "--target", "bandit", "--unseen", "bandit")["targets"][0]["p_lands_exact"] == "1/20"
    assert ok(d20, "odds", "mira", "strike", "--target", "bandit", "--disadvantage")["targets"][0]["p_lands_exact"] == "121/400"


@pytest.mark.parametrize("face,success", [("12", True), ("11", False)])
def test_w12_evolutionary(d20, face, success):
    data = ok(d20, "act", "mira", "wild-surge", "--target", "bandit", "--evolutionary-face", face,
              "--faces", "15", "--damage-faces", "3,4")
    assert data["evolutionary"]["success"] is success and len(data["targets"]) == (1 if success else 0)


def test_w13_ap(d20):
    ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "2")
    err = refused(d20, 3, "act", "mira", "strike", "--target", "bandit", rule="R-CARD-2")
    assert err == "narateer: mira has 1 AP; strike costs 2; wait for the next turn start (AP refills)\n"
    assert _round(d20, 2)["ap"] == {"before": 1, "after": 3}


@pytest.mark.parametrize("cond,firebolt_ok,strike_ok", [
    ("nullified", False, True), ("nullified:1", False, True), ("nullified:0", True, True), ("immobilized", True, False)])
def test_w14(d20, cond, firebolt_ok, strike_ok):
    ok(d20, "condition", "mira", "+" + cond)
    for card, fine, rule in (("firebolt", firebolt_ok, "R-CARD-PROP-1"), ("strike", strike_ok, "R-CARD-PROP-7")):
        args = ("act", "mira", card, "--target", "bandit", "--faces", "2", "--dry-run")
        data = ok(d20, *args)
        assert data["allowed"] is fine
        if not fine:
            refused(d20, 3, *args[:-1], rule=rule)


def test_w15(d20):
    refused(d20, 3, "act", "mira", "ward", "--target", "bandit", rule="R-CARD-RANGE-6")
    ok(d20, "act", "mira", "ward")
    refused(d20, 3, "act", "mira", "rally-hymn", contains="; add --drop-concentration", rule="R-CARD-PROP-3")
    data = ok(d20, "act", "mira", "rally-hymn", "--drop-concentration")
    assert data["dropped"] == "ward" and sheet(d20, "mira")["cooldowns"] == {"ward": {"rounds": 1}}


EXIT3 = [
    ({"resources": {"ap": {"current": 1, "max": 3}}}, ("strike", "--target", "bandit"), "R-CARD-2"),
    ({"cooldowns": {"firebolt": {"rounds": 1}}}, ("firebolt", "--target", "bandit"), "R-CARD-CD-1"),
    ({"charges": {"stun-word": 0}}, ("stun-word", "--target", "bandit"), "R-CARD-CD-4"),
    ({"conditions": ["nullified"]}, ("firebolt", "--target", "bandit"), "R-CARD-PROP-1"),
    ({"conditions": ["immobilized"]}, ("strike", "--target", "bandit"), "R-CARD-PROP-7"),
    ({}, ("last-stand", "--target", "bandit"), "R-CARD-PROP-9"),
    ({}, ("firebolt", "--target", "bandit", "--distance", "12", "--unseen", "bandit"), "R-CARD-RANGE-2"),
    ({}, ("stun-word", "--target", "bandit", "--unheard", "bandit"), "R-CARD-RANGE-5"),
    ({"conditions": ["silenced"]}, ("stun-word", "--target", "bandit"), "R-CARD-RANGE-5"),
    ({}, ("strike", "--target", "bandit", "--distance", "3"), "R-CARD-RANGE-4"),
    ({}, ("strike", "--target", "bandit", "--target", "tor"), "R-CARD-RANGE-8"),
    ({}, ("ward", "--target", "bandit"), "R-CARD-RANGE-6"),
    ({"concentrating": {"card": "ward", "rounds": 2}}, ("rally-hymn",), "R-CARD-PROP-3"),
    ({}, ("parry",), "R-CARD-PROP-8"),
    ({"actions": ["strike"]}, ("firebolt", "--target", "bandit"), "R-CARD-4"),
    ({"companions": []}, ("peck", "--target", "bandit"), "R-CARD-PROP-2"),
]


@pytest.mark.parametrize("start,args,rule", EXIT3, ids=[f"{r[2]}-{r[1][0]}" for r in EXIT3])
def test_exit3_table(d20, start, args, rule):
    if start:
        edit(d20, "mira", **start)
    err = refused(d20, 3, "act", "mira", *args, rule=rule)
    assert err.startswith("narateer: ")


def test_exit3_unseen_on_sight_and_touch(d20):
    ok(d20, "turn", "start", "tor")
    refused(d20, 3, "act", "tor", "long-shot", "--target", "bandit", "--unseen", "bandit", rule="R-CARD-RANGE-3")
    refused(d20, 3, "act", "tor", "shock-grip", "--target", "bandit", "--distance", "2", rule="R-CARD-PROP-10")


def test_exit3_not_this_characters_turn(d20):
    refused(d20, 3, "act", "tor", "quiet-knife", "--target", "bandit", contains="it is mira's turn, not tor's", rule="R-CARD-ACT-1")


def test_exit2_beats_exit3_and_other_system_verbs(d20):
    edit(d20, "mira", cooldowns={"strike": {"rounds": 1}})
    refused(d20, 2, "act", "mira", "strike", "--target", "bandit", "--faces", "25", contains="d20")
    refused(d20, 2, "act", "mira", "strike", "--target", "bandot", contains="did you mean bandit?")
    refused(d20, 2, "roll", "mira", "stealth", contains="this campaign plays d20-cards")


def test_dry_run_writes_nothing_and_undo_restores_bytes(d20):
    before = snapshot(d20)
    data = ok(d20, "act", "mira", "strike", "--target", "bandit", "--dry-run")
    assert data["allowed"] and data["odds"]["targets"][0]["p_lands_exact"] == "11/20"
    assert snapshot(d20) == before
    ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "15")
    assert snapshot(d20) != before
    ok(d20, "undo")
    after = snapshot(d20)
    assert {k: v for k, v in after.items() if "fight" not in k} == {k: v for k, v in before.items() if "fight" not in k}


def test_verify_passes_and_catches_an_edited_face(d20):
    ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "15")
    assert ok(d20, "verify")["ok"] is True
    log = d20 / "encounters" / "fight.log.yaml"
    log.write_text(log.read_text().replace('"faces": [15], "face": 15', '"faces": [14], "face": 14'))
    r = run(d20, "verify")
    assert r.code == 1 and "attack total is 19 in the log; the rules give 18 from its faces" in r.out


def test_undo_is_the_hosts_and_names_what_it_undid(d20):
    """One undo for every system: it says what was undone, and the undo's entry logs d20-cards' `state`."""
    import json

    ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "15")
    r = run(d20, "undo")
    assert r.code == 0 and r.out.startswith("undid entry 3 of fight (act: mira performs Strike: 2 AP (AP 3 -> 1); bandit: d20 15")
    entry = json.loads((d20 / "encounters" / "fight.log.yaml").read_text().splitlines()[-1][2:])
    assert entry["command"] == "undo" and entry["dice"]["mira"] == {  # H-2: the counters, as every game logs them
        "before": {"hp.current": 30, "resources.ap.current": 1}, "after": {"hp.current": 30, "resources.ap.current": 3}}
    assert entry["state"]["mira"] == {"before": {"resources": {"ap": {"current": 1, "max": 3}}},
                                      "after": {"resources": {"ap": {"current": 3, "max": 3}}}}
    assert ok(d20, "verify")["ok"] is True and run(d20, "check").code == 0


def test_verify_and_check_follow_each_sheet_value_from_entry_to_entry(d20):
    """The host streams the log to d20-cards' `log_checker`, which sees every entry in order."""
    ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "15")
    ok(d20, "heal", "bandit", "1")
    log = d20 / "encounters" / "fight.log.yaml"
    lines = log.read_text().splitlines(keepends=True)
    assert '"before": {"hp": {"current": -2' in lines[-1]
    lines[-1] = lines[-1].replace('"before": {"hp": {"current": -2', '"before": {"hp": {"current": -3')
    log.write_text("".join(lines))
    r = run(d20, "verify")
    assert r.code == 1 and "entry 4 (heal): bandit's hp does not continue from its previous entry" in r.out
    assert run(d20, "check").code != 0


def test_the_campaign_log_expects_no_value_to_continue_across_an_encounter(tmp_path):
    """G-LOG-5: between two campaign-log entries mira was hurt in an encounter; verify and check still pass."""
    root = tmp_path / "d20"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    ok(root, "damage", "mira", "1")
    ok(root, "encounter", "new", "fight", "mira", "bandit")
    ok(root, "damage", "mira", "2")
    ok(root, "encounter", "end")
    ok(root, "damage", "mira", "1")
    assert ok(root, "verify", "campaign")["ok"] is True and ok(root, "verify", "fight")["ok"] is True
    assert run(root, "check").code == 0


def test_card_show_and_list(d20):
    r = run(d20, "card", "show", "strike")
    assert r.code == 0 and r.out.splitlines()[:3] == ["Strike", "Cost: 2 AP", "✦ . ⁺ Tier 1 – Blade Discipline . ⁺ ✦"]
    cards = ok(d20, "card", "list", "--for", "mira")["cards"]
    last = {c["id"]: c for c in cards}["last-stand"]
    assert last["status"].startswith("blocked: ") and "R-CARD-PROP-9" not in last["status"]  # T2-RULES
    assert last["blocked_by"] == "R-CARD-PROP-9" and {c["id"]: c for c in cards}["strike"]["blocked_by"] is None
    assert ok(d20, "show", "mira")["blocked_by"] == {"last-stand": "R-CARD-PROP-9"}
    assert "R-CARD" not in run(d20, "show", "mira").out and "R-CARD" not in run(d20, "card", "list", "--for", "mira").out


def test_elapse_and_check(d20):
    ok(d20, "turn", "start", "tor")
    ok(d20, "act", "tor", "long-shot", "--target", "bandit", "--faces", "2")
    assert sheet(d20, "tor")["cooldowns"] == {"long-shot": {"until": 60}}
    data = ok(d20, "elapse", "1m")
    assert data["clock_after"] == 60 and sheet(d20, "tor")["cooldowns"] == {}
    assert "clock: 60" in (d20 / "narateer.yaml").read_text()
    assert ok(d20, "check")["ok"] is True


def test_check_lists_every_sheet_problem_with_its_line(d20):
    path = d20 / "characters" / "bandit.yaml"
    text = path.read_text().replace("ac: {physical: 14, mental: 11}", "ac: {physical: 14, mentl: 11}")
    path.write_text(text.replace("reach: 1", "reach: far"))
    r = run(d20, "check")
    assert r.code == 1
    lines = r.out.splitlines()
    assert any(l.startswith("characters/bandit.yaml:4: unknown key 'ac.mentl' (did you mean mental?)") for l in lines)
    assert any(l.startswith("characters/bandit.yaml:6: reach must be a number, not 'far'") for l in lines)


def test_w5_reach_bonus_and_w6_physical_dc_with_inline_cards(d20):
    edit(d20, "mira", cards={
        "long-strike": {"name": "Long Strike", "cost": 2, "atk": "fin", "range": "reach", "reach_bonus": 1,
                        "damage": {"amount": 12, "overkill": 2}},
        "quake": {"name": "Quake", "cost": 1, "dc": "physical", "range": 10, "damage": {"amount": 3}}})
    t = ok(d20, "act", "mira", "long-strike", "--target", "bandit", "--distance", "1.5", "--faces", "10")["targets"][0]
    assert (t["in_range"], t["attack"]["penalty"], t["damage"]["dealt"]) == (True, 0, 12)
    data = ok(d20, "act", "mira", "quake", "--target", "bandit", "--save-faces", "bandit=8")
    assert data["dc"] == {"kind": "physical", "attribute": "body", "value": 12}
    assert data["targets"][0]["save"] == {"attribute": "phy", "bonus": 3, "face": 8, "total": 11, "dc": 12,
                                          "resisted": False, "chance": "2/5"}  # P-LUCK-1: faces 1..8 fail DC 12 with +3


def test_rules_overrides_in_narateer_yaml(d20):
    config = d20 / "narateer.yaml"
    text = config.read_text()
    config.write_text(text + "rules:\n  attack_ties: miss\n")
    t = ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "10")["targets"][0]
    assert t["attack"]["total"] == 14 and t["attack"]["hit"] is False
    config.write_text(text + "rules:\n  atack_ties: miss\n")
    refused(d20, 2, "act", "mira", "strike", "--target", "bandit", contains="(did you mean attack_ties")


def test_check_lists_every_card_problem_with_its_line(d20):
    """R-CARD-1, R-CARD-ATK-7: `check` reads actions/*.yaml through the system's check_files hook."""
    strike = d20 / "actions" / "strike.yaml"
    strike.write_text(strike.read_text().replace("range: reach", "range: rech"))
    ward = d20 / "actions" / "ward.yaml"
    ward.write_text(ward.read_text() + "atk: foo\n")
    (d20 / "actions" / "broken.yaml").write_text("name: [\n")
    os.mkfifo(d20 / "actions" / "pipe.yaml")  # never read: a FIFO must not hang check (G-TRUST-4)
    before = snapshot(d20)
    r = run(d20, "check")
    assert r.code == 1 and snapshot(d20) == before
    lines = r.out.splitlines()
    range_line = strike.read_text().splitlines().index("range: rech") + 1
    assert f"actions/strike.yaml:{range_line}: range must be one of reach, sight, vocal, self, not 'rech' " \
           "(did you mean reach?)" in lines
    assert f"actions/ward.yaml:{len(ward.read_text().splitlines())}: atk must be one of kno, wil, fin, phy, " \
           "not 'foo'" in lines
    assert any(line.startswith("actions/broken.yaml:2: ") for line in lines)
    assert any(line.startswith("actions/pipe.yaml:1: not a regular file") for line in lines)


def test_plain_init_creates_the_actions_folder(tmp_path):
    assert run(None, "init", str(tmp_path / "c"), "--system", "d20-cards").code == 0
    assert (tmp_path / "c" / "actions").is_dir()
    assert run(None, "init", str(tmp_path / "n")).code == 0
    assert not (tmp_path / "n" / "actions").exists()


def test_sheets_are_cached_by_the_host_and_a_cached_parse_acts_the_same(d20):
    """d20 counters are not in one block; the host's sheet cache keeps their parse all the same."""
    ok(d20, "act", "mira", "strike", "--target", "bandit", "--faces", "15")
    cached = d20 / ".narateer" / "sheets" / "mira.json"
    assert cached.is_file() and not (d20 / ".narateer" / "d20-sheets").exists()
    assert '"current": 1' in cached.read_text()  # the parse of the text just written: AP 3 -> 1
    refused(d20, 3, "act", "mira", "strike", "--target", "bandit", "--faces", "15", rule="R-CARD-2")
    cached.unlink()
    refused(d20, 3, "act", "mira", "strike", "--target", "bandit", "--faces", "15", rule="R-CARD-2")


def test_init_example_names_a_next_step_in_this_game(tmp_path):
    """`init --example` gives d20-cards' next step (its example_hint, S-SYS-2), as the other games do."""
    r = run(None, "init", str(tmp_path / "fight"), "--system", "d20-cards", "--example")
    assert r.code == 0 and "`narateer show mira`" in r.out and "`narateer encounter new brawl mira bandit`" in r.out
    assert "ambush" not in r.out
    assert run(None, "--json", "init", str(tmp_path / "bare"), "--system", "d20-cards").json["next"] is None
