"""A sheet's `traits:` as a schema table: a misspelt trigger, modifier or key is bad input with the closest name,
and a trait's uses and what it modifies must agree with each other."""

from __future__ import annotations

from narateer_cli.kit import Choice, Either, Int, Map, Text

from .engine.traits import EVENTS, MODIFIABLE

_EFFECT = Map(keys={"bonus_dice": Int(0, 100), "advantage": Choice(True, False), "note": Text()},
              title="{parent}.{key}")


class _Trait(Map):
    """One trait: its keys as the table says, then what only the whole trait tells: `uses.left` at most
    `uses.max`, and `modifies` naming only the Event the trait triggers on."""

    def walk(self, value, path, place, out, ctx):
        start = len(out)
        Map.walk(self, value, path, place, out, ctx)
        if len(out) > start or not isinstance(value, dict):
            return
        uses = value.get("uses") or {}
        if uses.get("left", 0) > uses.get("max", 0):
            ctx.add(out, place, f"{path}.uses", f"{path}.uses.left {uses['left']} is more than its max {uses['max']}",
                    "a trait has at most max uses left", rule="R2-TRAIT-1")
        trigger = str(value.get("trigger")).lower()
        modifies = value.get("modifies")
        named = [modifies] if isinstance(modifies, str) else list(modifies or {})
        for what in named:
            if str(what).lower() != trigger:
                ctx.add(out, place, f"{path}.modifies",
                        f"{path} modifies {what} but triggers on {trigger}: a trait modifies its own Event",
                        "make `modifies` name its trigger, or drop it", rule="R2-TRAIT-1")


TRAIT = _Trait(
    keys={
        "name": Text(),
        "trigger": Choice(*EVENTS),
        "uses": Map(keys={"left": Int(0, 1000), "max": Int(0, 1000)}, required=("left", "max"),
                    title="{parent}.{key}"),
        "modifies": Either(Choice(*MODIFIABLE), Map(keys={what: _EFFECT for what in MODIFIABLE},
                                                    title="{parent}.{key}")),
        "creates_reaction": Choice(True, False),
        "text": Text(),
    },
    required=("trigger", "uses"),
    title="{parent}.{key}",
)
TRAITS = Map(values=TRAIT, title="trait {key}")
