"""Class traits: a trait declared with Full Guard or Clash, with an Opportunity Attack, or after an Exchange.

Rules: R2-TRAIT-1 to R2-TRAIT-5, A-TRAIT, R-ACT-5, R-PAY-3. Every roll uses physical faces, first through the
engine (no files), then through the command line on the example campaign, whose bandit holds two traits:

  iron-wall  trigger full-guard, uses 2/2, modifies full-guard with one bonus die, creates no Reaction
  riposte    trigger exchange-resolved, uses 1/1, creates a Reaction

In the `ambush` encounter mira (Melee SL 2, 6 Ready) attacks the bandit (Melee SL 1, Readiness 2, 5 Ready).
"""

from __future__ import annotations

import re

import pytest
from ruamel.yaml import YAML

from narateer_cli.errors import BadInput, Refused
from narateer_cli.store.campaign import default_rules
from narateer_cli.systems.narateer.engine import traits
from narateer_cli.systems.narateer.engine.character import Sheet, Skill
from narateer_cli.systems.narateer.engine.check import Declaration
from narateer_cli.systems.narateer.engine.combat import exchange
from narateer_cli.systems.narateer.engine.dice import DiceSource
from narateer_cli.systems.narateer.engine.ruleset import build_ruleset
from tests.conftest import ok, refused, run, sheet_dice, snapshot

RULES = build_ruleset(default_rules())
MISS, HIT, CRIT = 0, 1, 2

IRON_WALL = {"trigger": "full-guard", "uses": {"left": 2, "max": 2}, "modifies": {"full-guard": {"bonus_dice": 1}},
             "creates_reaction": False}
RIPOSTE = {"trigger": "exchange-resolved", "uses": {"left": 1, "max": 1}, "creates_reaction": True}


def sheet(cid, ready=5, conditions=(), owned=None, rules=RULES):
    return Sheet(id=cid, name=cid.title(), vitals={"might": 2}, skills={"melee": Skill("melee", 1, "might")},
                 dice={"ready": ready, "used": 0}, conditions=tuple(conditions),
                 traits=traits.parse_traits(owned, f"characters/{cid}.yaml"))


def guard(defender, trait_name, attack_faces, response_faces, response="guard", rules=RULES):
    """An Exchange of mira on `defender`, answered by `response` with `trait_name` declared as part of it."""
    attacker = sheet("mira", ready=6)
    event = traits.RESPONSE_EVENTS[response]
    use = traits.declare(defender, trait_name, event, rules) if trait_name else None
    dice = DiceSource(None, {"faces": attack_faces, "response": response_faces}, rules.faces)
    return exchange(attacker, defender, response, Declaration(skill="melee", label="attack"), 0, rules, dice,
                    False, False, trait=use)


# ---- through the engine -------------------------------------------------------------------------------------

def test_a_full_guard_trait_adds_its_bonus_die_rolled_not_paid():
    bandit = sheet("bandit", owned={"iron-wall": IRON_WALL})
    result, after = guard(bandit, "iron-wall", [CRIT], [HIT, CRIT])
    defense = result.defense
    assert defense.payment.roll_dice == 2 and defense.payment.bonus_dice == 1 and defense.payment.paid == 1
    assert defense.total == 3 and result.attack.total == 2 and result.lands is None
    assert after["bandit"] == {"ready": 4, "used": 1}
    use = result.trait
    assert (use.name, use.trigger, use.event, use.spent) == ("iron-wall", "full-guard", "full-guard", 1)
    assert use.uses == {"left": 1, "max": 2} and use.reaction is False and use.applied == {"bonus_dice": 1}
    assert traits.edits(use) == {"bandit": {("traits", "iron-wall", "uses", "left"): 1}}


def test_without_the_trait_the_same_faces_do_not_fit():
    bandit = sheet("bandit", owned={"iron-wall": IRON_WALL})
    with pytest.raises(BadInput, match="rolls 1"):
        guard(bandit, None, [CRIT], [HIT, CRIT])


