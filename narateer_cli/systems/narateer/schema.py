"""Narateer's sheet as a schema table (a misspelt key is bad input): every key the rules read, its type and range.

The host's validator (`narateer_cli.store.schema`) walks a sheet against it:
unknown keys inside these maps are errors with the closest known key, unknown
top-level keys are kept (near misses are `check` warnings).
"""

from narateer_cli.kit import Anything, Choice, Either, Int, Map, Name, Nullable, Or, Seq, Text

from .trait_schema import TRAITS

SKILL = Either(Int(0, 100), Map(keys={"level": Int(0, 100), "vital": Name("vitals", "vital")}, required=("level",),
                                title="{parent} {key}"))
WEAPON = Either(Int(0, 100), Map(keys={"attack_cost": Int(0, 100), "damage": Int(0, 1000), "range": Int(0, 10_000)},
                                 title="{parent} {key}"))  # range: metres, for Exchanges at range

# A spell as data: its Casting Cost in Action Dice and Magic Dice, its action tier, the Skill Check it asks
# (or none), the effects that can reveal its caster, and its range (metres, or words such as touch)
SPELL = Map(
    keys={"name": Text(), "cost": Map(keys={"ad": Int(0, 100), "md": Int(0, 100)}),
          "tier": Choice("trivial", "minor", "major"),
          "check": Nullable(Map(keys={"skill": Name("skills", "skill", new=True), "dr": Or(Int(0, 2000), Text(word=True))},
                                required=("skill",))),
          "reveals": Seq(Name(lambda rules: (getattr(rules, "magic", None) or {}).get("reveals") or (), "effect")),
          "range": Or(Int(0, 10_000), Text()), "notes": Anything()},
    required=("name", "cost", "tier"),
)

SHEET = Map(
    keys={
        "name": Text(),
        "vitals": Map(names="vitals", values=Int(0, 100), what="vital", title="vital {key}"),
        "skills": Map(values=SKILL, title="skill {key}"),
        "movement": Map(names="mode_costs", values=Int(0, 10_000), what="movement mode"),
        "weapons": Map(values=WEAPON, title="weapon {key}"),
        "action_dice": Map(keys={state: Int(0, "max_state_dice") for state in ("ready", "used", "wounded")}),
        "conditions": Seq(Name("conditions", "condition")),
        "magic_dice": Map(keys={state: Int(0, "max_state_dice") for state in ("ready", "used")}),
        "spells": Seq(SPELL, indexed=True),
        "readiness": Map(values=Int(0, 1000)),
        "notes": Anything(),
        "traits": TRAITS,
    },
    open=True,
    required=("action_dice",),
)

class _Total(Int):
    """A recorded Stealth total, or the id of the secret entry that holds it (a secret Hide)."""

    def walk(self, value, path, place, out, ctx):
        if not (isinstance(value, str) and 0 < len(value) <= 40 and all(c in "0123456789abcdef-qs" for c in value)):
            super().walk(value, path, place, out, ctx)


# An encounter state as the engine writes it (encounters/ID.yaml); any other key is dropped on the next write.
_NAMES = Seq(Text(word=True))
STATE = Map(
    keys={
        "id": Text(), "round": Int(0), "participants": _NAMES, "acted": _NAMES,
        "actor": Nullable(Text(word=True)), "next": Nullable(Text(word=True)), "mode": Nullable(Text(word=True)),
        "uses": Map(values=Int(None)), "movement_left": Nullable(Int(None)),
        "last_action": Nullable(Map(values=Anything())),
        "hidden": Map(values=Nullable(Map(values=_Total(None)))), "recorded": Map(values=_Total(None)),
        "searches": Map(values=Nullable(Map(values=Anything()))),
        "durations": Map(values=Nullable(Map(values=Int(None)))),
    },
    open=True,
    required=("round",),  # Narateer counts rounds; the host asks only for id and participants
)

