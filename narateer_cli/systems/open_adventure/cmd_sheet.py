"""Open Adventure's sheet commands: new, show, points, wound, heal."""

from __future__ import annotations

import click

from narateer_cli.commands.common import Session, command, emit
from narateer_cli.errors import BadInput

from .cmd_common import KIND, narateer_flags, refuse_narateer_flags


def _pairs(items, option: str, example: str) -> dict:
    """NAME=VALUE options, names ignoring case."""
    from narateer_cli.commands.common import split_pairs

    return {key.strip().lower(): value.strip() for key, value in split_pairs(items, option, example).items()}


def _number(text, what: str, limit: int) -> int:
    if not str(text).isdigit() or int(text) > limit:
        raise BadInput(f"{what} {text!r} must be a whole number from 0 to {limit}", fix=f"for example {what}=3")
    return int(text)


def _actions(items, limit) -> dict:
    out = {}
    for name, value in _pairs(items, "--action", "spear=6:2").items():
        score, _, effect = value.partition(":")
        block = {"as": _number(score, f"--action {name}", limit), "group": "body"}
        if effect:
            block["effect"] = _number(effect, f"--action {name} effect", limit)
        out[name] = block
    return out


@command(help="""Create characters/ID.yaml: a PC sheet, or with --npc a statblock.

\b
Examples:
  narateer new kara --attribute strength=3 --attribute presence=2 --mo Warrior=2 --specialization swords
  narateer new wolf --npc --attribute body=4 --reaction 5 --action bite=6:2
  narateer new goblin --from goblin-chief --count 3      (goblin-1, goblin-2, goblin-3)""")
@click.argument("char_id")
@click.option("--name", help="Display name (default: the id).")
@click.option("--npc", is_flag=True, help="An NPC statblock (attributes body, mind, spirit).")
@click.option("--attribute", multiple=True, metavar="K=V", help="An attribute score (0 when not given), repeatable.")
@click.option("--mo", metavar="NAME=N", help="The MO and its score.")
@click.option("--specialization", multiple=True, metavar="S", help="A Specialization, repeatable.")
@click.option("--points", "pools", multiple=True, metavar="POOL=N", help="A point pool (body, mind, spirit).")
@click.option("--defense", multiple=True, metavar="K=V", help="A Defense (body, mind, spirit).")
@click.option("--reaction", type=int, help="NPC: the statblock's Reaction Score.")
@click.option("--action", multiple=True, metavar="NAME=AS[:EFFECT]", help="NPC: a statblock action, repeatable.")
@click.option("--from", "source", metavar="OTHER",
              help="Copy OTHER's sheet: pools full (points_max), no Wounds or conditions (T-COPY).")
@click.option("--count", type=int, help="With --from: make ID-1..ID-N.")
@narateer_flags
def new_cmd(app, char_id, name, npc, attribute, mo, specialization, pools, defense, reaction, action, source,
            count, **nf):
    from narateer_cli.store import yamlio
    from narateer_cli.store.campaign import check_id

    from .files import finish
    from .sheet import parse_sheet

    refuse_narateer_flags(nf)
    if source is not None or count is not None:
        given = npc or attribute or mo or specialization or pools or defense or reaction is not None or action
        return _copy(app, char_id, name, source, count, given)
    check_id(char_id)
    with Session(app) as s:
        rules = s.rules
        path = s.campaign.sheet_path(char_id)
        if path.exists():
            raise BadInput(f"characters/{char_id}.yaml already exists", fix="edit it, or choose another id")
        doc = _new_doc(char_id, name, npc, attribute, mo, specialization, pools, defense, reaction, action, rules)
        sheet = parse_sheet(char_id, doc, f"characters/{char_id}.yaml", rules)  # exit 2 on any misfit, first
        s.txn.write(path, yamlio.emit_text(doc))
        data = {"system": "open-adventure", "id": char_id, "file": f"characters/{char_id}.yaml", "npc": npc,
                "message": f"created characters/{char_id}.yaml"}
        finish(s, "new", char_id, {"name": doc["name"], "npc": npc}, data, created={char_id: sheet.dice})  # G-LOG-5
    emit(app, KIND + "simple", data)