def test_slowed_doubles_the_response_payment_never_the_trait_uses():
    bandit = sheet("bandit", conditions=("slowed",), owned={"iron-wall": IRON_WALL})
    result, after = guard(bandit, "iron-wall", [HIT], [HIT, HIT])
    assert result.defense.payment.paid == 2 and result.defense.payment.roll_dice == 2
    assert after["bandit"] == {"ready": 3, "used": 2}
    assert result.trait.spent == 1 and result.trait.uses == {"left": 1, "max": 2}


def test_a_stunned_defender_may_still_use_a_trait_that_creates_no_reaction():
    bandit = sheet("bandit", conditions=("stunned",), owned={"iron-wall": IRON_WALL})
    result, _ = guard(bandit, "iron-wall", [HIT], [HIT, MISS])
    assert result.trait.reaction is False


def test_a_trait_that_creates_a_reaction_is_refused_while_stunned():
    own = {**IRON_WALL, "creates_reaction": True}
    bandit = sheet("bandit", conditions=("stunned",), owned={"iron-wall": own})
    with pytest.raises(Refused, match="stunned and cannot take the Reaction") as caught:
        guard(bandit, "iron-wall", [HIT], [HIT, MISS])
    assert caught.value.rule == "R2-TRAIT-4"
    result, _ = guard(sheet("bandit", owned={"iron-wall": own}), "iron-wall", [HIT], [HIT, MISS])
    assert result.trait.reaction is True and result.trait.creates_reaction is True


def test_a_trait_declared_on_another_event_is_refused_naming_its_trigger():
    bandit = sheet("bandit", owned={"iron-wall": IRON_WALL})
    with pytest.raises(Refused, match="triggers on full-guard, not on clash") as caught:
        guard(bandit, "iron-wall", [HIT], [HIT], response="clash")
    assert caught.value.rule == "R2-TRAIT-2"


def test_a_trait_with_no_use_left_is_refused():
    spent = {**IRON_WALL, "uses": {"left": 0, "max": 2}}
    with pytest.raises(Refused, match="has 0 of 2 uses left") as caught:
        guard(sheet("bandit", owned={"iron-wall": spent}), "iron-wall", [HIT], [HIT, HIT])
    assert caught.value.rule == "R2-TRAIT-3"


def test_the_uses_one_declaration_spends_are_a_knob():
    rules = build_ruleset(default_rules(), {"traits": {"uses_spent": 2}})
    bandit = sheet("bandit", owned={"iron-wall": IRON_WALL}, rules=rules)
    result, _ = guard(bandit, "iron-wall", [HIT], [HIT, HIT], rules=rules)
    assert result.trait.spent == 2 and result.trait.uses == {"left": 0, "max": 2}


def test_a_misspelt_trait_name_is_bad_input_with_the_closest():
    bandit = sheet("bandit", owned={"iron-wall": IRON_WALL, "riposte": RIPOSTE})
    with pytest.raises(BadInput, match="did you mean iron-wall"):
        traits.declare(bandit, "iron-wal", "full-guard", RULES)
    assert traits.find(bandit, "Iron-Wall").key == "iron-wall"


def test_a_trait_after_the_exchange_needs_that_exchange_and_is_used_once():
    bandit, mira = sheet("bandit", owned={"riposte": RIPOSTE}), sheet("mira")
    state = {"participants": ["mira", "bandit"], "last_action": {"actor": "mira", "command": "exchange",
                                                                 "defender": "bandit"}}
    after, result = traits.after_exchange(state, bandit, mira, "riposte", RULES)
    assert result.trait.reaction is True and result.trait.uses == {"left": 0, "max": 1}
    assert after["last_action"]["traits"] == ["bandit"]
    twice = sheet("bandit", owned={"riposte": {**RIPOSTE, "uses": {"left": 1, "max": 2}}})
    with pytest.raises(Refused, match="already used a trait on this Exchange"):
        traits.after_exchange(after, twice, mira, "riposte", RULES)
    moved = {**state, "last_action": {"actor": "mira", "command": "move"}}
    with pytest.raises(Refused, match="not a Combat Exchange between bandit and mira") as caught:
        traits.after_exchange(moved, bandit, mira, "riposte", RULES)
    assert caught.value.rule == "R2-TRAIT-5"


