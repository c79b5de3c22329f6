"""Narateer's sheet as a schema table (S-SYS-4): every key the rules read, its type and range.

The host's validator (`narateer_cli.store.schema`) walks a sheet against it:
unknown keys inside these maps are errors with the closest known key, unknown
top-level keys are kept (near misses are `check` warnings).
"""

from narateer_cli.store.schema import Anything, Either, Int, Map, Name, Nullable, Seq, Text

SKILL = Either(Int(0, 100), Map(keys={"level": Int(0, 100), "vital": Name("vitals", "vital")}, required=("level",),
                                title="{parent} {key}"))
WEAPON = Either(Int(0, 100), Map(keys={"attack_cost": Int(0, 100), "damage": Int(0, 1000)}, title="{parent} {key}"))

SHEET = Map(
    keys={
        "name": Text(),
        "vitals": Map(names="vitals", values=Int(0, 100), what="vital", title="vital {key}"),
        "skills": Map(values=SKILL, title="skill {key}"),
        "movement": Map(names="mode_costs", values=Int(0, 10_000), what="movement mode"),
        "weapons": Map(values=WEAPON, title="weapon {key}"),
        "action_dice": Map(keys={state: Int(0, "max_state_dice") for state in ("ready", "used", "wounded")}),
        "conditions": Seq(Name("conditions", "condition")),
        "readiness": Map(values=Int(0, 1000)),
        "notes": Anything(),
    },
    open=True,
    required=("action_dice",),
)

# An encounter state as the engine writes it (encounters/ID.yaml); any other key is dropped on the next write.
_NAMES = Seq(Text(word=True))
STATE = Map(
    keys={
        "id": Text(), "round": Int(0), "participants": _NAMES, "acted": _NAMES,
        "actor": Nullable(Text(word=True)), "next": Nullable(Text(word=True)), "mode": Nullable(Text(word=True)),
        "uses": Map(values=Int(None)), "movement_left": Nullable(Int(None)),
        "last_action": Nullable(Map(values=Anything())),
        "hidden": Map(values=Nullable(Map(values=Int(None)))), "recorded": Map(values=Int(None)),
        "searches": Map(values=Nullable(Map(values=Anything()))),
    },
    open=True,
)
