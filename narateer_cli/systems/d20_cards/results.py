"""Frozen records the d20-cards engine returns: world state in, result records out.

`World` is the state an engine call reads (characters, campaign cards, the
encounter, the clock); every call returns a new `World` and one result
record. The render module turns results into text and JSON.
"""

from __future__ import annotations

from narateer_cli.record import Record


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


class TargetResult(Record):
    _fields = ("id", "distance", "in_range", "seen", "heard", "attack", "save", "lands", "damage",
               "conditions_added", "conditions_removed", "critical")
    _defaults = {"critical": False}


class ActResult(Record):
    _fields = ("actor", "owner", "card", "card_name", "kind", "reaction", "paid", "resources_before",
               "resources_after", "charges", "cooldown", "evolutionary", "dc", "damage_roll", "targets",
               "concentrating", "dropped", "revealed", "conditions_added", "rules_used", "trigger",
               "in_encounter")


class DryRun(Record):
    _fields = ("actor", "card", "allowed", "gates", "odds")


class TurnStart(Record):
    _fields = ("encounter", "round", "actor", "ap", "cooldowns_ended", "concentration_ended", "drain",
               "companions")


class RestActor(Record):
    _fields = ("id", "charges", "ap", "cooldowns_ended", "hp", "concentration_ended")


class RestResult(Record):
    _fields = ("kind", "actors")


class ElapseActor(Record):
    _fields = ("id", "cooldowns_ended", "concentration_ended")


class ElapseResult(Record):
    _fields = ("seconds", "clock_before", "clock_after", "actors")


class DamageResult(Record):
    """`damage`, `heal`, `drop`, `refresh` and condition changes on one character."""

    _fields = ("actor", "what", "damage", "hp_before", "hp_after", "ap", "dropped", "conditions_added",
               "conditions_removed")


class TargetOdds(Record):
    _fields = ("id", "need_face", "p_lands", "expected_damage", "distribution", "penalty", "in_range")


class OddsResult(Record):
    _fields = ("actor", "card", "kind", "edge", "targets")
