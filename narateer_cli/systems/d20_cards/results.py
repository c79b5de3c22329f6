"""Frozen records the d20-cards engine returns: world state in, result records out.

`World` is the state an engine call reads (characters, campaign cards, the
encounter, the clock); every call returns a new `World` and one result
record. The render module turns results into text and JSON: a record's JSON
shape is the render function its `_shape` names (SHAPE + NAME), reached
through `narateer_cli.render.plain`; the engine never builds one.
"""

from __future__ import annotations

from narateer_cli.kit import Record

SHAPE = "narateer_cli.systems.d20_cards.render:"
TAGGED = SHAPE + "tagged"  # the fields in order after `system: d20-cards`


class Encounter(Record):
    """The running encounter: whose turn it is, in which round, among whom."""

    _fields = ("id", "round", "turn", "participants")


class World(Record):
    """`roster` names every character of the campaign (for "did you mean"), loaded or not."""

    _fields = ("chars", "cards", "encounter", "clock", "roster")
    _defaults = {"cards": {}, "encounter": None, "clock": 0, "roster": ()}

    def names(self):
        return self.roster or tuple(self.chars)

    def with_char(self, char) -> "World":
        return self.replace(chars={**self.chars, char.id: char})


class Declaration(Record):
    """What `act` was asked: every option of the command as a value."""

    _fields = ("actor", "card", "targets", "distance", "distances", "unseen", "unheard", "companion",
               "drop_concentration", "advantage", "disadvantage", "mod", "reveal", "trigger")
    _defaults = {"targets": (), "distance": None, "distances": {}, "unseen": (), "unheard": (),
                 "companion": None, "drop_concentration": False, "advantage": False, "disadvantage": False,
                 "mod": 0, "reveal": False, "trigger": None}


class Gate(Record):
    _fields = ("gate", "rule", "ok", "why")


class Geometry(Record):
    """One target as the performer meets it (R-CARD-RANGE)."""

    _fields = ("id", "distance", "in_range", "seen", "heard", "penalty")


class AttackRoll(Record):
    _fields = ("attribute", "bonus", "faces", "face", "penalty", "mod", "total", "ac_kind", "ac", "hit")


class SaveRoll(Record):
    _fields = ("attribute", "bonus", "face", "total", "dc", "resisted")


class ConcentrationCheck(Record):
    _fields = ("card", "face", "bonus", "total", "dc", "kept")


class Damage(Record):
    _fields = ("base", "overkill", "modifier", "dealt", "doubled", "taken", "hp_before", "hp_after",
               "concentration_check")


class Change(Record):
    """A value before and after (AP, HP, a card's charges)."""

    _fields = ("before", "after")


class Evolutionary(Record):
    """R-CARD-PROP-6: the Evolutionary d20 against the Augmentor score; `stopped` when failure ends the card."""

    _fields = ("face", "augmentor", "success", "text", "stopped")


class DamageRoll(Record):
    _fields = ("expr", "faces", "total")


class ActionDc(Record):
    """R-CARD-DC-1: the DC a card imposes and the attribute it comes from."""

    _fields = ("kind", "attribute", "value")


class CooldownStart(Record):
    """A card's cooldown: `running` now, or `pending` until its Concentration drops."""

    _fields = ("unit", "length", "state")


class TargetResult(Record):
    _fields = ("id", "distance", "in_range", "seen", "heard", "attack", "save", "lands", "damage",
               "conditions_added", "conditions_removed", "critical")
    _defaults = {"critical": False}


class ActResult(Record):
    _shape = SHAPE + "act_json"
    _fields = ("actor", "owner", "card", "card_name", "kind", "reaction", "paid", "resources_before",
               "resources_after", "charges", "cooldown", "evolutionary", "dc", "damage_roll", "targets",
               "concentrating", "dropped", "revealed", "conditions_added", "rules_used", "trigger",
               "in_encounter")
    # S-SYS-8: what a secret act shows: the card, its cost and who it was aimed at, never a d20 or what landed
    _public = ("system", "actor", "owner", "card", "card_name", "kind", "reaction", "paid", "resources_before",
               "resources_after", "charges", "cooldown", "dc", "concentrating", "dropped", "revealed", "rules_used",
               "trigger", "in_encounter", "targets.id", "targets.distance", "targets.in_range", "targets.seen",
               "targets.heard")