# ---- through the command line -------------------------------------------------------------------------------

@pytest.fixture
def fight(encounter_camp):
    ok(encounter_camp, "turn", "start", "mira")
    return encounter_camp


def bandit_traits(camp):
    return YAML(typ="safe").load((camp / "characters" / "bandit.yaml").read_text())["traits"]


def log(camp):
    return YAML(typ="safe").load((camp / "encounters" / "ambush.log.yaml").read_text())


def test_cli_full_guard_with_a_trait(fight):
    data = ok(fight, "exchange", "mira", "bandit", "--response", "guard", "--trait", "iron-wall",
              "--faces", "2", "--response-faces", "1,2")
    assert data["defense"]["roll_dice"] == 2 and data["defense"]["bonus_dice"] == 1 and data["defense"]["paid"] == 1
    assert data["defense"]["total"] == 3 and data["lands"] is None
    use = data["trait"]
    assert {"name", "trigger", "uses", "modifies", "creates_reaction"} <= set(use)
    assert use["name"] == "iron-wall" and use["uses"] == {"left": 1, "max": 2} and use["reaction"] is False
    assert use["modifies"] == {"full-guard": {"bonus_dice": 1}} and use["creates_reaction"] is False
    assert data["defense"]["reaction"] is False
    assert bandit_traits(fight)["iron-wall"]["uses"] == {"left": 1, "max": 2}
    assert sheet_dice(fight, "bandit") == {"ready": 4, "used": 1}
    entry = log(fight)[-1]
    assert entry["declaration"]["trait"] == "iron-wall"
    assert entry["changes"]["bandit"]["traits.iron-wall.uses.left"] == {"before": 2, "after": 1, "delta": -1}


def test_cli_text_names_the_trait_and_that_it_is_no_reaction(fight):
    r = run(fight, "exchange", "mira", "bandit", "--response", "guard", "--trait", "Iron Wall",
            "--faces", "2", "--response-faces", "1,2")
    assert r.code == 0, r.err
    assert "bandit uses trait iron-wall on full-guard (+1 bonus die): no Reaction; uses 1/2 left" in r.out


def test_cli_an_exchange_without_a_trait_logs_as_before(fight):
    ok(fight, "exchange", "mira", "bandit", "--response", "guard", "--faces", "2", "--response-faces", "1")
    entry = log(fight)[-1]
    assert "trait" not in entry["declaration"] and "trait" not in entry["result"]


def test_cli_stunned_defender_guards_with_a_trait_but_cannot_take_its_reaction(fight):
    ok(fight, "condition", "bandit", "+stunned")
    data = ok(fight, "exchange", "mira", "bandit", "--response", "guard", "--trait", "iron-wall",
              "--faces", "1", "--response-faces", "1,0")
    assert data["trait"]["reaction"] is False
    refused(fight, 3, "react", "bandit", "trait", "--against", "mira", "--trait", "riposte", rule="R2-TRAIT-4")
    assert bandit_traits(fight)["riposte"]["uses"]["left"] == 1


def test_cli_slowed_defender_pays_double_and_spends_one_use(fight):
    ok(fight, "condition", "bandit", "+slowed")
    data = ok(fight, "exchange", "mira", "bandit", "--response", "guard", "--trait", "iron-wall",
              "--faces", "1", "--response-faces", "1,1")
    assert data["defense"]["paid"] == 2 and data["defense"]["pay_multiplier"] == 2
    assert bandit_traits(fight)["iron-wall"]["uses"] == {"left": 1, "max": 2}


