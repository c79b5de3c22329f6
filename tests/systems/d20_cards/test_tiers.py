"""Card tiers as a build: the level a tier asks in the card's source, the focus slots that prepare it, the
ancestral points it is worth through Mixed Heritage; through the engine and through the command line."""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from narateer_cli.kit import BadInput, Refused
from narateer_cli.systems.d20_cards.sheet import card_for
from narateer_cli.systems.d20_cards.tiers import lacks
from tests.conftest import ok, refused, run, snapshot

from .test_cli import edit
from .world import CARDS, RULES, perform, rules, world

# the table's cards with a source and a tier each: strike tier 1, firebolt tier 2, ward tier 0
SOURCED = {
    "strike": {**CARDS["strike"], "tier": 1, "source": "Blade Discipline"},
    "firebolt": {**CARDS["firebolt"], "tier": 2, "source": "Ember Arts"},
    "ward": {**CARDS["ward"], "tier": 0, "source": "Ember Arts"},
}


def built(rules_=None, **mira):
    return world(mira=mira, cards=SOURCED, rules_=rules_)


def refusal(w, card, *targets, rules_=None, **faces):
    with pytest.raises(Refused) as exc:
        perform(w, card, *targets, faces=faces or None, rules_=rules_)
    return exc.value


def sheet_lacks(w, char="mira", rules_=RULES):
    who = w.chars[char]
    return lacks(who, lambda cid: card_for(who, cid, w.cards), rules_)


# --- the engine ---------------------------------------------------------------------------------------

def test_r2_tier_1_a_card_below_its_tier_level_is_refused_naming_both_levels():
    w = built(levels={"Ember Arts": 2})  # firebolt is tier 2: level 3 in Ember Arts by default
    err = refusal(w, "firebolt", "bandit", attack=[15])
    assert err.rule == "R2-TIER-1"
    assert err.message == "firebolt is tier 2 of Ember Arts: it needs level 3 in Ember Arts and mira has 2"
    assert "levels: {Ember Arts: 3}" in err.fix
    _, r = perform(built(levels={"ember  arts": 3}), "firebolt", "bandit", faces={"attack": [15]})
    assert r.targets[0].attack.hit is True  # names match whatever their case and spacing


def test_r2_tier_1_the_prerequisite_is_a_knob_per_tier():
    w = built(levels={"Ember Arts": 2})
    lower = rules(tiers={2: {"prerequisite": 2}})
    _, r = perform(w, "firebolt", "bandit", faces={"attack": [15]}, rules_=lower)
    assert r.targets[0].attack.hit is True
    assert lower.tiers[2] == {"prerequisite": 2, "focus_slots": 2, "ancestral_points": 2}  # merged key by key
    older = rules(tiers={2: {"level": 2}})  # the older name of the key
    assert older.tiers[2]["prerequisite"] == 2


def test_r2_tier_1_a_sheet_without_levels_is_asked_none_and_the_single_level_counts_everywhere():
    _, r = perform(built(), "firebolt", "bandit", faces={"attack": [15]})
    assert r.targets[0].attack.hit is True
    assert refusal(built(level=2), "firebolt", "bandit", attack=[15]).rule == "R2-TIER-1"
    perform(built(level=3), "firebolt", "bandit", faces={"attack": [15]})
    # `levels` names Ember Arts: the single level stands only for the sources it leaves out
    assert refusal(built(level=3, levels={"Ember Arts": 1}), "firebolt", "bandit", attack=[15]).rule == "R2-TIER-1"


def test_r2_tier_1_a_card_with_no_source_meets_no_prerequisite():
    w = world(mira={"levels": {"Blade Discipline": 5}}, cards={"strike": {**CARDS["strike"], "tier": 1}})
    err = refusal(w, "strike", "bandit", attack=[15])
    assert err.rule == "R2-TIER-1" and "names no source" in err.message and "give strike a source" in err.fix


