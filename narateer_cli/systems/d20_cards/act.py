"""Performing a card: `act(world, declaration, rules, dice) -> (world, ActResult)`.

The order of a performance: bad input first (exit 2), then the gates (first
failure: Refused, exit 3, nothing changes), then pay, spend a charge, drop
the old Concentration if asked, the Evolutionary roll, the damage dice, each
target's attack or save and damage (doubled under Swan Song), then Concentration or
the cooldown starts, Swan Song and Discreet. Pure: the input world is
untouched; the only moving part is the dice source passed in.
"""

from __future__ import annotations

from narateer_cli.kit import BadInput, Refused

from . import effects
from .dice import D20, check_group, edge_mode, edge_roll
from .effects import beats, note
from .gates import card_gates, geometry, not_a_target, prepare, refusal, target_gate
from .results import (ActionDc, ActResult, AttackRoll, Change, CooldownStart, DamageRoll, DryRun, Evolutionary,
                      SaveRoll, TargetResult)


def check_faces(plan, decl, rules, dice):
    """Physical faces that do not fit are exit 2, before any refusal (Part 3)."""
    card = plan.card
    mode = edge_mode(decl.advantage, decl.disadvantage, rules.edge)
    if card.kind != "attack" and dice.has("attack"):
        raise BadInput(f"{card.id} rolls no attack", fix="drop --faces (it is a DC card)" if card.kind == "dc"
                       else "drop --faces")
    check_group(dice, "attack", len(plan.targets) * (2 if mode else 1), D20, "--faces")
    for group, option in (("save", "--save-faces"), ("concentration", "--concentration-faces")):
        for name in dice.keys(group):
            if name not in (*plan.targets, plan.performer.id if plan.performer else None):
                raise not_a_target(option, name, (*plan.targets, plan.performer.id if plan.performer else None))
        check_group(dice, group, 1, D20, option)
    if dice.has("save") and card.kind != "dc":
        raise BadInput(f"{card.id} imposes no save", fix="drop --save-faces")
    if dice.has("evolutionary") and not card.has("evolutionary"):
        raise BadInput(f"{card.id} is not Evolutionary", fix="drop --evolutionary-face")
    check_group(dice, "evolutionary", 1, D20, "--evolutionary-face")
    _check_damage_faces(plan, rules, dice)


def _check_damage_faces(plan, rules, dice):
    """`--damage-faces` fit the card's dice (once, or once per target under `damage.roll: per_target`)."""
    card, dmg = plan.card, plan.card.damage
    if dice.has("damage") and (dmg is None or not dmg.count):
        raise BadInput(f"{card.id} rolls no damage dice", fix="drop --damage-faces")
    if dmg is not None and dmg.count:
        rolls = len(plan.targets) if rules.damage["roll"] == "per_target" else 1
        check_group(dice, "damage", dmg.count * rolls, dmg.sides, "--damage-faces")
        if dmg.count * rolls > rules.limits["dice"]:
            raise BadInput(f"{card.id} rolls more than {rules.limits['dice']} dice", fix="lower the dice count")


def evaluate(world, decl, rules, dice=None, used=None):
    """The plan, every gate in order, and each target's geometry (for `act` and `--dry-run`)."""
    plan = prepare(world, decl, rules)
    if dice is not None:
        check_faces(plan, decl, rules, dice)
    gates = list(card_gates(world, plan, decl, rules, used))
    geos = []
    if plan.performer is not None:
        count_ok = len(plan.targets) <= plan.card.targets or (plan.card.range_kind == "self" and plan.card.area)
        from .results import Gate

        gates.append(Gate("count", "R-CARD-RANGE-8", bool(count_ok),
                          f"{len(plan.targets)} target(s); {plan.card.id} allows {plan.card.targets}"))
        for name in plan.targets:
            gate, geo = target_gate(plan, geometry(world, plan, decl, rules, name, used), rules, used)
            gates.append(gate)
            geos.append(geo)
    return plan, gates, geos


def act(world, decl, rules, dice, secret: bool = False):
    """Perform `decl.card`; Refused (exit 3) at the first failing gate, naming its rule. `secret`: the
    entry will be sealed (--secret, a `guide: true` sheet), which a card that deals damage cannot be."""
    used: list[str] = []  # the knobs the action read, in order (`rules_used`)
    plan, gates, geos = evaluate(world, decl, rules, dice, used)
    for gate in gates:
        if not gate.ok:
            raise refusal(gate, plan)
    if secret:
        secret_gate(plan)
    _ask_if_hopeless(world, plan, decl, geos, rules, dice)
    return _resolve(world, plan, decl, geos, rules, dice, used)