def test_cli_refusals_write_nothing(fight):
    refused(fight, 3, "exchange", "mira", "bandit", "--response", "clash", "--trait", "iron-wall",
            "--faces", "2", "--response-faces", "1", contains="triggers on full-guard, not on clash", rule="R2-TRAIT-2")
    refused(fight, 2, "exchange", "mira", "bandit", "--response", "guard", "--trait", "iron-wal",
            "--faces", "2", "--response-faces", "1,1", contains="did you mean iron-wall?")
    refused(fight, 2, "exchange", "mira", "bandit", "--response", "none", "--trait", "iron-wall",
            "--faces", "2", contains="Full Guard or Clash")
    # riposte triggers after the Exchange, not with the response
    refused(fight, 3, "exchange", "mira", "bandit", "--response", "guard", "--trait", "riposte",
            "--faces", "2", "--response-faces", "1", contains="triggers on exchange-resolved")


def test_cli_uses_run_out(fight):
    for _ in range(2):
        ok(fight, "exchange", "mira", "bandit", "--response", "guard", "--trait", "iron-wall",
           "--faces", "0", "--response-faces", "0,0")
    assert bandit_traits(fight)["iron-wall"]["uses"] == {"left": 0, "max": 2}
    refused(fight, 3, "exchange", "mira", "bandit", "--response", "guard", "--trait", "iron-wall",
            "--faces", "0", "--response-faces", "0,0", contains="has 0 of 2 uses left", rule="R2-TRAIT-3")


def test_cli_trait_after_the_exchange_creates_a_reaction(fight):
    refused(fight, 3, "react", "bandit", "trait", "--against", "mira", "--trait", "riposte", rule="R2-TRAIT-5")
    ok(fight, "exchange", "mira", "bandit", "--response", "guard", "--faces", "2", "--response-faces", "1")
    data = ok(fight, "react", "bandit", "trait", "--against", "mira", "--trait", "riposte")
    assert data["reaction"] == "trait" and data["trait"]["reaction"] is True
    assert data["trait"]["uses"] == {"left": 0, "max": 1}
    entry = log(fight)[-1]
    assert entry["command"] == "react trait" and entry["dice"] == {}
    assert entry["changes"] == {"bandit": {"traits.riposte.uses.left": {"before": 1, "after": 0, "delta": -1}}}
    refused(fight, 2, "react", "bandit", "trait", "--against", "mira", "--trait", "riposte", "--faces", "2",
            contains="--faces does not go with react trait")


def test_cli_opportunity_attack_with_a_trait(encounter_camp):
    path = encounter_camp / "characters" / "sentry.yaml"
    path.write_text(path.read_text() + "traits:\n  hook: {trigger: opportunity-attack, uses: {left: 1, max: 1}, "
                                       "modifies: {opportunity-attack: {bonus_dice: 1}}}\n")
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "move", "selka", "2")
    data = ok(encounter_camp, "react", "sentry", "opportunity", "--against", "selka", "--trait", "hook",
              "--faces", "2,1")
    assert data["check"]["roll_dice"] == 2 and data["check"]["paid"] == 1 and data["check"]["total"] == 3
    assert data["trait"]["name"] == "hook" and data["trait"]["reaction"] is False
    assert sheet_dice(encounter_camp, "sentry") == {"ready": 3, "used": 1}
    assert "left: 0" in path.read_text()


def test_cli_verify_is_clean_after_a_session_with_traits_and_undo_restores(fight):
    before = (fight / "characters" / "bandit.yaml").read_bytes()
    ok(fight, "exchange", "mira", "bandit", "--response", "guard", "--trait", "iron-wall",
       "--faces", "2", "--response-faces", "1,2")
    ok(fight, "react", "bandit", "trait", "--against", "mira", "--trait", "riposte")
    ok(fight, "condition", "bandit", "+slowed")
    ok(fight, "exchange", "mira", "bandit", "--response", "guard", "--trait", "iron-wall",
       "--faces", "1", "--response-faces", "2,2")
    verified = ok(fight, "verify")
    assert verified["ok"] is True and verified["problem"] is None
    assert run(fight, "check").code == 0
    for _ in range(4):
        ok(fight, "undo")
    assert (fight / "characters" / "bandit.yaml").read_bytes() == before
    assert ok(fight, "verify")["ok"] is True


