"""Pool's rules with physical faces: what the table would read off the dice."""

from fractions import Fraction
from itertools import product

import pytest

from narateer_cli.kit import BadInput, Refused, default_rules, load_system
from narateer_pool import engine


@pytest.fixture(scope="module")
def rules():
    return engine.ruleset(default_rules(load_system("pool")), {}, "rules.yaml")


@pytest.mark.parametrize("faces, kept, outcome", [
    ([6, 2, 6], 6, "critical"),
    ([6, 6], 6, "critical"),
    ([3, 6, 1], 6, "full success"),
    ([6], 6, "full success"),
    ([5, 1, 4], 5, "partial success"),
    ([4], 4, "partial success"),
    ([3, 3, 1, 2], 3, "failure"),
    ([1], 1, "failure"),
])
def test_the_highest_die_decides(rules, faces, kept, outcome):
    got = engine.action_roll("ash", "prowl", len(faces), faces, rules)
    assert (got["kept"], got["outcome"], got["success"]) == (kept, outcome, outcome != "failure")
    assert got["pool"] == len(faces) and got["keep"] == "highest"


@pytest.mark.parametrize("faces, kept, outcome", [
    ([6, 2], 2, "failure"),
    ([5, 4], 4, "partial success"),
    ([6, 6], 6, "full success"),  # only the kept die counts: a rating of 0 never crits
])
def test_rating_zero_rolls_two_and_keeps_the_lowest(rules, faces, kept, outcome):
    got = engine.action_roll("ash", "skirmish", 0, faces, rules)
    assert (got["pool"], got["keep"], got["kept"], got["outcome"]) == (2, "lowest", kept, outcome)


def test_a_pool_needs_one_face_per_die(rules):
    with pytest.raises(BadInput):
        engine.action_roll("ash", "prowl", 3, [6, 6], rules)
    with pytest.raises(BadInput):
        engine.action_roll("ash", "prowl", 1, [7], rules)
    with pytest.raises(BadInput):
        engine.action_roll("ash", "skirmish", 0, [4], rules)


def test_ratings_come_from_the_sheet(rules):
    sheet = engine.parse_sheet("ash", {"actions": {"prowl": 3, "hunt": 1, "survey": 0, "sway": 2},
                                       "track": {"stress": 0, "trauma": 0}}, "ash.yaml", rules)
    assert engine.rating_of(sheet, "prowl", rules) == 3
    assert engine.rating_of(sheet, "wreck", rules) == 0  # unrated
    assert engine.attribute_rating(sheet, "insight", rules) == 1  # hunt; survey is rated 0
    assert engine.attribute_rating(sheet, "prowess", rules) == 1
    assert engine.attribute_rating(sheet, "resolve", rules) == 1
    with pytest.raises(BadInput):
        engine.parse_sheet("ash", {"actions": {"prowl": 5}, "track": {"stress": 0, "trauma": 0}}, "ash.yaml",
                           rules)


@pytest.mark.parametrize("faces, rating, taken", [([4, 2], 2, 2), ([6, 1, 1], 3, 0), ([1], 1, 5), ([5, 3], 0, 3)])
def test_resist_takes_six_minus_the_deciding_die(rules, faces, rating, taken):
    got = engine.resist("brin", "insight", rating, {"stress": 1, "trauma": 0}, faces, rules)
    assert got["stress_taken"] == taken
    assert got["track_after"] == {"stress": 1 + taken, "trauma": 0}


def test_stress_past_nine_marks_a_trauma_and_resets(rules):
    exactly = engine.resist("ash", "prowess", 1, {"stress": 5, "trauma": 0}, [2], rules)
    assert exactly["track_after"] == {"stress": 9, "trauma": 0} and exactly["trauma_marked"] == 0
    past = engine.resist("ash", "prowess", 1, {"stress": 6, "trauma": 1}, [2], rules)
    assert past["track_after"] == {"stress": 0, "trauma": 2} and past["trauma_marked"] == 1
    assert engine.stress("ash", {"stress": 9, "trauma": 0}, 1, rules)["track_after"] == {"stress": 0, "trauma": 1}
    with pytest.raises(Refused):
        engine.stress("ash", {"stress": 1, "trauma": 0}, -2, rules)
    with pytest.raises(Refused):
        engine.stress("ash", {"stress": 9, "trauma": 4}, 1, rules)


def test_fortune_is_a_pool_of_n(rules):
    assert engine.fortune("guide", 4, [1, 2, 6, 6], rules)["outcome"] == "critical"
    assert engine.fortune("guide", 0, [6, 3], rules)["outcome"] == "failure"
    with pytest.raises(BadInput):
        engine.fortune("guide", 11, [1] * 11, rules)


@pytest.mark.parametrize("size", range(0, 5))
def test_odds_are_exact(rules, size):
    """Every roll counted by hand, one face tuple at a time, against the multiset count of `odds`."""
    got = engine.odds(size, rules)
    dice = size or 2
    rolls = list(product(range(1, 7), repeat=dice))
    for outcome in engine.OUTCOMES:
        n = 0
        for r in rolls:
            kept = max(r) if size else min(r)
            crit = size and r.count(6) >= 2
            name = "critical" if crit else "full success" if kept == 6 else \
                "partial success" if kept >= 4 else "failure"
            n += name == outcome
        assert got[outcome] == Fraction(n, len(rolls)), outcome
    assert sum(got.values()) == 1


def test_odds_by_hand(rules):
    assert engine.odds(1, rules) == {"critical": 0, "full success": Fraction(1, 6),
                                     "partial success": Fraction(1, 3), "failure": Fraction(1, 2)}
    assert engine.odds(0, rules)["full success"] == Fraction(1, 36)
    assert engine.odds(2, rules)["critical"] == Fraction(1, 36)
    assert engine.odds(10, rules)["failure"] == Fraction(1, 2 ** 10)


def test_verify_names_an_entry_whose_faces_do_not_give_its_outcome(rules):
    logged = engine.action_roll("ash", "prowl", 3, [6, 2, 6], rules)
    entry = {"seq": 4, "command": "roll", "result": logged}
    assert engine.verify_log([entry], rules) is None
    forged = {**entry, "result": {**logged, "faces": [6, 2, 5]}}
    problem = engine.verify_log([forged], rules)
    assert problem.startswith("entry 4 (roll): ") and "outcome" in problem


def test_verify_passes_over_only_a_sealed_entry(rules):
    """A roll without faces is checked once unveiled only when it is sealed (it holds a commitment); an
    open one without faces is a forged or damaged entry."""
    public = {"system": "pool", "actor": "guide", "dice": 3, "pool": 3, "keep": "highest"}
    assert engine.verify_log([{"seq": 2, "command": "fortune", "result": public, "commitment": "ab"}], rules) is None
    problem = engine.verify_log([{"seq": 2, "command": "fortune", "result": public}], rules)
    assert problem is not None and problem.startswith("entry 2 (fortune): ")
