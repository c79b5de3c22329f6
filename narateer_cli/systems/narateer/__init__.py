"""Narateer: Action Dice, Skill Checks with Boost and Edge, Readiness, Hide and Search, Combat Exchanges.

Only `SYSTEM` is defined here, cheaply; the engine, commands and formatters
are imported when a command needs them.
"""

from narateer_cli.kit import HOST_COMMAND, System

_C = "narateer_cli.systems.narateer.commands."

SYSTEM = System(
    name="narateer",
    title="Narateer",
    summary="Action Dice of Miss/Hit/Crit faces; Boost, Edge, Readiness, Hide and Search, Combat Exchanges.",
    package=__name__,
    verbs={
        "new": (HOST_COMMAND, "Create a character file."),
        "show": (_C + "sheets", "Show a character sheet with its Readiness table."),
        "readiness": (_C + "sheets", "Readiness Scores; --write records them on the sheet."),
        "roll": (_C + "rolls", "Make one Skill Check."),
        "dice": (HOST_COMMAND, "Roll a bare pool of Action Dice."),
        "dr": (_C + "pools", "The DR ladder, or a random DR."),
        "odds": (_C + "pools", "Exact chance and distribution for N dice."),
        "behind": (_C + "behind", "Behind-the-screen check: Readiness vs a target."),
        "encounter": (HOST_COMMAND, "Create, show and read encounters."),
        "turn": (HOST_COMMAND, "Start and end activations."),
        "resolve": (_C + "encounter", "Resolve a declared Action by its path."),
        "condition": (HOST_COMMAND, "Add or remove conditions."),
        "refresh": (_C + "encounter", "Return Used dice to Ready."),
        "wound": (_C + "encounter", "Wound a character (moves dice to wounded)."),
        "heal": (HOST_COMMAND, "Heal wounds (wounded dice back to Used)."),
        "hide": (_C + "stealth", "Hide from observers."),
        "search": (_C + "stealth", "Search for a hidden creature."),
        "reveal": (_C + "stealth", "End hiding."),
        "move": (_C + "stealth", "Spend movement."),
        "exchange": (_C + "combat", "A Combat Exchange."),
        "react": (_C + "combat", "A Reaction (Opportunity Attack)."),
        "cast": (_C + "cast", "Cast a spell: pay its Casting Cost, make its check."),
    },
    game=__name__ + ".game",
    # Action Dice (edited in place, the everyday path), Magic Dice and a trait's uses left: two clones' spends add up
    counters=("action_dice.ready", "action_dice.used", "action_dice.wounded", "magic_dice.*", "traits.*.uses.left"),
    bounds={"traits.*.uses.left": (0, "traits.*.uses.max")},  # a trait's uses left, from 0 to its max
    state_counters=("uses.*",),  # proactive uses left this activation: two clones' checks both count
    params={**dict.fromkeys(("attacker", "defender", "hider", "mover", "observers", "searching", "next_id", "assist"),
                            "character"), "vs": "pair:skill", "contested": "pair:skill"},
    example_hint="try `narateer show selka` and `narateer odds 3 --dr 2`; start an encounter with "
                 "`narateer encounter new NAME CHAR...`, e.g. `narateer encounter new brawl selka mira bandit` "
                 "(or use the example's with --in ambush)",
)