def test_cli_log_words(fight):
    ok(fight, "exchange", "mira", "bandit", "--response", "guard", "--faces", "2", "--response-faces", "1")
    ok(fight, "react", "bandit", "trait", "--against", "mira", "--trait", "riposte")
    r = run(fight, "encounter", "log", "--last", "1")
    assert "bandit: trait riposte after the Exchange with mira (a Reaction; 0/1 uses left)" in r.out


# ---- the sheet's schema: check and new --------------------------------------------------------------------------

def write_bandit(camp, block: str):
    path = camp / "characters" / "bandit.yaml"
    text = re.sub(r"traits:\n(?:  .*\n|    .*\n)+", block, path.read_text())
    path.write_text(text)
    return path


@pytest.mark.parametrize("block, says", [
    ("traits:\n  iron-wall: {trigger: full-gard, uses: {left: 1, max: 1}}\n", "did you mean full-guard?"),
    ("traits:\n  iron-wall: {trigger: full-guard, uses: {left: 1, max: 1}, modifies: {full-gaurd: {bonus_dice: 1}}}\n",
     "did you mean full-guard?"),
    ("traits:\n  iron-wall: {trigger: full-guard, uses: {left: 1, max: 1}, modifies: {full-guard: {bonus_die: 1}}}\n",
     "did you mean bonus_dice?"),
    ("traits:\n  iron-wall: {trigger: full-guard, uses: {left: 3, max: 1}}\n", "is more than its max 1"),
    ("traits:\n  iron-wall: {trigger: full-guard, uses: {left: 1, max: 1}, modifies: clash}\n",
     "modifies clash but triggers on full-guard"),
    ("traits:\n  iron-wall: {trigger: full-guard}\n", "uses is missing"),
    ("traits:\n  - {name: iron-wall, trigger: full-guard, uses: {left: 1, max: 1}}\n", "must be a mapping"),
])
def test_bad_traits_are_bad_input_with_files_unchanged(camp, block, says):
    write_bandit(camp, block)
    r = run(camp, "check")
    assert r.code != 0 and says in r.out + r.err, (r.out, r.err)
    before = snapshot(camp)
    r = run(camp, "show", "bandit")
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and says in r.err, r.err
    assert snapshot(camp) == before


def test_new_from_checks_traits_and_gives_the_copy_its_uses_back(camp):
    path = write_bandit(camp, "traits:\n  iron-wall: {trigger: full-guard, uses: {left: 0, max: 2}}\n")
    data = ok(camp, "new", "thug", "--from", "bandit")
    assert data["id"] == "thug"
    copy = YAML(typ="safe").load((camp / "characters" / "thug.yaml").read_text())
    assert copy["traits"]["iron-wall"]["uses"] == {"left": 2, "max": 2}
    path.write_text(path.read_text().replace("full-guard", "ful-guard"))
    before = snapshot(camp)
    r = run(camp, "new", "thug2", "--from", "bandit")
    assert r.code == 2 and "did you mean full-guard?" in r.err and len(r.err.strip().splitlines()) == 1
    assert snapshot(camp) == before


# ---- merges: a trait's uses are a counter ---------------------------------------------------------------------

def test_two_clones_spending_a_trait_both_count_in_a_merge():
    from narateer_cli.store.merge import bounds_for, counters_for, merge_texts

    def text(left):
        return f"name: Bandit\ntraits:\n  iron-wall:\n    trigger: full-guard\n    uses: {{left: {left}, max: 3}}\n" \
               "action_dice:\n  ready: 5\n  used: 0\n"

    merged, clean = merge_texts(text(3), text(2), text(2), "characters/bandit.yaml", counters_for("narateer"),
                                bounds_for("narateer"))
    assert clean and "left: 1" in merged
    # both spent the last use: kept at the floor, not below it
    merged, clean = merge_texts(text(1), text(0), text(0), "characters/bandit.yaml", counters_for("narateer"),
                                bounds_for("narateer"))
    assert clean and "left: 0" in merged