def _copy(app, char_id, name, source, count, given):
    """T-COPY: the host copies OTHER's document; the `fresh_sheet` hook refills it; one log entry."""
    from narateer_cli.commands.copying import copy_sheets

    from .files import finish

    if source is None:
        raise BadInput("--count needs --from OTHER", fix=f"for example narateer new {char_id} --from goblin --count 3")
    if given:
        raise BadInput("--from copies a whole sheet; the other sheet options do not go with it",
                       fix="copy first, then edit the copies' sheets")
    with Session(app) as s:
        ids = copy_sheets(s, source, char_id, count, name)
        files = ", ".join(f"characters/{i}.yaml" for i in ids)
        data = {"system": "open-adventure", "id": ids[0], "ids": ids, "from": source, "file": files,
                "message": f"created {files} from characters/{source}.yaml"}
        created = {cid: _copied_dice(s, cid) for cid in ids}
        finish(s, "new", ids[0], {"from": source, "count": count}, data, created=created)  # G-LOG-5
    emit(app, KIND + "simple", data)


def _copied_dice(s, cid) -> dict:
    from narateer_cli.store import yamlio

    from .sheet import parse_sheet

    label = f"characters/{cid}.yaml"
    text = s.txn.writes[s.txn.rel(s.campaign.sheet_path(cid))]
    return parse_sheet(cid, yamlio.to_plain(yamlio.load_rt(text, label)), label, s.rules).dice


def _new_doc(char_id, name, npc, attribute, mo, specialization, pools, defense, reaction, action, rules) -> dict:
    from .names import suggest

    limit = rules.limits["points"]
    given = {k: _number(v, f"--attribute {k}", limit) for k, v in _pairs(attribute, "--attribute", "strength=3").items()}
    known = ("body", "mind", "spirit") if npc else rules.attributes
    for key in given:
        if key not in known:
            raise BadInput(f"unknown attribute {key!r}" + (" for an NPC" if npc else ""), fix=suggest(key, known))
    doc = {"name": name or char_id, "kind": "npc" if npc else "pc"}
    if npc:
        doc["attributes"] = {g: given.get(g, 0) for g in ("body", "mind", "spirit")}
        doc["reaction"] = reaction if reaction is not None else 0
        doc["actions"] = _actions(action, limit)
    else:
        if reaction is not None or action:
            raise BadInput("--reaction and --action are for NPC statblocks", fix="add --npc")
        doc["attributes"] = {g: {a: given.get(a, 0) for a in names} for g, names in rules.groups.items()}
    if mo:
        mo_name, _, score = mo.partition("=")
        doc["mo"] = {"name": mo_name.strip(), "score": _number(score, "--mo", limit)}
    if specialization:
        doc["specializations"] = list(specialization)
    for key, option in (("defenses", defense), ("points", pools)):
        values = {k: _number(v, f"--{key} {k}", limit) for k, v in _pairs(option, f"--{key}", "body=5").items()}
        if values:
            doc[key] = values
    doc["wounds"] = 0
    doc["conditions"] = []
    return doc


@command(help="""Show a sheet: each attribute's AS and dice, with and without the MO.

\b
Example:
  narateer show bloodwind""")
@click.argument("char")
def show_cmd(app, char):
    from .chart import chart_dice, printed
    from .files import load

    from .in_encounter import encounter_for
    from .turns import rounds_left

    with Session(app, write=False) as s:
        sheet, rules = load(s, char).sheet, s.rules
        left = rounds_left(encounter_for(s, sheet.id)[1], sheet.id)

    def dice(score):
        return printed(chart_dice(score, rules)) if score >= rules.min_as else "none (no check)"

    rows = []
    for name, score in sheet.scores.items():
        row = {"name": name, "score": score, "action_score": score, "dice": dice(score)}
        if sheet.mo_score is not None:
            row.update(with_mo=score + sheet.mo_score, dice_with_mo=dice(score + sheet.mo_score))
        rows.append(row)
    actions = [{"name": a.name, "as": a.score, "dice": dice(a.score), "effect": a.effect, "group": a.group,
                "stunt": a.stunt} for a in sheet.actions.values()]
    emit(app, KIND + "show", {"system": "open-adventure", "id": sheet.id, "name": sheet.name, "npc": sheet.npc,
                              "mo": {"name": sheet.mo_name, "score": sheet.mo_score} if sheet.mo_score is not None
                              else None, "scores": rows, "actions": actions, "points": sheet.points,
                              "wounds": sheet.wounds, "specializations": list(sheet.specializations),
                              "defenses": sheet.defenses, "reaction": sheet.reaction,
                              "conditions": list(sheet.conditions), "rounds_left": left})


def _log_sheet_change(s, command_name, actor_id, declaration, data):
    from .files import finish
    from .in_encounter import encounter_for

    enc_id, _ = encounter_for(s, actor_id)
    finish(s, command_name, actor_id, declaration, data, enc_id, None)


