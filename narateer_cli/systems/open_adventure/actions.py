"""Declared actions and their resolution paths: automatic (no check when success is sure), impossible, maintained
or an Action Check."""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import BadInput
from narateer_cli.kit import Record, field


class ResolveResult(Record):
    """`resolve`: the intent, the path it took, why it is impossible, and the check when there was one."""
    system: Any = field(public=True)  # a secret's public part; its check declares its own
    actor: Any = field(public=True)
    intent: Any = field(public=True)
    path: Any = field(public=True)
    reason: Any = field(default=None, public=True)
    check: Any = field(default=None, load=lambda data: _read_check(data))


def _read_check(data):
    from .check import CheckResult, read

    return read(CheckResult)(data)


def path_of(auto: bool, impossible, maintain: bool, check) -> str:
    """Exactly one of the four paths."""
    paths = [p for p, on in (("auto", auto), ("impossible", impossible), ("maintain", maintain), ("check", check))
             if on]
    if len(paths) != 1:
        raise BadInput("give exactly one path: --auto, --impossible, --maintain or --check", fix="pick one")
    return paths[0]


def resolve_path(actor_id: str, intent: str, path: str, reason, state):
    """A path with no check: (the encounter state after it, the result). An impossible action
    rolls and spends nothing; holding a success spends this Turn's Major Action."""
    from . import turns

    if path == "maintain":
        if state is None:
            raise BadInput("--maintain holds a success across Turns of an encounter", fix="start an encounter first")
        state = turns.spend(state, actor_id)
    result = ResolveResult(system="open-adventure", actor=actor_id, intent=intent, path=path, reason=reason)
    return state, result
