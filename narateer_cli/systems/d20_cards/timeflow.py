"""Time and upkeep: turn starts, the campaign clock, rests, direct damage and healing.

AP refill at one's own turn start; round cooldowns tick first, then
Concentration (a cooldown started by that drop first ticks next turn);
`elapse` runs the campaign clock; a Proper Rest refills; Dying drains like
any damage; a companion that is no participant refills and ticks at its
owner's turn start.
"""

from __future__ import annotations

from narateer_cli.kit import BadInput, Refused

from . import effects
from .cards import UNIT_SECONDS
from .results import Change, DamageResult, ElapseActor, ElapseResult, RestActor, RestResult, TurnStart
from .sheet import card_for


def _char(world, name):
    if name not in world.chars:
        from narateer_cli.kit import unknown

        raise unknown("character", name, world.names())
    return world.chars[name]


def _tick(char, world):
    """Round cooldowns first, then Concentration's rounds."""
    ended, cooldowns = [], {}
    for card_id, entry in char.cooldowns.items():
        if "rounds" in entry:
            if entry["rounds"] - 1 <= 0:
                ended.append(card_id)
                continue
            entry = {**entry, "rounds": entry["rounds"] - 1}
        cooldowns[card_id] = entry
    char = char.replace(cooldowns=cooldowns)
    conc_ended = None
    conc = char.concentrating
    if conc and "rounds" in conc:
        if conc["rounds"] - 1 <= 0:
            char, conc_ended = effects.drop(char, world.cards, world.clock)
        else:
            char = char.replace(concentrating={**conc, "rounds": conc["rounds"] - 1})
    return char, tuple(ended), conc_ended


def _start_one(world, char, rules, dice, enc_id, round_no, used):
    ap = None
    if rules.ap["timing"] == "turn_start":
        char, (before, after) = effects.refill_ap(char)
        ap = Change(before, after)
    char, ended, conc_ended = _tick(char, world)
    drain = None
    if char.condition("dying") is not None and rules.dying["drain"]:
        char, drain, _ = effects.take_damage(char, rules.dying["drain"], rules, dice, world.cards, world.clock, used)
    return world.with_char(char), TurnStart(enc_id, round_no, char.id, ap, ended, conc_ended, drain, ())


def turn_start(world, actor: str, rules, dice, used=None):
    """`turn start`: refill AP, tick round cooldowns, end Concentration, drain the Dying."""
    char = _char(world, actor)
    enc = world.encounter
    enc_id, round_no = (enc.id, enc.round) if enc else (None, None)
    world, result = _start_one(world, char, rules, dice, enc_id, round_no, used)
    companions = []
    if rules.companion["turn"] == "owner":
        for cid in char.companions:
            comp = world.chars.get(cid)
            if comp is not None and comp.owner == actor and (enc is None or cid not in enc.participants):
                world, sub = _start_one(world, comp, rules, dice, enc_id, round_no, used)
                companions.append(sub)
    return world, result.replace(companions=tuple(companions))


def start_turn(world, state: dict, actor: str, rules, dice):
    """`turn start CHAR` in an encounter: CHAR's turn begins (a second one in a round starts the next
    round), its timed conditions end, then `turn_start`. Returns (state, world, TurnStart)."""
    from narateer_cli.kit import durations

    from .encounter import as_record, begin_turn

    state = begin_turn(state, actor)
    expired = durations.due(state, actor)
    state = durations.drop(state, actor, expired)
    ready = world.replace(encounter=as_record(state))
    if expired:
        ready = ready.with_char(ready.chars[actor].replace(conditions=ready.chars[actor].without(*expired)))
    new_world, result = turn_start(ready, actor, rules, dice)
    return state, new_world.replace(encounter=world.encounter), result.replace(expired=tuple(expired))


def end_and_start(world, state: dict, actor: str, rules, dice):
    """`turn end --next CHAR`: the running turn ends and CHAR's starts exactly as `turn start CHAR`
    would, as one action. Returns (state, world, the TurnStart's shape with `ended`)."""
    from narateer_cli.kit import plain

    from .encounter import end_turn, require_participant

    require_participant(state, actor)  # bad input is reported before any refusal
    ended_state, ended = end_turn(state)
    state, new_world, result = start_turn(world, ended_state, actor, rules, dice)
    return state, new_world, {**plain(result), "ended": ended.ended}


_UNITS = {"s": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}


def parse_span(text: str) -> int:
    """`10m`, `2h`, `1d`, `30s` -> seconds (exit 2 otherwise)."""
    word = str(text).strip().lower()
    number = word.rstrip("abcdefghijklmnopqrstuvwxyz")
    unit = word[len(number):] or "s"
    if not number.isdigit() or unit not in _UNITS or int(number) <= 0:
        raise BadInput(f"bad time span {text!r}", fix="write a whole number with s, m, h or d, e.g. 10m")
    return int(number) * _UNITS[unit]


def _rounds_passed(seconds: int, rules) -> int:
    """With no round length, a minute or more ends every round count."""
    size = rules.time["round_seconds"]
    if size is None:
        return 10**9 if seconds >= 60 else 0
    return seconds // size


