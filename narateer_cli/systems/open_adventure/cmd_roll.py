"""Open Adventure's dice commands: roll, dice, odds, chart, ds."""

from __future__ import annotations

import click

from narateer_cli.kit import Session, command, emit

from narateer_cli.kit import BadInput

from .cmd_common import BARE_POINTERS, KIND, answer, narateer_flags, refuse_narateer_flags, rules_of, split_ref


def roll_options(fn):
    opts = [
        click.option("--exit-code", is_flag=True, help="Exit 1 when the check fails."),
        click.option("--dry-run", is_flag=True, help="Show AS, dice, DS and the exact chance; roll and write nothing."),
        click.option("--mishap", metavar="TEXT", help="The Guide's mishap, logged with a Critical Failure."),
        click.option("--other-benefit", type=int, default=0, help="Benefits for the opposing side."),
        click.option("--other-faces", metavar="F", help="The opponent's faces, e.g. 2,5."),
        click.option("--faces", metavar="F", help="Faces rolled at the table, one group per die; 4,6+3 (+ joins an explosion)."),
        click.option("--compare", is_flag=True, help="Comparing Scores: AS against DS, no roll."),
        click.option("--outcomes", type=int, default=1, help="Outcomes at once (a Stunt)."),
        click.option("--targets", type=int, default=1, help="Targets at once (a Stunt)."),
        click.option("--stunt", is_flag=True, help="A Stunt: points lost from the attribute's pool."),
        click.option("--effect-bonus", multiple=True, metavar="N|NAME", help="An Effect bonus, repeatable."),
        click.option("--base-time", metavar="STEP", help="The action's base time on the Time Chart."),
        click.option("--time", metavar="STEP", help="Time taken: each Time Chart step up is a Benefit."),
        click.option("--bonus", multiple=True, metavar="N|NAME", help="An item's or power's bonus, repeatable."),
        click.option("--benefit", type=int, default=0, help="Benefits (+1 each)."),
        click.option("--specialization", multiple=True, metavar="S", help="An applicable Specialization, repeatable."),
        click.option("--familiarity", is_flag=True, help="Familiarity: MO added, DS +1, no Specialization."),
        click.option("--mo", is_flag=True, help="Add the MO score (the action is part of the MO's training)."),
        click.option("--defense-benefit", type=int, default=0, help="Benefits the Guide grants the Defense."),
        click.option("--drawback", type=int, default=0, help="Drawbacks (+1 DS each)."),
        click.option("--opposed", metavar="OTHER:ATTRIBUTE", help="An opposed check: the opponent's total is the Base DS."),
        click.option("--vs", metavar="TARGET:DEFENSE", help="The target's Defense is the Base DS."),
        click.option("--ds", metavar="N|TIER", help="Difficulty Score, a number or a ladder tier."),
    ]
    for opt in opts:
        fn = opt(fn)
    return narateer_flags(fn)


def declaration(use, o: dict):
    from .check import Declaration

    vs = split_ref(o["vs"], "--vs", "TARGET:DEFENSE") if o["vs"] else None
    opposed = split_ref(o["opposed"], "--opposed", "OTHER:ATTRIBUTE") if o["opposed"] else None
    return Declaration(use=use, ds=o["ds"], vs=vs, opposed=opposed, drawback=o["drawback"],
                       defense_benefit=o["defense_benefit"], mo=o["mo"] or o["familiarity"],
                       familiarity=o["familiarity"], specializations=tuple(o["specialization"]),
                       benefit=o["benefit"], bonuses=tuple(o["bonus"]), time=o["time"], base_time=o["base_time"],
                       effect_bonuses=tuple(o["effect_bonus"]), stunt=o["stunt"], targets=o["targets"],
                       outcomes=o["outcomes"], compare=o["compare"], mishap=o["mishap"],
                       other_benefit=o["other_benefit"])


def source_for(app, faces, other_faces):
    """Seeded dice, the table's faces, or faces asked die by die: `--faces ask`, or with
    `ask_faces: true` the stream the command line left out when it gave another."""
    from narateer_cli.kit import ask

    from .dice import DiceSource, parse_faces, table_asker

    streams = {"faces": (faces, "--faces"), "other": (other_faces, "--other-faces")}
    every, missing = ask.wanted(app, [faces, other_faces])
    physical = {k: (None if ask.is_ask(t) else parse_faces(t, o), o) for k, (t, o) in streams.items()}
    given = [k for k, (chains, _) in physical.items() if chains is not None]
    asked = {k: o for k, (t, o) in streams.items() if ask.is_ask(t) or (missing and given and k not in given)}
    return DiceSource(rng=app.rng(), physical=physical, ask=table_asker() if asked else None, asked=asked)


