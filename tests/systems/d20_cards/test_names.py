"""S-SYS-4 / S-SYS-5 in d20-cards: a misspelt name the rules read is bad input with the closest known name.

Through the command line on a fresh example campaign: exit 2, one stderr line naming the problem and the
fix, every file byte-for-byte unchanged; `check` lists the same problem with its line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import REPO, ok, refused, run
from tests.table.test_complete_shell_report import completions


def swap(root: Path, rel: str, old: str, new: str):
    path = root / rel
    text = path.read_text()
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new, 1))


def problems(root: Path) -> list[str]:
    r = run(root, "check")
    assert r.code == 1, (r.out, r.err)
    return r.out.splitlines()


STRIKE = ("act", "mira", "strike", "--target", "bandit", "--faces", "11")


@pytest.mark.parametrize("typo,meant", [("immobilised", "immobilized"), ("nullifed", "nullified"),
                                        ("swan-song", "swan_song"), ("hiden", "hidden"), ("blind", "blinded"),
                                        ("nullifed:1", "nullified")])
def test_condition_command_refuses_a_near_miss_of_a_rules_condition(d20, typo, meant):
    err = refused(d20, 2, "condition", "mira", f"+{typo}", contains=f"did you mean {meant}?")
    assert f"write +{meant}{typo[len(typo.partition(':')[0]):]};" in err


@pytest.mark.parametrize("name", ["prone", "weakened", "stunned", "poisoned"])
def test_a_free_form_condition_is_kept(d20, name):
    """`weakened` is close to deafened, but two letters apart: a condition of its own, not a slip."""
    assert ok(d20, "condition", "mira", f"+{name}")["conditions_added"] == [name]


def test_removing_a_misspelt_carried_condition_names_it(d20):
    ok(d20, "condition", "mira", "+blinded")
    refused(d20, 2, "condition", "mira", "-blnded", contains="did you mean blinded?")


def test_misspelt_condition_on_a_sheet_no_longer_opens_the_mobility_gate(d20):
    swap(d20, "characters/mira.yaml", "conditions: []", "conditions: [immobilised]")
    refused(d20, 2, *STRIKE, contains="unknown condition 'immobilised' (did you mean immobilized?)")
    assert any(p.startswith("characters/mira.yaml:16: conditions[0]: unknown condition 'immobilised' (did you mean "
                            "immobilized?); known: ") for p in problems(d20))


def test_misspelt_attribute_on_a_sheet(d20):
    swap(d20, "characters/mira.yaml", "fin: 4", "fn: 4")
    refused(d20, 2, *STRIKE, contains="characters/mira.yaml:3: unknown key 'attributes.fn' (did you mean fin?)")
    assert any(p.startswith("characters/mira.yaml:3: unknown key 'attributes.fn'") for p in problems(d20))


@pytest.mark.parametrize("args,meant", [(("--attr", "fn=3"), "fin"), (("--ac", "physcal=3"), "physical"),
                                        (("--action", "strke"), "strike")])
def test_new_refuses_misspelt_names(d20, args, meant):
    refused(d20, 2, "new", "rook", *args, contains=f"(did you mean {meant}?)")


def test_misspelt_resource_on_a_sheet(d20):
    swap(d20, "characters/mira.yaml", "resources: {ap:", "resources: {app:")
    refused(d20, 2, *STRIKE, contains="resources.app: unknown resource 'app' (did you mean ap?)")
    assert any("resources.app: unknown resource 'app' (did you mean ap?)" in p for p in problems(d20))


def test_misspelt_resource_in_a_card_cost_is_bad_input_not_a_refusal(d20):
    swap(d20, "actions/strike.yaml", "{ap: 2}", "{app: 2}")
    refused(d20, 2, *STRIKE, contains="cost.app: unknown resource 'app' (did you mean ap?)")
    assert any(p.startswith("actions/strike.yaml:") and "did you mean ap?" in p for p in problems(d20))


@pytest.mark.parametrize("old,new,message", [
    ("actions: [strike,", "actions: [strke,", "actions[0]: unknown card 'strke' (did you mean strike?)"),
    ("charges: {}", "charges: {stun-wrd: 1}", "charges.stun-wrd: unknown card 'stun-wrd' (did you mean stun-word?)"),
    ("cooldowns: {}", "cooldowns: {firebot: {rounds: 1}}",
     "cooldowns.firebot: unknown card 'firebot' (did you mean firebolt?)"),
    ("concentrating: null", "concentrating: {card: wrd, rounds: 2}",
     "concentrating.card: unknown card 'wrd' (did you mean ward?)"),
    ("companions: [pip]", "companions: [pp]", "companions[0]: unknown character 'pp' (did you mean pip?)"),
])
def test_names_on_a_sheet_are_known_cards_and_characters(d20, old, new, message):
    swap(d20, "characters/mira.yaml", old, new)
    refused(d20, 2, *STRIKE, contains=message)
    assert any(p.startswith("characters/mira.yaml:") and p.endswith(message) for p in problems(d20))


def test_another_systems_sheet_is_refused_not_given_invented_defaults(d20):
    selka = REPO / "narateer_cli" / "systems" / "narateer" / "example" / "characters" / "selka.yaml"
    (d20 / "characters" / "selka.yaml").write_text(selka.read_text())
    refused(d20, 2, "show", "selka", contains="ac is missing")
    found = problems(d20)
    assert "characters/selka.yaml:1: ac is missing; add `ac:`" in found
    assert "characters/selka.yaml:1: hp is missing; add `hp:`" in found


def test_rest_refuses_a_misspelt_recharge_kind(d20):
    refused(d20, 2, "rest", "mira", "--kind", "propr", contains="unknown recharge kind 'propr' (did you mean proper?)")


def test_card_with_a_misspelt_recharge_kind_is_a_check_problem(d20):
    swap(d20, "actions/stun-word.yaml", "recharge: proper", "recharge: propr")
    assert "actions/stun-word.yaml:7: charges.recharge: unknown recharge kind 'propr' (did you mean proper?)" \
        in problems(d20)
    refused(d20, 2, "act", "mira", "stun-word", "--target", "bandit", "--save-faces", "bandit=5",
            contains="did you mean proper?")


def test_completion_offers_every_condition_the_rules_read(d20):
    offered = completions(d20, "narateer condition mira +")
    for name in ("immobilized", "nullified", "dying", "critical", "swan_song", "stabilized", "hidden"):
        assert f"+{name}" in offered, offered
