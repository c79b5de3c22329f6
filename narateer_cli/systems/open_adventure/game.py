"""Open Adventure as the host sees it: one class whose methods are the hooks of the game kit (`kit.Game`).

Each method imports the module that does the work when it is first called, so loading the game costs a
command only what it uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

from narateer_cli.kit import Game, Outcome, Show

if TYPE_CHECKING:
    from narateer_cli.kit import Session


class OpenAdventure(Game):
    def ruleset(self, data: dict, overrides: dict, where: str, checked: bool = False) -> Any:
        from .ruleset import build

        return build(data, overrides, where, checked=checked)

    def parse_sheet(self, char_id: str, doc: dict, label: str, rules) -> Any:
        from .sheet import parse_sheet as _parse_sheet

        return _parse_sheet(char_id, doc, label, rules)

    @property
    def sheet_schema(self) -> Any:
        from .schema_table import SHEET

        return SHEET

    def load_state(self, data: dict, label: str, checked: bool = False) -> dict:
        from .turns import load_state as _load_state

        return _load_state(data, label, checked=checked)

    def verb_words(self, verb: str) -> dict:
        if verb == "dice":
            from .cmd_roll import WORDS as DICE

            return DICE
        if verb in ("turn", "encounter"):
            from .cmd_encounter import ENCOUNTER_WORDS, TURN_WORDS

            return {**TURN_WORDS, **ENCOUNTER_WORDS}
        from .cmd_sheet import WORDS  # new, heal, condition

        return WORDS

    def condition(self, s: Session, char: str, changes: tuple[str, ...], rounds: int | None) -> Outcome:
        from .cmd_sheet import condition as _condition

        return _condition(s, char, changes, rounds)

    def heal(self, s: Session, char: str, n: int) -> Outcome:
        from .cmd_sheet import heal as _heal

        return _heal(s, char, n)

    def new(self, s: Session, char_id: str, name: str | None, options: dict) -> Outcome:
        from .cmd_sheet import new as _new

        return _new(s, char_id, name, options)

    def copied(self, s: Session, source: str, count: int | None, made: dict) -> Outcome:
        from .cmd_sheet import copied as _copied

        return _copied(s, source, count, made)

    def encounter_show(self, s: Session, enc_id: str | None) -> Show:
        from .cmd_encounter import encounter_show as _encounter_show

        return _encounter_show(s, enc_id)

    def end_conditions(self, s: Session, ended: dict) -> Outcome:
        from .in_encounter import end_conditions as _end_conditions

        return _end_conditions(s, ended)

    def encounter_join(self, s: Session, char: str, options: dict) -> Outcome:
        from .cmd_encounter import encounter_join as _encounter_join

        return _encounter_join(s, char, options)

    def dice(self, app, options: dict) -> Outcome:
        from .cmd_roll import dice as _dice

        return _dice(app, options)

    def turn_start(self, s: Session, char: str | None, options: dict) -> Outcome:
        from .cmd_encounter import turn_start as _turn_start

        return _turn_start(s, char, options)

    def turn_end(self, s: Session, next_id: str | None, options: dict) -> Outcome:
        from .cmd_encounter import turn_end as _turn_end

        return _turn_end(s, next_id, options)

    def log_checker(self, rules, continuity: bool) -> Callable[[dict], str | None]:
        from .verify import log_checker as _log_checker

        return _log_checker(rules, continuity)

    def checks(self, result: dict, declaration: dict | None = None) -> Iterable[dict]:
        from .luck import checks as _checks

        return _checks(result)

    def chance(self, check: dict, rules):
        from .luck import chance as _chance

        return _chance(check, rules)

    @property
    def check_marks(self) -> Any:
        from .luck import CHECK_MARKS

        return CHECK_MARKS

    def luck(self, check: dict, rules) -> dict:
        from .luck import luck as _luck

        return _luck(check, rules)

    @property
    def stats_columns(self) -> Any:
        """`stats`' own columns: no dice to spend (points paid for Stunts are not dice): only the faces showing their die's size, each link of an exploding chain counted."""
        return {"crits": "top faces / expected"}

    @property
    def conformance(self) -> Any:
        from .conformance import SCRIPT

        return SCRIPT

    @property
    def formatters(self) -> Any:
        from .render import FORMATTERS

        return FORMATTERS

    def summary(self, command: str, actor, declaration: dict, result: dict) -> str | None:
        from .summary import summary as _summary

        return _summary(command, actor, declaration, result)

    def complete(self, param_name: str, campaign, params: dict) -> list:
        from .complete import complete as _complete

        return _complete(param_name, campaign, params)

    def fresh_sheet(self, doc, rules):
        from .sheet import fresh_sheet as _fresh_sheet

        return _fresh_sheet(doc, rules)

    def in_party(self, sheet: dict) -> bool:
        """A player character is `kind: pc` (or `pc: true`, as in every game)."""
        return sheet.get("kind") == "pc" or sheet.get("pc") is True

    def view(self, state: dict, sheets: dict, rules) -> dict:
        from .view import view as _view

        return _view(state, sheets, rules)

    @property
    def answered_by(self) -> Any:
        from .view import ANSWERS

        return ANSWERS

    @property
    def others_dice(self) -> Any:
        # the opponent's dice in an answer of a player's: the server rolls them unless the campaign leaves them
        # to the Guide (narateer.yaml's `others_dice`)
        return {"--other-faces": "server"}

    def last_check(self, entry: dict) -> dict | None:
        from .view import last_check as _last_check

        return _last_check(entry)


GAME = OpenAdventure()
