"""Forge: a highest-die d6 pool game in the Forged-in-the-Dark manner, as a narateer game.

An action roll is a pool of d6 from an action rating: the highest die decides (6 success, 4-5 partial,
1-3 bad; two 6s a critical; no dice: roll two and keep the lowest). A resistance roll rolls an attribute's
dice and costs 6 minus the highest in stress; stress past 9 becomes a trauma. The Guide's fortune roll is
always sealed. Stress, trauma and harm are counters on the sheet.
"""

from narateer_cli.kit import HOST_COMMAND, System

SYSTEM = System(
    name="forge",
    title="Forge",
    summary="Highest d6 of a pool decides: action rolls, resistance for stress, sealed fortune omens; stress, trauma, harm.",
    package=__name__,
    verbs={
        "show": (__name__ + ".commands", "Show a character sheet: actions, attributes, stress, trauma, harm."),
        "roll": (__name__ + ".commands", "Make an action roll: the highest die of the action's pool decides."),
        "resolve": (__name__ + ".commands", "Resist a consequence: roll the attribute, pay 6 minus the highest in stress."),
        "fortune": (__name__ + ".commands", "The Guide's fortune roll, always sealed: an omen the players do not see."),
        "odds": (__name__ + ".commands", "Exact chances of each outcome for N dice (or a resistance's stress cost)."),
        "harm": (__name__ + ".commands", "Mark or clear harm: harm CHAR +1."),
        "stress": (__name__ + ".commands", "Mark or clear stress: stress CHAR +2 (past the maximum: a trauma)."),
        "dice": (HOST_COMMAND, "Roll a bare pool of d6 and read its highest die."),
        "new": (HOST_COMMAND, "Copy a character: new ID --from OTHER."),
        "turn": (HOST_COMMAND, "Pass the spotlight."),
        "condition": (HOST_COMMAND, "Add or remove conditions."),
        "encounter": (HOST_COMMAND, "Create, show and read encounters."),
    },
    game=__name__ + ".game",
    counters=("track.stress", "track.trauma", "track.harm"),
    example_hint="narateer roll cutter skirmish --dry-run; narateer roll cutter skirmish; narateer fortune guide 2",
)
