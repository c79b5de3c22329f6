"""Forge's verbs: read the arguments, make one engine call, return what happened (the host writes it)."""

from __future__ import annotations

import click

from narateer_cli.kit import (FACES, BadInput, Declared, Dice, Option, Outcome, Refused, Session, Show, command,
                              declared, encounter_for, secret_asked)

from . import engine

ROLL = Declared(
    Option(field="bonus", names=("--bonus",), type=int, default=0, result="bonus",
           help="Bonus dice (an assist, a Devil's bargain)."),
    Option(field="push", names=("--push",), flag=True, result="push",
           help="Push yourself: one more die for 2 stress."),
    Option(field="position", names=("--position",), choices=("controlled", "risky", "desperate"), default="risky",
           result="position", help="The position the Guide set."),
    Option(field="effect", names=("--effect",), choices=("limited", "standard", "great"), default="standard",
           result="effect", help="The effect the Guide set."),
    Option(field="dry_run", names=("--dry-run",), flag=True, logged=False,
           help="Show the exact chance of each outcome; roll nothing, write nothing."),
) + FACES

RESIST = Declared(
    Option(field="dry_run", names=("--dry-run",), flag=True, logged=False,
           help="Show the exact chance of each stress cost; roll nothing, write nothing."),
) + FACES

FORTUNE = FACES


def _faces_given(faces) -> list | None:
    """The faces typed at the table (`--faces 6,3`), or None when the tool rolls."""
    if faces is None or faces == "" or faces == ():
        return None
    if isinstance(faces, (list, tuple)):
        words = [str(f) for f in faces]
    else:
        words = str(faces).replace(" ", "").split(",")
    out = []
    for word in words:
        try:
            out.append(int(word))
        except ValueError:
            raise BadInput(f"--faces: a d6 shows 1 to 6, not {word!r}", fix="give faces as numbers: --faces 6,3") from None
    return out


def _dice(rng, count: int, faces) -> list:
    given = _faces_given(faces)
    if given is not None:
        return given
    dice = Dice(rng)
    return [dice.face(6) for _ in range(count)]


def _where(s, char) -> str | None:
    """The running encounter CHAR takes part in (its log gets the entry), or None: the campaign log."""
    enc = encounter_for(s, char)
    return enc.id if enc is not None else None


def _counters(result: dict, before: dict) -> dict:
    return {**before, "stress": result["stress_after"], "trauma": result["trauma_after"]}


@command(rolls=True, writes=True, help="Make an action roll: the highest die of the action's pool decides "
         "(6 success, 4-5 partial, 1-3 bad; two 6s a critical; no dice: roll two, keep the lowest).\n\n"
         "Example: narateer roll cutter skirmish --push --faces 6,3,1")
@click.argument("char")
@click.argument("action")
@declared(ROLL)
def roll_cmd(s, char, action, declared):
    rules = s.rules
    sheet = s.sheet(char)
    engine.known_action(action, rules)
    pool = sheet.actions.get(action, 0) + declared.bonus + (1 if declared.push else 0)
    if declared.dry_run:
        return Show("odds", {**engine.odds(pool, rules), "actor": char, "action": action})
    faces = _dice(s.app.rng(), engine.rolled_count(pool, rules), declared.faces)
    result = engine.action(sheet, action, declared.bonus, declared.push, faces, rules,
                           position=declared.position, effect=declared.effect)
    return Outcome("roll", char, {"action": action, **ROLL.logged(declared)}, result, kind="roll", show=result,
                   dice={char: _counters(result, sheet.dice)}, public=engine.PUBLIC["roll"],
                   encounter=_where(s, char))


@command(rolls=True, writes=True, help="Resist a consequence: roll the attribute's dice (one per action rated 1 "
         "or more); the stress cost is 6 minus the highest, a critical clears 1; stress past 9 is a trauma. "
         "Never secret: the stress paid shows the roll.\n\nExample: narateer resolve cutter prowess --faces 4,1")
