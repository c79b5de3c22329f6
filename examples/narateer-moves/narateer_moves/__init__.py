"""Moves: roll 2d6 + a stat; 10+ is a strong hit, 7-9 a weak hit, 6- a miss (a miss marks 1 XP).

An example of a game that plugs into narateer from its own package (docs/write-a-game.md). This file
defines SYSTEM and imports nothing heavy: the hooks are the methods of `game.GAME`, and each verb's module
is named by its path.
"""

from narateer_cli.kit import HOST_COMMAND, System

_C = __name__ + ".commands"

SYSTEM = System(
    name="moves",
    title="Moves",
    summary="Roll 2d6 + stat: 10+ strong hit, 7-9 weak hit, 6- miss; harm and XP on the sheet.",
    package=__name__,
    verbs={
        "roll": (_C, "Make a move: 2d6 + its stat."),
        "resolve": (_C, "Make a move (the same as roll)."),
        "dice": (HOST_COMMAND, "Roll 2d6, bare."),
        "odds": (_C, "Exact chances of each band for a stat."),
        "new": (HOST_COMMAND, "Create a character sheet."),
        "show": (_C, "Show a character sheet."),
        "harm": (_C, "Take or heal harm: harm CHAR +2 / -1."),
        "condition": (HOST_COMMAND, "Add or remove conditions: +NAME / -NAME."),
        "turn": (_C, "Turn the spotlight to a character in the encounter."),
    },
    game=__name__ + ".game",
    counters=("track.harm", "track.xp"),
    example_hint="try `narateer roll rook push-through` and `narateer roll guide size-up` (secret)",
)
