"""Open Adventure in the host's log rows, report and commit messages: each logged command's own
text on one line (a result that carries its own `message` says it in those words)."""

from __future__ import annotations

KINDS = {"roll": "check", "dice": "dice", "points": "points", "wound": "wounds", "heal": "wounds",
         "turn start": "turn", "turn end": "turn", "resolve": "resolve"}  # command -> the kind of its result


def summary(command: str, actor, declaration: dict, result: dict) -> str | None:
    from narateer_cli.kit import flat_text
    from narateer_cli.kit import load_system

    if isinstance(result, dict) and result.get("message"):
        return " ".join(str(result["message"]).split())
    kind = KINDS.get(command)
    return flat_text(load_system("open-adventure"), kind, result) if kind else None
