"""Class traits as data: the exact Event a trait triggers on, its uses, what it modifies, and whether it
creates a Reaction.

A sheet keeps its traits under `traits:`, a mapping from each trait's name to its data, so that each trait's
`uses.left` is a counter of its own that two clones' spends add up in a merge:

    traits:
      iron-wall: {trigger: full-guard, uses: {left: 2, max: 2}, modifies: {full-guard: {bonus_dice: 1}},
                  creates_reaction: false}

A trait declared as part of Full Guard or Clash changes that Exchange Response and stays part of it: it is
no Reaction (a condition that forbids Reactions does not stop it) unless its data says it creates one. A
trait that triggers once an Exchange has resolved is a Reaction only when its data says so. Each use spends
the ruleset's `traits.uses_spent` (one by default) from `uses.left`; Slowed doubles Action Dice payments,
never a trait's uses.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import BadInput, Record, Refused, field, replace

# The Events a trait's `trigger` names, as narateer recognises them, and where each is declared
EVENTS = {
    "full-guard": "its owner answers a Combat Exchange with Full Guard (`exchange ... --response guard --trait`)",
    "clash": "its owner answers a Combat Exchange with Clash (`exchange ... --response clash --trait`)",
    "opportunity-attack": "its owner makes an Opportunity Attack (`react CHAR opportunity ... --trait`)",
    "exchange-resolved": "a Combat Exchange its owner took part in has resolved (`react CHAR trait ... --trait`)",
}
# What a trait may modify: the check of its own triggering Event (an Event after the Exchange has no check)
MODIFIABLE = ("full-guard", "clash", "opportunity-attack")
# How it modifies that check: explicitly granted dice (rolled, not paid) and Advantage
EFFECTS = ("bonus_dice", "advantage")
RESPONSE_EVENTS = {"guard": "full-guard", "clash": "clash"}


class Trait(Record):
    """One trait of a sheet: `key` is its name under `traits:`, `name` how the sheet spells it for people."""

    key: Any
    name: Any
    trigger: Any
    left: Any
    max: Any
    modifies: Any = field(default_factory=dict)
    creates_reaction: Any = False

    def to_sheet_json(self) -> dict:
        """The trait as `show` and `--json` give it: the sheet's keys."""
        return {"name": self.key, "title": self.name, "trigger": self.trigger,
                "uses": {"left": self.left, "max": self.max}, "modifies": dict(self.modifies),
                "creates_reaction": self.creates_reaction}


class TraitUse(Record, public=True):
    """One use of a trait: who used it on which Event, what it changed, the uses it spent and has left, and
    whether it was a Reaction of its own. (A trait use holds no roll: every key is public.)"""

    actor: Any
    name: Any
    trigger: Any
    event: Any
    spent: Any
    uses: Any
    modifies: Any
    applied: Any
    creates_reaction: Any
    reaction: Any


class TraitReaction(Record):
    """`react CHAR trait --against OTHER --trait NAME`: a trait used once an Exchange has resolved."""

    actor: Any = field(public=True)
    against: Any = field(public=True)
    reaction: Any = field(public=True)  # the kind of `react`: "trait", as an Opportunity Attack's is "opportunity"
    trait: Any = field(public=True, load=lambda d: TraitUse.from_json(d) if isinstance(d, dict) else d)


def parse_traits(block, label: str) -> dict:
    """A sheet's `traits:` (already checked against the sheet's schema) as {key: Trait}."""
    if block is None:
        return {}
    if not isinstance(block, dict):
        raise BadInput(f"{label}: traits must be a mapping from each trait's name to its data",
                       fix="write `traits: {iron-wall: {trigger: full-guard, uses: {left: 1, max: 1}}}`")
    out = {}
    for key, data in block.items():
        data = data or {}
        uses = data.get("uses") or {}
        out[str(key).lower()] = Trait(str(key).lower(), str(data.get("name") or key), str(data["trigger"]).lower(),
                                      uses["left"], uses["max"], modifies_of(data.get("modifies")),
                                      bool(data.get("creates_reaction", False)))
    return out


def modifies_of(value) -> dict:
    """`modifies` as {what: {effect: value}}: a bare name (`modifies: full-guard`) changes nothing numeric."""
    if value is None:
        return {}
    if isinstance(value, str):
        return {value.lower(): {}}
    return {str(k).lower(): dict(v or {}) for k, v in value.items()}


