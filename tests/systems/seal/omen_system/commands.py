"""The omen game's verbs: each returns an Outcome or a Show; the host writes."""

from __future__ import annotations

import click

from narateer_cli.kit import Outcome, Session, Show, command, current_encounter

PUBLIC = ("actor",)  # what a secret roll's entry shows of its result
FORTUNE = {"shows": ("state.asked",), "seals": ("state.omen",)}  # who asked is seen; the omen is a secret
MARK = {"seals": ("sheet.mark",)}


def _fortune(s, verb, char, faces):
    from .engine import face_of, fortune

    enc = current_encounter(s, required=True)
    result = fortune(char, face_of(faces, s.app.rng()), s.rules)
    spent = s.sheet(char).counters["spent"] + 1
    return Outcome(verb, char, {}, result, kind="fortune", show=result, dice={char: {"spent": spent}},
                   encounter=enc.id, state={**enc.state, "omen": result["omen"], "asked": char}, public=PUBLIC)


def _mark(s, verb, char, faces):
    from .engine import face_of, mark

    result = mark(char, face_of(faces, s.app.rng()))
    enc = current_encounter(s)
    return Outcome(verb, char, {}, result, kind="mark", show=result, sheets={char: {"mark": result["face"]}},
                   encounter=enc.id if enc else None, state=enc.state if enc else None, public=PUBLIC)


@command(rolls=True, writes=True, **FORTUNE, help="Read a d6 as an omen for the encounter.")
@click.argument("char")
@click.option("--faces", metavar="F")
def fortune_cmd(s, char, faces):
    return _fortune(s, "fortune", char, faces)


@command(name="fortune-loose", rolls=True, writes=True, help="Read an omen, declaring nothing of a secret one.")
@click.argument("char")
@click.option("--faces", metavar="F")
def fortune_loose_cmd(s, char, faces):
    return _fortune(s, "fortune-loose", char, faces)


@command(rolls=True, writes=True, **MARK, help="Mark a d6's face on your own sheet.")
@click.argument("char")
@click.option("--faces", metavar="F")
def mark_cmd(s, char, faces):
    return _mark(s, "mark", char, faces)


@command(name="mark-loose", rolls=True, writes=True, help="Mark a face, declaring nothing of a secret one.")
@click.argument("char")
@click.option("--faces", metavar="F")
def mark_loose_cmd(s, char, faces):
    return _mark(s, "mark-loose", char, faces)


@command(writes=True, help="Say whether the encounter's omen is good.")
@click.argument("char")
def read_cmd(s, char):
    enc = current_encounter(s, required=True)
    omen = enc.state["omen"]
    result = {"actor": char, "omen": omen, "good": omen in s.rules["good"]}
    # read where the omen is sealed, the answer is as secret as the omen (the Guide's machine); elsewhere
    # reading it has refused already
    return Outcome("read", char, {}, result, kind="read", show=result, encounter=enc.id, state=enc.state,
                   public=PUBLIC, secret=("omen",) in enc.sealed)


@command(writes=True, help="Count one more round; the omen stays as it is.")
@click.argument("char")
def tally_cmd(s, char):
    enc = current_encounter(s, required=True)
    result = {"actor": char, "round": enc.state["round"] + 1}
    return Outcome("tally", char, {}, result, kind="tally", show=result, encounter=enc.id,
                   state={**enc.state, "round": result["round"]})


@command(help="Show a sheet.")
@click.argument("char")
def show_cmd(app, char):
    with Session(app, write=False) as s:
        sheet = s.sheet(char)
        return Show("show", {"id": sheet.id, "name": sheet.name, "mark": sheet.mark})
