"""Coin: a toy rule system that plugs into narateer as a third-party package would.

Flip coins; heads count one each; a flip succeeds when the heads beat the
target. A character holds coins (ready / spent); a roll spends one.
"""

from narateer_cli.kit import HOST_COMMAND, System

SYSTEM = System(
    name="coin",
    title="Coin",
    summary="Flip coins, count heads, beat the target.",
    package=__name__,
    verbs={
        "roll": (__name__ + ".commands", "Flip coins for a character against a target."),
        "odds": (__name__ + ".commands", "Exact chance to beat a target with N coins."),
        "call": (__name__ + ".commands", "Call one flip: heads or tails."),
        "resolve": (__name__ + ".commands", "Resolve an action by a flip."),
        "dice": (HOST_COMMAND, "Flip bare coins."),
        "show": (__name__ + ".commands", "Show a character's coins."),
        "new": (HOST_COMMAND, "Copy a character."),
        "turn": (__name__ + ".commands", "Start a character's turn: spent coins come back."),
        "condition": (HOST_COMMAND, "Add or remove conditions."),
    },
    game=__name__ + ".game",
    counters=("coins.ready", "coins.spent"),
    pointers={"hide": "a coin cannot hide; try `narateer call heads`"},
)