def _ask_if_hopeless(world, plan, decl, geos, rules, dice):
    """An attack that no kept face can land (a blind -10 against a high AC), or a save that every face
    resists, goes to the dice source with its exact chance (0) before any die is rolled: the source asks first.
    One question names every such target."""
    from .dice import kept_faces

    card, perf = plan.card, plan.performer
    if card.kind not in ("attack", "dc") or getattr(dice, "gate", None) is None:
        return
    hopeless = []
    for geo in geos:
        target = world.chars[geo.id]
        if card.kind == "attack":
            ac_kind = rules.ac_kind(card.atk)
            ac, shift = target.ac[ac_kind], perf.bonus(card.atk) + geo.penalty + decl.mod
            faces = kept_faces(edge_mode(decl.advantage, decl.disadvantage, rules.edge))
            if not any(hits(face, face + shift, ac, rules) for face in faces):
                parts = [f"blind {geo.penalty}"] * bool(geo.penalty) + [f"--mod {decl.mod:+d}"] * bool(decl.mod)
                included = f" ({', '.join(parts)} included)" if parts else ""
                hopeless.append(f"it totals at most {D20 + shift}{included} against {geo.id}'s "
                                f"{ac_kind.capitalize()} AC {ac}")
        else:
            attribute = save_attribute(target, card, rules)
            bonus, dc = target.bonus(attribute) if attribute else 0, _dc(perf, card).value
            if all(resists(face + bonus, dc, rules) for face in range(1, D20 + 1)):
                hopeless.append(f"{geo.id}'s save of at least {1 + bonus} always meets DC {dc}")
    if hopeless:
        dice.before_roll(0, f"{perf.id}'s {card.id}: " + "; ".join(hopeless))


def secret_gate(plan):
    """A sealed act may not change what the party can see. Its cost, charge, cooldown and
    Concentration follow from the declaration and show openly; but damage moves a target's HP (and may drop
    its Concentration) on a sheet anyone with the repository reads, so the outcome would be public before
    `unveil`. d20-cards refuses such an act, before any roll, rather than defer the change."""
    card = plan.card
    if card.damage is None:
        return
    who = ", ".join(plan.targets) or plan.performer.id
    raise Refused(f"a secret {card.id} would show its outcome: its damage changes {who}'s HP on the sheet",
                  rule="S-SYS-8", fix="act openly (drop --secret, or `guide: true` from the sheet), "
                                      "or use a card that deals no damage")


def dry_run(world, decl, rules):
    """`act --dry-run`: every gate, whether it is allowed, and the odds; nothing rolled or changed."""
    from .odds import odds

    plan, gates, _ = evaluate(world, decl, rules)
    allowed = all(g.ok for g in gates)
    result = odds(world, decl, rules) if allowed and plan.card.kind != "none" else None
    return DryRun(plan.owner.id, plan.card.id, allowed, tuple(gates), result)


def _pay(world, plan):
    perf, card = plan.performer, plan.card
    before = {k: v[0] for k, v in perf.resources.items()}
    paid = {res: amount for res, amount in card.cost.items() if not (res == "ap" and plan.free_ap)}
    after = spend(before, paid)
    resources = {**perf.resources, **{res: (after[res], perf.resources.get(res, (0, 0))[1]) for res in paid}}
    charges = perf.charges
    spent = None
    if card.charges:
        spent = use_charge(charges.get(card.id, card.charges))
        charges = {**charges, card.id: spent.after}
    perf = perf.replace(resources=resources, charges=charges)
    return world.with_char(perf), before, paid, spent


def spend(before: dict, paid: dict) -> dict:
    """Each resource after paying a card's cost (`act` and `verify`'s replay)."""
    return {**before, **{res: before.get(res, 0) - amount for res, amount in paid.items()}}


def use_charge(have: int) -> Change:
    """Performing a charged card spends one charge."""
    return Change(have, have - 1)


def _resolve(world, plan, decl, geos, rules, dice, used):
    card = plan.card
    world, before, paid, spent = _pay(world, plan)
    pid = plan.performer.id
    dropped = None
    if decl.drop_concentration and card.has("concentration"):
        perf, dropped = effects.drop(world.chars[pid], world.cards, world.clock)
        world = world.with_char(perf)
    evo, stop = _evolutionary(world.chars[pid], card, rules, dice, used)
    roll = _damage_roll(card, rules, dice, used)
    targets = []
    for i, geo in enumerate(geos if not stop else ()):
        if rules.damage["roll"] == "per_target" and i:
            roll = _damage_roll(card, rules, dice, used)
        world, target = _resolve_target(world, plan, decl, geo, roll, rules, dice, used)
        targets.append(target)
    world, cooldown, concentrating, revealed, added = _finish(world, plan, rules, used)
    perf = world.chars[pid]
    dc = _dc(plan.performer, card) if card.kind == "dc" else None
    return world, ActResult(
        actor=pid, owner=plan.owner.id, card=card.id, card_name=card.name, kind=card.kind,
        reaction=card.has("reaction"), paid=paid, resources_before=before,
        resources_after={k: v[0] for k, v in perf.resources.items()},
        charges=spent, cooldown=cooldown,
        evolutionary=evo, dc=dc, damage_roll=roll, targets=tuple(targets), concentrating=concentrating,
        dropped=dropped, revealed=revealed, conditions_added=added, rules_used=tuple(used), trigger=decl.trigger,
        in_encounter=plan.in_encounter)


