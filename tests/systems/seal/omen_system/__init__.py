"""Omen: a plug-in game whose secret rolls have effects beyond their log entry (the sealed secrets' tests).

A fortune roll reads one d6 as an omen and leaves it in the encounter's state; a mark roll writes its face on
the roller's own sheet. Each comes twice: declared (`shows=`, `seals=`) and undeclared (`-loose`), so the
host is seen refusing the undeclared effect of a secret roll and sealing the declared one.
"""

from narateer_cli.kit import System

_C = __name__ + ".commands"

SYSTEM = System(
    name="omen",
    title="Omen",
    summary="Read a d6 as an omen; mark a face on a sheet.",
    package=__name__,
    verbs={
        "fortune": (_C, "Read an omen into the encounter (sealed when secret)."),
        "fortune-loose": (_C, "Read an omen into the encounter, declaring nothing."),
        "mark": (_C, "Mark a face on your own sheet (sealed when secret)."),
        "mark-loose": (_C, "Mark a face on your own sheet, declaring nothing."),
        "read": (_C, "Say whether the encounter's omen is good (it depends on the omen)."),
        "tally": (_C, "Count one more round in the encounter (the omen stays as it is)."),
        "show": (_C, "Show a sheet."),
    },
    game=__name__ + ".game",
    counters=("luck.spent",),
)
