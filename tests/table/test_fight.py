"""T-FIGHT: a ranged attack, an Opportunity Attack with a weapon, a Clash won by the defender, wounds
applied in the same command and a wound past a character's dice, all with the shipped rules."""

from __future__ import annotations

from tests.conftest import ok, refused, run, sheet_dice


def fight(camp):
    ok(camp, "encounter", "new", "fight", "mira", "bandit", "sentry")
    ok(camp, "turn", "start", "mira")


def test_ranged_exchange_with_the_shipped_rules(camp):
    fight(camp)
    r = ok(camp, "exchange", "mira", "bandit", "--skill", "ranged", "--response", "guard", "--faces", "2",
           "--response-faces", "1")
    assert r["attack"]["skill"] == "ranged" and r["defense"]["skill"] == "acrobatics"
    assert r["lands"] == "attacker" and r["hit_margin"] == 1
    refused(camp, 3, "exchange", "mira", "bandit", "--skill", "ranged", "--response", "clash", "--faces", "2",
            contains="no response to a ranged attack")


def test_unanswered_ranged_attack_is_against_acrobatics_readiness(camp):
    fight(camp)
    r = ok(camp, "exchange", "--force", "mira", "bandit", "--skill", "ranged", "--response", "none", "--faces", "2")
    assert r["attack"]["target_label"] == "bandit's acrobatics Readiness"


def test_the_ranged_response_knob(camp):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n  exchange:\n    ranged:\n      skills: [ranged]\n"
                      "      responses: [none]\n      defense_skill: acrobatics\n")
    fight(camp)
    refused(camp, 3, "exchange", "mira", "bandit", "--skill", "ranged", "--response", "guard", "--faces", "2",
            contains="declare --response none")


def test_an_attack_skill_outside_the_ruleset_names_the_attacker(camp):
    sheet = camp / "characters" / "mira.yaml"
    sheet.write_text(sheet.read_text().replace("skills:\n", "skills:\n  bows: {level: 2, vital: agility}\n", 1))
    fight(camp)
    err = refused(camp, 2, "exchange", "mira", "bandit", "--skill", "bows", "--response", "none", "--faces", "2",
                  contains="mira's attack skill 'bows' is not in the ruleset")
    assert "mira's attack skill 'bows'" in err and "for bandit" not in err


def test_clash_won_by_the_defender_deals_its_weapon_damage_and_apply_wounds(camp):
    fight(camp)
    r = ok(camp, "exchange", "mira", "bandit", "--weapon", "sword", "--response", "clash", "--response-weapon",
           "club", "--response-boost", "1", "--faces", "0", "--response-faces", "2,1", "--apply")
    assert r["lands"] == "defender" and r["damage"] == 2
    assert r["applied"]["actor"] == "mira" and r["applied"]["moved"] == 2
    assert sheet_dice(camp, "mira")["wounded"] == 2
    refused(camp, 2, "exchange", "mira", "bandit", "--response", "guard", "--response-weapon", "club",
            "--faces", "2", contains="--response clash")


def test_opportunity_attack_with_a_weapon_pays_its_cost_and_applies_damage(camp):
    sentry = camp / "characters" / "sentry.yaml"
    sentry.write_text(sentry.read_text().replace("spear: {attack_cost: 1, damage: 3}",
                                                 "spear: {attack_cost: 2, damage: 3}"))
    fight(camp)
    ok(camp, "move", "mira", "2")
    before = sheet_dice(camp, "mira")
    r = ok(camp, "react", "sentry", "opportunity", "--against", "mira", "--weapon", "spear", "--apply",
           "--faces", "2,2")
    assert r["check"]["paid"] == 2 and r["lands"] == "attacker" and r["damage"] == 3
    assert sheet_dice(camp, "mira")["wounded"] == before.get("wounded", 0) + 3
    assert "damage 3" in run(camp, "encounter", "log", "--last", "1").out


def test_a_wound_past_the_dice_says_so_and_marks_out_of_the_fight(camp):
    r = run(camp, "wound", "bandit", "10")
    assert r.code == 0
    assert "5 wound(s) past bandit's dice" in r.out and "out of the fight (incapacitated)" in r.out
    shown = ok(camp, "show", "bandit")
    assert "incapacitated" in shown["conditions"] and shown["dice"]["wounded"] == 5
    data = ok(camp, "heal", "bandit", "1")
    assert data["overflow"] == 0
