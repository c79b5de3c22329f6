"""Narateer's commands return what happened as an `Outcome`; the host writes it (S-SYS-7)."""

from __future__ import annotations

from narateer_cli.outcome import Outcome


def told(kind, command: str, actor, declared: dict, result, dice: dict, enc=None, sheets=None, show=None,
         **more) -> Outcome:
    """One action: its log fields, each character's counters after (`dice`), other sheet edits, and the
    encounter's new state; rendered as `kind` from the engine's record (`show`, else `result`)."""
    return Outcome(command, actor, declared, result, kind=kind, show=result if show is None else show, dice=dice,
                   sheets=sheets, encounter=None if enc is None else enc.id,
                   state=None if enc is None else enc.new_state, **more)
