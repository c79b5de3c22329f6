"""G-PRIV-6: a card's dice are bounded before any work (at most 100 dice of at most 100 faces).

A card arrives by git; `2000d6` used to pass `check` and hang `odds` and `act --dry-run` in the exact-odds
convolution. Each command runs in a subprocess with a timeout, so a regression fails instead of hanging;
its CPU time, not the clock, says it refused at once.
"""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from narateer_cli.errors import BadInput
from narateer_cli.systems.d20_cards.cards import card_problems, parse_card, parse_dice
from narateer_cli.systems.d20_cards.schema import MAX_DICE, MAX_FACES, line
from tests.conftest import children_cpu, json_error, ok, run, sh, snapshot

FIX = "write at most 100 dice of at most 100 faces and a bonus up to 1,000,000"


def hostile(d20, amount: str):
    path = d20 / "actions" / "strike.yaml"
    path.write_text(path.read_text().replace("amount: 12,", f'amount: "{amount}",'))


@pytest.mark.parametrize("amount, why", [
    ("2000d6", "2000 dice is over the limit of 100"),
    ("2d1000", "a d1000 is over the limit of 100 faces"),
    ("1d6+99999999999", "a bonus of 99999999999 is over the limit of 1,000,000"),
    ("1" + "0" * 5000 + "d6", "dice is over the limit of 100"),  # past Python's digits-to-int guard
])
def test_g_priv_6_check_names_the_card_line_limit_and_fix(d20, amount, why):
    hostile(d20, amount)
    r = run(d20, "--json", "check")
    [(problem, rule)] = [(p, c) for p, c in zip(r.json["problems"], r.json["problem_rules"]) if p.startswith("actions/")]
    assert problem.startswith("actions/strike.yaml:8: damage.amount ") and why in problem
    assert rule == "G-PRIV-6" and "G-PRIV-6" not in problem and problem.endswith(FIX)  # T2-RULES


@pytest.mark.parametrize("args", [
    ("odds", "mira", "strike", "--target", "bandit"),
    ("act", "mira", "strike", "--target", "bandit", "--dry-run"),
    ("act", "mira", "strike", "--target", "bandit"),
    ("act", "mira", "strike", "--target", "bandit", "--faces", "15", "--secret"),
    ("card", "show", "strike"),
    ("show", "mira"),
])
def test_g_priv_6_every_command_refuses_a_2000d6_card_at_once(d20, args):
    hostile(d20, "2000d6")
    before = snapshot(d20)
    spent = children_cpu()
    r = sh(d20, *args)
    assert children_cpu() - spent < 10  # about 0.3 s of CPU: the limit is checked before any odds
    assert r.code == 2 and r.out == "" and len(r.err.strip().splitlines()) == 1, r.err
    assert "actions/strike.yaml:8:" in r.err and "2000 dice is over the limit of 100; " in r.err
    assert snapshot(d20) == before


def test_g_priv_6_an_inline_card_on_a_sheet_is_bounded_too(d20):
    path = d20 / "characters" / "mira.yaml"
    path.write_text(path.read_text() + 'cards:\n  jab: {name: Jab, range: reach, atk: fin, damage: {amount: "3d500"}}\n')
    r = run(d20, "--json", "check")
    assert any(p.startswith("characters/mira.yaml:") and "a d500 is over the limit of 100 faces" in p
               for p in r.json["problems"])
    before = snapshot(d20)
    r = sh(d20, "odds", "mira", "jab", "--target", "bandit")
    assert r.code == 2 and "d500" in r.err and snapshot(d20) == before


def test_g_priv_6_the_largest_card_allowed_gives_its_odds_quickly(d20):
    """100d100 is in bounds: `odds` and `act --dry-run` answer in well under the timeout."""
    hostile(d20, f"{MAX_DICE}d{MAX_FACES}")
    assert not [p for p in run(d20, "--json", "check").json["problems"] if p.startswith("actions/")]
    spent = children_cpu()
    r = sh(d20, "--json", "odds", "mira", "strike", "--target", "bandit", "--advantage")
    assert r.code == 0 and children_cpu() - spent < 20  # about 0.5 s of CPU; the clock would measure the load
    target = r.json["targets"][0]
    assert target["p_lands_exact"] == "319/400"
    assert sum(__import__("fractions").Fraction(p) for p in target["distribution"].values()) == 1


def test_g_priv_6_parse_dice_refuses_past_the_limits_even_without_the_schema():
    """A cached check skips the schema; `parse_dice` still refuses (exit 2) before any work."""
    assert parse_dice("100d100+1000000") is not None
    for text in ("101d6", "1d101", "1d6+1000001"):
        with pytest.raises(BadInput) as exc:
            parse_dice(text)
        assert exc.value.rule == "G-PRIV-6" and exc.value.exit_code == 2
    doc = YAML(typ="rt").load('name: Big\nrange: reach\natk: fin\ndamage:\n  amount: "101d6"\n')
    assert [line(p) for p in card_problems("big", doc, "actions/big.yaml")] == [
        f"actions/big.yaml:5: damage.amount '101d6': 101 dice is over the limit of 100; {FIX}"]
    with pytest.raises(BadInput):
        parse_card("big", doc, "actions/big.yaml", checked=True)


def test_g_priv_6_exact_odds_match_brute_force_for_small_dice():
    from collections import Counter
    from itertools import product

    from narateer_cli.systems.d20_cards.odds import dice_counts

    for text in ("1d6", "2d6+3", "3d4-2", "2d10"):
        dice = parse_dice(text)
        brute = Counter(sum(f) + dice.bonus for f in product(range(1, dice.sides + 1), repeat=dice.count))
        assert dice_counts(dice) == brute


@pytest.mark.parametrize("expr, why", [("1000d6", "1000 dice"), ("d1000", "d1000"), ("2d6+99999999", "bonus")])
def test_g_priv_6_the_dice_verb_keeps_the_same_limits(d20, expr, why):
    before = snapshot(d20)
    r = run(d20, "--json", "dice", expr)
    assert r.code == 2 and why in r.err and json_error(r, 2)["rule"] == "G-PRIV-6" and snapshot(d20) == before
    assert ok(d20, "dice", "100d100", "--seed", "1")["total"] > 0


def test_g_priv_6_a_campaign_cannot_lift_the_dice_per_act_limit(d20):
    path = d20 / "narateer.yaml"
    path.write_text(path.read_text() + "rules:\n  limits: {dice: 1000000}\n")
    r = run(d20, "show", "mira")
    assert r.code == 2 and "rules.limits.dice" in r.err and "10000" in r.err
