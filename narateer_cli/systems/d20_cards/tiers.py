"""Card tiers as a build: the level a card's tier asks in its source, the focus slots that prepare it, the
ancestral points it is worth through Mixed Heritage; what a sheet lacks for the cards it holds.

Pure functions over a `Character`, its cards (a `lookup`: card id -> Card or None) and the ruleset's `tiers`
table. What a sheet does not record asks nothing, so an older sheet plays as before: without `levels` (or the
older single `level`) no level is asked; without `prepared` every card it holds is prepared; without
`focus_slots` the slots have no limit; without `mixed_heritage` no ancestral points are counted. A tier the
table does not list asks nothing, and `check` names it. A card that takes no focus slot needs no preparing.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import Record


class Lack(Record):
    """One thing a sheet lacks: its key path on the sheet, the message, the fix, the rule it breaks."""

    path: Any
    message: Any
    fix: Any
    rule: Any


class Why(str):
    """A gate's reason as people read it, carrying the fix its refusal names."""

    fix: str | None = None


def row(card, rules) -> dict | None:
    """The tier's entry of the ruleset's table (prerequisite, focus_slots, ancestral_points), or None."""
    return rules.tiers.get(card.tier)


def slots(card, rules) -> int:
    """The focus slots that prepare `card` (0 for a tier the table does not list)."""
    found = row(card, rules)
    return found["focus_slots"] if found else 0


def points(card, rules) -> int:
    """The ancestral points `card` is worth through Mixed Heritage."""
    found = row(card, rules)
    return found["ancestral_points"] if found else 0


def records_levels(char) -> bool:
    return char.levels is not None or char.level is not None


def records_build(char) -> bool:
    """Whether the sheet records any part of a build (levels, prepared cards, slots, Mixed Heritage)."""
    return (records_levels(char) or char.prepared is not None or char.focus_slots is not None
            or bool(char.heritage) or char.ancestral_points is not None)


def _key(name) -> str:
    return " ".join(str(name).split()).casefold()


def level_in(char, source) -> int:
    """The sheet's level in `source` (names match whatever their case and spacing): `levels`, else the older
    single `level`, else 0."""
    wanted = _key(source)
    for name, level in (char.levels or {}).items():
        if _key(name) == wanted:
            return level
    return char.level if char.level is not None else 0


def missing_level(char, card, rules) -> Why | None:
    """What `char` lacks to hold `card` by its tier's prerequisite, or None (met, or not asked)."""
    found = row(card, rules)
    need = found["prerequisite"] if found else 0
    if need <= 0 or not records_levels(char) or card.id in char.heritage:
        return None
    if not card.source:
        why = Why(f"{card.id} is tier {card.tier} and names no source, so no level of {char.id}'s meets its "
                  f"prerequisite of level {need}")
        why.fix = f"give {card.id} a source (its Discipline, Archetype or Expertise)"
        return why
    have = level_in(char, card.source)
    if have >= need:
        return None
    why = Why(f"{card.id} is tier {card.tier} of {card.source}: it needs level {need} in {card.source} and "
              f"{char.id} has {have}")
    why.fix = (f"set levels: {{{card.source}: {need}}} on {char.id}'s sheet, or take {card.id} through Mixed "
               "Heritage (mixed_heritage.cards)")
    return why


def prepared_ids(char) -> tuple:
    return tuple(dict.fromkeys(char.prepared or ()))


def slots_used(char, lookup, rules) -> int:
    """The focus slots the sheet's prepared cards take (each card once; an unknown card takes none)."""
    return sum(slots(card, rules) for card in map(lookup, prepared_ids(char)) if card is not None)


def unprepared(char, card, lookup, rules) -> Why | None:
    """Why `char` may not perform `card` unprepared, or None (prepared, no list kept, or it takes no slot)."""
    need = slots(card, rules)
    if char.prepared is None or need == 0 or card.id in char.prepared:
        return None
    word = "slot" if need == 1 else "slots"
    free = None if char.focus_slots is None else char.focus_slots - slots_used(char, lookup, rules)
    room = "" if free is None else f"; {max(free, 0)} of {char.focus_slots} free"
    why = Why(f"{char.id} has not prepared {card.id} (tier {card.tier}: {need} focus {word}{room})")
    why.fix = f"add {card.id} to {char.id}'s prepared list" + (
        f" and free {need - free} focus {'slot' if need - free == 1 else 'slots'} first"
        if free is not None and free < need else "")
    return why


def held(char) -> list:
    """(key path, card id) of each card the sheet holds: `actions`, then inline `cards` not listed there."""
    out = [(("actions", i), cid) for i, cid in enumerate(char.actions)]
    listed = set(char.actions)
    out += [(("cards", cid), cid) for cid in char.cards if cid not in listed]
    return out


