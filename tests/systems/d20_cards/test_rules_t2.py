"""T2-RULES d20-cards through the command line: Touch within reach whatever the range (R-CARD-PROP-10),
Mobility refused under every incapacitating condition (R-CARD-PROP-7, A-CARD-MOBILITY)."""

from __future__ import annotations

import pytest

from tests.conftest import ok, refused

from .test_cli import edit

GRASP = """name: Grasp
cost: {ap: 1}
tier: 1
source: Test Hands
atk: fin
range: 10
properties: [touch]
damage: {amount: 3, type: physical}
details: A card with a metre range and Touch.
"""


def _grasp(root):
    (root / "actions" / "grasp.yaml").write_text(GRASP)
    edit(root, "mira", actions=["strike", "grasp"])


def test_touch_with_a_metre_range_is_within_reach(d20):
    _grasp(d20)
    at_reach = ("act", "mira", "grasp", "--target", "bandit", "--distance", "1", "--faces", "2")
    assert ok(d20, *at_reach[:-2], "--dry-run")["allowed"] is True
    err = refused(d20, 3, "act", "mira", "grasp", "--target", "bandit", "--distance", "5",
                  contains="(R-CARD-PROP-10)")
    assert "within reach 1 m" in err
    ok(d20, *at_reach)


def test_touch_with_a_metre_range_follows_the_sheet_reach(d20):
    _grasp(d20)
    edit(d20, "mira", reach=2)
    ok(d20, "act", "mira", "grasp", "--target", "bandit", "--distance", "2", "--dry-run")
    refused(d20, 3, "act", "mira", "grasp", "--target", "bandit", "--distance", "3", contains="within reach 2 m")
