"""What every Narateer check command shares: the check options, the declaration, the dice source,
the target, and the Skill Check inside or outside the current encounter, logged."""

from __future__ import annotations

from typing import Any

import click

from narateer_cli.kit import faces_options, split_ref
from narateer_cli.kit import encounter_for

from narateer_cli.kit import Outcome


def target_options(fn):
    fn = click.option("--contested", metavar="OTHER:SKILL", help="Both roll; the initiator must exceed the other's total.")(fn)
    fn = click.option("--vs", "vs", metavar="OTHER:SKILL", help="Target is that creature's Readiness in SKILL.")(fn)
    fn = click.option("--dr", metavar="N|TIER", help="Target DR: a number or a tier (routine, challenging, ...).")(fn)
    return fn


# A check's declaration as data: each field once, as (option, the Declaration's field, click's keywords).
# It gives the options of every check command, the Declaration, and the logged declaration.
DECLARED: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("--boost", "boost", dict(type=int, default=0, show_default=True, help="Extra AD, up to the Skill Level.")),
    ("--bonus-dice", "bonus_dice", dict(type=int, default=0, help="Explicitly granted dice: rolled, not paid.")),
    ("--cost", "cost", dict(type=int, default=1, show_default=True, help="Base cost in AD (0 allowed).")),
    ("--discount-base", "discount_base", dict(type=int, default=0, help="Discount on the base cost only (never below 0).")),
    ("--discount-boost", "discount_boost", dict(type=int, default=0, help="Discount on the Boost payment.")),
    ("--fee", "fee", dict(type=int, default=0, help="Additional AD fee (Slowed doubles it too).")),
    ("--advantage", "advantage", dict(is_flag=True, help="Reroll every Miss in the Edge Phase.")),
    ("--disadvantage", "disadvantage",
     dict(is_flag=True, help="Disadvantage: reroll the dice the rules name (Criticals by default).")),
    ("--reaction", "reaction", dict(is_flag=True, help="This check is a Reaction (no proactive use).")),
    ("--allow-boost", "allow_boost",
     dict(is_flag=True, help="The Guide allows Boost on this Reaction (for `reaction_boost: false`).")),
    ("--power-reroll", "power_reroll", dict(metavar="I,J", help="Dice a power or item rerolls after Edge (0-based).")),
    ("--power", "power", dict(metavar="NAME", help="Record the Class Power used for this Event.")),
)
FACES: tuple[str, dict[str, Any]] = ("--power-faces", dict(metavar="F", help="Faces of those explicit rerolls."))  # a dice stream, not declared
LOGGED = tuple(field for _, field, _ in DECLARED if field != "power")  # the declaration an entry logs


def check_options(fn):
    """The check's options (DECLARED, then --power-faces and the faces options); the command receives the
    declared ones together, as `declared` (field -> value), beside `power_faces`, `faces`, `reroll_faces`."""
    import functools

    @functools.wraps(fn)
    def gathered(*args, **kwargs):
        return fn(*args, declared={field: kwargs.pop(field) for _, field, _ in DECLARED}, **kwargs)

    options = [click.option(name, field, **kw) for name, field, kw in DECLARED]
    options.insert(len(DECLARED) - 1, click.option(FACES[0], **FACES[1]))  # help lists it before --power
    for opt in reversed(options):
        gathered = opt(gathered)
    return faces_options(gathered)


def declaration(skill: str, declared: dict, label: str = "check"):
    """The Declaration of a check from its skill and the declared options (DECLARED)."""
    from ..engine.check import Declaration
    from ..engine.dice import parse_indices

    return Declaration(skill=skill.lower(), **{**declared, "power_reroll": tuple(parse_indices(declared["power_reroll"]))},
                       label=label)


def paired_options(*pairs):
    """Options that mean nothing without another one are bad input, named with the fix."""
    from narateer_cli.kit import BadInput

    for option, value, needs, other in pairs:
        if value is not None and other is None:
            raise BadInput(f"{option} was given without {needs}", fix=f"add {needs}, or drop {option}")