def find(sheet, name: str) -> Trait:
    """The sheet's trait called `name` (its key or its spelling for people, without case), or bad input with
    the closest names."""
    traits = sheet.traits or {}
    word = str(name).strip().lower()
    for trait in traits.values():
        if word in (trait.key, trait.name.lower()):
            return trait
    from narateer_cli.kit import unknown

    if not traits:
        raise BadInput(f"{sheet.id} has no traits", rule="R2-TRAIT-1",
                       fix=f"add one under `traits:` in characters/{sheet.id}.yaml")
    raise unknown("trait", name, sorted(traits), detail=f" on {sheet.id}'s sheet")


def declare(sheet, name: str, event: str, rules) -> TraitUse:
    """One use of `sheet`'s trait `name` on `event` as it would be made; a name the sheet does not hold is bad
    input. Whether the rules allow it is `refusal`'s, asked once every other input is known good."""
    trait = find(sheet, name)
    spent = rules.traits["uses_spent"]
    return TraitUse(sheet.id, trait.key, trait.trigger, event, spent, {"left": trait.left - spent, "max": trait.max},
                    dict(trait.modifies), dict(trait.modifies.get(event, {})), trait.creates_reaction,
                    trait.creates_reaction)


def refusal(sheet, use: TraitUse | None, rules):
    """Refused unless the rules allow the use: the trait's trigger is that exact Event, its uses cover the spend,
    and a trait that creates a Reaction has an owner able to take one."""
    if use is None:
        return
    if use.trigger != use.event:
        raise Refused(f"{sheet.id}'s trait {use.name} triggers on {use.trigger}, not on {use.event}",
                      rule="R2-TRAIT-2", fix=f"declare it where its Event happens: {EVENTS.get(use.trigger, '')}")
    if use.uses["left"] < 0:
        left = use.uses["left"] + use.spent
        raise Refused(f"{sheet.id}'s trait {use.name} has {left} of {use.uses['max']} uses left", rule="R2-TRAIT-3",
                      fix="it cannot be used until its uses come back; nothing was spent")
    if use.creates_reaction:
        blocker = rules.blocks_reactions(sheet.conditions)
        if blocker:
            raise Refused(f"{sheet.id} is {blocker} and cannot take the Reaction its trait {use.name} creates",
                          rule="R2-TRAIT-4", fix="declare it without --trait")


def modified(decl, use: TraitUse | None):
    """The check's declaration as the trait changes it: bonus dice added (rolled, not paid), Advantage."""
    if use is None or not use.applied:
        return decl
    return replace(decl, bonus_dice=decl.bonus_dice + int(use.applied.get("bonus_dice", 0)),
                   advantage=decl.advantage or bool(use.applied.get("advantage", False)))


def edits(use: TraitUse | None) -> dict:
    """The sheet edit of a use: its owner's `traits.NAME.uses.left` (a counter, merged as a sum)."""
    if use is None:
        return {}
    return {use.actor: {("traits", use.name, "uses", "left"): use.uses["left"]}}


def after_exchange(state: dict, actor, other, name: str, rules) -> tuple[dict, TraitReaction]:
    """A trait used once an Exchange between `actor` and `other` has resolved: the encounter's last action must
    be that Exchange, and a character uses one trait per Event. Returns (new state, result)."""
    from .encounter import require_participant

    require_participant(state, other.id)
    use = declare(actor, name, "exchange-resolved", rules)
    refusal(actor, use, rules)
    last = state.get("last_action") or {}
    sides = {last.get("actor"), last.get("defender")}
    if last.get("command") != "exchange" or sides != {actor.id, other.id}:
        raise Refused(f"the last action was not a Combat Exchange between {actor.id} and {other.id}",
                      rule="R2-TRAIT-5", fix="a trait that triggers after an Exchange is declared right after it")
    if actor.id in (last.get("traits") or []):
        raise Refused(f"{actor.id} already used a trait on this Exchange", rule="R2-TRAIT-5",
                      fix="one trait per Event")
    out = {**state, "last_action": {**last, "traits": [*(last.get("traits") or []), actor.id]}}
    return out, TraitReaction(actor.id, other.id, "trait", use)


def refreshed_uses(sheet) -> tuple[dict, dict, int]:
    """Every trait's uses back to its max: ({key: left before}, {key: left after}, uses given back). The chapters
    do not say when a trait's uses come back; the ruleset's `traits.refresh` knob does."""
    before = {key: trait.left for key, trait in sheet.traits.items()}
    after = {key: trait.max for key, trait in sheet.traits.items()}
    return before, after, sum(after[key] - before[key] for key in before)


def uses_refresh_at_activation(rules) -> bool:
    return (rules.traits or {}).get("refresh", "manual") == "activation_start"


def uses_edits(before: dict, after: dict) -> dict:
    """The sheet edits that set each changed trait's uses left."""
    return {("traits", key, "uses", "left"): left for key, left in after.items() if left != before.get(key)}
