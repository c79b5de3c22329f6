"""Pool: roll as many d6 as a rating, the highest die decides; stress and trauma on the sheet.

A game that plugs into narateer from its own package (docs/write-a-game.md). This file defines SYSTEM and
imports nothing heavy: the hooks are the methods of `game.GAME`, and each verb's module is named by its path.
"""

from narateer_cli.kit import HOST_COMMAND, System

_C = __name__ + ".commands"

SYSTEM = System(
    name="pool",
    title="Pool",
    summary="Roll a pool of d6 (the rating); the highest decides: 6 full, 4-5 partial, 1-3 failure.",
    package=__name__,
    verbs={
        "roll": (_C, "Roll a pool for an action: its rating in d6, the highest decides."),
        "resolve": (_C, "Roll for an action (the same as roll)."),
        "resist": (_C, "Resist a consequence: take 6 minus the highest die in stress."),
        "fortune": (_C, "The Guide's sealed fortune roll of N dice."),
        "stress": (_C, "Take or clear stress: stress CHAR +2 / -1."),
        "dice": (HOST_COMMAND, "Roll N d6, bare."),
        "odds": (_C, "Exact chances of each outcome for a pool of N dice."),
        "new": (HOST_COMMAND, "Create a character sheet."),
        "show": (_C, "Show a character sheet."),
        "condition": (HOST_COMMAND, "Add or remove conditions: +NAME / -NAME."),
        "turn": (_C, "Turn the spotlight to a character in the encounter."),
    },
    game=__name__ + ".game",
    counters=("track.stress", "track.trauma"),
    bounds={"track.stress": (0, 9), "track.trauma": (0, 4)},  # the shipped max_stress and max_trauma
    example_hint="try `narateer roll ash prowl`, `narateer resist brin insight` and `narateer fortune guide 2` "
                 "(sealed)",
)
