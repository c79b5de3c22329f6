"""The names d20-cards rules read, and how a near miss of one is caught, with the closest names.

Conditions stay free-form (the sheet format ends its list with "..."), but a
name the rules never read that is one letter or two away from one they do
(`immobilised`, `nullifed`, `blind`) would silently switch a gate off, so it
is refused with the known name. The same holds for resources (`app` next to
`ap`) and recharge kinds (`propr` next to `proper`). Pure data and functions.
"""

from __future__ import annotations

# The conditions the engine itself reads (Nullification, Critical Condition, Dying, Swan Song); the ruleset
# adds its senses and `mobility_blocked_by`.
RULE_CONDITIONS = ("nullified", "critical", "dying", "stabilized", "swan_song")
# As shipped, every incapacitating condition refuses a Mobility card.
MOBILITY_BLOCKERS = ("immobilized", "incapacitated", "unconscious", "paralyzed", "stunned", "restrained")
RESOURCES = ("ap",)
RECHARGES = ("proper",)


def known_conditions(rules) -> list[str]:
    """Every condition the rules read, sorted: the engine's own, the senses', Mobility's blockers."""
    knob = (rules.get if isinstance(rules, dict) else lambda key: getattr(rules, key, None))
    senses = (knob("senses") or {}) if rules is not None else {}
    blockers = knob("mobility_blocked_by") or () if rules is not None else MOBILITY_BLOCKERS
    names = {*RULE_CONDITIONS, *blockers, *(str(c) for group in senses.values() for c in (group or ()))}
    return sorted(str(n).lower() for n in names)


def near_miss(name, known) -> str | None:
    """The known name `name` misspells (one typing slip away, or cut short: `blind` for blinded), else
    None; `weakened` is close to deafened but two letters apart, so it stays a condition of its own."""
    from narateer_cli.kit import closest

    near = closest(str(name).strip(), known, cutoff=0.75, slip=True)
    return near[0] if near and str(name).strip().lower() not in known else None


def condition_miss(entry, rules) -> str | None:
    """The known condition a sheet's or command's `NAME[:N]` misspells, if any."""
    return near_miss(str(entry).partition(":")[0], known_conditions(rules))


def dotted(path) -> str:
    """A key path as the messages write it: `cooldowns.firebot`, `actions[0]`."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def reference_problems(doc, cards, roster) -> list[tuple[tuple, str]]:
    """Every name on a sheet that should be a known card (`actions`, `charges`, `cooldowns`, `prepared`,
    `mixed_heritage.cards`, `concentrating.card`) or a known character (`companions`, `owner`), as (key path, message) with the
    closest known names. `doc` is the sheet mapping (or a Character's fields in that shape)."""
    from narateer_cli.kit import did_you_mean

    cards, roster = sorted(set(cards) | set(doc.get("cards") or ())), sorted(roster)
    places: list[tuple[tuple, object, list, str]]  # (key path, name, the known names, what it names)
    places = [(("actions", i), name, cards, "card") for i, name in enumerate(doc.get("actions") or ())]
    places += [((key, name), name, cards, "card") for key in ("charges", "cooldowns") for name in doc.get(key) or ()]
    places += _build_places(doc, cards)
    held = doc.get("concentrating")
    if isinstance(held, dict) and held.get("card") is not None:
        places.append((("concentrating", "card"), held["card"], cards, "card"))
    places += [(("companions", i), name, roster, "character") for i, name in enumerate(doc.get("companions") or ())]
    if doc.get("owner") is not None:
        places.append((("owner",), doc["owner"], roster, "character"))
    return [(path, f"{dotted(path)}: unknown {what} {name!r}" + did_you_mean(str(name), known))
            for path, name, known, what in places if str(name) not in known]



def _build_places(doc, cards) -> list:
    """The card names of a sheet's build: `prepared` and `mixed_heritage.cards`."""
    places: list[tuple[tuple, object, list, str]] = [(("prepared", i), name, cards, "card") for i, name in enumerate(doc.get("prepared") or ())]
    heritage = doc.get("mixed_heritage")
    if isinstance(heritage, dict):
        places += [(("mixed_heritage", "cards", i), name, cards, "card")
                   for i, name in enumerate(heritage.get("cards") or ())]
    return places