class DryRun(Record):
    _shape = SHAPE + "dry_run_json"
    _fields = ("actor", "card", "allowed", "gates", "odds")


class TurnStart(Record):
    _shape = SHAPE + "turn_json"
    _fields = ("encounter", "round", "actor", "ap", "cooldowns_ended", "concentration_ended", "drain",
               "companions", "expired")
    _defaults = {"expired": ()}


class RestActor(Record):
    _fields = ("id", "charges", "ap", "cooldowns_ended", "hp", "concentration_ended")


class RestResult(Record):
    _shape = SHAPE + "rest_json"
    _fields = ("kind", "actors")


class ElapseActor(Record):
    _fields = ("id", "cooldowns_ended", "concentration_ended")


class ElapseResult(Record):
    _shape = SHAPE + "tagged"
    _fields = ("seconds", "clock_before", "clock_after", "actors")


class DamageResult(Record):
    """`damage`, `heal`, `drop`, `refresh` and condition changes on one character; `rounds_left` (the
    condition's timers, T-DURATION) only for a condition change inside an encounter."""

    _shape = SHAPE + "change_json"

    _fields = ("actor", "what", "damage", "hp_before", "hp_after", "ap", "dropped", "conditions_added",
               "conditions_removed", "rounds_left")
    _defaults = {"rounds_left": None}


class TargetOdds(Record):
    _fields = ("id", "need_face", "p_lands", "expected_damage", "distribution", "penalty", "in_range")


class OddsResult(Record):
    _shape = SHAPE + "odds_json"
    _fields = ("actor", "card", "kind", "edge", "targets")


class CardTerms(Record):
    """What the rules make of a card, for `card show` to say in words: the AC its attack meets (R-CARD-ATK-2),
    the attribute its Action DC is built on (R-CARD-DC-1), the attributes a target saves with (A-CARD-SAVE:
    one, a pair to take the better of, or none: a plain d20), what a resisted save still takes (A-CARD-DMG);
    with a character, its attack bonus, Action DC, reach in metres (R-CARD-RANGE-4) and Augmentor."""

    _fields = ("ac", "dc_from", "saves_with", "best_of", "on_save", "bonus", "dc", "reach", "augmentor")
    _defaults = {"bonus": None, "dc": None, "reach": None, "augmentor": None}


class CardView(Record):
    """`card show`: a card, and with `--for` its character and readiness; `terms`: the rules' reading of it."""

    _shape = SHAPE + "card_view_json"
    _fields = ("card", "char", "who", "status", "terms")


class CardList(Record):
    """`card list`: (card, status or None) rows; `char` is whose cards, or None for the campaign's."""

    _shape = SHAPE + "card_list_json"
    _fields = ("char", "rows")


class SheetView(Record):
    """`show CHAR`: the character, its Action DCs (R-CARD-DC-1), (card, status) rows, timed conditions."""

    _shape = SHAPE + "sheet_json"
    _fields = ("who", "dc", "rows", "rounds_left")


class DiceRoll(Record):
    _shape = TAGGED
    _fields = ("expr", "faces", "total")
    _public = ("system", "expr")  # S-SYS-8: the dice named, never their faces


class Created(Record):
    """`new`: the sheet written (the host's `new` shape)."""

    _fields = ("file", "id")


class Copied(Record):
    """`new ID --from OTHER [--count N]`: the sheets written (T-COPY)."""

    _fields = ("file", "id", "ids", "from")


class Standing(Record):
    """One participant in `encounter show`."""

    _fields = ("id", "hp", "ap", "conditions", "concentrating", "cooldowns", "rounds_left")


class EncounterStatus(Record):
    _shape = TAGGED
    _fields = ("id", "round", "turn", "participants", "status")


class Joined(Record):
    _shape = TAGGED
    _fields = ("encounter", "joined")


class TurnEnd(Record):
    _shape = TAGGED
    _fields = ("encounter", "ended", "round")
