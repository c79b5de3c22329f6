"""Open Adventure's encounter commands: encounter new, turn minor, resolve, and what encounter show and join and
turn start and end do (by Reaction); encounter, turn, undo and verify are the host's."""

from __future__ import annotations

import click

from narateer_cli.kit import command, declared
from narateer_cli.kit import BadInput

from .cmd_common import GATE, SPENT, answer
from .cmd_common import narateer_flags
from .cmd_roll import declaration, source_for
from .declarations import CHECK, RESOLVE, RESOLVE_FORM


@command(name="new", writes=True, help=f"""Create encounter ID with these characters; Turn order by Reaction, highest first.

NPCs take their statblock's Reaction Score; give each PC's Reaction Check total with --reaction.

\b
Example:
  {GATE}""")
@click.argument("enc_id")
@click.argument("chars", nargs=-1, required=True)
@click.option("--reaction", multiple=True, metavar="PC=N", help="A PC's Reaction Check total, repeatable.")
def encounter_new(s, enc_id, chars, reaction):
    from .in_encounter import new_encounter

    totals = _reactions(reaction)
    return answer("encounter_new", new_encounter(s, enc_id, chars, totals))


def _reactions(items) -> dict:
    """`--reaction PC=N`, repeatable."""
    totals = {}
    for item in items:
        who, sep, value = item.partition("=")
        if not sep or not value.strip().lstrip("-").isdigit():
            raise BadInput(f"--reaction {item!r} must be PC=N", fix="for example --reaction warheart=9")
        totals[who] = int(value)
    return totals


def encounter_join(s, char, options):
    """`encounter join` (the host's command): CHAR takes its place in the Reaction order."""
    from .in_encounter import join_encounter

    return answer("turn", join_encounter(s, char, options["reaction"]))


def encounter_show(s, enc_id):
    """`encounter show` (the host's command): the Round, the order, whose Turn it is, each participant's row."""
    from .in_encounter import show_encounter

    return answer("turn", show_encounter(s, enc_id or s.app.encounter_id))


# Open Adventure's words for the host's encounter commands (`Game.verb_words`); `encounter new` is its own
ENCOUNTER_WORDS = {
    "encounter": {"help": f"""Create, show and read encounters.

\b
Examples:
  {GATE}
  narateer encounter show
  narateer encounter log""", "commands": (encounter_new,)},
    "encounter join": {"help": f"""Add CHAR to the current encounter in its Reaction place.

\b
Examples:
  {GATE}
  narateer encounter join goblin
  narateer encounter join bloodwind --reaction 8""",
                       "options": (click.option("--reaction", type=int, help="A PC's Reaction Check total."),)},
    "encounter show": {"help": f"""The encounter's Round, order and whose Turn it is (default: the current one),
and a table of each participant's current Points, Wounds, Challenge Points (NPCs) and conditions.

\b
Examples:
  {GATE}
  narateer encounter show
  narateer encounter show gate"""},
}


@command(name="minor", writes=True, help=f"""Spend the Minor Action of the Turn going: draw a weapon,
open a door, shout a warning. No check; refused when it is not CHAR's Turn or the Minor Action is spent.

\b
Examples:
  {GATE}
  narateer turn start
  narateer turn minor --what "draw the axe"
  narateer turn minor bloodwind""")
@click.argument("char", required=False)
@click.option("--what", metavar="TEXT", help="What the Minor Action does (logged).")
def turn_minor(s, char, what):
    from .in_encounter import minor_action

    return answer("minor", minor_action(s, char, what))


# Open Adventure's words for the host's turn commands (`Game.verb_words`); `turn minor` is its own
TURN_WORDS = {
    "turn": {"help": f"""Start and end Turns: one Major and one Minor Action each.

\b
Examples:
  {GATE}
  narateer turn start
  narateer turn minor --what "draw the axe"
  narateer turn end --next amicus
  narateer turn end""", "commands": (turn_minor,)},
    "turn start": {"help": f"""Start CHAR's Turn (default: the next in Reaction order).

\b
Examples:
  {GATE}
  narateer turn start warheart""", "char": {"required": False}},
    "turn end": {"help": f"""End the current Turn; --next CHAR starts CHAR's Turn at once.

With --next the Turn ends and CHAR's begins as `turn start CHAR` would,
in one logged step (one `undo` takes back both).

\b
Examples:
  {GATE}
  narateer turn start
  narateer turn end --next amicus""", "next_id": {"help": "Whose Turn starts next (one who has not acted this Round)."}},
}


def turn_start(s, char, options):
    """`turn start` (the host's command): CHAR's Turn, or the next in Reaction order."""
    from .in_encounter import start_turn

    return answer("turn", start_turn(s, char))


def turn_end(s, next_id, options):
    """`turn end` (the host's command): the Turn ends; with NEXT, NEXT's starts in the same entry."""
    from .in_encounter import end_turn

    return answer("turn", end_turn(s, next_id))


@command(rolls=True, checks=True, writes=lambda given: not (given["impossible"] or given["dry_run"]), shows=SPENT, form=RESOLVE_FORM, help=f"""Resolve a declared action by its path: automatic, impossible, held (--maintain) or a check.

\b
Examples:
  narateer resolve amicus --intent "light the lantern" --auto
  narateer resolve bloodwind --intent "free the axe" --check strength --mo --ds 4
  {GATE}
  narateer turn start warheart
  narateer resolve warheart --intent "hold the portcullis" --maintain""")
@click.argument("char")
@declared(RESOLVE, "action")
@narateer_flags
@declared(CHECK)
def resolve_cmd(s, char, action, declared, **other):
    from .actions import path_of
    from .cmd_common import refuse_narateer_flags
    from .in_encounter import resolve_in_encounter

    refuse_narateer_flags(other)
    a, d = action, declared
    path = path_of(a.auto, a.impossible, a.maintain, a.use)
    decl = declaration(a.use, d) if path == "check" else None
    source = source_for(s.app, d.faces, d.other_faces) if path == "check" else None
    if d.apply and path != "check":
        raise BadInput("--apply lowers a target's Challenge Points by a check's Effect", fix="add --check ATTRIBUTE")
    data = resolve_in_encounter(s, char, a.intent, path, a.impossible, decl, source, d.apply)
    failed = d.exit_code and path == "check" and not data.result.check.success
    return answer("resolve", data, exit=1 if failed else 0)
