"""Frozen records the d20-cards engine returns: world state in, result records out.

`World` is the state an engine call reads (characters, campaign cards, the
encounter, the clock); every call returns a new `World` and one result
record. The render module turns results into text and JSON: a record's JSON
shape is the render function its `_shape` names (SHAPE + NAME), reached
through `narateer_cli.render.plain`; the engine never builds one.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import Record

SHAPE = "narateer_cli.systems.d20_cards.render:"
TAGGED = SHAPE + "tagged"  # the fields in order after `system: d20-cards`


class Encounter(Record):
    """The running encounter: whose turn it is, in which round, among whom."""

    id: Any
    round: Any
    turn: Any
    participants: Any


class World(Record):
    """`roster` names every character of the campaign (for "did you mean"), loaded or not."""

    chars: Any
    cards: Any = {}
    encounter: Any = None
    clock: Any = 0
    roster: Any = ()

    def names(self):
        return self.roster or tuple(self.chars)

    def with_char(self, char) -> "World":
        return self.replace(chars={**self.chars, char.id: char})


class Declaration(Record):
    """What `act` was asked: every option of the command as a value."""

    actor: Any
    card: Any
    targets: Any = ()
    distance: Any = None
    distances: Any = {}
    unseen: Any = ()
    unheard: Any = ()
    companion: Any = None
    drop_concentration: Any = False
    advantage: Any = False
    disadvantage: Any = False
    mod: Any = 0
    reveal: Any = False
    trigger: Any = None


class Gate(Record):
    gate: Any
    rule: Any
    ok: Any
    why: Any


class Geometry(Record):
    """One target as the performer meets it: distance, sight, hearing."""

    id: str
    distance: Any
    in_range: bool | str  # True, "assumed" (no distance given) or "beyond"
    seen: bool
    heard: bool
    penalty: int


class AttackRoll(Record):
    attribute: Any
    bonus: Any
    faces: Any
    face: Any
    penalty: Any
    mod: Any
    total: Any
    ac_kind: Any
    ac: Any
    hit: Any


class SaveRoll(Record):
    attribute: Any
    bonus: Any
    face: Any
    total: Any
    dc: Any
    resisted: Any


class ConcentrationCheck(Record):
    card: Any
    face: Any
    bonus: Any
    total: Any
    dc: Any
    kept: Any


class Damage(Record):
    base: Any
    overkill: Any
    modifier: Any
    dealt: Any
    doubled: Any
    taken: Any
    hp_before: Any
    hp_after: Any
    concentration_check: Any


class Change(Record):
    """A value before and after (AP, HP, a card's charges)."""

    before: Any
    after: Any


class Evolutionary(Record):
    """The Evolutionary d20 against the Augmentor score; `stopped` when failure ends the card."""

    face: Any
    augmentor: Any
    success: Any
    text: Any
    stopped: Any


class DamageRoll(Record):
    expr: Any
    faces: Any
    total: Any


class ActionDc(Record):
    """The DC a card imposes and the attribute it comes from."""

    kind: Any
    attribute: Any
    value: Any


class CooldownStart(Record):
    """A card's cooldown: `running` now, or `pending` until its Concentration drops."""

    unit: Any
    length: Any
    state: Any


class TargetResult(Record):
    id: Any
    distance: Any
    in_range: Any
    seen: Any
    heard: Any
    attack: Any
    save: Any
    lands: Any
    damage: Any
    conditions_added: Any
    conditions_removed: Any
    critical: Any = False


class ActResult(Record):
    _shape = SHAPE + "act_json"
    actor: Any
    owner: Any
    card: Any
    card_name: Any
    kind: Any
    reaction: Any
    paid: Any
    resources_before: Any
    resources_after: Any
    charges: Any
    cooldown: Any
    evolutionary: Any
    dc: Any
    damage_roll: Any
    targets: Any
    concentrating: Any
    dropped: Any
    revealed: Any
    conditions_added: Any
    rules_used: Any
    trigger: Any
    in_encounter: Any
    # Secrecy: what a secret act shows: the card, its cost and who it was aimed at, never a d20 or what landed
    _public = ("system", "actor", "owner", "card", "card_name", "kind", "reaction", "paid", "resources_before",
               "resources_after", "charges", "cooldown", "dc", "concentrating", "dropped", "revealed", "rules_used",
               "trigger", "in_encounter", "targets.id", "targets.distance", "targets.in_range", "targets.seen",
               "targets.heard")


class DryRun(Record):
    _shape = SHAPE + "dry_run_json"
    actor: Any
    card: Any
    allowed: Any
    gates: Any
    odds: Any


class TurnStart(Record):
    _shape = SHAPE + "turn_json"
    encounter: Any
    round: Any
    actor: Any
    ap: Any
    cooldowns_ended: Any
    concentration_ended: Any
    drain: Any
    companions: Any
    expired: Any = ()


class RestActor(Record):
    id: Any
    charges: Any
    ap: Any
    cooldowns_ended: Any
    hp: Any
    concentration_ended: Any


class RestResult(Record):
    _shape = SHAPE + "rest_json"
    kind: Any
    actors: Any


class ElapseActor(Record):
    id: Any
    cooldowns_ended: Any
    concentration_ended: Any


class ElapseResult(Record):
    _shape = SHAPE + "tagged"
    seconds: Any
    clock_before: Any
    clock_after: Any
    actors: Any


class DamageResult(Record):
    """`damage`, `heal`, `drop`, `refresh` and condition changes on one character; `rounds_left` (the
    condition's timers) only for a condition change inside an encounter."""

    _shape = SHAPE + "change_json"

    actor: str
    what: str
    damage: Any
    hp_before: Any
    hp_after: Any
    ap: Any
    dropped: Any
    conditions_added: tuple[str, ...]
    conditions_removed: tuple[str, ...]
    rounds_left: Any = None


class TargetOdds(Record):
    id: Any
    need_face: Any
    p_lands: Any
    expected_damage: Any
    distribution: Any
    penalty: Any
    in_range: Any


class OddsResult(Record):
    _shape = SHAPE + "odds_json"
    actor: Any
    card: Any
    kind: Any
    edge: Any
    targets: Any


class CardTerms(Record):
    """What the rules make of a card, for `card show` to say in words: the AC its attack meets,
    the attribute its Action DC is built on, the attributes a target saves with
    (one, a pair to take the better of, or none: a plain d20), what a resisted save still takes;
    with a character, its attack bonus, Action DC, reach in metres and Augmentor."""

    ac: Any
    dc_from: Any
    saves_with: Any
    best_of: Any
    on_save: Any
    bonus: Any = None
    dc: Any = None
    reach: Any = None
    augmentor: Any = None


class CardView(Record):
    """`card show`: a card, and with `--for` its character and readiness; `terms`: the rules' reading of it."""

    _shape = SHAPE + "card_view_json"
    card: Any
    char: Any
    who: Any
    status: Any
    terms: Any


class CardList(Record):
    """`card list`: (card, status or None) rows; `char` is whose cards, or None for the campaign's."""

    _shape = SHAPE + "card_list_json"
    char: Any
    rows: Any


class SheetView(Record):
    """`show CHAR`: the character, its Action DCs, (card, status) rows, timed conditions."""

    _shape = SHAPE + "sheet_json"
    who: Any
    dc: Any
    rows: Any
    rounds_left: Any


class DiceRoll(Record):
    _shape = TAGGED
    expr: Any
    faces: Any
    total: Any
    _public = ("system", "expr")  # a secret shows the dice named, never their faces


class Created(Record):
    """`new`: the sheet written (the host's `new` shape)."""

    file: Any
    id: Any


class Copied(Record):
    """`new ID --from OTHER [--count N]`: the sheets written, copied fresh. A field is named `from`, which Python
    cannot spell as an attribute: the record lists its fields by name."""

    _fields = ("file", "id", "ids", "from")


class Standing(Record):
    """One participant in `encounter show`."""

    id: Any
    hp: Any
    ap: Any
    conditions: Any
    concentrating: Any
    cooldowns: Any
    rounds_left: Any


class EncounterStatus(Record):
    _shape = TAGGED
    id: Any
    round: Any
    turn: Any
    participants: Any
    status: Any


class Joined(Record):
    _shape = TAGGED
    encounter: Any
    joined: Any


class TurnEnd(Record):
    _shape = TAGGED
    encounter: Any
    ended: Any
    round: Any
