"""`roll`, `dice`, `dr`, `odds` and `behind` options, and the command contract.

Good declarations: exact JSON and the sheet afterwards. Bad ones: exit 2 for
bad input, 3 for a rules refusal, exactly one line on stderr, nothing on
stdout, and every campaign file byte-for-byte unchanged.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tests.conftest import json_error, run, snapshot


def ok(camp, *args):
    r = run(camp, "--json", *args)
    assert r.code == 0, r.err
    assert r.err == ""
    assert r.out.endswith("\n") and r.out.count("\n") == 1
    return r.json


def dice_of(camp, char):
    from ruamel.yaml import YAML

    doc = YAML(typ="safe").load((camp / "characters" / f"{char}.yaml").read_text())
    return dict(doc["action_dice"])


def set_rules(camp, text):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n" + text)


def frac(p):
    return Fraction(p).limit_denominator(10_000)


def rejected(camp, code, *args, contains=None, rule=None):
    """Run a declaration that must be refused; nothing may change. `contains`: a part of the line a person
    reads that says why; `rule`: the rule id its --json error cites, which that line leaves out (T2-RULES).
    One of the two is required: a refusal for another reason must not pass."""
    if contains is None and rule is None:
        raise TypeError("rejected() needs contains= or rule=: say why the command is refused")
    before = snapshot(camp)
    r = run(camp, "--json", *args)
    assert r.code == code, (r.code, r.err)
    error = json_error(r, code)
    if rule is not None:
        assert error["rule"] == rule and rule not in r.err, (error, r.err)
    assert r.err.startswith("narateer: ")
    if contains is not None:
        assert contains in r.err, r.err
    assert r.err.endswith("\n") and r.err.count("\n") == 1
    assert "Traceback" not in r.err
    assert snapshot(camp) == before
    return r.err


# --- --contested (R-CHK-10) -----------------------------------------------------------------

def test_contested_both_pay_and_roll_and_a_tie_fails(camp):
    data = ok(camp, "roll", "selka", "stealth", "--contested", "sentry:observation", "--boost", "1",
              "--faces", "1,1", "--other-boost", "1", "--other-faces", "2,0")
    assert data["target_source"] == "contested"
    assert data["total"] == 2 and data["target"] == 2
    assert data["margin"] == 0 and data["success"] is False
    opp = data["opponent"]
    assert opp["actor"] == "sentry" and opp["boost"] == 1 and opp["roll_dice"] == 2 and opp["paid"] == 2
    assert opp["faces"] == [2, 0] and opp["total"] == 2
    assert dice_of(camp, "selka") == {"ready": 3, "used": 2}
    assert dice_of(camp, "sentry") == {"ready": 2, "used": 2}


def test_contested_initiator_exceeding_wins(camp):
    data = ok(camp, "roll", "selka", "stealth", "--contested", "sentry:observation",
              "--faces", "crit", "--other-faces", "hit")
    assert (data["total"], data["target"], data["margin"], data["success"]) == (2, 1, 1, True)
    assert data["opponent"]["paid"] == 1
    assert dice_of(camp, "sentry") == {"ready": 3, "used": 1}


def test_contested_other_boost_over_its_sl_is_refused(camp):
    err = rejected(camp, 3, "roll", "selka", "stealth", "--contested", "sentry:observation",
                   "--other-boost", "3", "--faces", "1", "--other-faces", "1,1,1,1", contains="sentry cannot Boost 3")
    assert "sentry" in err


def test_contested_other_faces_must_fit(camp):
    rejected(camp, 2, "roll", "selka", "stealth", "--contested", "sentry:observation",
             "--faces", "1", "--other-faces", "1,1",
             contains="--other-faces gave 2 face(s) but sentry's observation roll rolls 1")


# --- --assist (A-ASSIST) --------------------------------------------------------------------

def test_assist_helper_pays_one_and_gives_advantage(camp):
    data = ok(camp, "roll", "mira", "melee", "--dr", "1", "--assist", "bandit", "--faces", "miss", "--reroll-faces", "crit")
    assert data["rerolled"] == [0]
    assert data["final_faces"] == [2] and data["total"] == 2 and data["success"] is True
    assert data["paid"] == 1
    assert data["assist"]["helper"] == "bandit" and data["assist"]["paid"] == 1
    assert dice_of(camp, "mira") == {"ready": 5, "used": 1}
    assert dice_of(camp, "bandit") == {"ready": 4, "used": 1}


def test_assist_by_a_stunned_helper_is_refused(camp):
    assert run(camp, "condition", "bandit", "+stunned").code == 0
    err = rejected(camp, 3, "roll", "mira", "melee", "--dr", "1", "--assist", "bandit",
                   "--faces", "miss", "--reroll-faces", "crit",
                   contains="bandit is stunned and cannot take Reactions (Assist)")
    assert "stunned" in err


# --- --reaction and A-REACTBOOST -----------------------------------------------------------

def test_reaction_boost_refused_when_reaction_boost_is_false(camp):
    set_rules(camp, "  reaction_boost: false\n")
    rejected(camp, 3, "roll", "selka", "stealth", "--dr", "2", "--reaction", "--boost", "1", "--faces", "1,1",
             rule="A-REACTBOOST")
    data = ok(camp, "roll", "selka", "stealth", "--dr", "2", "--reaction", "--boost", "1", "--allow-boost",
              "--faces", "1,1")
    assert data["boost"] == 1 and data["paid"] == 2
    # without Boost a Reaction needs no ruling
    data = ok(camp, "roll", "--force", "selka", "stealth", "--dr", "2", "--reaction", "--faces", "2")
    assert data["paid"] == 1 and data["success"] is False


def test_reaction_boost_allowed_by_default(camp):
    data = ok(camp, "roll", "selka", "stealth", "--dr", "2", "--reaction", "--boost", "1", "--faces", "1,2")
    assert data["boost"] == 1 and data["success"] is True


# --- payment options (R-PAY) -------------------------------------------------------------------

def test_bonus_dice_are_rolled_not_paid(camp):
    data = ok(camp, "roll", "rika", "athletics", "--dr", "2", "--bonus-dice", "2", "--faces", "1,1,1")
    assert data["roll_dice"] == 3 and data["paid"] == 1 and data["boost"] == 0
    assert data["total"] == 3 and data["success"] is True
    assert dice_of(camp, "rika") == {"ready": 3, "used": 1}


def test_discounts_and_fee_then_slowed_doubles(camp):
    """base 1-1=0, Boost 2-1=1, fee 2: 3 AD; Slowed: 6 AD; rolled 3 dice (base + Boost)."""
    sheet = camp / "characters" / "tarin.yaml"
    sheet.write_text(sheet.read_text().replace("ready: 5", "ready: 10"))
    args = ("roll", "tarin", "athletics", "--dr", "2", "--boost", "2", "--discount-base", "1",
            "--discount-boost", "1", "--fee", "2", "--faces", "1,1,1")
    plain = ok(camp, *args)
    assert plain["paid"] == 3 and plain["roll_dice"] == 3
    assert dice_of(camp, "tarin") == {"ready": 7, "used": 3}
    assert run(camp, "refresh", "tarin").code == 0
    assert run(camp, "condition", "tarin", "+slowed").code == 0
    slowed = ok(camp, *args)
    assert slowed["paid"] == 6 and slowed["roll_dice"] == 3 and slowed["boost"] == 2
    assert slowed["final_faces"] == [1, 1, 1] and slowed["total"] == 3
    assert dice_of(camp, "tarin") == {"ready": 4, "used": 6}


def test_discount_larger_than_the_cost_pays_zero_not_negative(camp):
    data = ok(camp, "roll", "javi", "athletics", "--dr", "0", "--discount-base", "5", "--faces", "1")
    assert data["paid"] == 0 and data["roll_dice"] == 1
    assert dice_of(camp, "javi") == {"ready": 3, "used": 0}


def test_cost_zero_pays_nothing_and_rolls_nothing(camp):
    data = ok(camp, "roll", "--force", "javi", "athletics", "--dr", "0", "--cost", "0")
    assert data["paid"] == 0 and data["roll_dice"] == 0 and data["faces"] == []
    assert data["total"] == 0 and data["success"] is False
    assert dice_of(camp, "javi") == {"ready": 3, "used": 0}


def test_power_reroll_after_edge(camp):
    data = ok(camp, "roll", "kaelen", "finesse", "--dr", "2", "--boost", "1", "--advantage",
              "--faces", "0,1", "--reroll-faces", "0", "--power-reroll", "0", "--power-faces", "2",
              "--power", "Lucky Hands")
    assert data["faces"] == [0, 1]
    assert data["rerolled"] == [0]
    assert data["final_faces"] == [2, 1]
    assert data["total"] == 3 and data["success"] is True
    assert data["power"] == "Lucky Hands"


def test_power_reroll_of_a_die_not_rolled_is_bad_input(camp):
    rejected(camp, 2, "roll", "kaelen", "finesse", "--dr", "2", "--faces", "0", "--power-reroll", "1",
             "--power-faces", "2", contains="--power-reroll names die 1 but only dice 0..0 are rolled")


@pytest.mark.parametrize("tier, value", [("routine", 2), ("challenging", 5), ("hard", 8), ("heroic", 11),
                                         ("mythic", 14), ("Hard", 8), ("0", 0), ("7", 7)])
def test_dr_tier_names(camp, tier, value):
    data = ok(camp, "roll", "--force", "selka", "stealth", "--dr", tier, "--faces", "2")
    assert data["target"] == value
    assert data["success"] is (2 > value)


# --- --dry-run ---------------------------------------------------------------------------------

def test_dry_run_writes_nothing_and_lists_each_boost(camp):
    before = snapshot(camp)
    data = ok(camp, "roll", "kai", "stealth", "--dr", "0", "--dry-run")
    assert snapshot(camp) == before
    assert [o["boost"] for o in data["options"]] == [0, 1, 2]
    assert [o["roll_dice"] for o in data["options"]] == [1, 2, 3]
    assert [o["paid"] for o in data["options"]] == [1, 2, 3]
    # one die beats DR 0 on 4 faces of 6; n dice fail only when all show a Miss
    assert [frac(o["p_success"]) for o in data["options"]] == [Fraction(4, 6), Fraction(8, 9), Fraction(26, 27)]


def test_dry_run_three_dice_vs_dr_2_and_affordability(camp):
    (camp / "characters" / "veyra.yaml").write_text(
        (camp / "characters" / "veyra.yaml").read_text().replace("ready: 5", "ready: 2"))
    data = ok(camp, "roll", "veyra", "stealth", "--dr", "2", "--dry-run")
    # P(total > 2) with 3 dice: 27 equally likely (by face kind), 10 of them total 2 or less
    assert frac(data["options"][2]["p_success"]) == Fraction(17, 27)
    assert frac(data["options"][0]["p_success"]) == 0
    assert [o["affordable"] for o in data["options"]] == [True, True, False]


def test_dry_run_with_slowed_shows_doubled_payment(camp):
    assert run(camp, "condition", "kai", "+slowed").code == 0
    data = ok(camp, "roll", "kai", "stealth", "--dr", "0", "--dry-run")
    assert [(o["roll_dice"], o["paid"]) for o in data["options"]] == [(1, 2), (2, 4), (3, 6)]
    assert [o["affordable"] for o in data["options"]] == [True, True, False]


def test_dry_run_contested_exact(camp):
    data = ok(camp, "roll", "veyra", "stealth", "--contested", "sentry:observation", "--dry-run")
    # 1 die vs 1 die: 3 of 9 face-kind pairs are strictly higher
    assert frac(data["options"][0]["p_success"]) == Fraction(1, 3)
    # 2 dice vs 1 die: 1/3 * (P(A>0) + P(A>1) + P(A>2)) = 1/3 * (8 + 6 + 3) / 9
    assert frac(data["options"][1]["p_success"]) == Fraction(17, 27)


def test_dry_run_with_assist_uses_advantage(camp):
    before = snapshot(camp)
    data = ok(camp, "roll", "veyra", "stealth", "--dr", "2", "--assist", "kai", "--dry-run")
    assert snapshot(camp) == before
    assert {o["edge"] for o in data["options"]} == {"advantage"}
    # per die with Advantage: 1/9, 4/9, 4/9; two dice beat 2 with (Hit,Crit), (Crit,Hit), (Crit,Crit)
    assert frac(data["options"][1]["p_success"]) == Fraction(48, 81)


# --- --exit-code ------------------------------------------------------------------------------

def test_exit_code_1_on_failure_and_the_check_is_still_recorded(camp):
    r = run(camp, "roll", "--force", "torren", "observation", "--dr", "5", "--faces", "0", "--exit-code")
    assert r.code == 1
    assert r.err == ""
    assert dice_of(camp, "torren") == {"ready": 3, "used": 1}
    r = run(camp, "roll", "torren", "observation", "--dr", "1", "--faces", "2", "--exit-code")
    assert r.code == 0
    r = run(camp, "roll", "torren", "observation", "--dr", "1", "--faces", "1")
    assert r.code == 0  # a failed check without --exit-code is still "done"


# --- dice, dr, odds, behind ------------------------------------------------------------------

def test_dice_bare_pool_with_advantage(camp):
    before = snapshot(camp)
    data = ok(camp, "dice", "3", "--advantage", "--faces", "0,1,2", "--reroll-faces", "2")
    assert data["faces"] == [0, 1, 2]
    assert data["rerolled"] == [0]
    assert data["final_faces"] == [2, 1, 2]
    assert data["total"] == 5
    assert snapshot(camp) == before


def test_dice_disadvantage_rerolls_crits(camp):
    data = ok(camp, "dice", "3", "--disadvantage", "--faces", "crit,hit,crit", "--reroll-faces", "miss,hit")
    assert data["rerolled"] == [0, 2]
    assert data["final_faces"] == [0, 1, 1]
    assert data["total"] == 2


def test_dice_works_outside_a_campaign(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(None, "--json", "dice", "2", "--faces", "2,2")
    assert r.code == 0, r.err
    assert r.json["total"] == 4


def test_dr_ladder(camp):
    data = ok(camp, "dr")
    assert data["ladder"] == {"routine": 2, "challenging": 5, "hard": 8, "heroic": 11, "mythic": 14}


def test_dr_random_adds_three_dice(camp):
    data = ok(camp, "dr", "hard", "--random", "--faces", "1,2,0")
    assert data["tier"] == "hard"
    assert data["faces"] == [1, 2, 0]
    assert data["total"] == 3
    assert data["dr"] == 11


def test_dr_random_needs_three_faces(camp):
    rejected(camp, 2, "dr", "hard", "--random", "--faces", "1,2",
             contains="--faces gave 2 face(s) but a random DR rolls 3")


def test_odds_two_dice_vs_dr_1_exact(camp):
    data = ok(camp, "odds", "2", "--dr", "1")
    assert data["dice"] == 2 and data["target"] == 1 and data["edge"] == "none"
    assert frac(data["p_success"]) == Fraction(2, 3)
    assert {k: frac(v) for k, v in data["distribution"].items()} == {
        "0": Fraction(1, 9), "1": Fraction(2, 9), "2": Fraction(3, 9), "3": Fraction(2, 9), "4": Fraction(1, 9)}


def test_odds_one_die_with_advantage_exact(camp):
    data = ok(camp, "odds", "1", "--dr", "0", "--advantage")
    # a Miss (1/3) is rerolled once: P(0) = 1/9, P(1) = P(2) = 1/3 + 1/9
    assert {k: frac(v) for k, v in data["distribution"].items()} == {
        "0": Fraction(1, 9), "1": Fraction(4, 9), "2": Fraction(4, 9)}
    assert frac(data["p_success"]) == Fraction(8, 9)


def test_behind_advantage_lowers_target_one_tier(camp):
    plain = ok(camp, "behind", "torren", "observation", "--dr", "4")
    assert plain["target"] == 4 and plain["success"] is False and plain["system"] == "narateer"  # S-SYS-6
    adv = ok(camp, "behind", "torren", "observation", "--dr", "4", "--advantage")
    assert adv["target"] == 1 and adv["success"] is True
    dis = ok(camp, "behind", "elira", "observation", "--dr", "routine", "--disadvantage")
    assert dis["target"] == 5 and dis["success"] is False


def test_behind_vs_another_readiness(camp):
    data = ok(camp, "behind", "kai", "stealth", "--vs", "sentry:observation")
    assert data["readiness"] == 3 and data["target"] == 3 and data["success"] is False


# --- bad input (exit 2) and refusals (exit 3) ------------------------------------------------

def test_unknown_character(camp):
    err = rejected(camp, 2, "roll", "nobody", "stealth", "--dr", "2", contains="unknown character 'nobody'")
    assert "nobody" in err


def test_unknown_skill(camp):
    err = rejected(camp, 2, "roll", "veyra", "juggling", "--dr", "2", contains="unknown skill 'juggling' for veyra")
    assert "juggling" in err


def test_unknown_skill_in_vs(camp):
    rejected(camp, 2, "roll", "veyra", "stealth", "--vs", "sentry:juggling",
             contains="unknown skill 'juggling' for sentry")


def test_malformed_yaml_names_file_and_line(camp):
    (camp / "characters" / "broken.yaml").write_text("name: Broken\nvitals: {agility: 3\nskills:\n  stealth: 1\n")
    err = rejected(camp, 2, "roll", "broken", "stealth", "--dr", "2", contains="characters/broken.yaml:3")
    assert "characters/broken.yaml:3" in err


def test_malformed_yaml_in_the_target_sheet(camp):
    (camp / "characters" / "sentry.yaml").write_text("name: Sentry\nskills:\n  observation: 2\n   melee: 1\n")
    err = rejected(camp, 2, "roll", "kai", "stealth", "--vs", "sentry:observation", "--faces", "1",
                   contains="characters/sentry.yaml:4")
    assert "characters/sentry.yaml:" in err


def test_negative_boost(camp):
    rejected(camp, 2, "roll", "veyra", "stealth", "--dr", "2", "--boost", "-1", contains="--boost -1 is negative")


def test_boost_past_limits(camp):
    rejected(camp, 2, "roll", "veyra", "stealth", "--dr", "2", "--boost", "5000", rule="A-LIMITS")


@pytest.mark.parametrize("faces,why", [
    ("1,1,1", "gave 3 face(s) but veyra's check rolls 2"), ("1", "gave 1 face(s) but veyra's check rolls 2"),
    ("", "gave 0 face(s) but veyra's check rolls 2"), ("1,x", "'x' is not a die face"), ("x", "'x' is not a die face"),
    ("3", "'3' is not a die face"), ("1,,2,0", "gave 3 face(s) but veyra's check rolls 2"),
])
def test_faces_that_do_not_fit(camp, faces, why):
    rejected(camp, 2, "roll", "veyra", "stealth", "--dr", "2", "--boost", "1", "--faces", faces, contains=why)


def test_missing_reroll_faces_with_physical_faces(camp):
    err = rejected(camp, 2, "roll", "kai", "stealth", "--vs", "sentry:observation", "--boost", "2", "--advantage",
                   "--faces", "miss,hit,miss", contains="--reroll-faces gave 0 face(s) but the Edge Phase rerolls 2")
    assert "--reroll-faces" in err


def test_too_few_reroll_faces(camp):
    rejected(camp, 2, "roll", "kai", "stealth", "--dr", "3", "--boost", "2", "--advantage",
             "--faces", "miss,hit,miss", "--reroll-faces", "hit",
             contains="--reroll-faces gave 1 face(s) but the Edge Phase rerolls 2")


def test_too_many_reroll_faces(camp):
    rejected(camp, 2, "roll", "kai", "stealth", "--dr", "3", "--boost", "2", "--advantage",
             "--faces", "miss,hit,miss", "--reroll-faces", "hit,hit,hit",
             contains="--reroll-faces gave 3 face(s) but the Edge Phase rerolls 2")


@pytest.mark.parametrize("char", ["../x", "a/b", "..", "x.yaml"])
def test_id_escaping_the_campaign(camp, char):
    rejected(camp, 2, "roll", char, "stealth", "--dr", "2", contains="is not valid; use 1 to 64 letters")


def test_id_escaping_the_campaign_in_vs(camp):
    rejected(camp, 2, "roll", "veyra", "stealth", "--vs", "../x:observation",
             contains="character id '../x' is not valid")


def test_no_target(camp):
    rejected(camp, 2, "roll", "veyra", "stealth", "--faces", "1", contains="give exactly one target")


def test_two_targets(camp):
    rejected(camp, 2, "roll", "veyra", "stealth", "--dr", "2", "--vs", "sentry:observation", "--faces", "1",
             contains="give exactly one target")


def test_vs_an_unconscious_creature_is_refused(camp):
    assert run(camp, "condition", "sentry", "+unconscious").code == 0
    err = rejected(camp, 3, "roll", "kai", "stealth", "--vs", "sentry:observation", "--faces", "1",
                   contains="sentry is unconscious, so its Readiness is not a target")
    assert "unconscious" in err and "--dr" in err


def test_boost_over_skill_level_is_refused(camp):
    err = rejected(camp, 3, "roll", "veyra", "stealth", "--dr", "2", "--boost", "3", "--faces", "1,1,1,1",
                   contains="veyra cannot Boost 3: stealth SL is 2")
    assert "SL" in err


def test_unaffordable_is_refused(camp):
    (camp / "characters" / "veyra.yaml").write_text(
        (camp / "characters" / "veyra.yaml").read_text().replace("ready: 5", "ready: 2"))
    err = rejected(camp, 3, "roll", "veyra", "stealth", "--dr", "2", "--boost", "2", "--faces", "1,1,1",
                   contains="veyra cannot pay 3 AD with 2 Ready")
    assert "2 Ready" in err


def test_character_as_its_own_opponent_is_bad_input(camp):
    rejected(camp, 2, "roll", "selka", "stealth", "--contested", "selka:observation",
             contains="a character appears twice in one check")


def test_a_face_that_is_no_face_is_bad_input_whatever_the_boost(camp):
    rejected(camp, 2, "roll", "veyra", "stealth", "--dr", "2", "--boost", "3", "--faces", "1,x",
             contains="'x' is not a die face")


@pytest.mark.parametrize("extra", [
    ("--boost", "3", "--faces", "1,1"),  # too few faces for what the Boost would roll
    ("--boost", "3", "--faces", "1,1,1,0", "--advantage"),  # the Edge reroll face is missing
    ("--boost", "3", "--faces", "1,1,1,1", "--reroll-faces", "2"),  # a reroll face without Edge
])
def test_T3_ORDER_a_boost_over_the_skill_level_is_refused_as_that_before_any_complaint_about_faces(camp, extra):
    """The rules' refusal comes first: the player hears that Boost 3 is over Stealth SL 2, not how many
    faces a roll the rules forbid would need."""
    rejected(camp, 3, "roll", "veyra", "stealth", "--dr", "2", *extra, contains="veyra cannot Boost 3: stealth SL is 2")


def test_missing_reroll_faces_beats_unaffordable(camp):
    """Faces that do not fit (a reroll face missing) are reported before the Ready dice are counted."""
    (camp / "characters" / "kai.yaml").write_text(
        (camp / "characters" / "kai.yaml").read_text().replace("ready: 5", "ready: 2"))
    err = rejected(camp, 2, "roll", "kai", "stealth", "--dr", "3", "--boost", "2", "--advantage",
                   "--faces", "miss,hit,miss", contains="--reroll-faces gave 0 face(s) but the Edge Phase rerolls 2")
    assert "--reroll-faces" in err


def test_json_mode_prints_one_object(camp):
    r = run(camp, "roll", "--force", "veyra", "stealth", "--dr", "2", "--faces", "1", "--json")
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert len(lines) == 1
    assert isinstance(json.loads(lines[0]), dict)


def test_seed_makes_a_roll_reproducible(tmp_path):
    results = []
    for name in ("a", "b"):
        root = tmp_path / name
        assert run(None, "init", str(root), "--example").code == 0
        r = run(root, "--seed", "42", "--json", "roll", "raeline", "stealth", "--dr", "4", "--boost", "3",
                "--advantage")
        assert r.code == 0, r.err
        results.append((r.json["faces"], r.json["final_faces"]))
    assert results[0] == results[1]
    assert len(results[0][0]) == 4