def _elapse_one(world, char, clock_before, clock_after, rules):
    conc_ended = None
    conc = char.concentrating
    if conc:
        if "until" in conc and conc["until"] <= clock_after:
            char, conc_ended = effects.drop(char, world.cards, conc["until"])
        elif "rounds" in conc and _rounds_passed(clock_after - clock_before, rules) >= conc["rounds"]:
            char, conc_ended = effects.drop(char, world.cards, clock_before)
        elif "rounds" in conc and _rounds_passed(clock_after - clock_before, rules):
            char = char.replace(concentrating={**conc, "rounds": conc["rounds"] - _rounds_passed(clock_after - clock_before, rules)})
    ended, cooldowns = [], {}
    for card_id, entry in char.cooldowns.items():
        passed = _rounds_passed(clock_after - clock_before, rules)
        if "until" in entry and entry["until"] <= clock_after or "rounds" in entry and passed >= entry["rounds"]:
            ended.append(card_id)
            continue
        if "rounds" in entry and passed:
            entry = {**entry, "rounds": entry["rounds"] - passed}
        cooldowns[card_id] = entry
    return char.replace(cooldowns=cooldowns), ElapseActor(char.id, tuple(ended), conc_ended)


def elapse(world, seconds: int, rules):
    """`elapse`: advance the campaign clock; clock cooldowns and Concentration end when due."""
    if seconds <= 0 or seconds > rules.limits["number"] * 86400:
        raise BadInput(f"cannot elapse {seconds} s", fix="give a positive span such as 10m")
    before, after = world.clock, world.clock + seconds
    actors = []
    for char in world.chars.values():
        new, record = _elapse_one(world, char, before, after, rules)
        world = world.with_char(new)
        if record.cooldowns_ended or record.concentration_ended:
            actors.append(record)
    return world.replace(clock=after), ElapseResult(seconds, before, after, tuple(actors))


def _cards_of(world, char):
    return {cid: card_for(char, cid, world.cards) for cid in (*char.actions, *char.cards, *char.charges)}


def _known_kind(world, kind: str, rules):
    """A recharge kind is a rest of the ruleset or one a card names; any other is bad input
    with the closest: a misspelt kind would refill nothing and still be logged."""
    from narateer_cli.kit import unknown

    known = set(rules.rest)
    for char in world.chars.values():
        known |= {c.recharge for c in char.cards.values() if c.recharge}
    if kind not in known:
        known |= {world.cards[cid].recharge for cid in world.cards if world.cards[cid].recharge}
    if kind not in known:
        raise unknown("recharge kind", kind, sorted(known), rule="A-CARD-REST")


def refuse_rest_mid_encounter(char_id: str, enc_id: str):
    """A Proper Rest is not taken in the middle of a fight: exit 3, nothing written, until the encounter ends."""
    raise Refused(f"{char_id} is in encounter {enc_id}: a Proper Rest is not taken mid-encounter",
                  rule="R-CARD-REST-1", fix=f"end it first (`narateer encounter end {enc_id}`), or add --mid-encounter "
                                            "(the Guide's ruling)")


def rest(world, names, kind: str, rules, mid_encounter: bool = False):
    """`rest --proper` / `--kind K`: refill charges whose recharge is K; `rest.proper` says what else a rest does.
    A Proper Rest of a character in the world's encounter is refused unless the Guide rules it (`mid_encounter`)."""
    if not names:
        raise BadInput("rest needs at least one character", fix="narateer rest mira --proper")
    _known_kind(world, kind, rules)
    policy = rules.rest.get(kind, {})
    actors = []
    for name in names:
        char = _char(world, name)
        if kind == "proper" and not mid_encounter and world.encounter is not None and char.id in world.encounter.participants:
            refuse_rest_mid_encounter(char.id, world.encounter.id)
        charges, changed = dict(char.charges), {}
        for cid, card in _cards_of(world, char).items():
            if card is not None and card.charges and card.recharge == kind:
                before = charges.get(cid, card.charges)
                charges[cid] = card.charges
                changed[cid] = [before, card.charges]
        char = char.replace(charges=charges)
        ap = None
        if policy.get("ap") == "max":
            char, (b, a) = effects.refill_ap(char)
            ap = Change(b, a)
        ended = tuple(char.cooldowns) if policy.get("cooldowns") == "end" else ()
        if ended:
            char = char.replace(cooldowns={})
        hp = None
        if policy.get("hp") == "max":
            hp = Change(char.hp, max(char.hp, char.hp_max))
            char = char.replace(hp=hp.after)
        conc = None
        if policy.get("concentration") == "drop":
            char, conc = effects.drop(char, world.cards, world.clock)
        world = world.with_char(char)
        actors.append(RestActor(name, changed, ap, ended, hp, conc))
    return world, RestResult(kind, tuple(actors))


