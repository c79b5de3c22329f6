"""Checks and dice: roll, dice, dr, odds, behind."""

from __future__ import annotations

import click

from narateer_cli.commands.common import Session, command, emit, faces_options, nonneg, split_ref


def target_options(fn):
    fn = click.option("--contested", metavar="OTHER:SKILL", help="Both roll; the initiator must exceed the other's total (R-CHK-10).")(fn)
    fn = click.option("--vs", "vs", metavar="OTHER:SKILL", help="Target is that creature's Readiness in SKILL.")(fn)
    fn = click.option("--dr", metavar="N|TIER", help="Target DR: a number or a tier (routine, challenging, ...).")(fn)
    return fn


def check_options(fn):
    for opt in reversed([
        click.option("--boost", type=int, default=0, show_default=True, help="Extra AD, up to the Skill Level."),
        click.option("--bonus-dice", type=int, default=0, help="Explicitly granted dice: rolled, not paid."),
        click.option("--cost", type=int, default=1, show_default=True, help="Base cost in AD (0 allowed)."),
        click.option("--discount-base", type=int, default=0, help="Discount on the base cost (R-PAY-2)."),
        click.option("--discount-boost", type=int, default=0, help="Discount on the Boost payment."),
        click.option("--fee", type=int, default=0, help="Additional AD fee (Slowed doubles it too)."),
        click.option("--advantage", is_flag=True, help="Reroll every Miss in the Edge Phase."),
        click.option("--disadvantage", is_flag=True, help="Reroll per A-DISADV (Criticals by default)."),
        click.option("--reaction", is_flag=True, help="This check is a Reaction (no proactive use)."),
        click.option("--allow-boost", is_flag=True, help="The Guide allows Boost on this Reaction (A-REACTBOOST)."),
        click.option("--power-reroll", metavar="I,J", help="Dice a power or item rerolls after Edge (0-based)."),
        click.option("--power-faces", metavar="F", help="Faces of those explicit rerolls."),
        click.option("--power", metavar="NAME", help="Record the Class Power used for this Event."),
    ]):
        fn = opt(fn)
    return faces_options(fn)


def declaration(skill, boost, bonus_dice, cost, discount_base, discount_boost, fee, advantage, disadvantage,
                reaction, allow_boost, power_reroll, power, label="check"):
    from ..engine.check import Declaration
    from ..engine.dice import parse_indices

    return Declaration(skill=skill.lower(), boost=boost, cost=cost, bonus_dice=bonus_dice,
                       discount_base=discount_base, discount_boost=discount_boost, fee=fee,
                       advantage=advantage, disadvantage=disadvantage, reaction=reaction,
                       allow_boost=allow_boost, power_reroll=tuple(parse_indices(power_reroll)),
                       power=power, label=label)


def paired_options(*pairs):
    """Options that mean nothing without another one are bad input, named with the fix."""
    from narateer_cli.errors import BadInput

    for option, value, needs, other in pairs:
        if value is not None and other is None:
            raise BadInput(f"{option} was given without {needs}", fix=f"add {needs}, or drop {option}")


def dice_source(app, rules, **streams):
    from narateer_cli import ask

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
    from narateer_cli.errors import BadInput

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


ROLL_EXAMPLE = """

\b
Examples:
  narateer roll selka stealth --dr 3 --boost 2
  narateer roll veyra stealth --vs sentry:observation --boost 2 --advantage --faces miss,hit,crit --reroll-faces hit
  narateer roll kai stealth --dr challenging --boost 2 --dry-run
"""


@command(rolls=True, help="Make one Skill Check: pay, roll, Edge, compare, tier (R-CHK)." + ROLL_EXAMPLE)
@click.argument("char")
@click.argument("skill")
@target_options
@check_options
@click.option("--assist", metavar="HELPER", help="HELPER's Assist Reaction gives this check Advantage (A-ASSIST).")
@click.option("--other-boost", type=int, default=0, help="With --contested: the other side's Boost.")
@click.option("--other-faces", metavar="F", help="With --contested: the other side's faces.")
@click.option("--other-reroll-faces", metavar="F", help="With --contested: the other side's Edge rerolls.")
@click.option("--dry-run", is_flag=True, help="Write nothing; show payment and exact chance for each Boost 0..SL.")
@click.option("--exit-code", is_flag=True, help="Exit 1 when the check fails.")
def roll_cmd(app, char, skill, dr, vs, contested, boost, bonus_dice, cost, discount_base, discount_boost, fee,
             advantage, disadvantage, reaction, allow_boost, power_reroll, power_faces, power, faces, reroll_faces,
             assist, other_boost, other_faces, other_reroll_faces, dry_run, exit_code):
    from ..engine import actions
    from .checks import check_in_encounter

    nonneg("--other-boost", other_boost)
    paired_options(("--reroll-faces", reroll_faces, "--faces", faces),
                   ("--other-reroll-faces", other_reroll_faces, "--other-faces", other_faces),
                   ("--power-faces", power_faces, "--power-reroll", power_reroll),
                   ("--other-faces", other_faces, "--contested", contested),
                   ("--other-boost", other_boost or None, "--contested", contested))
    decl = declaration(skill, boost, bonus_dice, cost, discount_base, discount_boost, fee, advantage, disadvantage,
                       reaction, allow_boost, power_reroll, power)
    with Session(app, write=not dry_run) as s:
        dice = dice_source(app, s.rules, faces=(faces, "--faces"), reroll=(reroll_faces, "--reroll-faces"),
                           power=(power_faces, "--power-faces"), other=(other_faces, "--other-faces"),
                           other_reroll=(other_reroll_faces, "--other-reroll-faces"))
        actor = s.sheet(char)
        spec = target_spec(s, char, dr, vs, contested, other_boost)
        helper = s.sheet(assist) if assist else None
        if dry_run:
            return emit(app, "dry_run", actions.dry_run(actor, decl, spec, s.rules, helper))
        outcome = check_in_encounter(s, actor, decl, spec, dice, helper, command="roll")
    emit(app, "roll", outcome)
    if exit_code and not outcome.result.success:
        raise click.exceptions.Exit(1)


