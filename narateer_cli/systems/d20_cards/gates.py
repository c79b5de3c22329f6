"""Who performs what, on whom: the checks before a card resolves, in order; the first that fails refuses.

`prepare` turns a declaration into a `Plan` and raises BadInput (exit 2)
for anything malformed, before any rule is consulted. `gates` yields one
`Gate` per step in its order; `act` refuses at the first
that fails, `--dry-run` lists them all.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import BadInput, Refused

from .effects import critical, note
from narateer_cli.kit import Record
from .results import Gate, Geometry
from .sheet import card_for, card_lookup


class Plan(Record):
    owner: Any
    performer: Any
    card: Any
    targets: Any
    in_encounter: Any
    free_ap: Any


def _char(world, name, what="character"):
    if name in world.chars:
        return world.chars[name]
    from narateer_cli.kit import unknown

    raise unknown(what, name, world.names())


def _companion(world, owner, card, decl):
    if not card.has("companionship"):
        if decl.companion:
            raise BadInput(f"{card.id} is not a Companionship card", fix="drop --companion")
        return owner
    pool = tuple(c for c in owner.companions if c in world.chars)
    if decl.companion:
        if decl.companion not in owner.companions:
            from narateer_cli.kit import did_you_mean

            raise BadInput(f"{decl.companion!r} is not a companion of {owner.id}"
                           + did_you_mean(decl.companion, owner.companions),
                           fix="companions: " + (", ".join(owner.companions) or "none"))
        return _char(world, decl.companion)
    return world.chars[pool[0]] if pool else None


def prepare(world, decl, rules) -> Plan:
    """Exit 2 first: unknown names, untargeted options, bad numbers (Part 3)."""
    owner = _char(world, decl.actor)
    card = card_for(owner, decl.card, world.cards)
    if card is None:
        from narateer_cli.kit import unknown

        raise unknown("card", decl.card, sorted({*owner.cards, *world.cards}))
    if decl.drop_concentration and not card.has("concentration"):
        raise BadInput(f"{card.id} needs no concentration", fix="drop --drop-concentration")
    performer = _companion(world, owner, card, decl)
    perf_id = performer.id if performer else owner.id
    targets = tuple(decl.targets)
    if not targets and card.range_kind == "self":
        targets = (perf_id,)
    elif not targets and card.kind != "none":
        raise BadInput(f"{card.id} needs a target", fix=f"add --target NAME (it is a {card.kind.upper()} card)")
    limit = rules.limits["targets"]
    if len(targets) > limit or len(set(targets)) != len(targets):
        raise BadInput("targets must be distinct and at most " + str(limit), fix="name each target once")
    enc = world.encounter
    _check_names(world, decl, targets, perf_id)
    _check_numbers(decl, rules)
    free = enc is None and rules.ap["outside_encounter"] == "free"
    return Plan(owner, performer, card, targets, enc is not None, free)


def _check_names(world, decl, targets, perf_id):
    """Every target known (and in the encounter); per-target options name a target."""
    enc = world.encounter
    for name in targets:
        _char(world, name, "target")
        if enc is not None and name not in enc.participants and name != perf_id:
            raise BadInput(f"{name} is not in encounter {enc.id}", fix=f"narateer encounter join {name}")
    for option, names in (("--distance", decl.distances), ("--unseen", decl.unseen), ("--unheard", decl.unheard)):
        for name in names:
            if name not in targets:
                raise not_a_target(option, name, targets)


def not_a_target(option: str, name: str, targets) -> BadInput:
    """A per-target option naming no target: the closest target when the name is misspelt, else
    add it as a target or drop the option."""
    from narateer_cli.kit import closest as nearest

    near = nearest(name, [t for t in targets if t])
    if near:
        return BadInput(f"{option} {name}: {name} is not a target (did you mean {' or '.join(near)}?)",
                        fix=f"name {near[0]} in {option}")
    return BadInput(f"{option} {name}: {name} is not a target", fix=f"add --target {name} or drop it")


def _check_numbers(decl, rules):
    """Bounds: metres >= 0 and no number past the limit."""
    for value in (decl.distance, *decl.distances.values()):
        if value is not None and not 0 <= value <= rules.limits["number"]:
            raise BadInput(f"distance {value} is out of range", fix="give metres from 0 up")
    if abs(decl.mod) > rules.limits["number"]:
        raise BadInput(f"--mod {decl.mod} is too large", fix="give a smaller modifier")


def geometry(world, plan, decl, rules, target_id, used=None) -> Geometry:
    """Distance, sight and hearing of one target (the performer itself: 0, seen, heard)."""
    perf, card = plan.performer, plan.card
    if target_id == perf.id:
        return Geometry(target_id, 0, True, True, True, 0)
    target = world.chars[target_id]
    note(used, "senses")
    senses = rules.senses
    distance = decl.distances.get(target_id, decl.distance)
    seen = not (target_id in decl.unseen or target.has_any(senses["unseen"]) or perf.has_any(senses["blind"]))
    heard = not (target_id in decl.unheard or target.has_any(senses["deaf"]))
    limit = _limit(perf, card)
    in_range: bool | str  # True, "assumed" (no distance given) or "beyond"
    if distance is None:
        note(used, "range")
        area_less_self = card.range_kind == "self" and card.area is None
        if rules.range["require_distance"] and limit is not None and not area_less_self:
            raise BadInput(f"no distance to {target_id}", fix=f"add --distance {target_id}=M (range.require_distance)")
        in_range = "assumed"
    else:
        in_range = True if limit is None or distance <= limit else "beyond"
    return Geometry(target_id, distance, in_range, seen, heard, 0)


def _blind(plan, geo, rules, used):
    """The blind penalty (unseen, or seen beyond a metre range), or a refusal."""
    card, perf, kind = plan.card, plan.performer, plan.card.range_kind
    if geo.in_range != "beyond":
        return (rules.blind_penalty if not geo.seen and card.kind == "attack" else 0), None
    note(used, "beyond_range")
    if card.kind != "attack" or kind not in rules.beyond_range:
        rule = "R-CARD-RANGE-4" if kind == "reach" else "R-CARD-RANGE-6" if kind == "self" else "R-CARD-RANGE-1"
        return 0, (rule, f"{geo.id} is {geo.distance:g} m away; {card.id} reaches {_limit(perf, card):g} m")
    if geo.seen:
        return rules.blind_penalty, None
    note(used, "blind_both")
    if rules.blind_both == "refuse":
        return 0, ("R-CARD-RANGE-2", f"{geo.id} is beyond range and unseen")
    return rules.blind_penalty * (2 if rules.blind_both == "stack" else 1), None


def _limit(perf, card):
    """The metres a card reaches; Touch is within reach whatever the card's range."""
    kind = card.range_kind
    if kind == "reach" or card.has("touch"):
        return perf.reach + card.reach_bonus
    if kind == "meter":
        return card.range
    if kind == "self":
        return card.area if card.area is not None else 0
    return None


