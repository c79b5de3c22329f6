"""roll: one Skill Check. Only this verb's options are built when it runs (start-up time)."""

from __future__ import annotations

import click

from narateer_cli.kit import command, nonneg
from narateer_cli.kit import Show

from .checks import check_options, declaration, dice_source, paired_options, target_options, target_spec


ROLL_EXAMPLE = """

\b
Examples:
  narateer roll selka stealth --dr 3 --boost 2
  narateer roll veyra stealth --vs sentry:observation --boost 2 --advantage --faces miss,hit,crit --reroll-faces hit
  narateer roll kai stealth --dr challenging --boost 2 --dry-run
"""


@command(rolls=True, writes=lambda given: not given["dry_run"], help="Make one Skill Check: pay, roll, Edge, compare, tier." + ROLL_EXAMPLE)
@click.argument("char")
@click.argument("skill")
@target_options
@check_options
@click.option("--assist", metavar="HELPER", help="HELPER's Assist Reaction (1 AD by default) gives this check Advantage.")
@click.option("--other-boost", type=int, default=0, help="With --contested: the other side's Boost.")
@click.option("--other-faces", metavar="F", help="With --contested: the other side's faces.")
@click.option("--other-reroll-faces", metavar="F", help="With --contested: the other side's Edge rerolls.")
@click.option("--dry-run", is_flag=True, help="Write nothing; show payment and exact chance for each Boost 0..SL.")
@click.option("--exit-code", is_flag=True, help="Exit 1 when the check fails.")
def roll_cmd(s, char, skill, dr, vs, contested, declared, power_faces, faces, reroll_faces, assist, other_boost,
             other_faces, other_reroll_faces, dry_run, exit_code):
    from ..engine import actions
    from .checks import check_in_encounter

    nonneg("--other-boost", other_boost)
    paired_options(("--reroll-faces", reroll_faces, "--faces", faces),
                   ("--other-reroll-faces", other_reroll_faces, "--other-faces", other_faces),
                   ("--power-faces", power_faces, "--power-reroll", declared["power_reroll"]),
                   ("--other-faces", other_faces, "--contested", contested),
                   ("--other-boost", other_boost or None, "--contested", contested))
    decl = declaration(skill, declared)
    app = s.app
    dice = dice_source(app, s.rules, faces=(faces, "--faces"), reroll=(reroll_faces, "--reroll-faces"),
                       power=(power_faces, "--power-faces"), other=(other_faces, "--other-faces"),
                       other_reroll=(other_reroll_faces, "--other-reroll-faces"))
    actor = s.sheet(char)
    spec = target_spec(s, char, dr, vs, contested, other_boost)
    helper = s.sheet(assist) if assist else None
    if dry_run:
        return Show("dry_run", actions.dry_run(actor, decl, spec, s.rules, helper))
    outcome, told = check_in_encounter(s, actor, decl, spec, dice, helper, command="roll")
    return told.replace(kind="roll", show=outcome, exit=1 if exit_code and not outcome.result.success else 0)