@command(rolls=True, help="""Roll a bare pool of N Action Dice: no character, no cost.

\b
Example:
  narateer dice 3 --advantage --faces 0,1,2 --reroll-faces 2""", context_settings={"ignore_unknown_options": True})
@click.argument("n", type=int)
@click.option("--advantage", is_flag=True, help="Reroll every Miss once.")
@click.option("--disadvantage", is_flag=True, help="Reroll per A-DISADV.")
@faces_options
def dice_cmd(app, n, advantage, disadvantage, faces, reroll_faces):
    from ..engine.dice import roll_pool

    with Session(app, write=False) as s:
        rules = _rules_or_default(s)
        nonneg("N", n, rules.max_roll_dice)
        paired_options(("--reroll-faces", reroll_faces, "--faces", faces))
        dice = dice_source(app, rules, faces=(faces, "--faces"), reroll=(reroll_faces, "--reroll-faces"))
        data = roll_pool(n, advantage, disadvantage, rules, dice)
    if app.secret:
        log_secret(app, "dice", {"dice": n, "advantage": advantage, "disadvantage": disadvantage}, data)
    emit(app, "dice", data)


def log_secret(app, command_name, declared, data):
    """A roll with no character, kept secret: its commitment goes to the current encounter's log, else
    the campaign log (P-SECRET-1). Outside a campaign there is no log: the roll is only shown."""
    from narateer_cli.commands.encounter_ops import current_encounter, finish
    from narateer_cli.errors import BadInput

    try:
        app.campaign.root
    except BadInput:
        return
    with Session(app) as s:
        finish(s, command_name, None, declared, data, {}, current_encounter(s), secret=True)


def _rules_or_default(session):
    """Dice-only commands work outside a campaign with the shipped ruleset."""
    from narateer_cli.errors import BadInput

    try:
        return session.rules
    except BadInput as exc:
        if "not inside a narateer campaign" not in exc.message:
            raise
        from ..engine.ruleset import build_ruleset
        from narateer_cli.store.campaign import default_rules

        return build_ruleset(default_rules())


@command(rolls=True, help="""The DR ladder (R-DR-1), one tier's DR, or a random DR (R-DR-2, A-RANDOMDR).

\b
Examples:
  narateer dr
  narateer dr hard --random --faces 1,2,0""")
@click.argument("tier", required=False)
@click.option("--random", "random_", is_flag=True, help="Add the dots of 3 AD rolled behind the screen.")
@click.option("--faces", metavar="F", help="The faces rolled for --random.")
def dr_cmd(app, tier, random_, faces):
    from narateer_cli.errors import BadInput
    from ..engine.dice import dr_lookup

    with Session(app, write=False) as s:
        rules = _rules_or_default(s)
        if random_ and tier is None:
            raise BadInput("--random needs a tier", fix="for example `narateer dr hard --random`")
        dice = (lambda: dice_source(app, rules, faces=(faces, "--faces"))) if random_ else None
        result = dr_lookup(tier, rules, dice)
    if faces and not random_ and tier is not None:
        raise BadInput("--faces goes with --random", fix="add --random or drop --faces")
    if random_:  # every random DR is secret (P-SECRET-1)
        log_secret(app, "dr", {"tier": tier, "random": True}, result)
    emit(app, "dr_ladder" if tier is None else "random_dr" if random_ else "dr", result)


@command(help="""Exact chance that N dice exceed a DR, and the whole distribution (by convolution).

\b
Example:
  narateer odds 3 --dr 3 --advantage""", context_settings={"ignore_unknown_options": True})
@click.argument("n", type=int)
@click.option("--dr", required=True, metavar="N|TIER", help="The target to exceed.")
@click.option("--advantage", is_flag=True)
@click.option("--disadvantage", is_flag=True)
def odds_cmd(app, n, dr, advantage, disadvantage):
    from ..engine.dice import odds

    with Session(app, write=False) as s:
        rules = _rules_or_default(s)
    nonneg("N", n, rules.max_roll_dice)
    emit(app, "odds", odds(n, rules.dr_value(dr)[0], advantage, disadvantage, rules))


@command(help="""Behind-the-screen check: Readiness vs a DR or another's Readiness; no dice, no cost (R-RDY-3).

\b
Example:
  narateer behind elira observation --dr routine""")
@click.argument("char")
@click.argument("skill")
@click.option("--dr", metavar="N|TIER")
@click.option("--vs", "vs", metavar="OTHER:SKILL")
@click.option("--advantage", is_flag=True, help="Lower the target one tier (3).")
@click.option("--disadvantage", is_flag=True, help="Raise the target one tier (3).")
def behind_cmd(app, char, skill, dr, vs, advantage, disadvantage):
    from ..engine.check import behind

    with Session(app, write=False) as s:
        spec = target_spec(s, char, dr, vs, None)
        sheet = s.sheet(char)
        target = spec.value if spec.kind == "dr" else spec.other.target_readiness(spec.other_skill, s.rules)
        data = behind(sheet, skill, target, s.rules, advantage, disadvantage)
    emit(app, "behind", data)