def test_the_highest_of_a_trait_s_uses_is_its_own_max():
    from narateer_cli.store import bounds
    from narateer_cli.systems import load_system

    table = bounds.declared(load_system("narateer"))
    assert bounds.of(("traits", "iron-wall", "uses", "left"), table) == (0, "traits.iron-wall.uses.max")


def test_r2_trait_show_lists_each_trait_with_its_uses_left_and_a_sheet_without_traits_shows_none(camp):
    from tests.conftest import ok, run

    ok(camp, "exchange", "mira", "bandit", "--response", "guard", "--trait", "iron-wall", "--faces", "2",
       "--response-faces", "1,1", "--force")
    data = ok(camp, "show", "bandit")
    left = {t["name"]: (t["uses"]["left"], t["uses"]["max"], t["creates_reaction"]) for t in data["traits"]}
    assert left == {"iron-wall": (1, 2, False), "riposte": (1, 1, True)}
    text = run(camp, "show", "bandit").out
    assert "iron-wall  full-guard" in text and "1/2" in text and "1/1" in text
    assert "traits" not in ok(camp, "show", "selka") and "trait" not in run(camp, "show", "selka").out


def _uses(camp, cid="bandit") -> dict:
    doc = YAML(typ="safe").load((camp / "characters" / f"{cid}.yaml").read_text())
    return {key: data["uses"]["left"] for key, data in doc["traits"].items()}


def _guard(camp):
    ok(camp, "exchange", "mira", "bandit", "--response", "guard", "--trait", "iron-wall", "--faces", "2",
       "--response-faces", "1,1", "--force")


def test_r2_trait_6_uses_come_back_only_by_refresh_traits_by_default_and_undo_takes_it_back(camp):
    _guard(camp)
    ok(camp, "encounter", "new", "fray", "bandit", "mira")
    ok(camp, "turn", "start", "bandit")  # the default knob: an activation gives no use back
    assert _uses(camp) == {"iron-wall": 1, "riposte": 1}
    data = ok(camp, "refresh", "bandit", "--traits")
    assert (data["moved"], data["dice_before"], data["dice_after"]) == (1, {"iron-wall": 1, "riposte": 1},
                                                                       {"iron-wall": 2, "riposte": 1})
    assert _uses(camp) == {"iron-wall": 2, "riposte": 1}
    assert run(camp, "verify").code == 0 and run(camp, "check").code == 0
    ok(camp, "undo")
    assert _uses(camp) == {"iron-wall": 1, "riposte": 1}
    before = snapshot(camp)
    refused(camp, 2, "refresh", "selka", "--traits", contains="selka has no traits")
    refused(camp, 2, "refresh", "bandit", "--traits", "--magic", contains="give one of them")
    assert snapshot(camp) == before


def test_r2_trait_6_with_the_activation_knob_uses_come_back_when_the_owners_activation_begins(camp):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n  traits: {uses_spent: 1, refresh: activation_start}\n")
    _guard(camp)
    ok(camp, "encounter", "new", "fray", "mira", "bandit")
    ok(camp, "turn", "start", "mira")
    assert _uses(camp) == {"iron-wall": 1, "riposte": 1}  # only the owner's own activation gives them back
    ok(camp, "turn", "end")
    ok(camp, "turn", "start", "bandit")
    assert _uses(camp) == {"iron-wall": 2, "riposte": 1}
    assert run(camp, "verify").code == 0 and run(camp, "check").code == 0
    config.write_text(config.read_text().replace("activation_start", "sometimes"))
    r = run(camp, "check")  # check reports a bad knob as a problem (exit 1) and writes nothing
    assert r.code == 1 and "rules.traits.refresh must be one of manual, activation_start" in r.out, r.out
