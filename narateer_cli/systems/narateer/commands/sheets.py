"""Character commands of Narateer: show, readiness; what new does (the host owns that command)."""

from __future__ import annotations

import click

from narateer_cli.kit import Session, command, emit, nonneg, split_pairs
from narateer_cli.kit import encounter_for
from narateer_cli.kit import unknown

from .checks import told


# Narateer's words for the host's `new` command (`Game.verb_words`): its help and its own options
WORDS = {"new": {
    "help": """Create characters/ID.yaml, or copies of another sheet with fresh dice (--from).

\b
Examples:
  narateer new selka --name Selka --vital agility=3 --vital cognition=2 --skill stealth=2 --dice 5
  narateer new kai --skill melee=2 --movement walk=12 --movement run=18 --weapon spear=1:3:2
  narateer new bandit --from sentry --count 3     (bandit-1, bandit-2, bandit-3)""",
    "name": {"help": "Display name (default: the id)."},
    "options": (click.option("--vital", multiple=True, metavar="K=V", help="A vital, repeatable."),
                click.option("--skill", multiple=True, metavar="K=V", help="A skill level, repeatable."),
                click.option("--dice", type=int, default=5, show_default=True, help="Ready Action Dice."),
                click.option("--movement", multiple=True, metavar="MODE=N", help="Movement per activation in a mode "
                             "(walk, run, sprint), repeatable."),
                click.option("--weapon", multiple=True, metavar="NAME=COST:DAMAGE[:RANGE]",
                             help="A weapon: its attack cost, damage and range in metres, repeatable."),
                click.option("--magic-dice", "magic_dice", type=int, metavar="N",
                             help="Ready Magic Dice, a pool of their own that spells may cost.")),
    "source": {"help": "Copy OTHER's sheet with fresh dice and no conditions."},
    "count": {"help": "With --from: make ID-1..ID-N."},
    "alone": ("vital", "skill", "movement", "weapon", "magic_dice"),
    "alone_words": "--vital, --skill, --movement, --weapon and --magic-dice do not go with --from",
    "example": "sentry",
}}


def new(s, char_id, name, options):
    """`new ID` (the host's command): a sheet from the options."""
    from narateer_cli.kit import BadInput
    from narateer_cli.kit import yamlio
    from narateer_cli.kit import check_id

    dice = options["dice"]
    check_id(char_id)
    rules = s.rules
    nonneg("--dice", dice, rules.max_state_dice)
    if s.campaign.sheet_path(char_id).exists():
        raise BadInput(f"characters/{char_id}.yaml already exists", fix="edit it, or choose another id")
    doc = _sheet_doc(rules, name or char_id, options["vital"], options["skill"], dice, options["movement"],
                     options["weapon"])
    if options.get("magic_dice") is not None:
        doc = {**doc, "magic_dice": {"ready": nonneg("--magic-dice", options["magic_dice"], rules.max_state_dice),
                                     "used": 0}}
    return told("new", "new", char_id, {"name": name, "dice": dice}, {"id": char_id}, {},  # one entry per sheet edit
                created={char_id: yamlio.emit_text(doc)}, show={"id": char_id, "file": f"characters/{char_id}.yaml"})


def copied(s, source, count, made):
    """`new ID --from OTHER` (the host's command): the copies, one log entry."""
    ids = list(made)
    return told("new", "new", ids[0], {"from": source, "count": count}, {"id": ", ".join(ids), "ids": ids}, {},
                created=made, show={"id": ids[0], "ids": ids, "from": source,
                                    "file": ", ".join(f"characters/{i}.yaml" for i in ids)})


