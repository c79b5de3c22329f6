"""Moves as the host sees it: one class whose methods are the hooks of the game kit (`kit.Game`).

Each method imports the module that does the work when it is first called, so loading the game costs a
command only what it uses.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from narateer_cli.kit import Game, Outcome


class Moves(Game):
    def ruleset(self, data: dict, overrides: dict, where: str, checked: bool = False) -> Any:
        from .engine import ruleset as _ruleset

        return _ruleset(data, overrides, where, checked=checked)

    def parse_sheet(self, char_id: str, doc: dict, label: str, rules) -> Any:
        from .engine import parse_sheet as _parse_sheet

        return _parse_sheet(char_id, doc, label, rules)

    def new_state(self, enc_id: str, participants: list, rules) -> dict:
        from .engine import new_state as _new_state

        return _new_state(enc_id, participants, rules)

    def load_state(self, data: dict, label: str, checked: bool = False) -> dict:
        from .engine import load_state as _load_state

        return _load_state(data, label, checked=checked)

    def verb_words(self, verb: str) -> dict:
        from .commands import WORDS

        return WORDS

    def condition(self, s, char: str, changes: tuple[str, ...], rounds: int | None) -> Outcome:
        from .commands import condition as _condition

        return _condition(s, char, changes, rounds)

    def copied(self, s, source: str, count: int | None, made: dict) -> Outcome:
        from .commands import copied as _copied

        return _copied(s, source, count, made)

    def dice(self, app, options: dict) -> Any:  # an Outcome, or a Show: nothing to log
        from .commands import dice as _dice

        return _dice(app, options)

    def log_checker(self, rules, continuity: bool) -> Callable[[dict], str | None]:
        from .engine import log_checker as _log_checker

        return _log_checker(rules, continuity)

    @property
    def formatters(self) -> Any:
        from .render import FORMATTERS

        return FORMATTERS

    def summary(self, command: str, actor, declaration: dict, result: dict) -> str | None:
        from .render import summary as _summary

        return _summary(command, actor, declaration, result)

    @property
    def conformance(self) -> Any:
        from .engine import CONFORMANCE

        return CONFORMANCE


GAME = Moves()
