"""Omen as the host sees it: one class whose methods are the hooks of the game kit."""

from __future__ import annotations

from typing import Any, Callable

from narateer_cli.kit import Game


class Omen(Game):
    def ruleset(self, data: dict, overrides: dict, where: str, checked: bool = False) -> Any:
        return {**data, **overrides}

    def parse_sheet(self, char_id: str, doc: dict, label: str, rules) -> Any:
        from .engine import parse_sheet

        return parse_sheet(char_id, doc, label, rules)

    @property
    def sheet_schema(self) -> Any:
        from .engine import SHEET

        return SHEET

    def new_state(self, enc_id: str, participants: list, rules) -> dict:
        return {"id": enc_id, "round": 1, "participants": list(participants)}

    def load_state(self, data: dict, label: str, checked: bool = False) -> dict:
        from .engine import load_state

        return load_state(data, label)

    def log_checker(self, rules, continuity: bool) -> Callable[[dict], str | None]:
        from .engine import log_checker

        return log_checker(rules, continuity)

    @property
    def formatters(self) -> Any:
        from .render import FORMATTERS

        return FORMATTERS


GAME = Omen()
