"""Open Adventure's dice commands: roll, dice, odds, chart, ds."""

from __future__ import annotations

import click

from narateer_cli.kit import Session, command, declared, emit

from narateer_cli.kit import BadInput

from .declarations import CHECK, ROLL_FORM
from .cmd_common import BARE_POINTERS, SPENT, answer, narateer_flags, refuse_narateer_flags, rules_of, split_ref


def declaration(use, declared):
    """The check's Declaration from the attribute or action it uses and the declared fields (`declarations.CHECK`)."""
    from .check import Declaration
    from .declarations import CHECK

    vs = split_ref(declared.vs, "--vs", "TARGET:DEFENSE") if declared.vs else None
    opposed = split_ref(declared.opposed, "--opposed", "OTHER:ATTRIBUTE") if declared.opposed else None
    return CHECK.build(Declaration, declared, use=use, vs=vs, opposed=opposed,
                       mo=declared.mo or declared.familiarity)


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
    source = DiceSource(rng=app.rng(), physical=physical, ask=table_asker() if asked else None, asked=asked)
    source.gate = ask.zero_gate(app)  # a check that cannot reach its DS asks first
    return source


@command(rolls=True, checks=True, writes=lambda given: not given["dry_run"], shows=SPENT, form=ROLL_FORM, help="""Make one Action Check: AS picks the dice, the total must meet the DS.

\b
Examples:
  narateer roll amicus strength --mo --ds 9 --faces 4,6+3
  narateer roll bloodwind strength --mo --vs goblin:body --stunt --targets 3
  narateer roll warheart strength --opposed orc:strength --dry-run""")
@click.argument("char")
@click.argument("use", metavar="ATTRIBUTE|ACTION")
@narateer_flags
@declared(CHECK)
def roll_cmd(s, char, use, declared, **other):
    from .in_encounter import roll_in_encounter

    refuse_narateer_flags(other)
    d = declared
    decl = declaration(use, d)
    data = roll_in_encounter(s, char, decl, source_for(s.app, d.faces, d.other_faces), d.dry_run, d.apply)
    kind = "dry_run" if d.dry_run else "check"
    failed = d.exit_code and not d.dry_run and not data.result.success
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
    return Outcome("dice", None, {"action_score": action_score}, result, kind="dice", show=result)


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
    emit(app, "odds", odds(action_score, value, rules, upto))


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
        return emit(app, "time_chart", chart.time_chart(rules))
    emit(app, "chart", chart.action_chart(scores, rules))


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
    emit(app, "ds" if tier is None else "ds_tier", ds_table(tier, rules))
