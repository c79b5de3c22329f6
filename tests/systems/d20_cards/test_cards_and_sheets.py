"""Cards and sheets as data: schema problems carry file:line; the example campaign is valid and complete."""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from narateer_cli.errors import BadInput
from narateer_cli.systems.d20_cards import SYSTEM, render
from narateer_cli.systems.d20_cards.results import CardList
from narateer_cli.systems.d20_cards.cards import card_problems, parse_card
from narateer_cli.systems.d20_cards.files import load_world, locator
from narateer_cli.systems.d20_cards.gates import card_status
from narateer_cli.systems.d20_cards.schema import PROPERTIES, line
from narateer_cli.systems.d20_cards.sheet import parse_sheet, sheet_problems

from .world import RULES, world


def rt(text):
    return YAML(typ="rt").load(text)


def test_r_card_1_misspelt_key_names_line_and_closest():
    doc = rt("name: Strike\ncost: 2\natack: fin\nrange: reach\n")
    problems = card_problems("strike", doc, "actions/strike.yaml")
    assert [line(p) for p in problems] == ["actions/strike.yaml:3: unknown key 'atack' (did you mean atk?)"]


def test_r_card_1_unknown_keys_survive_when_not_a_misspelling():
    doc = rt("name: Strike\nrange: reach\nflavour_art: blade.png\n")
    assert card_problems("strike", doc, "a.yaml") == []


def test_r_card_atk_7_dc_card_with_overkill_is_invalid():
    doc = rt("name: Stun\ndc: mental\nrange: vocal\ndamage:\n  amount: 6\n  overkill: 1\n")
    problems = card_problems("stun", doc, "actions/stun.yaml")
    assert len(problems) == 1 and problems[0].line == 4 and problems[0].rule == "R-CARD-ATK-7"
    assert "Overkill" in problems[0].message and "R-CARD" not in problems[0].message  # T2-RULES
    with pytest.raises(BadInput) as exc:
        parse_card("stun", doc, "actions/stun.yaml")
    assert exc.value.line().startswith("actions/stun.yaml:4: damage")


@pytest.mark.parametrize("text,line,words", [
    ("name: X\nrange: rech\n", 2, "did you mean reach?"),
    ("name: X\nrange: 5\ncost: {ap: -1}\n", 3, "cost"),
    ("name: X\nrange: 5\natk: fin\ndc: mental\n", 4, "not both"),
    ("name: X\nrange: 5\nproperties: [arcane, arcan]\n", 3, "did you mean arcane?"),
    ("name: X\nrange: 5\ncooldown: {turns: 1}\n", 3, "did you mean"),
    ("name: X\nrange: 5\ndamage: {amount: 2x6}\n", 3, "dice"),
    ("name: X\nrange: 5\nmax_duration: {rounds: 2}\n", 3, "concentration property"),
    ("range: 5\n", 1, "name is missing"),
])
def test_card_problems_each_with_its_line(text, line, words):
    doc = rt(text)
    problems = card_problems("x", doc, "actions/x.yaml")
    assert problems and problems[0].line == line and words in problems[0].message


def test_cost_shorthand_and_dice():
    card = parse_card("c", {"name": "C", "cost": 2, "range": 5, "damage": {"amount": "2d6+3"}}, "a.yaml")
    assert card.cost == {"ap": 2} and (card.damage.count, card.damage.sides, card.damage.bonus) == (2, 6, 3)


def test_sheet_problem_names_line_and_closest():
    doc = rt("name: Mira\nac: {physical: 14, mentl: 12}\nhp: {current: 9, max: 9}\n")
    problems = sheet_problems("mira", doc, "characters/mira.yaml")
    assert "characters/mira.yaml:2: unknown key 'ac.mentl' (did you mean mental?)" in map(line, problems)


def test_inline_card_problem_points_into_the_sheet():
    doc = rt("name: Mira\ncards:\n  jab:\n    name: Jab\n    range: reach\n    atk: fni\n"
             "ac: {physical: 14, mental: 12}\nhp: {current: 9, max: 9}\n")
    with pytest.raises(BadInput) as exc:
        parse_sheet("mira", doc, "characters/mira.yaml", RULES)
    assert exc.value.message.startswith("characters/mira.yaml:6: cards.jab.atk")


def test_inline_card_shadows_campaign_card():
    w = world(mira={"cards": {"strike": {"name": "Big Strike", "cost": 1, "atk": "phy", "range": "reach"}}})
    from narateer_cli.systems.d20_cards.sheet import card_for

    assert card_for(w.chars["mira"], "strike", w.cards).name == "Big Strike"
    assert card_for(w.chars["bandit"], "strike", w.cards).name == "Strike"


def test_example_campaign_is_valid_and_covers_every_property():
    w = load_world(SYSTEM.example_dir, RULES)
    cards = list(w.cards.values()) + [c for ch in w.chars.values() for c in ch.cards.values()]
    assert len(w.cards) >= 12
    assert set(PROPERTIES) <= {p for c in cards for p in c.properties}
    kinds = {c.range_kind for c in cards}
    assert {"meter", "reach", "sight", "vocal", "self"} <= kinds
    assert {c.kind for c in cards} == {"attack", "dc", "none"}
    for ch in w.chars.values():
        for cid in ch.actions:
            assert cid in w.cards, f"{ch.id} lists unknown card {cid}"


def test_card_show_follows_the_chapter_layout():
    from narateer_cli.systems.d20_cards.readouts import card_terms

    w = world()
    mira, strike = w.chars["mira"], w.cards["strike"]
    text = render.card_show(strike, card_terms(strike, mira, RULES), mira, card_status(w, "mira", "strike", RULES))
    lines = text.splitlines()
    assert lines[:6] == ["Strike", "Cost: 2 AP", "✦ . ⁺ Tier 1 – No source . ⁺ ✦",
                         "ATK/DC: attack roll, d20 + FIN ATK (+4 for mira) against each target's Physical AC",
                         "Range: Reach, one target within reach (1 m for mira)", "Cooldown: none"]
    assert "On a hit: 12 [+2] damage (Overkill: +2 for each point above the AC)" in lines
    assert lines[-2] == "For mira: ready" and lines[-1] == render.ORNAMENT


def test_card_list_status_names_blocking_rule():
    w = world(mira={"cooldowns": {"firebolt": {"rounds": 1}}, "charges": {"stun-word": 1}})
    rows = [(w.cards[c], card_status(w, "mira", c, RULES)) for c in ("strike", "firebolt", "stun-word", "last-stand")]
    text = render.card_list_text(CardList("mira", tuple(rows)).to_json())
    assert "blocked: firebolt: 1 round left" in text and "R-CARD-" not in text  # rule ids: --json (T2-RULES)
    assert "ready; charges 1/2" in text and "blocked: mira is not in Critical Condition" in text
    assert [c["blocked_by"] for c in CardList("mira", tuple(rows)).to_json()["cards"]] == [
        None, "R-CARD-CD-1", None, "R-CARD-PROP-9"]
