"""Read-only results: a card, the card list, a sheet, the encounter's standing, a dice roll.

Pure functions over the world the store loaded (no files, no printing); each
returns one result record, which the render layer turns into text and JSON.
"""

from __future__ import annotations

from narateer_cli.kit import durations

from . import effects
from .cards import dc_attribute
from .gates import card_status
from .results import CardList, CardTerms, CardView, DiceRoll, EncounterStatus, SheetView, Standing
from .sheet import card_for


def _rows(world, who, rules) -> tuple:
    """(card, status) for each card CHAR has, actions first, in sheet order."""
    ids = dict.fromkeys([*who.actions, *who.cards])
    return tuple((card_for(who, cid, world.cards), card_status(world, who.id, cid, rules)) for cid in ids
                 if card_for(who, cid, world.cards) is not None)


def card_view(world, card_id: str, char: str | None, rules) -> CardView:
    """`card show CARD [--for CHAR]`: CHAR's own card (or the campaign's), with its readiness for CHAR."""
    who = world.chars.get(char) if char else None
    found = card_for(who, card_id, world.cards) if who else world.cards.get(card_id)
    if found is None:
        from narateer_cli.kit import unknown

        raise unknown("card", card_id, world.cards)
    return CardView(found, char, who, card_status(world, char, card_id, rules) if who else None,
                    card_terms(found, who, rules))


def card_terms(card, who, rules) -> CardTerms:
    """The rules' reading of `card` (for `who`, when given): the AC it attacks, how a target saves, what a
    resisted save takes; with a character its own numbers."""
    from .act import on_save_mode, save_choices

    saves_with, best_of = save_choices(card, rules) if card.dc else ((), False)
    numbers = {}
    if who is not None:
        numbers = {"bonus": who.bonus(card.atk) if card.atk else None,
                   "dc": action_dc(who)[card.dc] if card.dc else None,
                   "reach": who.reach + card.reach_bonus, "augmentor": who.augmentor}
    return CardTerms(rules.ac_kind(card.atk) if card.atk else None, dc_attribute(card.dc) if card.dc else None,
                     saves_with, best_of, on_save_mode(card, rules) if card.dc else None, **numbers)


def card_list(world, char: str | None, rules) -> CardList:
    """`card list [--for CHAR]`: CHAR's cards with their status, or every campaign card."""
    if char:
        return CardList(char, _rows(world, world.chars[char], rules))
    return CardList(None, tuple((card, None) for card in world.cards.values()))


def action_dc(who) -> dict:
    """A card's DC: Mind (Mental) or Body (Physical) plus the Concentration bonus."""
    return {kind: who.attr(dc_attribute(kind)) + who.concentration for kind in ("mental", "physical")}


def sheet_view(world, char: str, rules, state=None) -> SheetView:
    """`show CHAR`: the sheet, its Action DCs, each card's readiness, the rounds its timed conditions have left."""
    from .sheet import card_lookup
    from .tiers import build_view

    who = world.chars[char]
    return SheetView(who, action_dc(who), _rows(world, who, rules), durations.left(state, char),
                     build_view(who, card_lookup(who, world.cards), rules))


def encounter_status(world, state: dict, rules) -> EncounterStatus:
    """`encounter show`: round, whose turn, each participant's HP, AP, conditions and Concentration."""
    rows = []
    for cid in state["participants"]:
        c = world.chars[cid]
        rows.append(Standing(cid, c.hp, c.ap(), list(c.conditions), (c.concentrating or {}).get("card"),
                             c.cooldowns, durations.left(state, cid), effects.critical(c, rules)))
    return EncounterStatus(state["id"], state["round"], state.get("turn"), state["participants"], tuple(rows))


def roll(spec, dice) -> DiceRoll:
    """`dice EXPR`: the faces of `spec` from the dice source, and their total with the bonus."""
    from .dice import check_group

    check_group(dice, "damage", spec.count, spec.sides)
    rolled = dice.roll_many("damage", spec.count, spec.sides)
    return DiceRoll(str(spec), rolled, sum(rolled) + spec.bonus)