def _evolutionary(perf, card, rules, dice, used):
    """Evolutionary: a plain d20 against the Augmentor score."""
    if not card.has("evolutionary"):
        return None, False
    note(used, "evolutionary")
    face = dice.roll("evolutionary", D20)
    aug = perf.augmentor or 0
    success = evolutionary_success(face, aug, rules)
    evo = card.evolutionary or {}
    text = evo.get("on_success" if success else "on_failure")
    stop = not success and bool(evo.get("failure_stops"))
    return Evolutionary(face, aug, success, text, stop), stop


def _damage_roll(card, rules, dice, used):
    if card.damage is None:
        return None
    note(used, "damage")
    return roll_damage(card.damage, dice)


def roll_damage(dmg, dice) -> DamageRoll:
    """A card's damage dice: the faces rolled and their sum plus the bonus."""
    faces = dice.roll_many("damage", dmg.count, dmg.sides)
    return DamageRoll(str(dmg), faces, sum(faces) + dmg.bonus)


def _dc(perf, card):
    """A card's DC: the performer's 1st-rank attribute plus Concentration."""
    from .cards import dc_attribute

    attribute = dc_attribute(card.dc)
    return ActionDc(card.dc, attribute, perf.attr(attribute) + perf.concentration)


def attack(perf, target, card, geo, decl, rules, dice, used) -> AttackRoll:
    """An attack: d20 + bonus + blind penalty + --mod against the AC the attribute meets."""
    note(used, "attributes")
    if decl.advantage or decl.disadvantage:
        note(used, "edge")
    ac_kind = rules.ac_kind(card.atk)
    return attack_roll(card.atk, perf.bonus(card.atk), geo.penalty, decl.mod, ac_kind, target.ac[ac_kind],
                       (decl.advantage, decl.disadvantage), rules, dice, used)


def attack_roll(atk, bonus, penalty, mod, ac_kind, ac, edge, rules, dice, used=None) -> AttackRoll:
    """An attack from its inputs: the d20 (or two under an `edge` of (advantage, disadvantage)), the
    total and the hit. `act` calls it; so does `verify`, with the logged inputs and faces."""
    faces, face, _ = edge_roll(dice, edge[0], edge[1], rules.edge)
    total = face + bonus + penalty + mod
    return AttackRoll(atk, bonus, faces, face, penalty, mod, total, ac_kind, ac, hits(face, total, ac, rules, used))


def hits(face, total, ac, rules, used=None) -> bool:
    """The one place an attack total meets an AC."""
    note(used, "natural")
    natural = {D20: rules.natural["twenty"], 1: rules.natural["one"]}.get(face, "none")
    if natural != "none":
        return natural == "hit"
    note(used, "attack_ties")
    return beats(total, ac, rules.attack_ties == "hit")


def save_choices(card, rules) -> tuple[tuple, bool]:
    """The save bonus before a target is known: (the attributes a target may save with, whether it takes the
    better of them). The card's `save`, else the knob's: the pair of the DC's kind, one attribute, or none
    (`card_only` with no `save`: a plain d20)."""
    if card.save:
        return (card.save,), False
    knob = rules.save_bonus
    if isinstance(knob, dict):
        return (knob[card.dc],), False
    if knob == "card_only":
        return (), False
    return rules.pair(card.dc), True


def save_attribute(target, card, rules, used=None):
    """The save bonus: the card's `save`, else the target's best of the pair (or the knob's choice)."""
    note(used, "save_bonus")
    choices, best = save_choices(card, rules)
    if not best:
        return choices[0] if choices else None
    return max(choices, key=lambda a: (target.bonus(a), -choices.index(a)))


def save(perf, target, card, rules, dice, used) -> SaveRoll:
    """A save: d20 + the save bonus against the Action DC; meeting it resists by default."""
    attribute = save_attribute(target, card, rules, used)
    bonus = target.bonus(attribute) if attribute else 0
    return save_roll(attribute, bonus, _dc(perf, card).value, rules, dice, target.id, used)