@command(rolls=True, writes=lambda given: not given["dry_run"], help="""Make one Action Check: AS picks the dice, the total must meet the DS.

\b
Examples:
  narateer roll amicus strength --mo --ds 9 --faces 4,6+3
  narateer roll bloodwind strength --mo --vs goblin:body --stunt --targets 3
  narateer roll warheart strength --opposed orc:strength --dry-run""")
@click.argument("char")
@click.argument("use", metavar="ATTRIBUTE|ACTION")
@roll_options
def roll_cmd(s, char, use, **o):
    from .in_encounter import roll_in_encounter

    refuse_narateer_flags(o)
    decl = declaration(use, o)
    data, kind = roll_in_encounter(s, char, decl, source_for(s.app, o["faces"], o["other_faces"]), o["dry_run"])
    failed = o["exit_code"] and kind == "check" and not data.result.success
    return answer(kind, data, exit=1 if failed else 0)


# Open Adventure's words for the host's `dice` command (`Game.verb_words`); Narateer's options only to refuse
WORDS = {"dice": {
    "help": """Roll the bare dice of an Action Score (exploding), or read them with --faces.

\b
Example:
  narateer dice 7 --faces 6+2,5""",
    "options": (click.argument("action_score", type=int),
                click.option("--faces", metavar="F", help="Faces rolled at the table, e.g. 6+2,5."),
                narateer_flags),
}}


def dice(app, options):
    """`dice AS` (the host's command): the bare dice of an Action Score."""
    from narateer_cli.kit import Outcome

    from .dice import bare_roll

    action_score, faces = options.pop("action_score"), options.pop("faces")
    refuse_narateer_flags(options, BARE_POINTERS)
    with Session(app, write=False) as s:
        rules = rules_of(s)
    result = bare_roll(action_score, rules, source_for(app, faces, None))
    # logged only when secret, as a commitment
    return Outcome("dice", None, {"action_score": action_score}, result, kind=KIND + "dice", show=result)


@command(help="""Exact odds of AS against DS with exploding dice, as fractions.

\b
Example:
  narateer odds 7 --ds 9""")
@click.argument("action_score", type=int)
@click.option("--ds", metavar="N|TIER", help="Difficulty Score, a number or a ladder tier (required).")
@click.option("--upto", type=int, help="List totals up to N (default: max(DS, 2 x the dice's maxima)).")
@narateer_flags
def odds_cmd(app, action_score, ds, upto, **other):
    from .chart import ds_value
    from .odds import odds

    refuse_narateer_flags(other, BARE_POINTERS)
    if ds is None:
        raise BadInput("odds needs --ds", fix=f"for example `narateer odds {action_score} --ds 9` (`ds` lists the tiers)")
    with Session(app, write=False) as s:
        rules = rules_of(s)
    value, _ = ds_value(ds, rules)
    emit(app, KIND + "odds", odds(action_score, value, rules, upto))


@command(help="""The Action Chart (extended rows marked), or the Time Chart with --time.

\b
Examples:
  narateer chart
  narateer chart 7 15
  narateer chart --time""")
@click.argument("scores", nargs=-1, type=int)
@click.option("--time", "time_chart", is_flag=True, help="Show the Time Chart instead.")
def chart_cmd(app, scores, time_chart):
    from . import chart

    with Session(app, write=False) as s:
        rules = rules_of(s)
    if time_chart:
        return emit(app, KIND + "time-chart", chart.time_chart(rules))
    emit(app, KIND + "chart", chart.action_chart(scores, rules))


@command(help="""The Difficulty Score ladder, or one tier's DS.

\b
Examples:
  narateer ds
  narateer ds moderate""")
@click.argument("tier", required=False)
def ds_cmd(app, tier):
    from .chart import ds_table

    with Session(app, write=False) as s:
        rules = rules_of(s)
    emit(app, KIND + ("ds" if tier is None else "ds-tier"), ds_table(tier, rules))