# The ruleset (rules.yaml with a campaign's `rules:` over it): every knob of the rules and its range.
_BOOL = Choice(True, False)
_COUNT = Int(0, 100)
RULES = Map(
    keys={
        "version": Anything(),
        "faces": Seq(Choice(0, 1, 2), min_items=1, max_items=100),
        "disadvantage": Choice("crits", "dotted"),
        "edge_both": Choice("cancel", "both"),
        "reaction_boost": _BOOL,
        "roll_dice": Choice("base_cost", "paid_base"),
        "tiers": Seq(Map(keys={"from": Nullable(Int(None)), "name": Text(word=True)}, required=("name",)),
                     min_items=1, indexed=True),
        "dr": Map(values=Int(0)),
        "random_dr_offset": Int(-100, 100),
        "random_dr_dice": Int(0, 100),
        "readiness_off": Seq(Name("conditions", "condition")),
        "vitals": Seq(Text(word=True), min_items=1),
        "skills": Map(values=Name("vitals", "vital")),
        "refresh": Map(keys={"amount": Or(Int(0), Choice("all")),
                             "timing": Choice("activation_start", "manual")}, required=("amount", "timing")),
        "turn": Map(keys={"order": Choice("actor_chooses"), "first_round": Int(0)}, required=("order", "first_round")),
        "movement_costs": Map(keys={"modes": Map(values=Int(0, 100)), "difficult": Int(1, 10), "hidden": Int(1, 10),
                                    "sprint_ends_hiding": _BOOL},
                              required=("modes", "difficult", "hidden", "sprint_ends_hiding")),
        "exchange": Map(keys={"attack_cost": _COUNT, "guard_cost": _COUNT, "clash_cost": _COUNT,
                              "skill": Name("skills", "skill"),
                              "ranged": Map(keys={"skills": Seq(Name("skills", "skill")),
                                                  "responses": Seq(Choice("none", "guard", "clash")),
                                                  "defense_skill": Name("skills", "skill")},
                                            required=("skills", "responses", "defense_skill"))},
                        required=("attack_cost", "guard_cost", "clash_cost", "skill")),
        "search_pay": Choice("readiness", "refuse"),
        "assist": Map(keys={"cost": _COUNT, "grants": Choice("advantage")}, required=("cost", "grants")),
        "wound": Map(keys={"from": Seq(Choice("ready", "used")), "heal_to": Choice("used", "ready"),
                           "out": Nullable(Name("conditions", "condition"))},
                     required=("from", "heal_to")),
        "conditions": Map(values=Nullable(Map(keys={"pay_multiplier": Int(1, 10), "reactions": _BOOL,
                                                    "unseen": Choice("refuse", "disadvantage")}))),
        # sizes an attacker controls are capped: narateer.yaml arrives by git; `odds` convolves every die of a roll, so
        # a campaign may lower dice_per_roll but not raise it past 1,000 (under a second); a die has at most 100 faces
        "limits": Map(keys={"dice_per_roll": Int(1, 1000), "dice_per_state": Int(1, 10**9)},
                      required=("dice_per_roll", "dice_per_state")),
        "magic": Map(keys={"refresh": Map(keys={"amount": Or(Int(0), Choice("all")),
                                                "timing": Choice("activation_start", "manual")},
                                          required=("amount", "timing")),
                           "md_rolled": _BOOL, "reveals": Seq(Text(word=True))},
                     required=("refresh", "md_rolled", "reveals")),
        "traits": Map(keys={"uses_spent": Int(1, 100), "refresh": Choice("manual", "activation_start")},
                      required=("uses_spent",)),
    },
    required=("faces", "disadvantage", "edge_both", "reaction_boost", "roll_dice", "tiers", "dr", "random_dr_offset",
              "random_dr_dice", "readiness_off", "vitals", "skills", "refresh", "turn", "movement_costs", "exchange",
              "search_pay", "assist", "wound", "conditions", "limits", "traits"),
)
