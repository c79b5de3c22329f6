"""Damage, Concentration and cooldown bookkeeping shared by `act`, `damage` and time.

Damage taken is the damage dealt, doubled under Swan Song; HP falls; then the
Concentration check (d20 + Concentration against DC 10); then Critical
Condition. Cooldowns start on resolution, or when Concentration drops.
Pure functions over `Character` records; knobs are read from the ruleset
and named in `used` (the caller's list of consulted keys).
"""

from __future__ import annotations

from .dice import D20
from .results import ConcentrationCheck, Damage
from .sheet import Character, card_for


def beats(total, target, ties: bool = True) -> bool:
    """The one comparison of a roll against its number (attack vs AC, save vs DC, Concentration vs its DC,
    also the host's `beats` hook): meeting the number counts when `ties` win (each its own knob)."""
    return total >= target if ties else total > target


def note(used: list | None, key: str):
    if used is not None and key not in used:
        used.append(key)


def critical(char: Character, rules, used=None) -> bool:
    """Critical Condition: HP at or below the mark, or the Guide's `critical` condition."""
    note(used, "critical")
    return char.hp <= rules.critical["hp_at_most"] or char.condition("critical") is not None


def start_cooldown(char: Character, card, clock: int) -> Character:
    """Rounds count down at the performer's turn starts; longer units use the clock."""
    if card is None or card.cooldown is None:
        return char
    entry = {"rounds": card.cooldown.length} if card.cooldown.unit == "rounds" else \
        {"until": clock + card.cooldown.seconds()}
    return char.replace(cooldowns={**char.cooldowns, card.id: entry})


def start_concentration(char: Character, card, clock: int) -> Character:
    """One Concentration at a time, ended by `max_duration` if any."""
    entry = {"card": card.id}
    if card.max_duration is not None:
        if card.max_duration.unit == "rounds":
            entry["rounds"] = card.max_duration.length
        else:
            entry["until"] = clock + card.max_duration.seconds()
    return char.replace(concentrating=entry)


def drop(char: Character, cards: dict, clock: int) -> tuple[Character, str | None]:
    """End Concentration (any reason) and start that card's cooldown."""
    if not char.concentrating:
        return char, None
    card_id = char.concentrating["card"]
    char = char.replace(concentrating=None)
    return start_cooldown(char, card_for(char, card_id, cards), clock), card_id


def concentration_check(char: Character, rules, dice, used=None) -> ConcentrationCheck:
    """A concentrating character who takes damage rolls d20 + Concentration against DC 10; ties keep by default."""
    note(used, "concentration")
    knob = rules.concentration
    face = dice.roll("concentration", D20, char.id)
    bonus = char.concentration if knob["bonus"] == "concentration" else char.bonus(knob["bonus"])
    total = face + bonus
    return ConcentrationCheck(char.concentrating["card"], face, bonus, total, knob["dc"], kept(total, rules))


def kept(total, rules) -> bool:
    """The Concentration check's total against its DC (ties keep by default)."""
    knob = rules.concentration
    return beats(total, knob["dc"], knob["ties"] == "keep")


def hp_after(hp, taken, rules) -> int:
    """HP falls by what is taken, never below the floor if one is set."""
    floor = rules.hp["floor"]
    return hp - taken if floor is None else max(hp - taken, floor)


def take_damage(char: Character, dealt: int, rules, dice, cards: dict, clock: int, used=None,
                base=None, overkill=0, modifier=0) -> tuple[Character, Damage, tuple]:
    """Taking damage: returns the victim after the hit, the DMG record and conditions added."""
    doubled = char.condition("swan_song") is not None
    taken = dealt * 2 if doubled else dealt
    note(used, "hp")
    before = char.hp
    after = hp_after(char.hp, taken, rules)
    char = char.replace(hp=after)
    check = None
    if taken > 0 and char.concentrating:
        check = concentration_check(char, rules, dice, used)
        if not check.kept:
            char, _ = drop(char, cards, clock)
    added: tuple[str, ...] = ()
    note(used, "dying")
    auto = rules.dying["auto_hp_at_most"]
    if auto is not None and after <= auto and char.condition("dying") is None:
        char = char.replace(conditions=(*char.without("stabilized"), "dying"))
        added = ("dying",)
    record = Damage(dealt if base is None else base, overkill, modifier, dealt, doubled, taken, before,
                    after, check)
    return char, record, added


def take_hit(char: Character, amount: int, overkill: int, modifier: int, rules, dice, cards: dict, clock: int,
             used=None) -> tuple[Character, Damage, tuple]:
    """A card deals its dice's damage plus the Overkill."""
    return take_damage(char, amount + overkill, rules, dice, cards, clock, used, base=amount, overkill=overkill,
                       modifier=modifier)


def set_condition(char: Character, name: str, add: bool) -> tuple[Character, tuple, tuple]:
    """`+stabilized` removes `dying` and `swan_song`; `+dying` removes `stabilized`."""
    head = name.partition(":")[0].strip().lower()
    if not add:
        removed = tuple(c for c in char.conditions if c.partition(":")[0].strip().lower() == head)
        return char.replace(conditions=char.without(head)), (), removed
    clears = {"stabilized": ("dying", "swan_song"), "dying": ("stabilized",)}.get(head, ())
    removed = tuple(c for c in char.conditions if c.partition(":")[0].strip().lower() in (head, *clears))
    kept = char.without(head, *clears)
    return char.replace(conditions=(*kept, name)), (name,), tuple(r for r in removed if r != name)


def refill_ap(char: Character) -> tuple[Character, tuple]:
    """At one's own turn start: AP back to max; unused AP is lost."""
    current, most = char.resources.get("ap", (0, 0))
    return char.replace(resources={**char.resources, "ap": (most, most)}), (current, most)
