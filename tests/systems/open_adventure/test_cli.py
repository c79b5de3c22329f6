"""W-1..W-23 through the command line (--json), with the spec's faces; refusals change no byte."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import ok, refused, run, snapshot


def sheet_text(camp: Path, cid: str) -> str:
    return (camp / "characters" / f"{cid}.yaml").read_text()


def test_w1_trident_explodes_R_OA_EXPL_1(oa):
    d = ok(oa, "roll", "amicus", "strength", "--mo", "--ds", "9", "--faces", "4,6+3")
    assert d["system"] == "open-adventure" and d["dice"] == ["d6", "d6"]
    assert d["faces"] == [[4], [6, 3]] and d["exploded"] == [1] and d["total"] == 13
    assert d["success"] and d["effect"] == 4 and d["faces_text"] == "4,6+3"
    assert d["rules_used"]["explode"] == {"dice": "all", "cap": None}


def test_w2_effect_bonus_R_OA_EFF_1(oa):
    args = ("roll", "drayac", "coordination", "--mo", "--bonus", "3", "--ds", "6", "--faces", "3,7")
    assert ok(oa, *args)["effect"] == 4
    d = ok(oa, *args, "--effect-bonus", "2")
    assert d["effect"] == 6 and d["effect_bonus"] == 2 and d["action_score"]["total"] == 8


def test_w3_sphere_fails_R_OA_SUCC_2(oa):
    before = snapshot(oa)
    d = ok(oa, "roll", "laria", "intellect", "--ds", "6", "--faces", "5")
    assert not d["success"] and d["shortfall"] == 1 and d["effect"] is None and d["stunt"] is None
    after = snapshot(oa)  # no points lost; the check is logged in the campaign log all the same (T2-OA)
    assert {k: v for k, v in after.items() if k != "encounters/campaign.log.yaml"} == before
    r = run(oa, "roll", "laria", "intellect", "--ds", "6", "--faces", "5", "--exit-code")
    assert r.code == 1


def test_w4_critical_failure_R_OA_CRIT(oa):
    d = ok(oa, "roll", "bloodwind", "strength", "--mo", "--ds", "2", "--faces", "1,1", "--mishap", "stuck fast")
    assert d["critical_failure"] and not d["success"] and d["outcome"] == "Critical Failure"
    assert d["total"] == 2 and d["mishap"] == "stuck fast"
    d = ok(oa, "roll", "bloodwind", "strength", "--mo", "--ds", "4", "--faces", "1,3")
    assert d["success"] and d["effect"] == 0


def test_w5_lantern_stunt_changes_only_the_points_line_R_OA_STUNT_2(oa):
    old = sheet_text(oa, "amicus")
    d = ok(oa, "roll", "amicus", "coordination", "--ds", "6", "--stunt", "--faces", "3")
    assert d["stunt"]["loss"] == 3 and d["stunt"]["before"] == 10 and d["stunt"]["after"] == 7
    new = sheet_text(oa, "amicus")
    changed = [(a, b) for a, b in zip(old.splitlines(), new.splitlines()) if a != b]
    assert len(old.splitlines()) == len(new.splitlines())
    assert changed == [("points: {body: 10, mind: 8, spirit: 8}    # assumed",
                        "points: {body: 7, mind: 8, spirit: 8}    # assumed")]


@pytest.mark.parametrize("faces,success,effect", [("3,5", True, 0), ("2,5", False, None), ("4,7", True, 3)])
def test_w6_sweep_R_OA_STUNT_3(oa, faces, success, effect):
    d = ok(oa, "roll", "bloodwind", "strength", "--mo", "--specialization", "axes", "--vs", "goblin:body",
           "--stunt", "--targets", "3", "--faces", faces)
    assert d["ds"] == {"total": 8, "base": 5, "base_source": "defense:goblin.body", "drawback": 0,
                       "familiarity": 0, "multi": 3}
    assert d["success"] is success and d["effect"] == effect
    assert d["stunt"]["loss"] == 1 and d["stunt"]["after"] == 11
    assert "points: {body: 11, mind: 8, spirit: 9}" in sheet_text(oa, "bloodwind")


def test_w6_sweep_chance_dry_run(oa):
    d = ok(oa, "roll", "bloodwind", "strength", "--mo", "--specialization", "axes", "--vs", "goblin:body",
           "--stunt", "--targets", "3", "--dry-run")
    assert d["p_success_exact"] == "7/12"
    d = ok(oa, "roll", "bloodwind", "strength", "--mo", "--vs", "goblin:body", "--stunt", "--targets", "3",
           "--dry-run")
    assert d["p_success_exact"] == "17/36"


def test_w7_wall_R_OA_DS_1_3(oa):
    assert ok(oa, "ds", "easy")["ds"] == 6
    d = ok(oa, "roll", "warheart", "strength", "--mo", "--ds", "10", "--drawback", "1", "--dry-run")
    assert d["ds"]["total"] == 11


def test_w8_storm_R_OA_DS_3(oa):
    d = ok(oa, "roll", "drayac", "coordination", "--ds", "moderate", "--drawback", "3", "--dry-run")
    assert d["ds"]["total"] == 12 and d["ds"]["base_source"] == "tier:moderate"


def test_w9_hill_R_OA_DS_4(oa):
    d = ok(oa, "roll", "drayac", "coordination", "--ds", "moderate", "--drawback", "0", "--dry-run")
    assert d["ds"]["total"] == d["ds"]["base"] == 9


def test_w10_etiquette_familiarity_R_OA_AS_4(oa):
    d = ok(oa, "roll", "warheart", "presence", "--familiarity", "--ds", "moderate", "--faces", "7")
    assert d["action_score"]["total"] == 4 and d["dice"] == ["d10"] and d["ds"]["total"] == 10
    refused(oa, 3, "roll", "warheart", "presence", "--familiarity", "--ds", "moderate", "--specialization",
            "shields", "--faces", "7", rule="R-OA-AS-4")


def test_w11_chandelier_R_OA_AS_2_3(oa):
    assert ok(oa, "roll", "ezarel", "intellect", "--mo", "--ds", "9", "--dry-run")["dice"] == ["d6", "d10"]
    assert ok(oa, "roll", "ezarel", "intellect", "--ds", "9", "--dry-run")["dice"] == ["d12"]


def test_w12_climb_R_OA_AS_5(oa):
    d = ok(oa, "roll", "bloodwind", "coordination", "--mo", "--specialization", "climbing", "--benefit", "1",
           "--ds", "9", "--dry-run")
    assert d["action_score"]["total"] == 7 and d["dice"] == ["d6", "d8"]


def test_w13_bow_R_OA_AS_1(oa):
    d = ok(oa, "roll", "drayac", "coordination", "--mo", "--bonus", "dragon-bane", "--ds", "9", "--dry-run")
    assert d["action_score"]["total"] == 8 and d["action_score"]["bonus"] == 3


def test_w14_extra_time_R_OA_TIME_1(oa):
    d = ok(oa, "roll", "laria", "intellect", "--time", "15min", "--ds", "9", "--dry-run")
    assert d["action_score"]["time"] == 2
    d = ok(oa, "roll", "laria", "intellect", "--time", "1mo", "--ds", "9", "--dry-run")
    assert d["action_score"]["time"] == 7
    d = ok(oa, "roll", "laria", "intellect", "--base-time", "1h", "--time", "12h", "--ds", "9", "--dry-run")
    assert d["action_score"]["time"] == 1
    refused(oa, 2, "roll", "laria", "intellect", "--base-time", "1h", "--time", "1min", "--ds", "9",
            contains="--time 1min is below the starting step 1h")
    refused(oa, 2, "roll", "laria", "intellect", "--time", "2min", "--ds", "9", contains="Time Chart")


def test_w15_net_R_OA_ACT_3(oa):
    refused(oa, 3, "roll", "amicus", "coordination", "--outcomes", "2", "--ds", "6", "--faces", "5",
            rule="R-OA-ACT-3")
    d = ok(oa, "roll", "amicus", "coordination", "--outcomes", "2", "--stunt", "--ds", "6", "--faces", "9")
    assert d["ds"]["total"] == 8 and d["ds"]["multi"] == 2


def test_w16_portcullis_maintained_R_OA_ACT_5(oa):
    ok(oa, "encounter", "new", "gate", "warheart", "orc", "--reaction", "warheart=9")
    for rnd in (1, 2, 3):
        t = ok(oa, "turn", "start")
        assert t["actor"] == "warheart" and t["round"] == rnd and t["major"]
        ok(oa, "resolve", "warheart", "--intent", "hold the portcullis", "--maintain")
        refused(oa, 3, "roll", "warheart", "strength", "--ds", "9", "--faces", "5", rule="R-OA-ACT-2")
        ok(oa, "turn", "end")
        assert ok(oa, "turn", "start")["actor"] == "orc"
        ok(oa, "turn", "end")
    assert ok(oa, "verify")["ok"]


def test_w17_lightning_rod_stunt(oa):
    d = ok(oa, "roll", "spyder", "strength", "--mo", "--stunt", "--ds", "9", "--faces", "12+2")
    assert d["ds"]["multi"] == 0 and d["success"] and d["stunt"]["loss"] == 1


def test_w18_chart_and_ladder_R_OA_DICE_1_DS_1(oa):
    rows = ok(oa, "chart")["rows"]
    printed = ["none", "d6", "d8", "d10", "d12", "2d6", "d6+d8", "d6+d10", "d6+d12", "3d6", "2d6+d8", "2d6+d10",
               "2d6+d12", "4d6"]
    assert [r["printed"] for r in rows] == printed and not any(r["extended"] for r in rows)
    ext = ok(oa, "chart", "15", "16", "17", "18")["rows"]
    assert [r["printed"] for r in ext] == ["3d6+d8", "3d6+d10", "3d6+d12", "5d6"] and all(r["extended"] for r in ext)
    assert [(r["tier"], r["ds"]) for r in ok(oa, "ds")["ladder"]] == [
        ("very-easy", 3), ("easy", 6), ("moderate", 9), ("hard", 12), ("very-hard", 15), ("nearly-impossible", 20)]


W19 = {2: "5/6", 3: "3/4", 4: "7/10", 5: "2/3", 6: "13/18", 7: "11/16", 8: "2/3", 9: "281/432", 10: "287/432",
       11: "563/864", 12: "139/216", 13: "413/648", 14: "2513/3888"}


def test_w19_as_equal_to_ds(oa):
    for score, want in W19.items():
        assert ok(oa, "odds", str(score), "--ds", str(score))["p_success_exact"] == want


@pytest.mark.parametrize("score,ds,want", [(7, "9", "137/288"), (14, "15", "2239/3888"), (6, "2", "35/36"),
                                          (2, "8", "5/36"), (3, "8", "1/8"), (4, "12", "9/100"), (5, "12", "1/12")])
def test_w20_golden_odds(oa, score, ds, want):
    from fractions import Fraction

    d = ok(oa, "odds", str(score), "--ds", ds)
    assert d["p_success_exact"] == want
    total = sum(Fraction(p) for p in d["distribution"].values()) + Fraction(d["tail_above"])
    assert total == 1


def test_w21_comparing_scores_R_OA_CMP_1(oa):
    d = ok(oa, "roll", "ezarel", "intellect", "--mo", "--benefit", "1", "--ds", "6", "--compare")
    assert d["method"] == "compare" and d["effect"] == 3 and d["faces"] == []
    assert ok(oa, "roll", "amicus", "strength", "--mo", "--ds", "6", "--compare")["effect"] == 0
    assert not ok(oa, "roll", "--force", "amicus", "coordination", "--ds", "6", "--compare")["success"]
    refused(oa, 2, "roll", "amicus", "coordination", "--ds", "6", "--compare", "--faces", "3",
            contains="--compare rolls no dice, so --faces does not apply")


def test_w22_door_opposed_R_OA_OPP_1(oa):
    d = ok(oa, "roll", "warheart", "strength", "--mo", "--opposed", "orc:strength", "--faces", "3,4",
           "--other-faces", "2,5")
    assert d["success"] and d["effect"] == 0 and d["ds"]["base_source"] == "opposed:orc"
    assert d["opposed"]["total"] == 7 and d["opposed"]["actor"] == "orc"
    d = ok(oa, "roll", "warheart", "strength", "--mo", "--opposed", "orc:strength", "--faces", "3,4",
           "--other-faces", "3,5")
    assert not d["success"] and d["ds"]["total"] == 8


def test_w23_npc_attribute_uses_group_R_OA_NPC_1(oa):
    d = ok(oa, "roll", "orc", "strength", "--ds", "6", "--faces", "2,2")
    assert d["npc"] and d["attribute"] == "strength" and d["group"] == "body"
    assert d["action_score"]["attribute"] == 6 and d["dice"] == ["d6", "d6"]


def test_refusals_and_bad_input_change_no_byte(oa):
    refused(oa, 3, "roll", "goblin", "spear", "--stunt", "--ds", "5", "--faces", "3,3", rule="R-OA-NPC-4")
    refused(oa, 3, "roll", "bloodwind", "intellect", "--ds", "3", rule="R-OA-AS-6")
    refused(oa, 3, "odds", "1", "--ds", "3", rule="R-OA-AS-6")
    refused(oa, 2, "roll", "amicus", "strength", "--mo", "--ds", "9", "--faces", "4,6", contains="give the next face")
    refused(oa, 2, "roll", "amicus", "strength", "--ds", "9", "--faces", "4+2", contains="does not explode")
    refused(oa, 2, "roll", "bloodwind", "strength", "--mo", "--specialization", "axes", "--ds", "9",
            "--faces", "3", contains="AS 7 rolls d6,d8")
    refused(oa, 2, "roll", "amicus", "body", "--ds", "3", contains="strength, coordination, toughness")
    refused(oa, 2, "roll", "amicus", "strength", "--ds", "moderat", contains="did you mean moderate?")
    refused(oa, 2, "roll", "laria", "intellect", "--ds", "6", "--bonus", "boots", contains="has no 'boots'")
    refused(oa, 2, "roll", "amicus", "strength", "--ds", "6", "--drawback", "-1",
            contains="--drawback -1 is out of range")
    refused(oa, 2, "hide", "amicus", contains="narateer command")
    refused(oa, 2, "behind", "amicus", contains="roll CHAR ATTRIBUTE --compare")
    refused(oa, 2, "roll", "amicus", "strength", "--ds", "6", "--advantage", contains="--benefit 1")
    refused(oa, 2, "points", "amicus", "bdy", "-3", contains="did you mean body?")


def test_points_wounds_and_challenge_A_OA_WOUND(oa):
    d = ok(oa, "points", "amicus", "body", "-20")
    assert d == {"system": "open-adventure", "actor": "amicus", "pool": "body", "before": 10, "after": 0,
                 "wounds_after": 1}
    assert "wounds: 1" in sheet_text(oa, "amicus")
    assert ok(oa, "points", "goblin", "challenge", "-3")["after"] == 3
    assert ok(oa, "heal", "amicus")["after"] == 0
    refused(oa, 2, "heal", "amicus", contains="amicus has 0 Wound(s); heal at most 0")


def test_undo_and_verify_in_an_encounter(oa):
    ok(oa, "encounter", "new", "hall", "amicus", "goblin", "--reaction", "amicus=3")
    assert ok(oa, "turn", "start")["actor"] == "goblin"  # statblock Reaction 6 beats 3
    ok(oa, "turn", "end")
    ok(oa, "turn", "start")
    before = snapshot(oa)
    ok(oa, "roll", "amicus", "coordination", "--ds", "6", "--stunt", "--faces", "3")
    assert "body: 7" in sheet_text(oa, "amicus")
    assert ok(oa, "verify")["ok"]
    ok(oa, "undo")
    after = snapshot(oa)
    assert after["characters/amicus.yaml"] == before["characters/amicus.yaml"]
    assert after["encounters/hall.yaml"] == before["encounters/hall.yaml"]


def test_verify_rejects_a_chain_edited_after_a_non_maximum(oa):
    ok(oa, "encounter", "new", "hall", "amicus", "goblin", "--reaction", "amicus=9")
    ok(oa, "turn", "start")
    ok(oa, "roll", "amicus", "strength", "--mo", "--ds", "9", "--faces", "4,6+3")
    log = oa / "encounters" / "hall.log.yaml"
    text = log.read_text()
    assert "[[4], [6, 3]]" in text
    log.write_text(text.replace("[[4], [6, 3]]", "[[4, 2], [6, 3]]").replace('"total": 13', '"total": 15'))
    r = run(oa, "--json", "verify")
    assert r.code == 1 and "does not explode" in r.json["problem"]


def test_faces_text_replays(oa):
    d = ok(oa, "--seed", "11", "roll", "bloodwind", "strength", "--mo", "--specialization", "axes", "--ds", "9")
    again = ok(oa, "roll", "bloodwind", "strength", "--mo", "--specialization", "axes", "--ds", "9",
               "--faces", d["faces_text"])
    assert again["total"] == d["total"] and again["faces"] == d["faces"]


def test_new_pc_and_npc_then_show(oa):
    ok(oa, "new", "kara", "--attribute", "strength=3", "--mo", "Warrior=2", "--specialization", "swords",
       "--points", "body=9")
    s = ok(oa, "show", "kara")
    row = next(r for r in s["scores"] if r["name"] == "strength")
    assert row["dice"] == "d8" and row["with_mo"] == 5 and row["dice_with_mo"] == "d12"
    ok(oa, "new", "wolf", "--npc", "--attribute", "body=4", "--reaction", "5", "--action", "bite=6:2")
    d = ok(oa, "roll", "wolf", "bite", "--ds", "5", "--faces", "3,3")
    assert d["effect"] == 2 and d["effect_source"] == "flat"
    refused(oa, 2, "new", "bad", "--attribute", "strenght=3", contains="did you mean strength?")


def test_dice_and_odds_outputs(oa):
    d = ok(oa, "dice", "7", "--faces", "6+2,5")
    assert d["total"] == 13 and d["exploded"] == [0] and not d["critical_failure"]
    assert ok(oa, "dice", "6", "--faces", "1,1")["critical_failure"]
    o = ok(oa, "odds", "40", "--ds", "60")
    assert o["dice"] == ["d6"] * 9 + ["d10"] and o["upto"] == 128
    r = run(oa, "odds", "7", "--ds", "9")
    assert r.code == 0 and "137/288" in r.out and "1/48" in r.out


def test_condition_and_encounter_join(oa):
    old = sheet_text(oa, "amicus")
    d = ok(oa, "condition", "amicus", "+prone", "+dazed")
    assert d["conditions"] == ["prone", "dazed"]
    assert "conditions: [prone, dazed]" in sheet_text(oa, "amicus")
    ok(oa, "condition", "amicus", "-Prone", "-dazed")
    assert sheet_text(oa, "amicus") == old
    refused(oa, 2, "condition", "amicus", "-prone", contains="no condition 'prone' to remove")
    ok(oa, "encounter", "new", "hall", "amicus", "goblin", "--reaction", "amicus=3")
    d = ok(oa, "encounter", "join", "laria", "--reaction", "7")
    assert d["order"] == ["laria", "goblin", "amicus"]
    assert ok(oa, "encounter", "join", "orc")["order"] == ["laria", "goblin", "orc", "amicus"]


def test_a_condition_holding_a_bracket_can_be_followed_by_another(oa):
    """The one-line edit of `conditions: [...]` stopped at the "]" inside a quoted item (an escape sequence
    holds one), wrote a line no reader takes, and every later condition command was exit 2."""
    old = sheet_text(oa, "amicus")
    ok(oa, "condition", "amicus", "+a]b")
    ok(oa, "condition", "amicus", "+evil\x1b]0;x")
    assert ok(oa, "condition", "amicus", "+dazed")["conditions"] == ["a]b", "evil\x1b]0;x", "dazed"]
    ok(oa, "condition", "amicus", "-a]b", "-evil\x1b]0;x", "-dazed")
    assert ok(oa, "show", "amicus")["conditions"] == [] and "wounds: 0" in sheet_text(oa, "amicus")
    assert sheet_text(oa, "amicus").count("#") == old.count("#")  # the comments survive


def test_check_lists_every_misfit_with_its_line(oa):
    ok(oa, "encounter", "new", "hall", "amicus", "goblin", "--reaction", "amicus=9")
    ok(oa, "turn", "start")
    ok(oa, "roll", "amicus", "strength", "--mo", "--ds", "9", "--faces", "4,6+3")
    assert run(oa, "check").code == 0
    path = oa / "characters" / "amicus.yaml"
    path.write_text(path.read_text().replace("toughness: 3", "toughnes: 3").replace("{body: 10", "{bdy: 10"))
    goblin = oa / "characters" / "goblin.yaml"
    goblin.write_text(goblin.read_text().replace("group: body}", "group: bodi}", 1))
    r = run(oa, "check")
    assert r.code == 1
    assert "characters/amicus.yaml:5: unknown attribute 'toughnes' under attributes.body (did you mean toughness?)" in r.out
    assert "characters/amicus.yaml:12: unknown key 'points.bdy' (did you mean body?)" in r.out
    assert "characters/goblin.yaml:9: actions.spear.group: unknown group 'bodi' (did you mean body?)" in r.out


def test_open_adventure_verbs_are_bad_input_in_a_narateer_campaign(camp):
    for args in (("chart",), ("ds",), ("points", "selka", "body", "-1")):
        err = refused(camp, 2, *args, contains="is an open-adventure command; this campaign plays narateer")
        assert "open-adventure command" in err and "plays narateer" in err


def test_opposed_dry_run_shows_the_chance_and_writes_nothing(oa):
    before = snapshot(oa)
    d = ok(oa, "roll", "warheart", "strength", "--mo", "--opposed", "orc:strength", "--dry-run")
    exact = Fraction(d["p_success_exact"])  # R-OA-OPP-1: exact over the opponent's unbounded totals
    assert 0.53 < exact < 0.55 and d["p_success"] == float(exact) and d["ds"]["base_source"] == "opposed:orc"
    assert snapshot(oa) == before
    r = run(oa, "roll", "warheart", "strength", "--mo", "--opposed", "orc:strength", "--dry-run")
    assert "chance of success 53.9%;" in r.out  # the exact fraction (8 digits over 8) stays in --json


def test_init_suggests_what_the_system_says_not_narateer_s_example(tmp_path):
    """The next step after `init --example` is the system's example_hint (S-SYS-2), not Narateer's ambush."""
    r = run(None, "init", str(tmp_path / "oa"), "--system", "open-adventure", "--example")
    assert r.code == 0 and "--in ambush" not in r.out and "narateer show bloodwind" in r.out
    d = run(None, "--json", "init", str(tmp_path / "nar"), "--example").json
    assert "--in ambush" in d["next"]
    assert run(None, "--json", "init", str(tmp_path / "bare")).json["next"] is None


def test_narateer_yaml_points_at_the_system_s_own_ruleset(oa):
    text = (oa / "narateer.yaml").read_text()
    assert "narateer_cli/systems/open_adventure/rules.yaml" in text and "disadvantage" not in text
