"""Narateer as the host sees it: one class whose methods are the hooks of the game kit (`kit.Game`).

Each method imports the module that does the work when it is first called, so loading the game costs a
command only what it uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

from narateer_cli.kit import Game, Outcome, Show

if TYPE_CHECKING:
    from narateer_cli.kit import Session


class Narateer(Game):
    def ruleset(self, data: dict, overrides: dict, where: str, checked: bool = False) -> Any:
        from .engine.ruleset import build_ruleset

        return build_ruleset(data, overrides, where, checked=checked)

    def parse_sheet(self, char_id: str, doc: dict, label: str, rules) -> Any:
        from .sheet import parse_sheet as _parse_sheet

        return _parse_sheet(char_id, doc, label, rules)

    def load_state(self, data: dict, label: str, checked: bool = False) -> dict:
        from .sheet import load_state as _load_state

        return _load_state(data, label, checked=checked)

    def new_state(self, enc_id: str, participants: list, rules) -> dict:
        from .engine.encounter import new_state as _new_state

        return _new_state(enc_id, participants, rules)

    def verb_words(self, verb: str) -> dict:
        if verb == "new":
            from .commands.sheets import WORDS as NEW

            return NEW
        if verb == "dice":
            from .commands.pools import WORDS as DICE

            return DICE
        from .commands.encounter import ENCOUNTER_WORDS, WORDS  # condition, heal, turn, encounter

        return {**WORDS, **ENCOUNTER_WORDS}

    def condition(self, s: Session, char: str, changes: tuple[str, ...], rounds: int | None) -> Outcome:
        from .commands.encounter import condition as _condition

        return _condition(s, char, changes, rounds)

    def heal(self, s: Session, char: str, n: int) -> Outcome:
        from .commands.encounter import heal as _heal

        return _heal(s, char, n)

    def new(self, s: Session, char_id: str, name: str | None, options: dict) -> Outcome:
        from .commands.sheets import new as _new

        return _new(s, char_id, name, options)

    def copied(self, s: Session, source: str, count: int | None, made: dict) -> Outcome:
        from .commands.sheets import copied as _copied

        return _copied(s, source, count, made)

    def encounter_show(self, s: Session, enc_id: str | None) -> Show:
        from .commands.encounter import encounter_show as _encounter_show

        return _encounter_show(s, enc_id)

    def end_conditions(self, s: Session, ended: dict) -> Outcome:
        from .commands.encounter import end_conditions as _end_conditions

        return _end_conditions(s, ended)

    def encounter_join(self, s: Session, char: str, options: dict) -> Outcome:
        from .commands.encounter import encounter_join as _encounter_join

        return _encounter_join(s, char, options)

    def dice(self, app, options: dict) -> Outcome:
        from .commands.pools import dice as _dice

        return _dice(app, options)

    def turn_start(self, s: Session, char: str | None, options: dict) -> Outcome:
        from .commands.encounter import turn_start as _turn_start

        return _turn_start(s, char, options)

    def turn_end(self, s: Session, next_id: str | None, options: dict) -> Outcome:
        from .commands.encounter import turn_end as _turn_end

        return _turn_end(s, next_id, options)

    def log_checker(self, rules, continuity: bool) -> Callable[[dict], str | None]:
        from .engine.verify import log_checker as _log_checker

        return _log_checker(rules, continuity)

    def chance(self, check: dict, rules):
        from .engine.luck import chance as _chance

        return _chance(check, rules)

    def chance_ratio(self, check: dict, rules) -> tuple[int, int] | None:
        from .engine.luck import chance_ratio as _chance_ratio

        return _chance_ratio(check, rules)

    @property
    def check_marks(self) -> Any:
        from .engine.luck import CHECK_MARKS

        return CHECK_MARKS

    def checks(self, result: dict, declaration: dict | None = None) -> Iterable[dict]:
        from .engine.luck import checks as _checks

        return _checks(result)

    def luck(self, check: dict, rules) -> dict:
        from .engine.luck import luck as _luck

        return _luck(check, rules)

    @property
    def stats_columns(self) -> Any:
        """`stats`' own columns: Action Dice spent, and Criticals (two dots) against the number expected."""
        return {"dice_spent": "dice spent", "crits": "crits / expected"}

    @property
    def conformance(self) -> Any:
        from .conformance import SCRIPT

        return SCRIPT

    @property
    def formatters(self) -> Any:
        from .render import FORMATTERS

        return FORMATTERS

    def headline(self, kind: str, data: dict) -> tuple | None:
        from .render import headline as _headline

        return _headline(kind, data)

    @property
    def results(self) -> Any:
        from .engine.actions import CheckOutcome
        from .engine.character import ConditionsChanged, DiceMoved, Readiness
        from .engine.combat import ExchangeResult, OpportunityResult
        from .engine.encounter import Moved, Revealed, TurnEnded, TurnStarted
        from .engine.spells import CastResult
        from .engine.stealth import Joined
        from .engine.traits import TraitReaction

        return {"roll": CheckOutcome, "condition": ConditionsChanged, "refresh": DiceMoved, "wound": DiceMoved,
                "heal": DiceMoved, "readiness": Readiness, "exchange": ExchangeResult, "react": OpportunityResult, "react trait": TraitReaction,
                "move": Moved, "reveal": Revealed, "turn start": TurnStarted, "turn end": TurnEnded,
                "encounter join": Joined, "cast": CastResult}  # hide and search: the party's page words the part it may see

    def summary(self, command: str, actor, declaration: dict, result) -> str | None:
        from .render import summary as _summary

        return _summary(command, actor, declaration, result)

    def complete(self, param_name: str, campaign, params: dict) -> list:
        from .complete import complete as _complete

        return _complete(param_name, campaign, params)

    def face_names(self, face) -> str:
        from .render import face_name

        return face_name(face)

    def fresh_sheet(self, doc, rules):
        from .sheet import fresh_sheet as _fresh_sheet

        return _fresh_sheet(doc, rules)

    @property
    def sheet_schema(self) -> Any:
        from .schema import SHEET

        return SHEET

    def view(self, state: dict, sheets: dict, rules) -> dict:
        from .view import view as _view

        return _view(state, sheets, rules)

    def public_entry(self, entry: dict) -> dict | None:
        from .view import public_entry as _public_entry

        return _public_entry(entry)

    def own_entry(self, entry: dict, char_id: str) -> dict | None:
        from .view import own_entry as _own_entry

        return _own_entry(entry, char_id)

    def choices(self, state: dict, char_id: str, rules) -> list:
        from .view import choices as _choices

        return _choices(state, char_id, rules)

    @property
    def answered_by(self) -> Any:
        from .view import ANSWERS

        return ANSWERS

    @property
    def player_verbs(self) -> Any:
        from .view import PLAYER_VERBS

        return PLAYER_VERBS

    @property
    def others_dice(self) -> Any:
        # another creature's dice in a player's action: the server rolls them unless the campaign leaves them to
        # the Guide (narateer.yaml's `others_dice`)
        return {"--response-faces": "server", "--response-reroll-faces": "server", "--other-faces": "server",
                "--other-reroll-faces": "server", "--observer-faces": "server", "--observer-reroll-faces": "server"}


GAME = Narateer()
