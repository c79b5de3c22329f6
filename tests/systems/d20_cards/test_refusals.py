"""Every row of the exit-3 table: Refused names its rule and the world is unchanged."""

from __future__ import annotations

import pytest

from narateer_cli.errors import BadInput, Refused

from .world import perform, world

PIP = {"pip": {"name": "Pip", "owner": "mira", "attributes": {"fin": 3}, "ac": {"physical": 12, "mental": 10},
               "hp": {"current": 6, "max": 6}, "resources": {"ap": {"current": 1, "max": 1}}}}

ROWS = [
    # (label, world kwargs, card, targets, options, rule, words in the message)
    ("too little AP", {"mira": {"resources": {"ap": {"current": 1, "max": 3}}}}, "strike", ("bandit",), {},
     "R-CARD-2", "mira has 1 AP; strike costs 2"),
    ("on cooldown", {"mira": {"cooldowns": {"firebolt": {"rounds": 1}}}}, "firebolt", ("bandit",), {},
     "R-CARD-CD-1", "firebolt: 1 round left"),
    ("no charges", {"mira": {"charges": {"stun-word": 0}}}, "stun-word", ("bandit",), {},
     "R-CARD-CD-4", "stun-word has no charges left"),
    ("arcane while nullified", {"mira": {"conditions": ["nullified"]}}, "firebolt", ("bandit",), {},
     "R-CARD-PROP-1", "nullified"),
    ("mobility while immobilized", {"mira": {"conditions": ["immobilized"]}}, "strike", ("bandit",), {},
     "R-CARD-PROP-7", "immobilized"),
    ("swan song outside critical", {}, "last-stand", ("bandit",), {}, "R-CARD-PROP-9", "not in Critical Condition"),
    ("out of range", {}, "stun-word", ("bandit",), {"unheard": ("bandit",)}, "R-CARD-RANGE-5", "cannot hear"),
    ("meter out of range (DC card)", {"cards": {"stun-word": {"name": "S", "cost": 2, "dc": "mental", "range": 5}}},
     "stun-word", ("bandit",), {"distance": 6}, "R-CARD-RANGE-1", "6 m away"),
    ("unseen on sight", {}, "far-sight", ("bandit",), {"unseen": ("bandit",)}, "R-CARD-RANGE-3", "cannot see"),
    ("beyond and unseen", {}, "firebolt", ("bandit",), {"distance": 12, "unseen": ("bandit",)},
     "R-CARD-RANGE-2", "beyond range and unseen"),
    ("unheard", {"bandit": {"conditions": ["deafened"]}}, "stun-word", ("bandit",), {}, "R-CARD-RANGE-5", "cannot hear"),
    ("silenced", {"mira": {"conditions": ["silenced"]}}, "stun-word", ("bandit",), {}, "R-CARD-RANGE-5", "silenced"),
    ("touch beyond reach", {}, "pinch", ("bandit",), {"distance": 2}, "R-CARD-PROP-10", "Touch"),
    ("reach out of range", {}, "strike", ("bandit",), {"distance": 1.5}, "R-CARD-RANGE-4", "1.5 m away"),
    ("too many targets", {"extra": {"thug": {"name": "Thug", "ac": {"physical": 10, "mental": 10},
                                            "hp": {"current": 5, "max": 5}}}},
     "strike", ("bandit", "thug"), {}, "R-CARD-RANGE-8", "allows 1"),
    ("other target on Self", {}, "ward", ("bandit",), {}, "R-CARD-RANGE-6", "Self with no area"),
    ("other target outside the Self area", {}, "aura", ("mira", "bandit"), {"distances": {"bandit": 4}},
     "R-CARD-RANGE-6", "4 m away"),
    ("second concentration", {"mira": {"concentrating": {"card": "ward", "rounds": 1}}}, "focus", (), {},
     "R-CARD-PROP-3", "concentrating on ward"),
    ("not this character's turn", {"turn": "bandit"}, "strike", ("bandit",), {}, "R-CARD-ACT-1",
     "it is bandit's turn, not mira's"),
    ("reaction on its own turn", {}, "parry", (), {}, "R-CARD-PROP-8", "own turn"),
    ("card not on the sheet", {"mira": {"actions": ["strike"]}}, "firebolt", ("bandit",), {}, "R-CARD-4",
     "not on mira's sheet"),
    ("companionship with no companion", {}, "peck", ("bandit",), {}, "R-CARD-PROP-2", "no companion"),
    ("discreet refused when hidden", {"mira": {"conditions": ["hidden"]}, "rules": {"discreet": "refuse"}},
     "strike", ("bandit",), {}, "R-CARD-PROP-5", "hidden"),
]


