"""Words for class traits: the line a trait's use adds to an Exchange or an Opportunity Attack, and the text of
a trait used once an Exchange has resolved."""

from __future__ import annotations


def use_line(use) -> str:
    """One trait use in words (`use`: its JSON, or None for no line)."""
    if not isinstance(use, dict):
        return ""
    applied = use.get("applied") or {}
    how = ", ".join(f"+{n} bonus {'die' if n == 1 else 'dice'}" if key == "bonus_dice" else
                    "Advantage" if key == "advantage" and n else str(n) if key == "note" else ""
                    for key, n in applied.items())
    how = ", ".join(part for part in how.split(", ") if part)
    kind = "a Reaction of its own" if use.get("reaction") else "no Reaction"
    uses = use.get("uses") or {}
    return (f"\n{use['actor']} uses trait {use['name']} on {use['event']}" + (f" ({how})" if how else "")
            + f": {kind}; uses {uses.get('left')}/{uses.get('max')} left")


def trait_react(data: dict) -> str:
    """`react CHAR trait`: the trait used once the Exchange with --against has resolved."""
    return f"{data['actor']} answers the Exchange with {data['against']}" + use_line(data.get("trait"))


def message(actor, r) -> str:
    """The one-line summary of a trait used after an Exchange (encounter log, report, commit message)."""
    use = r.trait
    kind = "a Reaction" if use.reaction else "no Reaction"
    return (f"{actor}: trait {use.name} after the Exchange with {r.against} ({kind}; "
            f"{use.uses['left']}/{use.uses['max']} uses left)")