def damage(world, name, amount: int, rules, dice, drain=False):
    """`damage CHAR N [--drain]`: damage taken (Swan Song doubles, the Concentration check follows)."""
    if amount < 0 or amount > rules.limits["number"]:
        raise BadInput(f"damage {amount} is out of range", fix="give a whole number from 0 up")
    char = _char(world, name)
    new, record, added = effects.take_damage(char, amount, rules, dice, world.cards, world.clock)
    what = "drain" if drain else "damage"
    return world.with_char(new), DamageResult(name, what, record, char.hp, new.hp, None, None, added, ())


def heal(world, name, amount: int, rules):
    """`heal CHAR N`: HP up, capped at max."""
    if amount < 0 or amount > rules.limits["number"]:
        raise BadInput(f"heal {amount} is out of range", fix="give a whole number from 0 up")
    char = _char(world, name)
    after = max(char.hp, min(char.hp_max, char.hp + amount))
    return world.with_char(char.replace(hp=after)), DamageResult(name, "heal", None, char.hp, after, None, None, (), ())


def drop(world, name):
    """`drop CHAR`: end Concentration; its card's cooldown starts."""
    char = _char(world, name)
    new, card_id = effects.drop(char, world.cards, world.clock)
    if card_id is None:
        raise BadInput(f"{name} is not concentrating", fix="nothing to drop")
    return world.with_char(new), DamageResult(name, "drop", None, char.hp, char.hp, None, card_id, (), ())


def refresh(world, name):
    """`refresh CHAR`: AP to max."""
    char = _char(world, name)
    new, (before, after) = effects.refill_ap(char)
    return world.with_char(new), DamageResult(name, "refresh", None, char.hp, char.hp,
                                              Change(before, after), None, (), ())


def condition(world, name, change: str, rules=None):
    """`condition CHAR +NAME|-NAME` with the Dying/Stabilized links. A name that misspells
    one the rules read (`+immobilised`) or one CHAR carries (`-hiden`) is bad input, with the closest names."""
    from .names import condition_miss, known_conditions, near_miss

    char = _char(world, name)
    sign, cond = change[:1], change[1:].strip()
    if sign not in "+-" or not sign or not cond:
        raise BadInput(f"bad condition change {change!r}", fix="write +NAME or -NAME, e.g. +stabilized")
    level = cond.partition(":")[2].strip()
    if ":" in cond and not level.isdigit():  # `nullified:N`, N the highest tier it blocks
        raise BadInput(f"bad condition level in {change!r}", rule="A-CARD-NULL",
                       fix=f"write a whole number after the colon, e.g. {sign}{cond.partition(':')[0]}:1")
    carried = [c.partition(":")[0].strip().lower() for c in char.conditions]
    near = condition_miss(cond, rules) if sign == "+" else near_miss(cond.partition(":")[0], carried)
    if near:
        known = known_conditions(rules) if sign == "+" else carried
        meant = sign + near + cond[len(cond.partition(":")[0]):]  # `nullifed:1` -> `+nullified:1`
        raise BadInput(f"unknown condition {cond!r} (did you mean {near}?)", rule="S-SYS-5",
                       fix=f"write {meant}; " + (f"the rules read: {', '.join(known)}; any other name is kept as "
                                                 "written" if sign == "+" else f"{name} has {', '.join(known)}"))
    new, added, removed = effects.set_condition(char, cond.lower(), sign == "+")
    return world.with_char(new), DamageResult(name, "condition", None, char.hp, char.hp, None, None, added, removed)


def conditions(world, state, name, changes, rounds=None, rules=None):
    """`condition CHAR +A -B [--rounds N]`: each change in order; with --rounds the added conditions end
    N rounds later, and a removal forgets a timer. Returns (world, state, DamageResult);
    `state` is the encounter's (None outside one), `rounds_left` its timers for CHAR."""
    added, removed, result = [], [], None
    for change in changes:
        world, result = condition(world, name, change, rules)
        added += result.conditions_added
        removed += result.conditions_removed
    assert result is not None  # `condition` takes one change at least (click: required)
    result = result.replace(conditions_added=tuple(added), conditions_removed=tuple(removed))
    state = _timed(state, name, added, removed, rounds)
    if state is None:
        return world, state, result
    from narateer_cli.kit import durations

    return world, state, result.replace(rounds_left=durations.left(state, name))


def _timed(state, name, added, removed, rounds):
    """The encounter state with timers for `added` (by name, `nullified:1` as `nullified`) and without `removed`'s."""
    from narateer_cli.kit import durations

    head = [str(c).partition(":")[0].strip().lower() for c in added]
    gone = [str(c).partition(":")[0].strip().lower() for c in removed]
    if rounds is not None and (state is None or not head):
        raise BadInput("--rounds needs a +NAME and CHAR in the current encounter" if state is None
                       else "--rounds times the conditions added with +NAME", rule="T-DURATION",
                       fix=f"for example narateer condition {name} +immobilized --rounds 2")
    if state is None:
        return None
    timed = durations.drop(state, name, head + gone)
    if rounds is not None:
        timed = durations.add(timed, name, head, rounds)
    return timed if (timed.get("durations") or {}) != (state.get("durations") or {}) else state


SECONDS = UNIT_SECONDS