def save_roll(attribute, bonus, dc, rules, dice, key, used=None) -> SaveRoll:
    """A save from its inputs: the target's d20 (faces keyed by `key`), the total, resisted or not
    (`act`, and `verify` with the logged inputs and face)."""
    face = dice.roll("save", D20, key)
    total = face + bonus
    note(used, "save_ties")
    return SaveRoll(attribute, bonus, face, total, dc, resists(total, dc, rules))


def resists(total, dc, rules) -> bool:
    """The one place a save meets the Action DC."""
    return beats(total, dc, rules.save_ties == "resist")


def overkill_amount(hit, total, ac, modifier) -> int:
    """Overkill: on a hit strictly above AC, (total - AC) x the modifier."""
    if not hit or not modifier or not beats(total, ac, ties=False):
        return 0
    return (total - ac) * modifier


def overkill(card, roll: AttackRoll) -> int:
    return overkill_amount(roll.hit, roll.total, roll.ac, card.overkill)


def landing(atk, sv, base, modifier, on_save) -> tuple[bool, int, int]:
    """Whether the target is struck, the damage of the dice it takes
    (`on_save(base)` when it resists a save) and the Overkill added (`act`, and `verify`'s replay)."""
    if atk is not None:
        return atk.hit, base if atk.hit else 0, overkill_amount(atk.hit, atk.total, atk.ac, modifier)
    if sv is not None:
        return not sv.resisted, on_save(base) if sv.resisted else base, 0
    return True, base, 0


def strikes(rolled: bool, lands: bool, amount: int, extra: int) -> bool:
    """Damage is dealt when dice were rolled, the card lands (or a resisted save still takes
    some) and there is something to deal."""
    return rolled and bool(lands or amount) and amount + extra > 0


ON_SAVE = ("none", "half", "full")  # what a resisted save may still take


def on_save_mode(card, rules) -> str:
    """A card's own `on_save` wins over the ruleset's `damage.on_save`."""
    return card.on_save if card.on_save is not None else rules.damage["on_save"]


def on_save_damage(base, mode: str) -> int:
    """What a resisted save still takes of `base`: none, half (rounded down) or all."""
    return {"none": 0, "half": base // 2, "full": base}[mode]


def evolutionary_success(face, augmentor, rules) -> bool:
    """The Evolutionary roll: meet or beat the Augmentor (or roll under it)."""
    return beats(face, augmentor) if rules.evolutionary == "meet_or_beat" else beats(augmentor, face)


def _resolve_target(world, plan, decl, geo, roll, rules, dice, used):
    card, perf = plan.card, world.chars[plan.performer.id]
    target = world.chars[geo.id]
    atk = sv = None
    if card.kind == "attack":
        atk = attack(perf, target, card, geo, decl, rules, dice, used)
    elif card.kind == "dc":
        sv = save(perf, target, card, rules, dice, used)

    def resisted(base):
        note(used, "damage")
        return on_save_damage(base, on_save_mode(card, rules))

    lands, amount, extra = landing(atk, sv, roll.total if roll else 0, card.overkill, resisted)
    dmg, added, crit = None, (), False
    if strikes(roll is not None, lands, amount, extra):
        victim, dmg, added = effects.take_hit(target, amount, extra, card.overkill, rules, dice, world.cards,
                                              world.clock, used)
        world = world.with_char(victim)
        crit = effects.critical(victim, rules, used)
    return world, TargetResult(geo.id, geo.distance, geo.in_range, geo.seen, geo.heard, atk, sv, lands, dmg,
                               added, (), crit)


def _finish(world, plan, rules, used):
    """The end of a performance: Concentration or cooldown starts, Swan Song, Discreet."""
    card = plan.card
    perf = world.chars[plan.performer.id]
    cooldown = concentrating = None
    if card.has("concentration"):
        perf = effects.start_concentration(perf, card, world.clock)
        concentrating = dict(perf.concentrating)
        if card.cooldown:
            cooldown = CooldownStart(card.cooldown.unit, card.cooldown.length, "pending")
    elif card.cooldown:
        perf = effects.start_cooldown(perf, card, world.clock)
        cooldown = CooldownStart(card.cooldown.unit, card.cooldown.length, "running")
    added: tuple[str, ...] = ()
    if card.has("swan_song") and perf.condition("swan_song") is None:
        perf = perf.replace(conditions=(*perf.conditions, "swan_song"))
        added = ("swan_song",)
    revealed = False
    if perf.condition("hidden") is not None and not card.has("discreet"):
        perf = perf.replace(conditions=perf.without("hidden"))
        revealed = True
    return world.with_char(perf), cooldown, concentrating, revealed, added

