"""d20 action cards in the host's log rows, report and commit messages (T-LOG): each logged command's
own text on one line."""

from __future__ import annotations

KINDS = {"act": "act", "damage": "change", "heal": "change", "condition": "change", "drop": "change",
         "refresh": "change", "turn start": "turn_start", "turn end": "turn_end", "rest": "rest",
         "elapse": "elapse", "encounter join": "join"}


def summary(command: str, actor, declaration: dict, result: dict) -> str | None:
    from narateer_cli.render import flat_text
    from narateer_cli.systems import load_system

    kind = KINDS.get(command)
    return flat_text(load_system("d20-cards"), kind, result) if kind else None