@command(context_settings={"ignore_unknown_options": True}, help="""Change a pool by a signed DELTA (A-OA-WOUND).

Pools stop at 0; a loss that leaves body, mind or spirit at 0 adds a Wound.
`challenge` is an NPC's Challenge Points (R-OA-EFF-2).

\b
Examples:
  narateer points goblin challenge -3
  narateer points amicus body +2""")
@click.argument("char")
@click.argument("pool")
@click.argument("delta")
def points_cmd(app, char, pool, delta):
    from .files import load, write_sheet
    from .pools import change_points, parse_delta
    from .render import points_json

    with Session(app) as s:
        sf = load(s, char)
        result = change_points(sf.sheet, pool.lower(), parse_delta(delta), s.rules)
        key = ("challenge_points",) if result.pool == "challenge" else ("points", result.pool)
        changes = {key: result.after}
        if result.wounds_after is not None and result.wounds_after != (sf.sheet.wounds or 0):
            changes[("wounds",)] = result.wounds_after
        write_sheet(s, sf, changes)
        data = points_json(result)
        _log_sheet_change(s, "points", sf.id, {"pool": result.pool, "delta": parse_delta(delta)}, data)
    emit(app, KIND + "points", data)


def _wounds(app, char, n, sign, name):
    from .files import load, write_sheet
    from .pools import change_wounds

    if n < 0:
        raise BadInput(f"{name} {n}: give a count of 0 or more", fix=f"for example `{name} {char} 1`")
    with Session(app) as s:
        sf = load(s, char)
        result = change_wounds(sf.sheet, sign * n, s.rules)
        write_sheet(s, sf, {("wounds",): result.after})
        data = result.as_dict()
        _log_sheet_change(s, name, sf.id, {"count": n}, data)
    emit(app, KIND + "wounds", data)


@command(help="""Add N Wounds (default 1). Their effects come from a chapter not given.""")
@click.argument("char")
@click.argument("n", type=int, default=1, required=False)
def wound_cmd(app, char, n):
    _wounds(app, char, n, 1, "wound")


@command(help="""Remove N Wounds (default 1).""")
@click.argument("char")
@click.argument("n", type=int, default=1, required=False)
def heal_cmd(app, char, n):
    _wounds(app, char, n, -1, "heal")


@command(context_settings={"ignore_unknown_options": True}, help="""Add (+NAME) or remove (-NAME) conditions.

With --rounds N the added conditions end by themselves at the start of
CHAR's Turn N Rounds later (T-DURATION; CHAR must be in the current encounter).

\b
Examples:
  narateer condition amicus +prone -dazed
  narateer condition goblin +stunned --rounds 2""")
@click.argument("char")
@click.argument("changes", nargs=-1, required=True)
@click.option("--rounds", type=click.IntRange(1, 1000), help="The added conditions end after N Rounds.")
def condition_cmd(app, char, changes, rounds):
    from . import turns
    from .files import finish, load, write_sheet
    from .pools import change_conditions
    from .in_encounter import encounter_for

    with Session(app) as s:
        sf = load(s, char)
        conds, added, removed = change_conditions(sf.sheet.conditions, changes)
        enc_id, state = encounter_for(s, sf.id)
        if rounds is not None and (state is None or not added):
            raise BadInput("--rounds needs a +NAME and CHAR in the current encounter" if state is None
                           else "--rounds times the conditions added with +NAME", rule="T-DURATION",
                           fix=f"start one with `narateer encounter new ID {sf.id} ...`" if state is None
                           else f"for example narateer condition {sf.id} +prone --rounds 2")
        timed = turns.add_timed(state, sf.id, added, removed, rounds) if state is not None else None
        write_sheet(s, sf, {}, {"conditions": conds})
        data = {"system": "open-adventure", "actor": sf.id, "conditions": conds, "added": added, "removed": removed,
                "rounds_left": turns.rounds_left(timed, sf.id),
                "message": f"{sf.id}: conditions {', '.join(conds) or 'none'}" + _left_words(timed, sf.id)}
        declaration = {"changes": list(changes), **({"rounds": rounds} if rounds is not None else {})}
        changed_state = timed if timed is not None and timed.durations != state.durations else None
        finish(s, "condition", sf.id, declaration, data, enc_id, changed_state)
    emit(app, KIND + "simple", data)


def _left_words(state, cid) -> str:
    from .turns import rounds_left

    left = rounds_left(state, cid)
    return "".join(f"; {n}: {r} Round{'s' if r != 1 else ''} left" for n, r in left.items())