@click.argument("char")
@click.argument("attribute")
@declared(RESIST)
def resolve_cmd(s, char, attribute, declared):
    rules = s.rules
    sheet = s.sheet(char)
    engine.known_attribute(attribute, rules)
    rating = engine.attribute_rating(sheet, attribute, rules)
    if declared.dry_run:
        return Show("odds", {**engine.odds(rating, rules, resistance=True), "actor": char, "attribute": attribute})
    if secret_asked(s, char):
        raise Refused("a resistance roll cannot be secret: the stress it costs shows what it rolled",
                      rule="S-SYS-8", fix=f"roll it openly: narateer resolve {char} {attribute}")
    faces = _dice(s.app.rng(), engine.rolled_count(rating, rules), declared.faces)
    result = engine.resist(sheet, attribute, faces, rules)
    return Outcome("resolve", char, {"attribute": attribute}, result, kind="resolve", show=result,
                   dice={char: _counters(result, sheet.dice)}, encounter=_where(s, char))


@command(rolls=True, writes=True, help="The Guide's fortune roll: a rating's dice read as an omen. Always "
         "sealed: the log shows who rolled and the rating, never the dice or the omen, until `unveil`.\n\n"
         "Example: narateer fortune guide 2")
@click.argument("char")
@click.argument("rating", type=int)
@declared(FORTUNE)
def fortune_cmd(s, char, rating, declared):
    rules = s.rules
    sheet = s.sheet(char)
    if not sheet.guide:
        raise Refused(f"{char} is not the Guide: a fortune roll is the Guide's (a sheet with guide: true)",
                      fix="narateer fortune guide N")
    faces = _dice(s.app.rng(), engine.rolled_count(max(rating, 0), rules), declared.faces)
    result = engine.fortune(char, rating, faces, rules)
    return Outcome("fortune", char, {"rating": rating}, result, kind="fortune", show=result, secret=True,
                   public=engine.PUBLIC["fortune"], encounter=_where(s, char))


def _signed(changes) -> int:
    if not changes:
        raise BadInput("give a change such as +1 or -1")
    total = 0
    for word in changes:
        try:
            total += int(word)
        except ValueError:
            raise BadInput(f"{word!r} is not a change", fix="give a signed whole number: +1 or -2") from None
    return total


def _counter_cmd(s, char, counter, changes):
    sheet = s.sheet(char)
    change = _signed(changes)
    result = engine.counter_change(sheet, counter, change, s.rules)
    return Outcome(counter, char, {"change": change}, result, kind="counter", show=result,
                   dice={char: result["after"]}, encounter=_where(s, char))


@command(writes=True, help="Mark or clear harm: harm CHAR +1 (the track holds 0 to 4).\n\nExample: narateer harm cutter +1")
@click.argument("char")
@click.argument("changes", nargs=-1)
def harm_cmd(s, char, changes):
    return _counter_cmd(s, char, "harm", changes)


@command(writes=True, help="Mark or clear stress: stress CHAR +2; past 9 it becomes a trauma and stress "
         "returns to 0.\n\nExample: narateer stress whisper +2")
@click.argument("char")
@click.argument("changes", nargs=-1)
def stress_cmd(s, char, changes):
    return _counter_cmd(s, char, "stress", changes)


@command(help="Exact chance of each outcome for a pool of N d6 (0: roll two, keep the lowest); --resist: "
         "each stress cost of a resistance roll of N dice.\n\nExample: narateer odds 3")
@click.argument("n", type=int)
@click.option("--resist", is_flag=True, help="The stress costs of a resistance roll instead.")
def odds_cmd(app, n, resist):
    with Session(app, write=False) as s:
        rules = s.rules
    return Show("odds", engine.odds(n, rules, resistance=resist))


@command(help="Show a character sheet: each action's rating, the attributes, stress, trauma, harm.\n\n"
         "Example: narateer show cutter")
@click.argument("char")
def show_cmd(app, char):
    with Session(app, write=False) as s:
        rules = s.rules
        sheet = s.sheet(char)
    return Show("sheet", {
        "id": sheet.id, "name": sheet.name,
        "actions": {a: sheet.actions.get(a, 0) for a in rules.actions},
        "attributes": {a: engine.attribute_rating(sheet, a, rules) for a in engine.attributes(rules)},
        "track": dict(sheet.dice), "stress_max": rules.stress_max, "trauma_max": rules.trauma_max,
        "harm_max": rules.harm_max, "conditions": list(sheet.conditions),
    })
