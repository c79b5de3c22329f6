"""Spells, Magic Dice and the invisible condition, through the engine and the command line.

Rules cited: R2-SPELL-1 .. R2-SPELL-6, R2-INVIS-1 .. R2-INVIS-3, R-PAY-3, R-PAY-5, R-ACT-4, R-HIDE-7.

The example's caster is wren (characters/wren.yaml): Arcana SL 2 (Cognition), Stealth SL 1, 5 Ready AD and
3 Ready Magic Dice; `spark` costs 1 MD, asks no check and can be seen and heard; `veil` costs 1 AD + 1 MD and
asks an Arcana check at DR 3, and nothing about it can be noticed. sentry has Observation Readiness 3, mira 2.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from narateer_cli.errors import BadInput, Refused
from narateer_cli.store.campaign import default_rules
from narateer_cli.systems.narateer.engine.character import Sheet, Skill
from narateer_cli.systems.narateer.engine.dice import DiceSource
from narateer_cli.systems.narateer.engine.ruleset import build_ruleset
from narateer_cli.systems.narateer.engine.spells import Spell, cast
from tests.conftest import ok, refused, run, sheet_dice, snapshot

RULES = build_ruleset(default_rules())
SPARK = Spell("spark", ad=0, md=1, tier="minor", reveals=("seen", "heard"), range=10)
VEIL = Spell("veil", ad=1, md=1, tier="major", skill="arcana", dr=3, range="touch")
BOLT = Spell("bolt", ad=2, md=2, tier="major", reveals=("seen",))


def caster(ready=5, magic=3, conditions=(), rules=RULES):
    return Sheet(id="wren", name="Wren", vitals={"cognition": 3},
                 skills={"arcana": Skill("arcana", 2, "cognition"), "stealth": Skill("stealth", 1, "agility")},
                 dice={"ready": ready, "used": 0}, conditions=tuple(conditions),
                 spells={s.name: s for s in (SPARK, VEIL, BOLT)}, magic_dice={"ready": magic, "used": 0})


def faces(*values, reroll=()):
    """Physical faces for the check (none given: the spell rolls nothing)."""
    return DiceSource(physical={"faces": list(values), "reroll": list(reroll)} if values else {})


# ---- the engine, with physical faces -------------------------------------------------------------------

def test_r2_spell_1_a_spell_without_a_check_pays_its_casting_cost_and_nothing_more():
    result = cast(caster(), SPARK, RULES, faces())
    assert (result.paid_ad, result.paid_md, result.check) == (0, 1, None)  # no extra AD for being an action
    assert result.dice_after == {"ready": 5, "used": 0}
    assert result.magic_after == {"ready": 2, "used": 1}


def test_r2_spell_2_slowed_doubles_the_action_dice_of_a_casting_never_its_magic_dice():
    result = cast(caster(conditions=("slowed",)), BOLT, RULES, faces())
    assert (result.pay_multiplier, result.paid_ad, result.paid_md) == (2, 4, 2)
    assert result.dice_after == {"ready": 1, "used": 4}
    assert result.magic_after == {"ready": 1, "used": 2}


def test_r2_spell_3_a_spell_with_a_check_rolls_its_ad_base_its_boost_and_the_magic_dice_it_paid():
    # veil: base 1 AD + Boost 1, Slowed doubles the AD (4); the 1 MD it paid rolls as a granted die: 3 dice
    result = cast(caster(conditions=("slowed",)), VEIL, RULES, faces(2, 1, 1), boost=1)
    check = result.check
    assert (check.payment.paid, check.payment.roll_dice, check.payment.boost) == (4, 3, 1)
    assert (check.total, check.margin, check.success, check.outcome) == (4, 1, True, "Success")
    assert result.paid_md == 1 and result.magic_after == {"ready": 2, "used": 1}


def test_r2_spell_3_the_magic_dice_roll_only_while_the_knob_says_so():
    rules = build_ruleset(default_rules(), {"magic": {"md_rolled": False, "refresh": {"amount": "all",
                                                                                      "timing": "manual"},
                                                      "reveals": ["seen", "heard"]}})
    result = cast(caster(rules=rules), VEIL, rules, faces(2))
    assert (result.check.payment.roll_dice, result.check.total) == (1, 2)
    assert result.check.success is False  # 2 does not beat DR 3


def test_r2_spell_3_a_boost_over_the_skill_level_is_refused_before_anything_is_rolled():
    with pytest.raises(Refused, match="Boost 3"):
        cast(caster(), VEIL, RULES, faces(2, 2, 2, 2, 2), boost=3)


def test_r_pay_5_magic_dice_short_refuses_the_whole_casting():
    with pytest.raises(Refused, match="Magic Dice"):
        cast(caster(magic=1), BOLT, RULES, faces())


def test_r2_spell_1_a_spell_without_a_check_takes_no_boost_or_faces():
    with pytest.raises(BadInput, match="no Skill Check"):
        cast(caster(), SPARK, RULES, faces(), boost=1)
    with pytest.raises(BadInput, match="no Skill Check"):
        cast(caster(), SPARK, RULES, faces(2))


@settings(max_examples=60, deadline=None)
@given(ad=st.integers(0, 4), md=st.integers(0, 4), boost=st.integers(0, 2), slowed=st.booleans(),
       ready=st.integers(0, 12), magic=st.integers(0, 6))
def test_r2_spell_2_property_the_payment_doubles_ad_only_and_conserves_both_pools(ad, md, boost, slowed, ready,
                                                                                 magic):
    spell = Spell("x", ad=ad, md=md, tier="major", skill="arcana", dr=3)
    sheet = caster(ready=ready, magic=magic, conditions=("slowed",) if slowed else ())
    rolled = ad + boost + md
    try:
        result = cast(sheet, spell, RULES, faces(*([1] * rolled)), boost=boost)
    except Refused:
        assert (ad + boost) * (2 if slowed else 1) > ready or md > magic
        return
    assert result.paid_ad == (ad + boost) * (2 if slowed else 1)
    assert result.paid_md == md  # Slowed never changes a Magic Dice payment
    assert sum(result.dice_after.values()) == ready and sum(result.magic_after.values()) == magic
    assert result.check.payment.roll_dice == rolled and result.check.total == rolled


# ---- the command line ----------------------------------------------------------------------------------

def sheet(camp, cid):
    return YAML(typ="safe").load((camp / "characters" / f"{cid}.yaml").read_text())


def duel(camp):
    ok(camp, "encounter", "new", "duel", "wren", "sentry", "mira")
    ok(camp, "turn", "start", "wren")


def test_r2_spell_cli_outside_an_encounter_pays_magic_dice_and_logs_to_the_campaign(camp):
    data = ok(camp, "cast", "wren", "spark")
    assert (data["spell"], data["cost"], data["paid_ad"], data["paid_md"]) == ("spark", {"ad": 0, "md": 1}, 0, 1)
    assert (data["tier"], data["reveals"], data["range"]) == ("minor", ["seen", "heard"], 10)
    assert sheet(camp, "wren")["magic_dice"] == {"ready": 2, "used": 1}
    assert sheet_dice(camp, "wren") == {"ready": 5, "used": 0}
    assert "casts spark" in run(camp, "encounter", "log", "campaign").out
    assert run(camp, "verify").code == 0


def test_r2_spell_cli_a_check_spell_through_the_check_engine(camp):
    data = ok(camp, "cast", "wren", "veil", "--boost", "1", "--faces", "crit,hit,miss")
    check = data["check"]
    assert (check["skill"], check["target"], check["roll_dice"], check["paid"]) == ("arcana", 3, 3, 2)
    assert (check["total"], check["success"], check["outcome"]) == (3, False, "Failure")
    assert sheet_dice(camp, "wren") == {"ready": 3, "used": 2}
    assert sheet(camp, "wren")["magic_dice"] == {"ready": 2, "used": 1}
    # the Guide's --dr replaces the spell's own
    again = ok(camp, "cast", "wren", "veil", "--dr", "2", "--faces", "2,1")
    assert (again["check"]["target"], again["check"]["success"]) == (2, True)
    assert run(camp, "verify").code == 0


def test_r2_spell_cli_bad_input_is_one_line_and_changes_nothing(camp):
    refused(camp, 2, "cast", "wren", "sprak", contains="did you mean spark")
    refused(camp, 2, "cast", "wren", "spark", "--boost", "1", contains="no Skill Check")
    refused(camp, 2, "cast", "wren", "veil", "--faces", "2", contains="rolls 2")
    refused(camp, 3, "cast", "wren", "veil", "--boost", "3", "--faces", "2,2,2,2", rule="R-CHK-2")
    refused(camp, 2, "cast", "selka", "spark", contains="unknown spell")


def test_r_pay_5_cli_magic_dice_short_is_refused_with_nothing_spent(camp):
    for _ in range(3):
        ok(camp, "cast", "wren", "spark")
    refused(camp, 3, "cast", "wren", "spark", rule="R-PAY-5")
    data = ok(camp, "refresh", "wren", "--magic")
    assert (data["moved"], data["dice_after"]) == (3, {"ready": 3, "used": 0})
    assert sheet(camp, "wren")["magic_dice"] == {"ready": 3, "used": 0}
    refused(camp, 2, "refresh", "selka", "--magic", contains="no Magic Dice")


@pytest.mark.parametrize("edit, says", [
    (("reveals: [seen, heard]", "reveals: [seen, herd]"), "did you mean heard"),
    (("cost: {ad: 0, md: 1}", "cost: {ad: 0, mdd: 1}"), "did you mean md"),
    (("skill: arcana, dr: 3", "skill: arcanna, dr: 3"), "did you mean arcana"),
    (("tier: minor", "tier: minr"), "spells[0].tier"),
    (("cost: {ad: 1, md: 1}", "cost: {ad: -1, md: 1}"), "spells[1].cost.ad"),
    (("magic_dice:\n  ready: 3\n  used: 0\n", ""), "no magic_dice"),
    (("  used: 0\nspells", "  used: many\nspells"), "magic_dice.used"),
])
def test_r2_spell_check_names_a_bad_spell_or_pool_and_cast_refuses_the_sheet(camp, edit, says):
    path = camp / "characters" / "wren.yaml"
    text = path.read_text()
    assert edit[0] in text
    path.write_text(text.replace(edit[0], edit[1], 1))
    r = run(camp, "check")
    assert r.code == 1 and says in r.out + r.err, (r.out, r.err)
    refused(camp, 2, "cast", "wren", "spark", contains=says)


def test_r2_spell_show_lists_the_spells_and_magic_dice_and_a_sheet_without_them_shows_neither(camp):
    data = ok(camp, "show", "wren")
    assert data["magic_dice"] == {"ready": 3, "used": 0}
    assert [(s["name"], s["cost"], s["check"]) for s in data["spells"]] == [
        ("spark", {"ad": 0, "md": 1}, None), ("veil", {"ad": 1, "md": 1}, {"skill": "arcana", "dr": 3})]
    assert "veil     1 AD + 1 MD  major   arcana vs DR 3" in run(camp, "show", "wren").out
    assert "spells" not in ok(camp, "show", "selka") and "magic dice" not in run(camp, "show", "selka").out


def test_r2_spell_new_takes_magic_dice_and_a_copy_starts_with_them_fresh(camp):
    ok(camp, "new", "wiz", "--skill", "stealth=1", "--magic-dice", "2")
    assert sheet(camp, "wiz")["magic_dice"] == {"ready": 2, "used": 0}
    refused(camp, 2, "new", "wiz2", "--magic-dice", "-1", contains="negative")
    ok(camp, "cast", "wren", "spark")
    ok(camp, "new", "wren2", "--from", "wren")
    assert sheet(camp, "wren2")["magic_dice"] == {"ready": 3, "used": 0}


def test_r2_spell_4_in_an_encounter_a_noticed_spell_reveals_a_hidden_caster_and_a_quiet_one_does_not(camp):
    duel(camp)
    hide = ok(camp, "hide", "wren", "--from", "sentry", "--from", "mira", "--boost", "1", "--faces", "2,2")
    assert hide["hidden_from"] == ["sentry", "mira"]
    quiet = ok(camp, "cast", "wren", "veil", "--faces", "2,2")
    assert quiet["revealed_to"] == [] and quiet["check"]["success"] is True
    state = ok(camp, "encounter", "show")
    assert set(state["hidden"]["wren"]) == {"sentry", "mira"}
    assert state["uses"]["arcana"] == 2  # the check took one proactive Arcana use (SL 2 + 1 = 3)
    loud = ok(camp, "cast", "wren", "spark")
    assert loud["revealed_to"] == ["sentry", "mira"] and loud["invisible"] is None
    assert ok(camp, "encounter", "show")["hidden"] == {}
    assert run(camp, "verify").code == 0
    before_undo = sheet(camp, "wren")["magic_dice"]
    assert before_undo == {"ready": 1, "used": 2}
    assert run(camp, "undo").code == 0
    assert sheet(camp, "wren")["magic_dice"] == {"ready": 2, "used": 1}
    assert set(ok(camp, "encounter", "show")["hidden"]["wren"]) == {"sentry", "mira"}


def test_r2_spell_cli_casting_belongs_to_the_casters_activation(camp):
    duel(camp)
    ok(camp, "turn", "end")
    ok(camp, "turn", "start", "sentry")
    refused(camp, 3, "cast", "wren", "spark", rule="R-ACT-3")


def test_r2_spell_5_magic_dice_refresh_with_the_activation_when_the_knob_says_so(camp):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n  magic:\n    refresh: {amount: 1, timing: activation_start}\n")
    ok(camp, "cast", "wren", "spark")
    ok(camp, "cast", "wren", "spark")
    duel(camp)
    assert sheet(camp, "wren")["magic_dice"] == {"ready": 2, "used": 1}  # the knob's amount, 1
    assert run(camp, "verify").code == 0


def test_r2_spell_6_a_secret_cast_seals_its_check_and_shows_its_costs(camp):
    duel(camp)
    r = run(camp, "--json", "cast", "wren", "veil", "--faces", "2,1", "--secret")
    assert r.code == 0, r.err
    log = run(camp, "--json", "encounter", "log").json
    entry = log["entries"][-1] if isinstance(log, dict) else log[-1]
    assert "faces" not in str(entry.get("result")) and "total" not in entry["result"]["check"]
    assert sheet(camp, "wren")["magic_dice"] == {"ready": 2, "used": 1}
    # the costs are counters, shown as every secret roll's cost; the rest is the commitment
    shown = entry["changes"]["wren"]
    assert (shown["magic_dice.ready"]["delta"], shown["action_dice.ready"]["delta"]) == (-1, -1)
    assert len(entry["commitment"]) == 64
    assert run(camp, "verify").code == 0 and run(camp, "check").code == 0
    unveiled = run(camp, "unveil", entry["id"])
    assert unveiled.code == 0, unveiled.err
    r = run(camp, "verify")
    assert r.code == 0 and "still secret" not in r.out, r.out
    refused(camp, 2, "cast", "wren", "spark", "--secret", contains="rolls nothing")


# ---- invisibility --------------------------------------------------------------------------------------

def test_r2_invis_1_revealing_an_invisible_creature_leaves_it_invisible(camp):
    duel(camp)
    ok(camp, "condition", "wren", "+invisible")
    ok(camp, "hide", "wren", "--from", "sentry", "--faces", "2,2", "--boost", "1")
    data = ok(camp, "reveal", "wren")
    assert data["revealed_to"] == ["sentry"] and data["invisible"] == "invisible"
    assert "invisible" in sheet(camp, "wren")["conditions"]
    assert run(camp, "verify").code == 0


def test_r2_invis_2_an_invisible_attacker_gets_no_full_guard_or_clash_and_its_attack_reveals_only_its_place(camp):
    duel(camp)
    ok(camp, "condition", "wren", "+invisible")
    refused(camp, 3, "exchange", "wren", "sentry", "--response", "guard", "--faces", "2", "--response-faces", "1",
            contains="wren is invisible")
    data = ok(camp, "exchange", "wren", "sentry", "--response", "none", "--faces", "2", "--force")
    assert data["defense"] is None
    assert "invisible" in sheet(camp, "wren")["conditions"]


def test_r2_invis_3_an_invisible_creature_cannot_be_targeted_directly_even_where_it_was_revealed(camp):
    duel(camp)
    ok(camp, "condition", "wren", "+invisible")
    ok(camp, "turn", "end")
    ok(camp, "turn", "start", "sentry")
    refused(camp, 3, "exchange", "sentry", "wren", "--response", "none", "--faces", "2", rule="R2-INVIS")


def test_r2_invis_3_with_the_disadvantage_knob_the_attack_is_made_with_disadvantage(camp):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n  conditions:\n    invisible: {unseen: disadvantage}\n")
    duel(camp)
    ok(camp, "condition", "wren", "+invisible")
    ok(camp, "turn", "end")
    ok(camp, "turn", "start", "sentry")
    data = ok(camp, "exchange", "sentry", "wren", "--response", "none", "--faces", "2", "--reroll-faces", "0", "--force")
    assert data["attack"]["edge"] == "disadvantage" and data["attack"]["final_faces"] == [0]
    assert data["lands"] is None
    assert run(camp, "verify").code == 0


def test_r2_spell_r2_invis_a_session_that_casts_turns_invisible_and_is_revealed_verifies_clean(camp):
    duel(camp)
    ok(camp, "hide", "wren", "--from", "sentry", "--from", "mira", "--boost", "1", "--faces", "2,2")
    ok(camp, "cast", "wren", "veil", "--faces", "2,1")
    ok(camp, "condition", "wren", "+invisible")
    cast = ok(camp, "cast", "wren", "spark")
    assert cast["revealed_to"] == ["sentry", "mira"] and cast["invisible"] == "invisible"
    ok(camp, "exchange", "wren", "mira", "--response", "none", "--faces", "1", "--force")
    ok(camp, "turn", "end")
    ok(camp, "turn", "start", "mira")
    assert ok(camp, "encounter", "show")["hidden"] == {}
    r = run(camp, "verify")
    assert r.code == 0 and "no problems" in r.out, r.out + r.err
    before = snapshot(camp)
    assert run(camp, "verify").code == 0 and snapshot(camp) == before


def test_t3_zero_a_cast_whose_check_cannot_succeed_asks_first_and_force_rolls_it(camp):
    # veil: 1 AD base and the 1 Magic Die it pays, no Boost: 2 dice show at most 4, never above DR 30
    before = snapshot(camp)
    refused(camp, 3, "cast", "wren", "veil", "--dr", "30", "--faces", "2,2", contains="arcana check against DR 30",
            rule="T3-ZERO")
    assert snapshot(camp) == before
    data = ok(camp, "cast", "wren", "veil", "--dr", "30", "--faces", "2,2", "--force")
    assert (data["check"]["total"], data["check"]["success"]) == (4, False)


# ---- odds and --dry-run --------------------------------------------------------------------------------

def test_r2_spell_8_dry_run_gives_the_casting_cost_and_exact_odds_of_each_boost():
    from narateer_cli.systems.narateer.engine.spells import cast_dry_run

    # veil: 1 AD base + the 1 MD it pays rolled with it (md_rolled), Boost 0..2; faces 0, 1, 2 each a third:
    # 2 dice beat DR 3 only with 2+2 (1/9); 3 dice beat it with 10 of 27 ways (total 4, 5, 6: 6 + 3 + 1)
    odds = cast_dry_run(caster(conditions=("slowed",)), VEIL, RULES)
    assert (odds.skill, odds.dr, odds.pay_multiplier, odds.paid_md) == ("arcana", 3, 2, 1)
    assert [(o.boost, o.roll_dice, o.paid_ad) for o in odds.options] == [(0, 2, 2), (1, 3, 4), (2, 4, 6)]
    assert odds.options[0].p_success == pytest.approx(1 / 9)
    assert odds.options[1].p_success == pytest.approx(10 / 27)
    assert [o.affordable for o in odds.options] == [True, True, False]  # 6 AD with 5 Ready
    plain = cast_dry_run(caster(magic=0), SPARK, RULES)
    assert plain.options[0].affordable is False and plain.options[0].p_success is None  # no Magic Die Ready


def test_r2_spell_8_cli_dry_run_writes_nothing_and_matches_the_cast_it_describes(camp):
    before = snapshot(camp)
    data = ok(camp, "cast", "wren", "veil", "--dry-run")
    assert data["dry_run"] is True and [o["paid_ad"] for o in data["options"]] == [1, 2, 3]
    assert data["options"][1]["p_success"] == pytest.approx(10 / 27)
    assert snapshot(camp) == before
    assert "nothing written" in run(camp, "cast", "wren", "spark", "--dry-run").out
    refused(camp, 2, "cast", "wren", "veil", "--dry-run", "--faces", "2,1", contains="--faces")
    refused(camp, 2, "cast", "wren", "spark", "--dry-run", "--dr", "3", contains="asks no Skill Check")
    assert snapshot(camp) == before
    cast_now = ok(camp, "cast", "wren", "veil", "--boost", "1", "--faces", "2,1,1")
    assert (cast_now["check"]["paid"], len(cast_now["check"]["faces"])) == (2, 3)  # the dry run's Boost 1 row


def test_r2_spell_r2_trait_r2_invis_a_session_with_casts_traits_invisibility_and_undo_verifies_and_checks_clean(camp):
    ok(camp, "encounter", "new", "scene", "wren", "mira", "bandit")
    ok(camp, "turn", "start", "wren")
    ok(camp, "hide", "wren", "--from", "mira", "--from", "bandit", "--boost", "1", "--faces", "2,2")
    ok(camp, "cast", "wren", "veil", "--faces", "2,1")
    ok(camp, "condition", "wren", "+invisible")
    cast = ok(camp, "cast", "wren", "spark")
    assert cast["revealed_to"] == ["mira", "bandit"] and cast["invisible"] == "invisible"
    ok(camp, "turn", "end")
    ok(camp, "turn", "start", "mira")
    guard = ok(camp, "exchange", "mira", "bandit", "--response", "guard", "--trait", "iron-wall", "--faces", "2",
               "--response-faces", "1,1", "--force")
    assert (guard["trait"]["spent"], guard["trait"]["reaction"]) == (1, False)
    riposte = ok(camp, "react", "bandit", "trait", "--against", "mira", "--trait", "riposte")
    assert (riposte["trait"]["name"], riposte["trait"]["reaction"]) == ("riposte", True)
    uses = sheet(camp, "bandit")["traits"]
    assert (uses["iron-wall"]["uses"]["left"], uses["riposte"]["uses"]["left"]) == (1, 0)
    assert sheet(camp, "wren")["magic_dice"] == {"ready": 1, "used": 2}
    for verb in ("verify", "check"):
        r = run(camp, verb)
        assert r.code == 0, (verb, r.out, r.err)
    ok(camp, "undo")  # the riposte: its use comes back
    assert sheet(camp, "bandit")["traits"]["riposte"]["uses"]["left"] == 1
    for verb in ("verify", "check"):
        r = run(camp, verb)
        assert r.code == 0, (verb, r.out, r.err)


def test_r2_invis_the_examples_shade_starts_invisible_and_stays_so_when_revealed(camp):
    assert sheet(camp, "shade")["conditions"] == ["invisible"]
    ok(camp, "encounter", "new", "haunt", "shade", "mira")
    ok(camp, "turn", "start", "mira")
    before = snapshot(camp)
    refused(camp, 3, "exchange", "mira", "shade", "--response", "none", "--faces", "2", rule="R2-INVIS")
    assert snapshot(camp) == before
    ok(camp, "turn", "end")
    ok(camp, "turn", "start", "shade")
    ok(camp, "hide", "shade", "--from", "mira", "--faces", "2,2", "--boost", "1")
    data = ok(camp, "reveal", "shade")
    assert data["revealed_to"] == ["mira"] and data["invisible"] == "invisible"
    assert sheet(camp, "shade")["conditions"] == ["invisible"]
    assert run(camp, "verify").code == 0 and run(camp, "check").code == 0


def test_r2_invis_1_a_search_that_finds_an_invisible_hider_says_it_stays_invisible(camp):
    ok(camp, "encounter", "new", "haunt", "shade", "mira")
    ok(camp, "turn", "start", "shade")
    ok(camp, "hide", "shade", "--from", "mira", "--faces", "2,1", "--boost", "1")  # Stealth 3
    ok(camp, "turn", "end")
    ok(camp, "turn", "start", "mira")
    data = ok(camp, "search", "mira", "--for", "shade", "--faces", "2,2", "--boost", "1")  # 4 beats 3
    assert (data["found"], data["invisible"]) == (True, "invisible")
    assert ok(camp, "encounter", "show")["hidden"] == {}
    assert sheet(camp, "shade")["conditions"] == ["invisible"]
    assert run(camp, "verify").code == 0


def test_r2_invis_1_a_search_that_finds_a_visible_hider_says_nothing_of_invisibility(camp):
    ok(camp, "encounter", "new", "haunt", "wren", "mira")
    ok(camp, "turn", "start", "wren")
    ok(camp, "hide", "wren", "--from", "mira", "--faces", "2,1", "--boost", "1")
    ok(camp, "turn", "end")
    ok(camp, "turn", "start", "mira")
    data = ok(camp, "search", "mira", "--for", "wren", "--faces", "2,2", "--boost", "1")
    assert data["found"] is True and "invisible" not in data
    assert "still invisible" not in run(camp, "encounter", "log").out