def target_gate(plan, geo: Geometry, rules, used=None) -> tuple[Gate, Geometry]:
    """The gates for one target: Self, range, sight, hearing, Touch; sets the blind penalty."""
    card, perf = plan.card, plan.performer
    kind, name = card.range_kind, f"target {geo.id}"

    def refuse(rule, why):
        return Gate(name, rule, False, why), geo

    if geo.id == perf.id:
        return Gate(name, "R-CARD-RANGE-7", True, "the performer may always name itself"), geo
    if kind == "self" and card.area is None:
        return refuse("R-CARD-RANGE-6", f"{card.id} is Self with no area: it targets only {perf.id}")
    if card.has("touch") and geo.in_range == "beyond":
        return refuse("R-CARD-PROP-10", f"{geo.id} is {geo.distance:g} m away; Touch needs it within reach {_limit(perf, card):g} m")
    penalty, refusal = _blind(plan, geo, rules, used)
    if refusal:
        return refuse(*refusal)
    if kind == "sight" and not geo.seen:
        return refuse("R-CARD-RANGE-3", f"{perf.id} cannot see {geo.id}; {card.id} has Sight range")
    if kind == "vocal" and not geo.heard:
        return refuse("R-CARD-RANGE-5", f"{geo.id} cannot hear {perf.id}; {card.id} has Vocal range")
    if penalty:
        note(used, "blind_penalty")
    why = "in range" if geo.in_range is True else f"in range ({geo.in_range})" if geo.in_range == "assumed" \
        else f"beyond range at {penalty}"
    return Gate(name, "R-CARD-RANGE-1", True, why), geo.replace(penalty=penalty)