def dice_source(app, rules, **streams):
    from narateer_cli.kit import ask

    from ..engine.dice import DiceSource, parse_faces

    every, missing = ask.wanted(app, [text for text, _ in streams.values()])
    physical = {}
    for stream, (text, option) in streams.items():
        faces = None if ask.is_ask(text) else parse_faces(text, option)
        if faces is not None:
            physical[stream] = faces
    asking = every or (missing and bool(physical))
    source = DiceSource(app.rng(), physical, rules.faces, ask=ask.asker(parse_faces) if asking else None)
    source.options.update({stream: option for stream, (_, option) in streams.items()})
    return source


def target_spec(session, actor_id, dr, vs, contested, other_boost=0, other_faces_given=False):
    from ..engine.actions import TargetSpec
    from ..engine.check import Declaration
    from narateer_cli.kit import BadInput

    given = [x for x in (dr, vs, contested) if x is not None]
    if len(given) != 1:
        raise BadInput("give exactly one target", fix="use --dr N|TIER, --vs OTHER:SKILL or --contested OTHER:SKILL")
    rules = session.rules
    if dr is not None:
        value, label = rules.dr_value(dr)
        return TargetSpec("dr", value, f"DR {value}" if label == str(value) else f"{label.title()} DR {value}")
    option = "--vs" if vs is not None else "--contested"
    who, skill = split_ref(vs or contested, option)
    other = session.sheet(who)
    other.skill(skill, rules)
    if vs is not None:
        return TargetSpec("vs", other=other, other_skill=skill)
    decl = Declaration(skill=skill, boost=other_boost, label=f"{skill} roll")
    return TargetSpec("contested", other=other, other_skill=skill, other_decl=decl)


def check_in_encounter(session, actor, decl, spec, dice, helper, command="roll", extra=None):
    """A Skill Check inside or outside an encounter (inside, a proactive one takes one of the Skill's uses); returns the
    engine's CheckOutcome record and the Outcome that logs it (its rendering left to the caller)."""
    from ..engine import actions

    enc = encounter_for(session, actor.id)
    outcome = actions.skill_check(actor, decl, spec, session.rules, dice, helper)
    state = None
    if enc is not None and not decl.reaction:
        # a Reaction is not its actor's action: the mover's last action stays, still open to answers
        from ..engine import encounter as rules_enc

        skill = actor.skill(decl.skill, session.rules).name
        state = rules_enc.record_action(rules_enc.use_skill(enc.state, actor.id, skill), actor.id, command,
                                        skill=outcome.result.payment.skill)
    declared = {**(extra or {}), **declaration_json(decl, spec)}
    if helper is not None:
        declared["assist"] = helper.id
    logged = {**extra, "check": outcome} if extra else outcome
    return outcome, told(None, command, actor.id, declared, logged, outcome.dice_after, enc, state=state)


def declaration_json(decl, spec=None) -> dict:
    out = {"skill": decl.skill, **{field: getattr(decl, field) for field in LOGGED}}
    out["power_reroll"] = list(decl.power_reroll)
    if spec is not None:
        out["target"] = {"kind": spec.kind, "value": spec.value,
                         "other": spec.other.id if spec.other else None, "skill": spec.other_skill}
    return out


def told(kind, command: str, actor, declared: dict, result, dice: dict, enc=None, sheets=None, show=None,
         state=None, **more) -> Outcome:
    """One action: its log fields, each character's counters after (`dice`), other sheet edits, and the
    encounter's new state (`state`, built on a copy; None: `enc`'s as it was read, or as a command set it
    as `enc.new_state`); rendered as `kind` from the engine's record (`show`, else `result`)."""
    if enc is not None and state is None:
        handed = getattr(enc, "new_state", None)
        state = enc.state if handed is None else handed
    return Outcome(command, actor, declared, result, kind=kind, show=result if show is None else show, dice=dice,
                   sheets=sheets, encounter=None if enc is None else enc.id, state=state, **more)