def lacks(char, lookup, rules) -> list[Lack]:
    """Everything the sheet lacks for its build: levels for the cards it holds, prepared cards it does not
    hold, more focus slots or ancestral points spent than it has, tiers the table does not list."""
    if not records_build(char):
        return []
    out = []
    holding = set()
    for path, cid in held(char):
        card = lookup(cid)
        if card is None:
            continue  # an unknown card is the references' problem
        holding.add(cid)
        if row(card, rules) is None:
            out.append(Lack(path, f"{cid} is tier {card.tier}, which the ruleset's tiers table does not list",
                            f"add tiers: {{{card.tier}: {{prerequisite: L, focus_slots: S, ancestral_points: A}}}}"
                            " under rules: in narateer.yaml", "R2-TIER-5"))
        gap = missing_level(char, card, rules)
        if gap:
            out.append(Lack(path, str(gap), gap.fix, "R2-TIER-1"))
    out += _prepared_lacks(char, lookup, rules, holding)
    out += _heritage_lacks(char, lookup, rules, holding)
    return out


def _prepared_lacks(char, lookup, rules, holding) -> list[Lack]:
    out, seen = [], set()
    for i, cid in enumerate(char.prepared or ()):
        if cid in seen:
            out.append(Lack(("prepared", i), f"{cid} is prepared twice", "list it once", "R2-TIER-3"))
        elif lookup(cid) is not None and cid not in holding:
            out.append(Lack(("prepared", i), f"{char.id} prepares {cid} but does not hold it",
                            f"add {cid} to {char.id}'s actions or remove it from prepared", "R2-TIER-3"))
        seen.add(cid)
    used = slots_used(char, lookup, rules)
    if char.focus_slots is not None and used > char.focus_slots:
        out.append(Lack(("focus_slots",), f"{char.id}'s prepared cards take {used} focus slots and it has "
                        f"{char.focus_slots}", f"prepare fewer cards or raise focus_slots to {used}", "R2-TIER-3"))
    return out


def _heritage_lacks(char, lookup, rules, holding) -> list[Lack]:
    out, spent = [], 0
    for i, cid in enumerate(char.heritage):
        card = lookup(cid)
        if card is None:
            continue
        spent += points(card, rules)
        if cid not in holding:
            out.append(Lack(("mixed_heritage", "cards", i), f"{char.id} takes {cid} through Mixed Heritage but "
                            "does not hold it", f"add {cid} to {char.id}'s actions or remove it from "
                            "mixed_heritage.cards", "R2-TIER-4"))
    budget = char.ancestral_points
    if budget is not None and spent > budget:
        out.append(Lack(("mixed_heritage", "ancestral_points"), f"{char.id}'s Mixed Heritage cards are worth "
                        f"{spent} ancestral points and it has {budget}",
                        f"take fewer cards through Mixed Heritage or raise ancestral_points to {spent}", "R2-TIER-4"))
    return out


def level_note(char, card, rules) -> str:
    """Why the prerequisite is met, as `--dry-run` lists it."""
    found = row(card, rules)
    need = found["prerequisite"] if found else 0
    if card.id in char.heritage:
        return f"{char.id} takes {card.id} through Mixed Heritage"
    if need <= 0:
        return f"tier {card.tier} asks no level"
    return f"{char.id} has level {level_in(char, card.source)} in {card.source}; tier {card.tier} asks {need}"


def build_view(char, lookup, rules) -> dict:
    """What `show` says of the build (empty when the sheet records none): levels, prepared cards, focus slots
    held and used, Mixed Heritage's cards and ancestral points held and spent."""
    if not records_build(char):
        return {}
    spent = sum(points(card, rules) for card in map(lookup, char.heritage) if card is not None)
    return {"levels": dict(char.levels or {}), "level": char.level,
            "prepared": list(char.prepared) if char.prepared is not None else None,
            "focus_slots": char.focus_slots, "focus_slots_used": slots_used(char, lookup, rules),
            "mixed_heritage": {"cards": list(char.heritage), "ancestral_points": char.ancestral_points,
                               "spent": spent}}


def build_text(build: dict) -> list:
    """`show`'s lines for the build (none when the sheet records none)."""
    if not build:
        return []
    levels = ", ".join(f"{name} {n}" for name, n in build["levels"].items())
    if build.get("level") is not None:
        levels = ", ".join(filter(None, [levels, f"{build['level']} in any other"]))
    lines = [f"  levels: {levels or 'none'}"]
    prepared, used, held_slots = build["prepared"], build["focus_slots_used"], build["focus_slots"]
    slots_text = f"focus slots {used}" + (f" of {held_slots}" if held_slots is not None else "")
    if prepared is not None:
        lines.append(f"  prepared: {', '.join(prepared) or 'none'} ({slots_text})")
    elif held_slots is not None:
        lines.append(f"  {slots_text}")
    heritage = build["mixed_heritage"]
    if heritage["cards"] or heritage["ancestral_points"] is not None:
        budget = heritage["ancestral_points"]
        lines.append(f"  Mixed Heritage: {', '.join(heritage['cards']) or 'none'} ({heritage['spent']}"
                     + (f" of {budget}" if budget is not None else "") + " ancestral points)")
    return lines