def test_r2_tier_2_an_unprepared_card_is_refused_naming_its_slots():
    w = built(levels={"Blade Discipline": 1, "Ember Arts": 3}, prepared=["firebolt"], focus_slots=3)
    err = refusal(w, "strike", "bandit", attack=[15])
    assert err.rule == "R2-TIER-2"
    assert err.message == "mira has not prepared strike (tier 1: 1 focus slot; 1 of 3 free)"
    assert err.fix == "add strike to mira's prepared list"
    full = built(levels={"Blade Discipline": 1, "Ember Arts": 3}, prepared=["firebolt"], focus_slots=2)
    assert refusal(full, "strike", "bandit", attack=[15]).fix == \
        "add strike to mira's prepared list and free 1 focus slot first"
    _, r = perform(w, "firebolt", "bandit", faces={"attack": [15]})  # prepared
    assert r.targets[0].attack.hit is True


def test_r2_tier_2_no_prepared_key_prepares_every_card_and_a_slotless_tier_needs_none():
    perform(built(levels={"Blade Discipline": 1}), "strike", "bandit", faces={"attack": [15]})
    w = built(prepared=[], focus_slots=0)
    perform(w, "ward")  # tier 0 takes no focus slot
    assert refusal(w, "strike", "bandit", attack=[15]).rule == "R2-TIER-2"
    free = rules(tiers={1: {"focus_slots": 0}})  # the knob: tier 1 then needs no preparing either
    perform(w, "strike", "bandit", faces={"attack": [15]}, rules_=free)


def test_r2_tier_2_known_only_false_asks_nothing_of_a_card_the_sheet_does_not_hold():
    w = built(actions=["ward"], prepared=[], levels={})
    open_ = rules(known_only=False)
    perform(w, "firebolt", "bandit", faces={"attack": [15]}, rules_=open_)
    assert refusal(w, "firebolt", "bandit", attack=[15]).rule == "R-CARD-4"


def test_r2_tier_3_focus_slots_and_prepared_cards_the_sheet_does_not_hold():
    w = built(levels={"Blade Discipline": 1, "Ember Arts": 3}, actions=["strike", "firebolt"],
              prepared=["strike", "firebolt", "ward", "strike"], focus_slots=2)
    found = [(lack.path, lack.rule, lack.message) for lack in sheet_lacks(w)]
    assert found == [
        (("prepared", 2), "R2-TIER-3", "mira prepares ward but does not hold it"),
        (("prepared", 3), "R2-TIER-3", "strike is prepared twice"),
        (("focus_slots",), "R2-TIER-3", "mira's prepared cards take 3 focus slots and it has 2"),
    ]
    assert sheet_lacks(built(levels={"Blade Discipline": 1, "Ember Arts": 3}, actions=["strike", "firebolt"],
                             prepared=["strike", "firebolt"], focus_slots=3)) == []


def test_r2_tier_4_mixed_heritage_waives_the_level_and_spends_ancestral_points():
    w = built(levels={}, actions=["strike", "firebolt"], mixed_heritage={"ancestral_points": 2, "cards": ["firebolt"]})
    perform(w, "firebolt", "bandit", faces={"attack": [15]})  # no level in Ember Arts: taken by points
    assert refusal(w, "strike", "bandit", attack=[15]).rule == "R2-TIER-1"
    poor = built(levels={}, actions=["firebolt"], mixed_heritage={"ancestral_points": 1, "cards": ["firebolt", "ward"]})
    found = [(lack.path, lack.message) for lack in sheet_lacks(poor)]
    assert found == [(("mixed_heritage", "cards", 1), "mira takes ward through Mixed Heritage but does not hold it"),
                     (("mixed_heritage", "ancestral_points"),
                      "mira's Mixed Heritage cards are worth 2 ancestral points and it has 1")]
    cheap = rules(tiers={2: {"ancestral_points": 1}})
    assert [lack.path for lack in sheet_lacks(poor, rules_=cheap)] == [("mixed_heritage", "cards", 1)]


