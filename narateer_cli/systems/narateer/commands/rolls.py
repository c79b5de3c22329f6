"""roll: one Skill Check. Only this verb's options are built when it runs (start-up time)."""

from __future__ import annotations

import click

from narateer_cli.kit import command, declared, faces_options, nonneg
from narateer_cli.kit import Show

from ..declarations import ROLL, ROLL_FORM, TARGET
from .checks import SPENT, declaration, dice_source, paired_options, target_spec


ROLL_EXAMPLE = """

\b
Examples:
  narateer roll selka stealth --dr 3 --boost 2
  narateer roll veyra stealth --vs sentry:observation --boost 2 --advantage --faces miss,hit,crit --reroll-faces hit
  narateer roll kai stealth --dr challenging --boost 2 --dry-run
"""


@command(rolls=True, checks=True, writes=lambda given: not given["dry_run"], shows=SPENT, form=ROLL_FORM, help="Make one Skill Check: pay, roll, Edge, compare, tier." + ROLL_EXAMPLE)
@click.argument("char")
@click.argument("skill")
@declared(TARGET, "target")
@faces_options
@declared(ROLL)
def roll_cmd(s, char, skill, target, faces, reroll_faces, declared):
    from ..engine import actions
    from .checks import check_in_encounter

    d = declared
    nonneg("--other-boost", d.other_boost)
    paired_options(("--reroll-faces", reroll_faces, "--faces", faces),
                   ("--other-reroll-faces", d.other_reroll_faces, "--other-faces", d.other_faces),
                   ("--power-faces", d.power_faces, "--power-reroll", d.power_reroll),
                   ("--other-faces", d.other_faces, "--contested", target.contested),
                   ("--other-boost", d.other_boost or None, "--contested", target.contested))
    decl = declaration(skill, d)
    app = s.app
    dice = dice_source(app, s.rules, faces=(faces, "--faces"), reroll=(reroll_faces, "--reroll-faces"),
                       power=(d.power_faces, "--power-faces"), other=(d.other_faces, "--other-faces"),
                       other_reroll=(d.other_reroll_faces, "--other-reroll-faces"))
    actor = s.sheet(char)
    spec = target_spec(s, char, target, d.other_boost)
    helper = s.sheet(d.assist) if d.assist else None
    if d.dry_run:
        return Show("dry_run", actions.dry_run(actor, decl, spec, s.rules, helper))
    outcome, told = check_in_encounter(s, actor, decl, spec, dice, helper, command="roll")
    return told.replace(kind="roll", show=outcome, exit=1 if d.exit_code and not outcome.result.success else 0)
