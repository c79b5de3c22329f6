"""Frozen records the d20-cards engine returns: world state in, result records out.

`World` is the state an engine call reads (characters, campaign cards, the
encounter, the clock); every call returns a new `World` and one result
record. Each result declares its JSON on its fields (`to_json`, most of them
led by `system: d20-cards`); the render module turns results into text, and
gives the words a view's JSON carries (a card's layout), imported only when
such a JSON is made.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import Record, computed, field

SYSTEM = "d20-cards"


def _render():
    from . import render

    return render


def _tag(public: bool = False):
    """The `system: d20-cards` key that leads most results' JSON."""
    return computed(lambda r: SYSTEM, first=True, public=public)


def _present(value):
    """A part that may be empty (no damage, no odds) as JSON: None when empty."""
    return value if value else None


def _read(record):
    """How a field holding a nested record (or None, or a list of records) is read back from the log's JSON."""
    def load(data):
        if data is None:
            return None
        if isinstance(data, list):
            return [record.from_json(item) for item in data]
        return record.from_json(data)

    return load


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
    concentration_check: Any = field(load=_read(ConcentrationCheck))


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
    """One target of an act; a secret act shows who was aimed at, never a d20 or what landed."""

    id: Any = field(public=True)
    distance: Any = field(public=True)
    in_range: Any = field(public=True)
    seen: Any = field(public=True)
    heard: Any = field(public=True)
    attack: Any = field(load=_read(AttackRoll))
    save: Any = field(load=_read(SaveRoll))
    lands: Any
    damage: Any = field(dump=_present, load=_read(Damage))
    conditions_added: Any
    conditions_removed: Any
    critical: Any = False


class ActResult(Record):
    """An act; a secret one shows the card, its cost and who it was aimed at, never a d20 or what landed."""

    actor: Any = field(public=True)
    owner: Any = field(public=True)
    card: Any = field(public=True)
    card_name: Any = field(public=True)
    kind: Any = field(public=True)
    reaction: Any = field(public=True)
    paid: Any = field(public=True)
    resources_before: Any = field(public=True)
    resources_after: Any = field(public=True)
    charges: Any = field(public=True, load=_read(Change))
    cooldown: Any = field(public=True, load=_read(CooldownStart))
    evolutionary: Any = field(load=_read(Evolutionary))
    dc: Any = field(public=True, load=_read(ActionDc))
    damage_roll: Any = field(load=_read(DamageRoll))
    targets: Any = field(public=TargetResult, load=_read(TargetResult))
    concentrating: Any = field(public=True)
    dropped: Any = field(public=True)
    revealed: Any = field(public=True)
    conditions_added: Any
    rules_used: Any = field(public=True)
    trigger: Any = field(public=True)
    in_encounter: Any = field(public=True)

    system = _tag(public=True)
    _json_order = ("system", "actor", "owner", "card", "card_name", "in_encounter", "kind", "reaction", "paid",
                   "resources_before", "resources_after", "charges", "cooldown", "evolutionary", "dc", "damage_roll",
                   "targets", "concentrating", "dropped", "revealed", "conditions_added", "trigger", "rules_used")


class DryRun(Record):
    actor: Any
    card: Any
    allowed: Any
    gates: Any
    odds: Any = field(dump=_present)

    system = _tag()


class TurnStart(Record):
    encounter: Any
    round: Any
    actor: Any
    ap: Any = field(load=_read(Change))
    cooldowns_ended: Any
    concentration_ended: Any
    drain: Any = field(dump=_present, load=_read(Damage))
    companions: Any = field(load=lambda d: _read(TurnStart)(d))
    expired: Any = field(default=(), skip=lambda r: not r.expired)

    system = _tag()


class RestActor(Record):
    id: Any
    charges: Any
    ap: Any = field(load=_read(Change))
    cooldowns_ended: Any
    hp: Any = field(load=_read(Change))
    concentration_ended: Any


class RestResult(Record):
    kind: Any
    actors: Any = field(load=_read(RestActor))

    system = _tag()


