"""behind: a behind-the-screen check, Readiness against a target: no dice, no cost, and a tie fails."""

from __future__ import annotations

import click

from narateer_cli.kit import Session, command, emit

from .checks import target_spec


@command(help="""Behind-the-screen check: Readiness vs a DR or another's Readiness; no dice, no cost; only above the target succeeds.

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
        spec = target_spec(s, char, {"dr": dr, "vs": vs, "contested": None})
        sheet = s.sheet(char)
        target = spec.value if spec.kind == "dr" else spec.other.target_readiness(spec.other_skill, s.rules)
        data = behind(sheet, skill, target, s.rules, advantage, disadvantage)
    emit(app, "behind", data)