@pytest.mark.parametrize("label,kwargs,card,targets,options,rule,words", ROWS, ids=[r[0] for r in ROWS])
def test_refusal_names_its_rule_and_changes_nothing(label, kwargs, card, targets, options, rule, words):
    from .world import rules

    kwargs = dict(kwargs)
    overrides = kwargs.pop("rules", None)
    r = rules(**overrides) if overrides else None
    w = world(rules_=r, **kwargs)
    before = repr(w)
    with pytest.raises(Refused) as exc:
        perform(w, card, *targets, rules_=r, **options)
    assert exc.value.rule == rule and exc.value.exit_code == 3
    assert words in exc.value.message and words in exc.value.line() and rule not in exc.value.line()  # T2-RULES
    assert repr(w) == before


def test_refusal_first_gate_wins_in_spec_order():
    """R-CARD-ACT-1: cooldown (5) is reported before charges (6) and costs (7)."""
    w = world(mira={"cooldowns": {"stun-word": {"rounds": 2}}, "charges": {"stun-word": 0},
                    "resources": {"ap": {"current": 0, "max": 3}}})
    with pytest.raises(Refused) as exc:
        perform(w, "stun-word", "bandit")
    assert exc.value.rule == "R-CARD-CD-1"


@pytest.mark.parametrize("options,words", [
    ({"faces": {"attack": [15, 3]}}, "--faces needs 1 face"),
    ({"faces": {"attack": [21]}}, "not a face of a d20"),
    ({"faces": {"attack": [0]}}, "not a face of a d20"),
])
def test_bad_faces_are_exit_2_even_on_cooldown(options, words):
    w = world(mira={"cooldowns": {"strike": {"rounds": 1}}})
    with pytest.raises(BadInput) as exc:
        perform(w, "strike", "bandit", **options)
    assert words in exc.value.message and exc.value.exit_code == 2


@pytest.mark.parametrize("card,targets,options,words", [
    ("strike", ("bandot",), {}, "did you mean bandit?"),
    ("strke", ("bandit",), {}, "(did you mean strike or surge?)"),
    ("strike", (), {}, "needs a target"),
    ("strike", ("bandit",), {"unseen": ("mira",)}, "is not a target"),
    ("strike", ("bandit",), {"distances": {"mira": 1}}, "is not a target"),
    ("strike", ("bandit",), {"distance": -1}, "out of range"),
    ("stun-word", ("bandit",), {"faces": {"attack": [3]}}, "rolls no attack"),
    ("strike", ("bandit",), {"companion": "pip"}, "not a Companionship card"),
])
def test_bad_input_before_any_rule(card, targets, options, words):
    with pytest.raises(BadInput) as exc:
        perform(world(), card, *targets, **options)
    assert words in exc.value.line()


def test_companion_performs_with_its_own_numbers():
    w = world(mira={"companions": ["pip"]}, extra=PIP)
    w = w.replace(encounter=w.encounter.replace(participants=("mira", "bandit")))  # A-CARD-COMP: on mira's turn
    w2, r = perform(w, "peck", "bandit", faces={"attack": [11]})
    assert (r.actor, r.owner, r.targets[0].attack.bonus, r.targets[0].attack.total) == ("pip", "mira", 3, 14)
    assert w2.chars["pip"].ap() == 0 and w2.chars["mira"].ap() == 3


def test_target_outside_the_encounter_is_bad_input():
    w = world(extra={"thug": {"name": "Thug", "ac": {"physical": 10, "mental": 10}, "hp": {"current": 5, "max": 5}}})
    w = w.replace(encounter=w.encounter.replace(participants=("mira", "bandit")))
    with pytest.raises(BadInput) as exc:
        perform(w, "strike", "thug")
    assert "not in encounter" in exc.value.message
