"""d20-cards dice written on a card: a die has at least one face and a roll at least one die."""

from __future__ import annotations

import pytest

from tests.conftest import refused, run


@pytest.mark.parametrize("amount", ["1d0", "0d6"])
def test_a_card_with_dice_that_cannot_roll_is_a_problem_not_a_crash(d20, amount):
    card = d20 / "actions" / "strike.yaml"
    card.write_text(card.read_text().replace("amount: 12", f"amount: {amount}"))
    assert f"actions/strike.yaml:8: damage.amount must be dice such as \"2d6+3\", not '{amount}'" in \
        run(d20, "--json", "check").json["problems"]
    refused(d20, 2, "act", "mira", "strike", "--target", "bandit", "--faces", "11", contains="damage.amount must be")