class ElapseActor(Record):
    id: Any
    cooldowns_ended: Any
    concentration_ended: Any


class ElapseResult(Record):
    seconds: Any
    clock_before: Any
    clock_after: Any
    actors: Any = field(load=_read(ElapseActor))

    system = _tag()


class DamageResult(Record):
    """`damage`, `heal`, `drop`, `refresh` and condition changes on one character; `rounds_left` (the
    condition's timers) only for a condition change inside an encounter."""

    actor: str
    what: str
    damage: Any = field(dump=_present, load=_read(Damage))
    hp_before: Any
    hp_after: Any
    ap: Any = field(load=_read(Change))
    dropped: Any
    conditions_added: tuple[str, ...]
    conditions_removed: tuple[str, ...]
    rounds_left: Any = field(default=None, skip=lambda r: r.rounds_left is None)

    system = _tag()


class TargetOdds(Record):
    """One target's odds: exact fractions given as a decimal and as an exact string."""

    id: Any
    need_face: Any
    p_lands: Any = field(dump=float)
    expected_damage: Any = field(dump=float)
    distribution: Any = field(dump=lambda d: {str(k): str(v) for k, v in d.items()})
    penalty: Any
    in_range: Any

    p_lands_exact = computed(lambda t: str(t.p_lands))
    expected_damage_exact = computed(lambda t: str(t.expected_damage))
    _json_order = ("id", "need_face", "p_lands", "p_lands_exact", "expected_damage", "expected_damage_exact",
                   "penalty", "in_range", "distribution")


class OddsResult(Record):
    actor: Any
    card: Any
    kind: Any
    edge: Any
    targets: Any

    system = _tag()


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

    card: Any = field(key=None)
    char: Any = field(key="for")
    who: Any = field(key=None)
    status: Any = field(key=None)
    terms: Any = field(key=None)

    system = _tag()
    row = computed(lambda r: _render().card_row(r.card, r.status), inline=True)
    layout = computed(lambda r: _render().card_show(r.card, r.terms, r.who, r.status))
    _json_order = ("system", "row", "for", "layout")


class CardList(Record):
    """`card list`: (card, status or None) rows; `char` is whose cards, or None for the campaign's."""

    char: Any = field(key="for")
    rows: Any = field(key="cards", dump=lambda rows: [_render().card_row(card, status) for card, status in rows])

    system = _tag()


class SheetView(Record):
    """`show CHAR`: the character, its Action DCs, (card, status) rows, timed conditions."""

    who: Any = field(inline=True, dump=lambda who: {"id": who.id, "name": who.name, **_sheet_values(who)})
    dc: Any = field(dump=dict)
    rows: Any = field(key="cards", dump=lambda rows: {card.id: status for card, status in rows})
    rounds_left: Any
    build: Any = field(inline=True, dump=dict, default={})  # levels, prepared, focus_slots ... (tiers.build_view)

    system = _tag()
    blocked_by = computed(lambda r: {card.id: status.rule for card, status in r.rows
                                     if getattr(status, "rule", None)})
    layout = computed(lambda r: _render().show_text(r.who, r.rows, r.rounds_left, r.dc, r.build))
    _json_order = ("system", "who", "dc", "cards", "blocked_by", "rounds_left", "layout")


class DiceRoll(Record):
    expr: Any = field(public=True)  # a secret shows the dice named, never their faces
    faces: Any
    total: Any

    system = _tag(public=True)


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
    critical: Any = False  # in Critical Condition: HP at or below the mark, or the Guide's condition


class EncounterStatus(Record):
    id: Any
    round: Any
    turn: Any
    participants: Any
    status: Any

    system = _tag()


class Joined(Record):
    encounter: Any
    joined: Any

    system = _tag()


class TurnEnd(Record):
    encounter: Any
    ended: Any
    round: Any

    system = _tag()


def _sheet_values(who) -> dict:
    from .sheet import sheet_values

    return sheet_values(who)
