"""d20 action cards: the third rule system, whose actions are cards kept as data.

Only `SYSTEM` is defined here, cheaply. The engine modules (`act`, `gates`,
`effects`, `timeflow`, `odds`, `encounter`, `readouts`) are pure functions over
frozen records that return result records (`results`); `render` holds their
JSON shapes and text; `cards` and `sheet` parse the mappings the store hands
over; `store` writes; `commands` and `table` hold the click verbs.
"""

from narateer_cli.kit import HOST_COMMAND, System

_C = __name__ + ".commands"
_T = __name__ + ".table"

SYSTEM = System(
    name="d20-cards",
    title="d20 action cards",
    summary="Actions as YAML cards: AP costs, ATK vs AC with Overkill or Action DC saves, cooldowns, charges.",
    package=__name__,
    verbs={
        "new": (HOST_COMMAND, "Create a character sheet."),
        "show": (_C, "Show a sheet: DCs, bonuses and each card's readiness."),
        "card": (_C, "Show or list action cards."),
        "act": (_C, "Perform an action card."),
        "odds": (_C, "Exact chance and expected damage of a card against a target."),
        "rest": (_T, "Rest: refill charges (--proper, or --kind NAME)."),
        "damage": (_T, "Deal damage to a character (Swan Song doubles it)."),
        "heal": (HOST_COMMAND, "Heal a character up to its max HP."),
        "drop": (_T, "End a character's Concentration (its cooldown starts)."),
        "elapse": (_T, "Advance the campaign clock (10m, 2h, 1d)."),
        "refresh": (_T, "Refill a character's AP."),
        "dice": (HOST_COMMAND, "Roll dice such as d20 or 2d6+3."),
        "condition": (HOST_COMMAND, "Add or remove conditions: +NAME / -NAME."),
        "encounter": (HOST_COMMAND, "Create, show and read encounters."),
        "turn": (HOST_COMMAND, "Start and end turns: AP refills, cooldowns tick, the Dying drain."),
    },
    game=__name__ + ".game",
    folders=("actions",),
    config_keys=("clock",),
    params={"target": "character"},  # the campaign clock `elapse` moves
    counters=("hp.current", "resources.ap.current", "charges.*"),
    # HP has no floor unless a campaign's rules set one (`hp: {floor: N}`), and a heal stops at the maximum
    bounds={"hp.current": (None, "hp.max"), "resources.ap.current": (0, "resources.ap.max"), "charges.*": (0, None)},
    example_hint="try `narateer show mira` and `narateer card show strike --for mira`; start an encounter with "
                 "`narateer encounter new NAME CHAR...`, e.g. `narateer encounter new brawl mira bandit`",
    pointers={
        "roll": "use narateer act CHAR CARD",
        "resolve": "use narateer act CHAR CARD",
        "hide": "use narateer condition CHAR +hidden",
        "exchange": "use narateer act CHAR CARD --target T",
        "react": "use narateer act CHAR CARD (a Reaction card)",
        "wound": "use narateer damage CHAR N",
        "readiness": "use narateer show CHAR",
    },
    explicit_null=True,  # `concentrating: null`, as the sheet format spells it
)


def ruleset(overrides=None, where: str = "narateer.yaml"):
    """The shipped ruleset with `overrides` (tests and tools; commands go through the campaign)."""
    from .ruleset import build_ruleset

    return build_ruleset(SYSTEM.rules_data(), overrides, where)
