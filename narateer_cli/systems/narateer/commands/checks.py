"""What every Narateer check command shares: the declaration (its fields are `declarations.CHECK`), the
dice source, the target, and the Skill Check inside or outside the current encounter, logged."""

from __future__ import annotations

from narateer_cli.kit import split_ref
from narateer_cli.kit import encounter_for

from narateer_cli.kit import Outcome

# What a secret check shows in the encounter's state: that its actor acted and the proactive use it spent, as
# the table sees them (`command(shows=...)`); anything else it changed there would be refused
SPENT = ("state.uses", "state.last_action")
# An attack also reveals a hidden attacker to its target, which the target perceives
ATTACKED = (*SPENT, "state.hidden", "state.recorded")


def declaration(skill: str, declared, label: str = "check"):
    """The engine's Declaration of a check from its skill and the declared fields (`declarations.CHECK`)."""
    from ..declarations import CHECK
    from ..engine.check import Declaration
    from ..engine.dice import parse_indices

    return CHECK.build(Declaration, declared, skill=skill.lower(),
                       power_reroll=tuple(parse_indices(declared["power_reroll"])), label=label)


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
    source.gate = ask.zero_gate(app)  # a check with no chance to succeed asks first
    return source


def target_spec(session, actor_id, target, other_boost=0, other_faces_given=False):
    from ..engine.actions import TargetSpec
    from ..engine.check import Declaration
    from narateer_cli.kit import BadInput

    dr, vs, contested = target["dr"], target["vs"], target["contested"]  # declarations.TARGET
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

    from ..engine import encounter as rules_enc

    enc = encounter_for(session, actor.id)
    proactive = enc is not None and not decl.reaction  # a Reaction is not its actor's action (see below)
    used = []  # the state once this check takes its use (the encounter's refusals come before any roll)

    def use():
        assert enc is not None  # called only for a proactive check in an encounter
        used.append(rules_enc.use_skill(enc.state, actor.id, actor.skill(decl.skill, session.rules).name))

    outcome = actions.skill_check(actor, decl, spec, session.rules, dice, helper, use if proactive else None)
    state = None
    if proactive:
        # a Reaction is not its actor's action: the mover's last action stays, still open to answers
        state = rules_enc.record_action(used[0], actor.id, command, skill=outcome.result.payment.skill)
    declared = {**(extra or {}), **declaration_json(decl, spec)}
    if helper is not None:
        declared["assist"] = helper.id
    logged = {**extra, "check": outcome} if extra else outcome
    return outcome, told(None, command, actor.id, declared, logged, outcome.dice_after, enc, state=state)


def declaration_json(decl, spec=None) -> dict:
    """The declaration a check's log entry holds: its skill, its logged fields, and the target it met."""
    from ..declarations import CHECK

    out = {"skill": decl.skill, **CHECK.logged(decl)}
    if spec is not None:
        out["target"] = {"kind": spec.kind, "value": spec.value,
                         "other": spec.other.id if spec.other else None, "skill": spec.other_skill}
    return out


def told(kind, command: str, actor, declared: dict, result, dice: dict, enc=None, sheets=None, show=None,
         state=None, **more) -> Outcome:
    """One action: its log fields, each character's counters after (`dice`), other sheet edits, and the
    encounter's new state (`state`, built on a copy; None: `enc`'s as it was read); rendered as `kind` from
    the engine's record (`show`, else `result`)."""
    if enc is not None and state is None:
        state = enc.state
    return Outcome(command, actor, declared, result, kind=kind, show=result if show is None else show, dice=dice,
                   sheets=sheets, encounter=None if enc is None else enc.id, state=state, **more)
