"""Open Adventure's sheet commands: show, points, wound; what new, heal and condition do (the host owns
those commands)."""

from __future__ import annotations

import click

from narateer_cli.kit import Session, command, emit
from narateer_cli.kit import BadInput

from .cmd_common import GATE, answer, narateer_flags, refuse_narateer_flags


def _pairs(items, option: str, example: str) -> dict:
    """NAME=VALUE options, names ignoring case."""
    from narateer_cli.kit import split_pairs

    return {key.strip().lower(): value.strip() for key, value in split_pairs(items, option, example).items()}


# Open Adventure's words for the host's `new` command (`Game.verb_words`): its help and its own options; Narateer's
# options are accepted only to say what to use instead, before anything else
NEW_WORDS = {"new": {
    "help": """Create characters/ID.yaml: a PC sheet, or with --npc a statblock.

\b
Examples:
  narateer new kara --attribute strength=3 --attribute presence=2 --mo Warrior=2 --specialization swords
  narateer new wolf --npc --attribute body=4 --reaction 5 --action bite=6:2 --points challenge=8
  narateer new guard --from orc --count 3      (guard-1, guard-2, guard-3)""",
    "name": {"help": "Display name (default: the id)."},
    "options": (
        click.option("--npc", is_flag=True, help="An NPC statblock (attributes body, mind, spirit)."),
        click.option("--attribute", multiple=True, metavar="K=V", help="An attribute score (0 when not given), repeatable."),
        click.option("--mo", metavar="NAME=N", help="The MO and its score."),
        click.option("--specialization", multiple=True, metavar="S", help="A Specialization, repeatable."),
        click.option("--points", "pools", multiple=True, metavar="POOL=N", help="A point pool (body, mind, spirit; NPC: challenge=N, its Challenge Points)."),
        click.option("--defense", multiple=True, metavar="K=V", help="A Defense (body, mind, spirit)."),
        click.option("--reaction", type=int, help="NPC: the statblock's Reaction Score."),
        click.option("--action", multiple=True, metavar="NAME=AS[:EFFECT]", help="NPC: a statblock action, repeatable."),
        narateer_flags),
    "source": {"help": "Copy OTHER's sheet: pools full (points_max), no Wounds or conditions."},
    "count": {"help": "With --from: make ID-1..ID-N."},
    "refuse": refuse_narateer_flags,
    "alone": ("npc", "attribute", "mo", "specialization", "pools", "defense", "reaction", "action"),
    "alone_words": "--from copies a whole sheet; the other sheet options do not go with it",
    "example": "goblin",
}}


def new(s, char_id, name, options):
    """`new ID` (the host's command): a PC sheet or an NPC statblock from the options."""
    from narateer_cli.kit import yamlio
    from narateer_cli.kit import check_id

    from .files import outcome
    from .sheet import new_sheet

    npc, action = options["npc"], options["action"]
    check_id(char_id)
    if s.campaign.sheet_path(char_id).exists():
        raise BadInput(f"characters/{char_id}.yaml already exists", fix="edit it, or choose another id")
    doc, sheet, result = new_sheet(
        char_id, name, npc, _pairs(options["attribute"], "--attribute", "strength=3"), s.rules, mo=options["mo"],
        specializations=options["specialization"], pools=_pairs(options["pools"], "--points", "body=5"),
        defenses=_pairs(options["defense"], "--defense", "body=5"), reaction=options["reaction"],
        actions=_pairs(action, "--action", "spear=6:2") if npc else action)
    made = outcome(s, "new", char_id, {"name": doc["name"], "npc": npc}, result,
                   created={char_id: yamlio.emit_text(doc)})
    return answer("new", made)  # a sheet edit outside an encounter: logged to the campaign log


def copied(s, source, count, made):
    """`new ID --from OTHER` (the host's command, whose copies the `fresh_sheet` hook refilled): one log entry."""
    from .files import outcome
    from .sheet import copied as copied_sheets

    ids = list(made)
    return answer("new", outcome(s, "new", ids[0], {"from": source, "count": count}, copied_sheets(source, ids),
                                 created=made))  # one entry, in the campaign log


@command(help="""Show a sheet: each attribute's AS and dice, with and without the MO.

\b
Example:
  narateer show bloodwind""")
@click.argument("char")
def show_cmd(app, char):
    from .files import load
    from .in_encounter import encounter_for
    from .sheet import view

    with Session(app, write=False) as s:
        sheet = load(s, char).sheet
        result = view(sheet, s.rules, encounter_for(s, sheet.id)[1])
    emit(app, "show", result)


@command(writes=True, context_settings={"ignore_unknown_options": True}, help="""Change a pool by a signed DELTA.

Pools stop at 0; a loss that leaves body, mind or spirit at 0 adds a Wound.
`challenge` is an NPC's Challenge Points.

\b
Examples:
  narateer points goblin challenge -3
  narateer points amicus body +2""")
@click.argument("char")
@click.argument("pool")
@click.argument("delta")
def points_cmd(s, char, pool, delta):
    from .in_encounter import change_points
    from .pools import parse_delta

    return answer("points", change_points(s, char, pool.lower(), parse_delta(delta)))


def _wounds(s, char, n, sign, name):
    from .in_encounter import change_wounds

    if n < 0:
        raise BadInput(f"{name} {n}: give a count of 0 or more", fix=f"for example `{name} {char} 1`")
    return answer("wounds", change_wounds(s, char, n, sign, name))


@command(writes=True, help="""Add N Wounds (default 1). Their effects come from a chapter not given.

\b
Examples:
  narateer wound bloodwind
  narateer wound goblin 2""")
@click.argument("char")
@click.argument("n", type=int, default=1, required=False)
def wound_cmd(s, char, n):
    return _wounds(s, char, n, 1, "wound")


def heal(s, char, n):
    """`heal` (the host's command): N Wounds removed."""
    return _wounds(s, char, n, -1, "heal")


def condition(s, char, changes, rounds):
    """`condition` (the host's command): the sheet's conditions, and their timers in the encounter state."""
    from .in_encounter import change_conditions

    return answer("condition", change_conditions(s, char, changes, rounds))


# Open Adventure's words for the host's heal and condition commands (`Game.verb_words`)
WORDS = {**NEW_WORDS,
    "heal": {"help": """Remove N Wounds (default 1).

\b
Examples:
  narateer wound amicus 2
  narateer heal amicus""", "n": {"default": 1, "required": False}},
    "condition": {"help": f"""Add (+NAME) or remove (-NAME) conditions.

With --rounds N the added conditions end by themselves at the start of
CHAR's Turn N Rounds later (CHAR must be in the current encounter).

\b
Examples:
  narateer condition amicus +prone +dazed
  narateer condition amicus -dazed
  {GATE}
  narateer condition orc +stunned --rounds 2""", "context_settings": {"ignore_unknown_options": True},
                  "changes": {"required": True},
                  "rounds": {"type": click.IntRange(1, 1000), "help": "The added conditions end after N Rounds."}},
}
