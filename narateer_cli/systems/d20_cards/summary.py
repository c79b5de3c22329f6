"""d20 action cards in the host's log rows, report and commit messages: each logged command's
own text on one line."""

from __future__ import annotations

KINDS = {"act": "act", "damage": "change", "heal": "change", "condition": "change", "drop": "change",
         "refresh": "change", "turn start": "turn_start", "turn end": "turn_end", "rest": "rest",
         "elapse": "elapse", "encounter join": "join"}


def summary(command: str, actor, declaration: dict, result: dict) -> str | None:
    from narateer_cli.kit import flat_text
    from narateer_cli.kit import load_system

    kind = KINDS.get(command)
    return flat_text(load_system("d20-cards"), kind, result) if kind else None


def headline(kind: str, data: dict):
    """The outcome line, coloured: an action card's outcome first: whom it lands on (green) or misses (red)."""
    from narateer_cli.kit import check_headline

    targets = data.get("targets") if kind == "act" and isinstance(data, dict) else None
    if not targets:
        return check_headline(data)
    name = data.get("card_name") or data.get("card")
    hit = [t["id"] for t in targets if t.get("lands")]
    missed = [t["id"] for t in targets if not t.get("lands")]
    words = "; ".join(filter(None, (f"{name} lands on {', '.join(hit)}" if hit else "",
                                    f"{name} misses {', '.join(missed)}" if missed else "")))
    return words, bool(hit) if not (hit and missed) else None