def test_r2_tier_5_a_tier_the_table_does_not_list_asks_nothing_and_check_names_it():
    w = world(mira={"levels": {}, "prepared": [], "actions": ["strike"]},
              cards={"strike": {**CARDS["strike"], "tier": 7, "source": "Blade Discipline"}})
    perform(w, "strike", "bandit", faces={"attack": [15]})
    [lack] = sheet_lacks(w)
    assert (lack.path, lack.rule) == (("actions", 0), "R2-TIER-5")
    assert lack.message == "strike is tier 7, which the ruleset's tiers table does not list"


def test_r2_tier_a_refused_act_changes_nothing():
    w = built(levels={"Ember Arts": 2})
    before = w
    refusal(w, "firebolt", "bandit", attack=[15])
    assert w == before and w.chars["mira"].ap() == 3


def test_r2_tier_ruleset_refuses_an_unknown_tier_key():
    with pytest.raises(BadInput) as exc:
        rules(tiers={1: {"slots": 1}})
    assert "rules.tiers.1.slots" in exc.value.line()


# --- the command line -----------------------------------------------------------------------------------

def _sheet(root, cid):
    return YAML(typ="safe").load((root / "characters" / f"{cid}.yaml").read_text())


def test_r2_shape_example_sheets_record_levels_prepared_and_focus_slots(tmp_path):
    root = tmp_path / "c"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    for cid in ("mira", "tor", "hexer", "bandit", "pip"):
        assert {"levels", "prepared", "focus_slots"} <= set(_sheet(root, cid)), cid
    tor = _sheet(root, "tor")
    assert "stun-word" in tor["actions"] and "stun-word" not in tor["prepared"]  # held, not prepared
    assert run(root, "check").out.strip() == "campaign ok"
    data = ok(root, "show", "mira")
    assert data["levels"]["Blade Discipline"] == 3 and "last-stand" in data["prepared"]
    assert (data["focus_slots"], data["focus_slots_used"]) == (10, 10)
    assert data["mixed_heritage"] == {"cards": ["wild-surge"], "ancestral_points": 2, "spent": 2}
    text = run(root, "show", "mira").out
    assert "  levels: Blade Discipline 3, Ember Arts 1, Voice of Command 1\n" in text
    assert "(focus slots 10 of 10)" in text


def test_r2_tier_2_cli_act_refuses_the_unprepared_card(d20):
    err = refused(d20, 3, "act", "tor", "stun-word", "--target", "bandit", rule="R2-TIER-2")
    assert err == ("narateer: tor has not prepared stun-word (tier 1: 1 focus slot; 0 of 4 free); "
                   "add stun-word to tor's prepared list and free 1 focus slot first\n")
    data = ok(d20, "show", "tor")
    assert data["blocked_by"]["stun-word"] == "R2-TIER-2"
    gates = ok(d20, "act", "tor", "stun-word", "--target", "bandit", "--dry-run")["gates"]
    assert [g["gate"] for g in gates[:3]] == ["access", "prerequisite", "prepared"]
    assert (gates[2]["ok"], gates[2]["rule"]) == (False, "R2-TIER-2")


def test_r2_tier_2_cli_a_sheet_without_prepared_prepares_every_card(d20):
    doc = _sheet(d20, "tor")
    edit(d20, "tor", prepared=doc["prepared"] + ["stun-word"], focus_slots=5)
    ok(d20, "turn", "start", "tor")
    data = ok(d20, "act", "tor", "stun-word", "--target", "bandit", "--save-faces", "bandit=15")
    assert data["card"] == "stun-word"
    y, path = YAML(typ="rt"), d20 / "characters" / "tor.yaml"
    doc = y.load(path.read_text())
    del doc["prepared"], doc["focus_slots"]
    with open(path, "w") as fh:
        y.dump(doc, fh)
    assert "prepared" not in _sheet(d20, "tor")
    ok(d20, "refresh", "tor")
    ok(d20, "act", "tor", "rally-hymn")  # no prepared key: every card it holds counts as prepared