def _ap_word(res):
    return "AP" if res == "ap" else res


def card_gates(world, plan, decl, rules, used=None):
    """The gates before any target: access, timing, properties, Concentration, cooldown, charges, costs."""
    owner, perf, card = plan.owner, plan.performer, plan.card
    note(used, "known_only")
    known = not rules.known_only or card.id in owner.actions or card.id in owner.cards
    yield Gate("access", "R-CARD-4", known, f"{owner.id} has {card.id}" if known else
               f"{card.id} is not on {owner.id}'s sheet")
    if known:
        yield from _build_gates(world, owner, card, rules, used)
    if card.has("companionship"):
        yield Gate("companion", "R-CARD-PROP-2", perf is not None,
                   f"{perf.id} performs it" if perf else f"{owner.id} has no companion to perform {card.id}")
        if perf is None:
            return
    yield _timing(world, plan, rules, used)
    yield from _property_gates(plan, decl, rules, used)
    yield _concentration_gate(perf, card, decl, rules, used)
    cooldown = perf.cooldowns.get(card.id)
    yield Gate("cooldown", "R-CARD-CD-1", cooldown is None,
               f"{card.id}: {_left(cooldown, world.clock)} left" if cooldown else "ready")
    if card.charges:
        have = perf.charges.get(card.id, card.charges)
        yield Gate("charges", "R-CARD-CD-4", have > 0, f"{card.id}: {have} of {card.charges} charges" if have
                   else f"{card.id} has no charges left")
    yield from _cost_gates(plan, used)


def _build_gates(world, owner, card, rules, used):
    """The build's gates, for a sheet that records one: the level the card's tier asks in its source, and the
    card prepared (a card the sheet does not hold, under `known_only: false`, asks neither)."""
    from .tiers import level_note, missing_level, records_build, records_levels, unprepared

    if not records_build(owner) or not (card.id in owner.actions or card.id in owner.cards):
        return
    note(used, "tiers")
    if records_levels(owner):
        gap = missing_level(owner, card, rules)
        yield Gate("prerequisite", "R2-TIER-1", gap is None, gap or level_note(owner, card, rules))
    if owner.prepared is not None:
        why = unprepared(owner, card, card_lookup(owner, world.cards), rules)
        yield Gate("prepared", "R2-TIER-2", why is None, why or (
            f"{owner.id} has prepared {card.id}" if card.id in owner.prepared else f"{card.id} needs no preparing"))


def _concentration_gate(perf, card, decl, rules, used) -> Gate:
    """One Concentration at a time (unless dropped first, or the knob replaces it)."""
    conc = perf.concentrating
    busy = bool(card.has("concentration") and conc and not decl.drop_concentration)
    if card.has("concentration"):
        note(used, "concentration")
    if busy and rules.concentration["on_second"] == "replace":
        busy = False
    return Gate("concentration", "R-CARD-PROP-3", not busy,
                f"{perf.id} is concentrating on {conc['card']}" if busy else "free to concentrate")


