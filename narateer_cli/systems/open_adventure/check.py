"""One Action Check: Action Score, Difficulty Score, the roll, the outcome, Effect and Stunt loss.

The Action Score, extra time, the Difficulty Score, success, Effect, Comparing
Scores, Critical Failure, Stunts, NPCs and opposed checks, over frozen
records. Every bad input is
found before any rules refusal, and nothing is rolled before both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fractions import Fraction

from narateer_cli.kit import BadInput, Refused

from .chart import chart_dice, ds_value, time_benefit
from .dice import Pool, check_chains, roll_pool
from .names import norm, suggest, unknown
from narateer_cli.kit import Record, computed, field

SYSTEM = "open-adventure"
GROUPS = ("body", "mind", "spirit")


def beats(total: int, target: int) -> bool:
    """A total that meets the DS succeeds (a tie succeeds). The one place this is decided."""
    return total >= target


class Declaration(Record):
    """What the player and Guide declared for one check (the `roll` options)."""
    use: Any
    ds: Any = None
    vs: Any = None
    opposed: Any = None
    drawback: Any = 0
    defense_benefit: Any = 0
    mo: Any = False
    familiarity: Any = False
    specializations: Any = ()
    benefit: Any = 0
    bonuses: Any = ()
    time: Any = None
    base_time: Any = None
    effect_bonuses: Any = ()
    stunt: Any = False
    targets: Any = 1
    outcomes: Any = 1
    compare: Any = False
    mishap: Any = None
    other_benefit: Any = 0


class ActionScore(Record):
    """The AS and what it adds up (attribute or statblock AS, MO, Specializations, Benefits,
    time, bonuses)."""
    total: Any
    attribute: Any
    statblock: Any
    mo: Any
    specializations: Any
    benefit: Any
    time: Any
    bonus: Any


class DifficultyScore(Record):
    """The final DS (None until an opponent's roll gives it) and its parts."""
    total: Any
    base: Any
    base_source: Any
    drawback: Any
    familiarity: Any
    multi: Any

    @property
    def extra(self) -> int:
        """What the Base DS is raised by: Drawbacks, Familiarity, multi-target Drawbacks."""
        return self.drawback + self.familiarity + self.multi


class StuntLoss(Record):
    """The points a Stunt costs its attribute's group pool (before/after None: reported only)."""
    targets: Any
    outcomes: Any
    pool: Any
    loss: Any
    before: Any = None
    after: Any = None
    wounds_after: Any = None


class Opponent(Record):
    """The other side of an opposed check, before its roll."""
    sheet: Any
    primary: Any
    action_score: Any


class Primary(Record):
    """What the AS is built on: a PC attribute, an NPC group, or a statblock action."""
    attribute: Any
    group: Any
    action: Any
    score: Any
    statblock: Any


def read(record):
    """How a field holding a nested record (or None) is read back from the log's JSON."""
    return lambda data: None if data is None else record.from_json(data)


class CheckResult(Record, logged_public=("chance",)):
    """One Action Check (its JSON shape is its fields in order; `opposed` is the opponent's CheckResult). A
    secret check shows what was rolled against what (and the logged chance), never the faces or the outcome;
    an opposed check's own declaration covers `opposed`."""
    system: Any = field(public=True)
    actor: Any = field(public=True)
    npc: Any = field(public=True)
    attribute: Any = field(public=True)
    group: Any = field(public=True)
    action: Any = field(public=True)
    action_score: Any = field(public=True, load=read(ActionScore))
    dice: Any = field(public=True)
    ds: Any = field(public=True, load=read(DifficultyScore))
    method: Any = field(public=True)
    faces: Any
    faces_text: Any
    exploded: Any
    total: Any
    margin: Any
    success: Any
    critical_failure: Any
    outcome: Any
    effect: Any
    effect_source: Any
    effect_bonus: Any
    shortfall: Any
    stunt: Any = field(load=read(StuntLoss))
    opposed: Any = field(load=lambda data: read(CheckResult)(data))
    mishap: Any = field(public=True)
    rules_used: Any = field(public=True)
    # the Effect on a target's Challenge Points: `applied` ({target, pool, before, after}) with --apply, else
    # `not_applied` ({target, effect, command}): the command that applies it
    applied: Any = field(default=None, skip=lambda r: r.applied is None)
    not_applied: Any = field(default=None, skip=lambda r: r.not_applied is None)


class Plan(Record):
    """Everything known before the dice: the AS parts, the dice and the DS parts (for --dry-run too)."""
    actor: Any
    primary: Any
    action_score: Any
    dice: Any
    ds: Any
    effect_bonus: Any
    opponent: Any


def count(value, option: str, rules, low: int = 0, key: str = "count") -> int:
    limit = rules.limits[key]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= limit:
        raise BadInput(f"{option} {value} is out of range", fix=f"give a whole number from {low} to {limit}")
    return value


def primary(actor, name: str, rules) -> Primary:
    """The attribute (an NPC's group), or the statblock action, a check uses."""
    word = norm(name)
    if actor.npc:
        for action in actor.actions.values():
            if norm(action.name) == word:
                return Primary(attribute=None, group=action.group, action=action.name, score=None,
                               statblock=action.score)
        for group in GROUPS:
            if word == group or word in map(norm, rules.groups[group]):
                attr = group if word == group else next(a for a in rules.groups[group] if norm(a) == word)
                return Primary(attribute=attr, group=group, action=None, score=actor.scores[group], statblock=None)
        known = list(actor.actions) + list(GROUPS) + list(rules.attributes)
        raise BadInput(f"{actor.id} has no action or attribute {name!r}", fix=suggest(name, known))
    if word in GROUPS:
        listed = ", ".join(rules.groups[word])
        raise BadInput(f"{name} is a group; a PC checks one attribute", rule="R-OA-AS-2", fix=f"name one of {listed}")
    for attr in rules.attributes:
        if norm(attr) == word:
            return Primary(attribute=attr, group=rules.group_of(attr), action=None, score=actor.scores[attr],
                           statblock=None)
    raise unknown("attribute", name, rules.attributes)


def named_values(tokens, table: dict, option: str, rules, owner: str) -> int:
    """`--bonus 3 --bonus spiked-boots`: whole numbers or names from the sheet's table."""
    total = 0
    for token in tokens:
        text = str(token).strip()
        if text.lstrip("-").isdigit():
            total += count(int(text), option, rules)
            continue
        match = [v for k, v in table.items() if norm(k) == norm(text)]
        if not match:
            raise BadInput(f"{option}: {owner} has no {text!r}", fix=suggest(text, table) + " (or give a number)")
        total += match[0]
    return total


def specialization_count(actor, names, rules) -> int:
    """Each applicable Specialization is a +1 Benefit."""
    found = []
    for name in names:
        match = [s for s in actor.specializations if norm(s) == norm(name)]
        if not match:
            raise BadInput(f"{actor.id} has no Specialization {name!r}", fix=suggest(name, actor.specializations))
        if match[0] not in found:
            found.append(match[0])
    return len(found) if rules.spec_stack else min(1, len(found))


def action_score(actor, prim: Primary, decl, rules, benefit_extra: int = 0) -> ActionScore:
    """The AS: attribute (or statblock AS) + MO + Specializations + Benefits + time + bonuses."""
    mo = 0
    if decl.mo or decl.familiarity:
        if actor.mo_score is None:
            raise BadInput(f"--mo: {actor.id} has no MO", fix="add `mo: {name: NAME, score: N}` to the sheet")
        mo = actor.mo_score
    parts = {"attribute": prim.score, "statblock": prim.statblock, "mo": mo,
             "specializations": specialization_count(actor, decl.specializations, rules),
             "benefit": count(decl.benefit, "--benefit", rules) + benefit_extra,
             "time": time_benefit(decl.time, decl.base_time, rules),
             "bonus": named_values(decl.bonuses, actor.bonuses, "--bonus", rules, actor.id)}
    total = sum(v for v in parts.values() if v)
    if total > rules.limits["action_score"]:
        raise BadInput(f"AS {total} is over the limit", fix=f"the limit is {rules.limits['action_score']}")
    return ActionScore(total=total, **parts)


def multi_drawbacks(targets: int, outcomes: int, rules) -> int:
    """A Stunt's Drawbacks for two or more targets or outcomes."""
    if targets <= 1 and outcomes <= 1:
        return 0
    if rules.multi == "product":
        return targets * outcomes
    return (targets if targets > 1 else 0) + (outcomes if outcomes > 1 else 0)


def base_ds(decl, target, rules) -> tuple:
    """The base DS: (base, base_source) from --ds, --vs TARGET:DEFENSE, or None for --opposed."""
    given = [k for k in ("ds", "vs", "opposed") if getattr(decl, k) is not None]
    if len(given) != 1:
        raise BadInput("a check needs exactly one of --ds, --vs, --opposed", fix="give one of them")
    if decl.defense_benefit and decl.vs is None:
        raise BadInput("--defense-benefit needs --vs TARGET:DEFENSE", fix="drop it or give --vs")
    if decl.ds is not None:
        return ds_value(decl.ds, rules)
    if decl.opposed is not None:
        return None, None
    defense = norm(decl.vs[1])
    if defense not in GROUPS:
        raise BadInput(f"--vs: unknown defense {decl.vs[1]!r}", fix=suggest(decl.vs[1], GROUPS))
    if defense not in target.defenses:
        raise BadInput(f"--vs: {target.id} has no {defense} defense", fix="add it under defenses:, or give --ds")
    bonus = count(decl.defense_benefit, "--defense-benefit", rules)
    return target.defenses[defense] + bonus, f"defense:{target.id}.{defense}"


def plan(actor, decl, rules, target=None, other=None) -> Plan:
    """Validate the declaration (exit 2) and work out the AS and the DS parts; roll nothing."""
    prim = primary(actor, decl.use, rules)
    score = action_score(actor, prim, decl, rules)
    base, base_source = base_ds(decl, target, rules)
    targets = count(decl.targets, "--targets", rules, 1, "targets")
    outcomes = count(decl.outcomes, "--outcomes", rules, 1, "targets")
    drawback = count(decl.drawback, "--drawback", rules)
    familiarity = 1 if decl.familiarity else 0
    multi = multi_drawbacks(targets, outcomes, rules)
    effect_bonus = named_values(decl.effect_bonuses, actor.effect_bonuses, "--effect-bonus", rules, actor.id)
    opponent = None
    if decl.opposed is not None:
        oprim = primary(other, decl.opposed[1], rules)
        extra = count(decl.other_benefit, "--other-benefit", rules)
        opponent = Opponent(sheet=other, primary=oprim,
                            action_score=action_score(other, oprim, Declaration(use=decl.opposed[1]), rules, extra))
        base_source = f"opposed:{other.id}"
    elif decl.other_benefit:
        raise BadInput("--other-benefit needs --opposed OTHER:ATTRIBUTE", fix="drop it or give --opposed")
    extra = drawback + familiarity + multi
    if base is not None and base + extra > rules.limits["ds"]:
        raise BadInput(f"DS {base + extra} is over the limit", fix=f"the limit is {rules.limits['ds']}")
    ds = DifficultyScore(total=None if base is None else base + extra, base=base, base_source=base_source,
                         drawback=drawback, familiarity=familiarity, multi=multi)
    return Plan(actor=actor, primary=prim, action_score=score, dice=soft_dice(score.total, rules),
                ds=ds, effect_bonus=effect_bonus, opponent=opponent)


def soft_dice(total: int, rules):
    """The dice, or None when a refusal will follow (AS too low, or beyond a refusing chart)."""
    if total < rules.min_as or (total > max(rules.rows) and rules.beyond == "refuse"):
        return None
    return chart_dice(total, rules)


def refusals(p: Plan, decl, rules):
    """The rules refusals (exit 3), checked after every bad input."""
    total = p.action_score.total
    if total < rules.min_as and not (decl.compare and not rules.min_as_compare):
        raise Refused(f"AS {total} is below {rules.min_as}: no Action Check", rule="R-OA-AS-6",
                      fix=f"raise the AS to {rules.min_as} with Benefits, time or bonuses")
    if decl.familiarity and decl.specializations:
        raise Refused("a Familiarity check allows no Specialization Benefit", rule="R-OA-AS-4",
                      fix="drop --specialization, or use --mo instead of --familiarity")
    stunt_refusals(p, decl, rules)
    if p.opponent is not None and p.opponent.action_score.total < rules.min_as:
        raise Refused(f"the opponent's AS {p.opponent.action_score.total} is below {rules.min_as}: it cannot check",
                      rule="A-OA-OPP", fix="give its score as --ds N instead of --opposed")
    if total >= rules.min_as and not decl.compare:
        chart_dice(total, rules)  # past the chart, `refuse`: refuse
    if p.opponent is not None:
        chart_dice(p.opponent.action_score.total, rules)


def stunt_refusals(p: Plan, decl, rules):
    """What a Stunt (or a check that reaches further) is refused for."""
    if (decl.targets > 1 or decl.outcomes > 1) and not decl.stunt:
        raise Refused("one action reaches one outcome on one target", rule="R-OA-ACT-3",
                      fix="add --stunt, or split it into several actions")
    if not decl.stunt:
        return
    if p.actor.npc and not (p.primary.action and p.actor.actions[p.primary.action].stunt):
        raise Refused(f"{p.actor.id}'s statblock lists no such Stunt", rule="R-OA-NPC-4",
                      fix="use an action the statblock marks `stunt: true`")
    if decl.compare and not rules.stunt_compare:
        raise Refused("Comparing Scores may not resolve a Stunt here", rule="A-OA-STUNT", fix="roll it")


def check_faces(p: Plan, decl, rules, source):
    """Physical faces must fit before anything is refused or rolled (exit 2 first)."""
    if decl.compare and (source.has("faces") or "faces" in source.asked):  # typed or to be asked
        raise BadInput("--compare rolls no dice, so --faces does not apply", fix="drop one of them")
    if decl.compare and decl.opposed is not None:
        raise BadInput("--compare does not go with --opposed: both sides roll", rule="R-OA-OPP-1",
                       fix="drop --compare")
    if source.has("other") and p.opponent is None:
        raise BadInput("--other-faces needs --opposed OTHER:ATTRIBUTE", fix="drop it or give --opposed")
    if source.has("faces") and p.dice is not None:
        chains, option = source.physical["faces"]
        check_chains(chains, p.dice, p.action_score.total, rules, option)
    if source.has("other") and p.opponent is not None:
        odice = soft_dice(p.opponent.action_score.total, rules)
        if odice is not None:
            chains, option = source.physical["other"]
            check_chains(chains, odice, p.opponent.action_score.total, rules, option)


def stunt_loss(actor, group: str, success: bool, shortfall, decl, rules) -> StuntLoss:
    """The pool of the attribute's group pays (a pool at 0 means a Wound)."""
    loss = 1 if success else max(rules.stunt_min_fail_loss, shortfall or 0)
    out = StuntLoss(targets=decl.targets, outcomes=decl.outcomes, pool=group, loss=loss)
    if group not in actor.points:
        return out
    before = actor.points[group]
    after = max(0, before - loss)
    wounds = (actor.wounds or 0) + (rules.wound_per_zero if after == 0 and loss > 0 else 0)
    return out.replace(before=before, after=after, wounds_after=wounds)


def rules_used(decl, p: Plan, rules) -> dict:
    """The knobs this check consulted, for `roll --json`."""
    d = rules.data
    used = {"chart": {"beyond": d["chart"]["beyond"]}, "explode": d["explode"],
            "critical_failure": d["critical_failure"], "effect": d["effect"], "min_action_score": d["min_action_score"]}
    for flag, keys in ((decl.stunt, ("stunt", "multi", "wound")), (decl.specializations, ("specializations",)),
                       (decl.time, ("time",)), (decl.opposed, ("opposed",)), (decl.ds, ("ds",))):
        if flag:
            used.update({k: d[k] for k in keys})
    return used


def opponent_check(p: Plan, rules, source) -> CheckResult:
    """The opponent's Action Check; its total is the Base DS (its Critical Failure is logged)."""
    other, oprim, oscore = p.opponent.sheet, p.opponent.primary, p.opponent.action_score
    dice = chart_dice(oscore.total, rules)
    pool = roll_pool(dice, oscore.total, rules, source, "other")
    return CheckResult(system=SYSTEM, actor=other.id, npc=other.npc, attribute=oprim.attribute,
                       group=oprim.group, action=oprim.action, action_score=oscore, dice=dice_list(dice), ds=None,
                       method="roll", faces=pool.chains, faces_text=pool.faces_text, exploded=pool.exploded,
                       total=pool.total, margin=None, success=None, critical_failure=pool.critical_failure,
                       outcome=None, effect=None, effect_source=None, effect_bonus=None, shortfall=None, stunt=None,
                       opposed=None, mishap=None, rules_used=None)


def dice_list(dice) -> list:
    return [f"d{n}" for n in dice]


def decide(total: int, ds: int, crit: bool, opposed: bool, rules) -> bool:
    """Success: the total meets the DS, a Critical Failure fails, and an opposed tie goes as the knob says."""
    if crit and rules.crit_always_fails:
        return False
    if opposed and total == ds:
        return rules.opp_tie == "actor"
    return beats(total, ds)


def effect_of(p: Plan, margin: int, method: str, rules) -> tuple[int, str]:
    """The Effect (total, or AS, minus DS plus bonuses; an NPC's flat Effect; never below 0): (Effect, where it
    came from)."""
    action = p.actor.actions.get(p.primary.action) if p.primary.action else None
    if action is not None and action.effect is not None:
        bonus = p.effect_bonus if rules.flat_takes_bonus == "explicit" else 0
        return max(rules.effect_min, action.effect + bonus), "flat"
    return max(rules.effect_min, margin + p.effect_bonus), ("compare" if method == "compare" else "roll")


def resolve(actor, decl, rules, source, target=None, other=None) -> CheckResult:
    """One Action Check from declaration to outcome; the Stunt loss is reported, the caller writes it."""
    p = plan(actor, decl, rules, target, other)
    check_faces(p, decl, rules, source)
    refusals(p, decl, rules)
    _ask_if_hopeless(p, decl, rules, source)
    method = "compare" if decl.compare else "roll"
    pool = (Pool(chains=[], faces_text="", exploded=[], total=p.action_score.total, critical_failure=False)
            if decl.compare else roll_pool(p.dice, p.action_score.total, rules, source))  # Comparing Scores: no roll
    opp = opponent_check(p, rules, source) if p.opponent is not None else None
    ds = p.ds if opp is None else p.ds.replace(base=opp.total, total=opp.total + p.ds.extra)
    crit, margin = pool.critical_failure, pool.total - ds.total
    success = decide(pool.total, ds.total, crit, opp is not None, rules)
    return CheckResult(system=SYSTEM, actor=actor.id, npc=actor.npc, attribute=p.primary.attribute,
                       group=p.primary.group, action=p.primary.action, action_score=p.action_score,
                       dice=dice_list(p.dice or ()), ds=ds, method=method, faces=pool.chains,
                       faces_text=pool.faces_text, exploded=pool.exploded, total=pool.total, margin=margin,
                       success=success, critical_failure=crit, opposed=opp, mishap=decl.mishap,
                       rules_used=rules_used(decl, p, rules), **outcome_of(p, decl, rules, success, crit, margin, method))


def outcome_of(p: Plan, decl, rules, success: bool, crit: bool, margin: int, method: str) -> dict:
    """The outcome's words, Effect or shortfall, and the Stunt loss."""
    effect, effect_source = effect_of(p, margin, method, rules) if success else (None, None)
    shortfall = None if success else max(0, -margin)
    stunt = stunt_loss(p.actor, p.primary.group, success, shortfall, decl, rules) if decl.stunt else None
    outcome = "Critical Failure" if crit and not success else ("Success" if success else "Failure")
    return {"outcome": outcome, "effect": effect, "effect_source": effect_source,
            "effect_bonus": p.effect_bonus if success else None, "shortfall": shortfall, "stunt": stunt}


def _frac(p):
    """An exact probability in its JSON spelling (`137/288`), from the render layer when first needed."""
    from .render import frac

    return frac(p)


class DryRun(Record):
    """`roll --dry-run`: everything known before the dice, with the exact chance."""
    system: Any
    actor: Any
    attribute: Any
    group: Any
    action: Any
    action_score: Any
    dice: Any
    ds: Any
    # exact (0 or 1 for a compared check); the JSON gives it as a decimal and as `p_success_exact`
    p_success: Fraction | int | None = field(dump=lambda p: None if p is None else float(p))
    p_critical_failure: Fraction | int = field(dump=_frac)
    expected_total: Fraction | int = field(dump=_frac)

    p_success_exact = computed(lambda d: _frac(d.p_success))
    dry_run = computed(lambda d: True)


def dry_run(actor, decl, rules, source, target=None, other=None) -> DryRun:
    """`roll --dry-run`: AS, dice, DS and the exact chance, before any die is committed."""
    from .odds import crit_chance, die_mean

    p = plan(actor, decl, rules, target, other)
    check_faces(p, decl, rules, source)
    refusals(p, decl, rules)
    score = p.action_score.total
    crit: Fraction | int
    mean: Fraction | int
    if decl.compare:
        crit, mean = 0, score
    else:
        crit, mean = crit_chance(p.dice, rules), sum(die_mean(n, rules) for n in p.dice)
    return DryRun(system=SYSTEM, actor=actor.id, attribute=p.primary.attribute, group=p.primary.group,
                  action=p.primary.action, action_score=p.action_score, dice=dice_list(p.dice or ()), ds=p.ds,
                  p_success=success_chance(p, decl, rules), p_critical_failure=crit, expected_total=mean)


def success_chance(p: Plan, decl, rules) -> Fraction | int | None:
    """The exact chance of a planned check (`--dry-run`, and the question before a hopeless roll): a compared
    check's is 0 or 1; an opposed one's is exact over every total the opponent can roll; None when no DS
    is known."""
    from .odds import opposed_chance, p_success

    dsv = p.ds.total
    if decl.compare:
        return None if dsv is None else int(decide(p.action_score.total, dsv, False, False, rules))
    if p.opponent is not None:
        return opposed_chance(p.dice, chart_dice(p.opponent.action_score.total, rules), p.ds.extra, rules)
    return None if dsv is None else p_success(p.dice, dsv, rules)


def _ask_if_hopeless(p: Plan, decl, rules, source):
    """A check that cannot reach its DS (a DS typed as 60 under capped explosions, an AS compared with a
    higher DS) goes to the dice source with its exact chance, 0, before any die is rolled: the source asks
    first. Dice that explode without a bound reach any total, so their chance is never 0 and costs nothing."""
    from .odds import finite_top

    if getattr(source, "gate", None) is None or (not decl.compare and finite_top(p.dice or (), rules) is None):
        return
    chance = success_chance(p, decl, rules)
    if chance != 0:
        return
    who = f"{p.actor.id}'s {p.primary.action or p.primary.attribute} check"
    if decl.compare:
        why = f"AS {p.action_score.total} compared with DS {p.ds.total}"
    elif p.opponent is not None:
        why = (f"{'+'.join(dice_list(p.dice))} reach at most {finite_top(p.dice, rules)}, below any total of "
               f"{p.opponent.id}'s" + (f" plus {p.ds.extra}" if p.ds.extra else ""))
    else:
        why = f"{'+'.join(dice_list(p.dice)) or 'no dice'} reach at most {finite_top(p.dice, rules)} against DS {p.ds.total}"
    source.before_roll(chance, f"{who} ({why})")


def compare_scores(action_score: int, ds: int, effect_bonus: int, rules) -> tuple:
    """Comparing Scores on bare numbers: (success, Effect or None)."""
    ok = beats(action_score, ds)
    return ok, (max(rules.effect_min, action_score - ds + effect_bonus) if ok else None)