def _sheet_doc(rules, name, vital, skill, dice, movement=(), weapon=()) -> dict:
    """A new sheet's document; every --vital, --skill and --movement mode must be a name the ruleset knows."""
    vitals = _pairs(vital, "--vital", 100)
    for key in vitals:
        if key not in rules.vitals:
            raise unknown("vital", key, rules.vitals)
    skills = _pairs(skill, "--skill", 100)
    for key in skills:
        if key not in rules.skills:
            raise unknown("skill", key, sorted(rules.skills))
    modes = _pairs(movement, "--movement", 10_000)
    for key in modes:
        if key not in rules.mode_costs:
            raise unknown("movement mode", key, sorted(rules.mode_costs))
    doc = {"name": name, "vitals": vitals, "skills": skills}
    if modes:
        doc["movement"] = modes
    if weapon:
        doc["weapons"] = _weapons(weapon)
    return {**doc, "action_dice": {"ready": dice, "used": 0}, "conditions": []}


def _weapons(items) -> dict:
    """--weapon NAME=COST:DAMAGE[:RANGE] as the sheet's `weapons` block (what `exchange --weapon` reads)."""
    from narateer_cli.kit import BadInput

    out = {}
    for key, value in split_pairs(items, "--weapon", "sword=1:3").items():
        parts = value.split(":")
        if len(parts) not in (2, 3) or not all(p.isascii() and p.isdigit() for p in parts):
            raise BadInput(f"--weapon {key}={value!r} is not COST:DAMAGE or COST:DAMAGE:RANGE in whole numbers",
                           fix="for example --weapon sword=1:3, or --weapon bow=1:2:30 with a range in metres")
        numbers = [int(p) for p in parts]
        for what, number, high in zip(("attack cost", "damage", "range"), numbers, (100, 1000, 10_000)):
            nonneg(f"--weapon {key} {what}", number, high)
        spec = {"attack_cost": numbers[0], "damage": numbers[1]}
        if len(numbers) == 3:
            spec["range"] = numbers[2]
        out[key.lower()] = spec
    return out


def _pairs(items, option, high):
    """--vital / --skill NAME=NUMBER, each number from 0 to `high`."""
    from narateer_cli.kit import BadInput

    example = {"--skill": "stealth=2", "--movement": "walk=12"}.get(option, "agility=3")
    out = {}
    for key, value in split_pairs(items, option, example).items():
        try:
            number = int(value)
        except ValueError:
            raise BadInput(f"{option} {key}={value!r}: {value!r} is not a whole number",
                           fix=f"for example {option} {example}") from None
        nonneg(f"{option} {key}", number, high)
        out[key.lower()] = number
    return out


@command(help="""Show a character sheet with its Readiness table.

\b
Example:
  narateer show selka""")
@click.argument("char")
def show_cmd(app, char):
    from ..engine.character import sheet_view

    from narateer_cli.kit import durations
    from narateer_cli.kit import plain

    with Session(app, write=False) as s:
        result = sheet_view(s.sheet(char), s.rules)
        enc = encounter_for(s, char)
        sheet = s.sheet(char)
        magic = {}
        if sheet.magic_dice is not None or sheet.spells:  # the spells module is loaded for a caster only
            from ..engine.spells import spell_view

            magic = spell_view(sheet)
        traits = sheet.traits
        if traits:  # each trait with its uses left, as the sheet keys them (a sheet without any shows none)
            magic["traits"] = [trait.to_sheet_json() for trait in traits.values()]
    emit(app, "show", {**plain(result), "rounds_left": durations.left(enc.state if enc else None, char), **magic})


@command(writes="write", help="""Readiness Scores, 1 + (Linked Vital + SL) // 2, at least 2.

\b
Examples:
  narateer readiness kaelin insight
  narateer readiness kaelin --write""")
@click.argument("char")
@click.argument("skills", nargs=-1)
@click.option("--write", is_flag=True, help="Record the scores on the sheet under `readiness:`.")
def readiness_cmd(s, char, skills, write):
    from narateer_cli.kit import Show

    from ..engine.character import readiness_scores

    result = readiness_scores(s.sheet(char), skills, s.rules, write)
    if not write:
        return Show("readiness", result)
    scores = {("readiness", skill): score for skill, score in result.readiness.items()}
    return told("readiness", "readiness", char, {"write": True}, {"readiness": result.readiness}, {},
                encounter_for(s, char), sheets={char: scores}, show=result)
