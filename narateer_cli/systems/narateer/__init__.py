"""Narateer: Action Dice, Skill Checks with Boost and Edge, Readiness, Hide and Search, Combat Exchanges.

Only `SYSTEM` is defined here, cheaply; the engine, commands and formatters
are imported when a command needs them.
"""

from ..base import System

_C = "narateer_cli.commands."

SYSTEM = System(
    name="narateer",
    title="Narateer",
    summary="Action Dice of Miss/Hit/Crit faces; Boost, Edge, Readiness, Hide and Search, Combat Exchanges.",
    package=__name__,
    verbs={
        "new": (_C + "core", "Create a character file."),
        "show": (_C + "core", "Show a character sheet with its Readiness table."),
        "readiness": (_C + "core", "Readiness Scores; --write records them on the sheet."),
        "roll": (_C + "rolls", "Make one Skill Check."),
        "dice": (_C + "rolls", "Roll a bare pool of Action Dice."),
        "dr": (_C + "rolls", "The DR ladder, or a random DR."),
        "odds": (_C + "rolls", "Exact chance and distribution for N dice."),
        "behind": (_C + "rolls", "Behind-the-screen check: Readiness vs a target."),
        "encounter": (_C + "scene", "Create, show and read encounters."),
        "turn": (_C + "scene", "Start and end activations."),
        "resolve": (_C + "scene", "Resolve a declared Action by its path."),
        "condition": (_C + "scene", "Add or remove conditions."),
        "refresh": (_C + "scene", "Return Used dice to Ready."),
        "wound": (_C + "scene", "Wound a character (moves dice to wounded)."),
        "heal": (_C + "scene", "Heal wounds (wounded dice back to Used)."),
        "undo": (_C + "scene", "Revert the last logged action."),
        "verify": (_C + "scene", "Re-check an encounter log."),
        "hide": (_C + "stealth", "Hide from observers."),
        "search": (_C + "stealth", "Search for a hidden creature."),
        "reveal": (_C + "stealth", "End hiding."),
        "move": (_C + "stealth", "Spend movement."),
        "exchange": (_C + "combat", "A Combat Exchange."),
        "react": (_C + "combat", "A Reaction (Opportunity Attack)."),
    },
    hooks={
        "ruleset": "narateer_cli.engine.ruleset:build_ruleset",
        "parse_sheet": "narateer_cli.store.campaign:parse_sheet",
        "new_state": "narateer_cli.engine.scene:new_state",
        "verify_log": "narateer_cli.engine.verify:verify_log",
        "parse_faces": "narateer_cli.engine.dice:parse_faces",
        "render": "narateer_cli.render",
    },
    rules_file="../../rules/narateer.yaml",
    example="../../example",
    counters=("action_dice.ready", "action_dice.used", "action_dice.wounded"),
)
