"""d20-cards input that cannot be played: dice that cannot roll, empty faces, bad condition levels, negative
amounts, ending a turn that is not going."""

from __future__ import annotations

import pytest

from tests.conftest import ok, refused, run


@pytest.mark.parametrize("amount", ["1d0", "0d6"])
def test_a_card_with_dice_that_cannot_roll_is_a_problem_not_a_crash(d20, amount):
    card = d20 / "actions" / "strike.yaml"
    card.write_text(card.read_text().replace("amount: 12", f"amount: {amount}"))
    assert f"actions/strike.yaml:8: damage.amount must be dice such as \"2d6+3\", not '{amount}'" in \
        run(d20, "--json", "check").json["problems"]
    refused(d20, 2, "act", "mira", "strike", "--target", "bandit", "--faces", "11", contains="damage.amount must be")


def test_empty_faces_are_bad_input_never_a_random_roll(d20):
    refused(d20, 2, "act", "mira", "strike", "--target", "bandit", "--faces", "", contains="no faces given")
    refused(d20, 2, "dice", "2d6", "--faces", "", contains="no faces given")


@pytest.mark.parametrize("change", ["+nullified:abc", "+nullified:-2"])
def test_a_nullification_level_is_a_whole_number(d20, change):
    refused(d20, 2, "condition", "mira", change, contains="bad condition level")


def test_a_negative_amount_or_span_is_named_as_such(d20):
    refused(d20, 2, "damage", "mira", "-5", contains="-5 is not in the range")
    refused(d20, 2, "elapse", "-10m", contains="bad time span '-10m'")


def test_turn_end_with_no_turn_going_is_refused(d20):
    ok(d20, "turn", "end")
    refused(d20, 3, "turn", "end", contains="no turn is going in encounter fight")
