"""Bare dice and the DR ladder: dr, odds and what dice does (they work outside a campaign too; the host owns
the dice command)."""

from __future__ import annotations

import click

from narateer_cli.kit import Session, command, emit, faces_options, nonneg
from narateer_cli.kit import Outcome

from .checks import dice_source, paired_options


# Narateer's words for the host's `dice` command (`Game.verb_words`): its help, arguments and options
WORDS = {"dice": {
    "help": """Roll a bare pool of N Action Dice: no character, no cost.

\b
Example:
  narateer dice 3 --advantage --faces 0,1,2 --reroll-faces 2""",
    "context_settings": {"ignore_unknown_options": True},
    "options": (click.argument("n", type=int),
                click.option("--advantage", is_flag=True, help="Reroll every Miss once."),
                click.option("--disadvantage", is_flag=True,
                             help="Disadvantage: reroll the dice the rules name (Criticals by default)."),
                faces_options),
}}


def dice(app, options):
    """`dice N` (the host's command): a bare pool, no character, no cost."""
    from ..engine.dice import roll_pool

    n, advantage, disadvantage = options["n"], options["advantage"], options["disadvantage"]
    faces, reroll_faces = options["faces"], options["reroll_faces"]
    with Session(app, write=False) as s:
        rules = _rules_or_default(s)
        nonneg("N", n, rules.max_roll_dice)
        paired_options(("--reroll-faces", reroll_faces, "--faces", faces))
        dice = dice_source(app, rules, faces=(faces, "--faces"), reroll=(reroll_faces, "--reroll-faces"))
        data = roll_pool(n, advantage, disadvantage, rules, dice)
    return Outcome("dice", None, {"dice": n, "advantage": advantage, "disadvantage": disadvantage}, data,
                   kind="dice", show=data)  # logged only when secret, as a commitment


def _rules_or_default(session):
    """Dice-only commands work outside a campaign with the shipped ruleset."""
    from narateer_cli.kit import BadInput

    try:
        return session.rules
    except BadInput as exc:
        if "not inside a narateer campaign" not in exc.message:
            raise
        from ..engine.ruleset import build_ruleset
        from narateer_cli.kit import default_rules

        return build_ruleset(default_rules())


@command(rolls=True, help="""The DR ladder, one tier's DR, or a random DR (the tier's DR plus the dots of 3 dice).

\b
Examples:
  narateer dr
  narateer dr hard --random --faces 1,2,0""")
@click.argument("tier", required=False)
@click.option("--random", "random_", is_flag=True, help="Add the dots of 3 AD rolled behind the screen.")
@click.option("--faces", metavar="F", help="The faces rolled for --random.")
def dr_cmd(app, tier, random_, faces):
    from narateer_cli.kit import BadInput
    from ..engine.dice import dr_lookup

    with Session(app, write=False) as s:
        rules = _rules_or_default(s)
        if random_ and tier is None:
            raise BadInput("--random needs a tier", fix="for example `narateer dr hard --random`")
        dice = (lambda: dice_source(app, rules, faces=(faces, "--faces"))) if random_ else None
        result = dr_lookup(tier, rules, dice)
    if faces and not random_ and tier is not None:
        raise BadInput("--faces goes with --random", fix="add --random or drop --faces")
    kind = "dr_ladder" if tier is None else "random_dr" if random_ else "dr"
    if not random_:
        return emit(app, kind, result)
    # every random DR is secret: the log keeps only a commitment
    return Outcome("dr", None, {"tier": tier, "random": True}, result, kind=kind, show=result, secret=True)


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
