"""Open Adventure: Action Scores pick exploding dice from the Action Chart against a Difficulty Score.

Only `SYSTEM` is defined here, cheaply; the engine, commands and formatters
are imported when a command needs them.
"""

from narateer_cli.kit import HOST_COMMAND, System

_P = __name__ + "."

SYSTEM = System(
    name="open-adventure",
    title="Open Adventure",
    summary="Action Score picks exploding dice from the Action Chart; meet the Difficulty Score; Effect, Stunts.",
    package=__name__,
    verbs={
        "new": (HOST_COMMAND, "Create a PC sheet or an NPC statblock."),
        "show": (_P + "cmd_sheet", "Show a sheet with each attribute's AS and dice."),
        "roll": (_P + "cmd_roll", "Make one Action Check (--dry-run: exact odds first)."),
        "dice": (HOST_COMMAND, "Roll the bare dice of an Action Score."),
        "odds": (_P + "cmd_roll", "Exact chance, Critical Failure, mean and distribution."),
        "chart": (_P + "cmd_roll", "The Action Chart (or the Time Chart with --time)."),
        "ds": (_P + "cmd_roll", "The Difficulty Score ladder."),
        "points": (_P + "cmd_sheet", "Change a point pool or Challenge Points."),
        "wound": (_P + "cmd_sheet", "Add Wounds."),
        "heal": (HOST_COMMAND, "Remove Wounds."),
        "encounter": (HOST_COMMAND, "Create, show and read encounters."),
        "turn": (HOST_COMMAND, "Start and end Turns in Reaction order."),
        "resolve": (_P + "cmd_encounter", "Resolve a declared action by its path."),
        "condition": (HOST_COMMAND, "Add or remove conditions."),
    },
    game=__name__ + ".game",
    example="example",
    params={"vs": "pair:skill", "opposed": "pair:use"},
    counters=("points.body", "points.mind", "points.spirit", "wounds", "challenge_points"),
    example_hint="try `narateer show bloodwind` and `narateer odds 7 --ds 9`; start an encounter with "
                 "`narateer encounter new NAME CHAR... --reaction PC=N`, e.g. "
                 "`narateer encounter new hall bloodwind warheart goblin --reaction bloodwind=9 --reaction warheart=5`",
    pointers={
        "behind": "use `roll CHAR ATTRIBUTE --compare` (Comparing Scores)",
        "dr": "use `ds` (the Difficulty Score ladder)",
        "exchange": "use `roll CHAR strength --vs TARGET:body`",
        "readiness": "use `show CHAR` (each attribute's AS and dice)",
        "refresh": "open-adventure has no Action Dice to refresh; see `points` and `heal`",
    },
)