def _cost_gates(plan, used):
    """Each resource the card costs, in full (AP is shown, not spent, outside an encounter)."""
    perf, card = plan.performer, plan.card
    for res, amount in card.cost.items():
        if res == "ap":
            note(used, "ap")
        if res == "ap" and plan.free_ap:
            yield Gate("cost", "R-CARD-2", True, f"{amount} AP shown, not spent outside an encounter")
            continue
        have = perf.resources.get(res, (0, 0))[0]
        yield Gate("cost", "R-CARD-2", have >= amount,
                   f"{perf.id} has {have} {_ap_word(res)}; {card.id} costs {amount}")


def _left(entry, clock) -> str:
    if "rounds" in entry:
        n = entry["rounds"]
        return f"{n} round{'s' if n != 1 else ''}"
    seconds = max(entry.get("until", 0) - clock, 0)
    for size, word in ((86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size and seconds % size == 0:
            n = seconds // size
            return f"{n} {word}{'s' if n != 1 else ''}"
    return f"{seconds} s"


def _timing(world, plan, rules, used):
    """Timing: whose turn it is (a Reaction's is someone else's; a companion's its owner's)."""
    enc, perf, card = world.encounter, plan.performer, plan.card
    if enc is None:
        return Gate("timing", "R-CARD-ACT-1", True, "outside an encounter")
    if perf.owner:
        note(used, "companion")
    own = enc.turn == perf.id or (perf.owner is not None and perf.id not in enc.participants
                                  and rules.companion["turn"] == "owner" and enc.turn == perf.owner)
    if card.has("reaction"):
        note(used, "reaction")
        ok = not own or rules.reaction["own_turn"]
        return Gate("timing", "R-CARD-PROP-8", ok, "a Reaction off its turn" if ok else
                    f"{card.id} is a Reaction and it is {perf.id}'s own turn")
    if enc.turn is None and not own:
        return Gate("timing", "R-CARD-ACT-1", False, f"no turn is going in encounter {enc.id}")
    return Gate("timing", "R-CARD-ACT-1", own, f"{perf.id}'s turn" if own else
                f"it is {enc.turn}'s turn, not {perf.id}'s")


def _property_gates(plan, decl, rules, used):
    """The properties' gates: Arcane, Mobility, Swan Song, Vocal (and Discreet under `refuse`)."""
    perf, card = plan.performer, plan.card
    if card.has("arcane") or rules.nullification == "every_card":
        yield _arcane_gate(perf, card, used)
    if card.has("mobility"):
        note(used, "mobility_blocked_by")
        by = perf.has_any(rules.mobility_blocked_by)
        yield Gate("mobility", "R-CARD-PROP-7", by is None, f"{perf.id} is {by}" if by else "free to move")
    if card.has("swan_song"):
        crit = critical(perf, rules, used)
        yield Gate("swan_song", "R-CARD-PROP-9", crit, f"{perf.id} is in Critical Condition" if crit else
                   f"{perf.id} is not in Critical Condition (HP {perf.hp})")
    elif critical(perf, rules):  # in Critical Condition the rules name only Swan Songs as performed
        note(used, "critical")
        ok = rules.critical.get("acts") == "any"
        yield Gate("critical", "R-CARD-CRIT-1", ok, f"{perf.id} is in Critical Condition ({_crit_why(perf, rules)})"
                   + ("" if ok else f": only a Swan Song card, not {card.id}"))
    if card.range_kind == "vocal":
        note(used, "senses")
        mute = perf.has_any(rules.senses["mute"])
        yield Gate("vocal", "R-CARD-RANGE-5", mute is None, f"{perf.id} is {mute}" if mute else "can make sound")
    if perf.condition("hidden") is not None and not card.has("discreet"):
        note(used, "discreet")
        ok = rules.discreet == "reveal" or decl.reveal
        yield Gate("discreet", "R-CARD-PROP-5", ok, f"{card.id} will reveal {perf.id}" if ok else
                   f"{card.id} is not Discreet and {perf.id} is hidden")


def _crit_why(char, rules) -> str:
    """Why a creature is in Critical Condition: its HP at or below the mark, or the Guide's condition."""
    return f"HP {char.hp}" if char.hp <= rules.critical["hp_at_most"] else "the Guide's critical condition"


def _arcane_gate(perf, card, used) -> Gate:
    """Arcane: `nullified` blocks every Arcane card, `nullified:N` those of tier N or lower."""
    note(used, "nullification")
    level = perf.condition("nullified")  # True for bare `nullified`, N for `nullified:N`
    blocked = level is True or (level is not None and card.tier <= level)
    return Gate("arcane", "R-CARD-PROP-1", not blocked,
                f"{perf.id} is {_cond(perf, 'nullified')}; {card.id} is tier {card.tier}" if blocked else "not nullified")


def _cond(char, name):
    return next(c for c in char.conditions if c.partition(":")[0].strip().lower() == name)


_FIX = {
    "R-CARD-2": "wait for the next turn start (AP refills)",
    "R-CARD-CD-1": "wait for the cooldown to end",
    "R-CARD-PROP-3": "add --drop-concentration",
    "R-CARD-4": "add it to the sheet's actions",
    "R-CARD-PROP-2": "give the character a companion (companions: [ID])",
    "R-CARD-ACT-1": "act on the performer's turn",
    "R-CARD-PROP-8": "perform the Reaction off the performer's turn",
    "R-CARD-PROP-1": "remove nullified first",
    "R-CARD-PROP-7": "remove the condition first",
    "R-CARD-PROP-9": "Swan Song needs Critical Condition",
    "R-CARD-PROP-5": "add --reveal",
}


def refusal(gate: Gate, plan) -> Refused:
    fix = getattr(gate.why, "fix", None) or _FIX.get(gate.rule, "choose another target or distance")
    if gate.rule == "R-CARD-CD-4":
        perf = plan.performer.id
        kind = plan.card.recharge or "proper"
        fix = f"narateer rest {perf} --proper" if kind == "proper" else f"narateer rest {perf} --kind {kind}"
        if kind == "proper" and plan.in_encounter:  # a Proper Rest waits for the encounter's end
            fix = f"once the encounter ends: {fix}"
    if gate.rule == "R-CARD-CRIT-1":
        perf = plan.performer.id
        fix = ("perform a Swan Song card, or take the condition off first (`narateer condition "
               f"{perf} -critical`)" if "condition" in gate.why else
               f"perform a Swan Song card, or heal {perf} first (`narateer heal {perf} N`)")
    if gate.rule == "R-CARD-ACT-1" and gate.why.startswith("no turn"):
        fix = f"run `narateer turn start {plan.owner.id}` first"
    return Refused(gate.why, rule=gate.rule, fix=fix)


class Status(str):
    """A card's status as people read it; `rule` names the rule that blocks it, for --json (rule
    ids stay out of the text)."""

    rule = None


def card_status(world, char_id, card_id, rules) -> str:
    """`show` / `card list --for`: ready, cooldown, charges, or what blocks it (gates 1, 3-7)."""
    from .results import Declaration

    decl = Declaration(actor=char_id, card=card_id, targets=(char_id,))
    try:
        plan = prepare(world, decl, rules)
    except BadInput as exc:
        return exc.message
    bits = []
    if plan.card.charges and plan.performer is not None:
        bits.append(f"charges {plan.performer.charges.get(card_id, plan.card.charges)}/{plan.card.charges}")
    for gate in card_gates(world, plan, decl, rules):
        if not gate.ok and gate.gate != "timing":
            status = Status("; ".join([f"blocked: {gate.why}", *bits]))
            status.rule = gate.rule
            return status
    return "; ".join(["ready", *bits])