def test_r2_tier_1_cli_act_refuses_below_the_level_and_check_names_the_line(d20):
    edit(d20, "mira", levels={"Blade Discipline": 2, "Ember Arts": 1, "Voice of Command": 1})
    r = run(d20, "check")
    assert r.code == 1
    lines = (d20 / "characters" / "mira.yaml").read_text().splitlines()
    number = next(i for i, line in enumerate(lines, 1) if line.startswith("actions:"))
    assert (f"characters/mira.yaml:{number}: actions[4]: last-stand is tier 2 of Blade Discipline: it needs "
            "level 3 in Blade Discipline and mira has 2; set levels: {Blade Discipline: 3} on mira's sheet, or "
            "take last-stand through Mixed Heritage (mixed_heritage.cards)") in r.out.splitlines()
    edit(d20, "mira", hp={"current": 0, "max": 30})
    refused(d20, 3, "act", "mira", "last-stand", "--target", "bandit", "--faces", "18", rule="R2-TIER-1",
            contains="last-stand is tier 2 of Blade Discipline: it needs level 3")


def test_r2_tier_3_cli_check_counts_focus_slots(d20):
    edit(d20, "tor", focus_slots=3)
    r = run(d20, "--json", "check")
    assert r.code == 1
    assert "R2-TIER-3" in r.json["problem_rules"]
    assert any("tor's prepared cards take 4 focus slots and it has 3; prepare fewer cards or raise "
               "focus_slots to 4" in p for p in r.json["problems"])
    edit(d20, "tor", focus_slots=4)
    assert run(d20, "check").code == 0


def test_r2_tier_new_records_the_build_and_refuses_what_it_lacks(d20):
    before = snapshot(d20)
    err = refused(d20, 3, "new", "rook", "--action", "strike", "--action", "last-stand", "--level",
                  "Blade Discipline=1", "--prepare", "strike", "--focus-slots", "1", rule="R2-TIER-1")
    assert "rook's actions[1]: last-stand is tier 2 of Blade Discipline: it needs level 3" in err
    refused(d20, 3, "new", "rook", "--action", "strike", "--action", "parry", "--level", "Blade Discipline=1",
            "--prepare", "strike", "--prepare", "parry", "--focus-slots", "1", rule="R2-TIER-3",
            contains="rook's prepared cards take 2 focus slots and it has 1")
    refused(d20, 2, "new", "rook", "--action", "strike", "--prepare", "ward", contains="'ward'")
    refused(d20, 2, "new", "rook", "--action", "strike", "--level", "Blade Discipline", contains="SOURCE=N")
    assert snapshot(d20) == before
    ok(d20, "new", "rook", "--action", "strike", "--action", "parry", "--level", "Blade Discipline=1",
       "--prepare", "strike", "--focus-slots", "1")
    doc = _sheet(d20, "rook")
    assert (doc["levels"], doc["prepared"], doc["focus_slots"]) == ({"Blade Discipline": 1}, ["strike"], 1)
    ok(d20, "new", "plain", "--action", "last-stand")  # no build asked: none recorded, nothing checked
    assert not {"levels", "prepared", "focus_slots"} & set(_sheet(d20, "plain"))
    assert run(d20, "check").code == 0


def test_r2_tier_help_says_it_in_words(d20):
    new = run(d20, "new", "--help").out
    assert "--prepare CARD" in new and "--focus-slots" in new and '--level "Blade Discipline=1"' in new
    act = run(d20, "act", "--help").out
    assert "level, prepared" in act and "narateer act tor stun-word --target bandit --dry-run" in act
    assert "R2-" not in new + act
