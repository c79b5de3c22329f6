"""Encounter commands: encounter, turn, resolve, condition, refresh, wound, heal, undo, verify."""

from __future__ import annotations

import click

from .common import Session, command, emit, nonneg
from .rolls import check_options, declaration, dice_source, target_options, target_spec
from .scene_ops import append_entry, autocommit, check_in_scene, finish, scene, scene_for


@click.group(name="encounter", help="""Create, show and read encounters.

\b
Examples:
  narateer encounter new skirmish selka sentry
  narateer encounter show
  narateer encounter log --last 5""")
def encounter_cmd():
    pass


@command(group=encounter_cmd, name="new", help="""Create encounter ID with these participants and make it current.

\b
Example:
  narateer encounter new skirmish selka sentry mira bandit""")
@click.argument("enc_id")
@click.argument("chars", nargs=-1)
def encounter_new(app, enc_id, chars):
    from ..engine.errors import BadInput
    from ..engine.scene import new_state
    from ..store import encounters, yamlio

    with Session(app) as s:
        if enc_id == encounters.CAMPAIGN:
            raise BadInput(f"the encounter id {enc_id!r} is reserved for the campaign log", rule="G-LOG-5",
                           fix="pick another id")
        path = encounters.state_path(s.campaign.root, enc_id)
        if path.exists():
            raise BadInput(f"encounter {enc_id} already exists", fix=f"use it with --in {enc_id}, or pick another id")
        if len(set(chars)) != len(chars):
            raise BadInput("a participant is named twice", fix="name each character once")
        for char in chars:
            s.sheet(char)
        state = new_state(enc_id, list(chars), s.rules)
        doc, text = s.campaign.config_doc()
        doc["encounter"] = enc_id
        s.txn.write(s.campaign.config_path, yamlio.dump_rt(doc, text))
        sc = _fresh_scene(s, enc_id, state)
        finish(s, "encounter new", None, {"participants": list(chars)}, {"id": enc_id}, {}, sc)
    emit(app, "encounter_new", {"id": enc_id, "participants": list(chars), "current": True})


def _fresh_scene(session, enc_id, state):
    from .scene_ops import Scene

    sc = Scene.__new__(Scene)
    sc.session, sc.id, sc.state, sc.new_state = session, enc_id, state, state
    session._scene = sc
    return sc


def _log_id(session, enc_id):
    """The log `undo` and `verify` work on: the one named (`campaign` is the campaign log, G-LOG-5),
    else the current encounter's, else the campaign log."""
    from ..store.encounters import CAMPAIGN
    from .scene_ops import current_encounter_id

    if enc_id == CAMPAIGN or (enc_id is None and current_encounter_id(session) is None):
        return CAMPAIGN
    return _pick(session, enc_id).id


@command(group=encounter_cmd, name="end", help="""Close encounter ID (default: the current one).

It is no longer current, its files stay, and an entry is logged; changes
after it go to the campaign log.

\b
Example:
  narateer encounter end ambush""")
@click.argument("enc_id", required=False)
def encounter_end(app, enc_id):
    from ..store import yamlio
    from .scene_ops import current_encounter_id

    with Session(app) as s:
        sc = _pick(s, enc_id)
        current = s.campaign.config().get("encounter")
        if current is not None and str(current) == sc.id:
            doc, text = s.campaign.config_doc()
            del doc["encounter"]
            s.txn.write(s.campaign.config_path, yamlio.dump_rt(doc, text))
        finish(s, "encounter end", None, {}, {"id": sc.id, "current": False}, {}, sc)
    emit(app, "encounter_end", {"id": sc.id, "current": False})


def _pick(session, enc_id):
    if enc_id is not None:
        session.app.encounter_id = enc_id
    return scene(session, required=True)


@command(group=encounter_cmd, name="show", help="""Round, who acts, who has acted, uses left, dice, and who is hidden from whom.

\b
Example:
  narateer encounter show""")
@click.argument("enc_id", required=False)
def encounter_show(app, enc_id):
    with Session(app, write=False) as s:
        sc = _pick(s, enc_id)
        st = sc.state
        dice = {}
        for cid in st["participants"]:
            sheet = s.sheet(cid)
            dice[cid] = {"dice": sheet.dice, "conditions": list(sheet.conditions)}
    emit(app, "encounter_show", {"id": st["id"], "round": st["round"], "actor": st["actor"],
                                 "participants": st["participants"], "acted": st["acted"], "next": st["next"],
                                 "uses": st["uses"], "mode": st["mode"], "movement_left": st["movement_left"],
                                 "hidden": st["hidden"], "status": dice})


@command(group=encounter_cmd, name="log", help="""Print an encounter's log.

\b
Example:
  narateer encounter log --last 5""")
@click.argument("enc_id", required=False)
@click.option("--last", type=int, help="Only the last N entries.")
def encounter_log(app, enc_id, last):
    from ..store import encounters

    with Session(app, write=False) as s:
        log_id = _log_id(s, enc_id)
        nonneg("--last", last)
        entries = encounters.read_log(s.campaign.root, log_id, last)
    emit(app, "encounter_log", {"id": log_id, "entries": entries})


@click.group(name="turn", help="""Start and end activations in the current encounter (A-TURN, A-REFRESH, R-ACT-4).

\b
Examples:
  narateer turn start selka
  narateer turn end --next sentry""")
def turn_cmd():
    pass


@command(group=turn_cmd, name="start", help="""Begin CHAR's activation: Used AD become Ready, uses = SL + 1 per skill.

\b
Example:
  narateer turn start selka""")
@click.argument("char")
def turn_start(app, char):
    from ..engine import scene as rules_scene

    with Session(app) as s:
        sc = scene(s, required=True)
        sheet = s.sheet(char)
        sc.new_state, dice_after, moved = rules_scene.start_turn(sc.state, sheet, s.rules)
        sc.new_state = rules_scene.record_action(sc.new_state, char, "turn start")
        data = {"encounter": sc.id, "round": sc.new_state["round"], "actor": char, "uses": sc.new_state["uses"],
                "refreshed": moved, "dice_before": dict(sheet.dice), "dice_after": dice_after}
        finish(s, "turn start", char, {}, data, {char: dice_after}, sc)
    emit(app, "turn_start", data)


@command(group=turn_cmd, name="end", help="""End the current activation; --next names who acts next.

\b
Example:
  narateer turn end --next sentry""")
@click.option("--next", "next_id", metavar="CHAR", help="Who acts next (among those who have not acted).")
def turn_end(app, next_id):
    from ..engine import scene as rules_scene

    with Session(app) as s:
        sc = scene(s, required=True)
        actor = sc.state["actor"]
        sc.new_state = rules_scene.end_turn(sc.state, next_id)
        sc.new_state = rules_scene.record_action(sc.new_state, actor, "turn end")
        data = {"encounter": sc.id, "ended": actor, "round": sc.new_state["round"], "next": sc.new_state["next"],
                "new_round": sc.new_state["round"] != sc.state["round"],
                "waiting": rules_scene.waiting(sc.new_state)}
        finish(s, "turn end", actor, {"next": next_id}, data, {}, sc)
    emit(app, "turn_end", data)


@command(help="""Resolve a declared Action by its path (R-ACT-1, R-ACT-2).

\b
Examples:
  narateer resolve tarin --intent "open the door" --tier trivial --auto
  narateer resolve tarin --intent "cross the roof" --impossible "the roof is gone"   (exit 3, nothing spent)
  narateer resolve tarin --intent "force the door" --method "shoulder" --check athletics --dr challenging --boost 2""",
         context_settings={"show_default": False})
@click.argument("char")
@click.option("--intent", required=True, help="What the character wants to change.")
@click.option("--method", default=None, help="How they try.")
@click.option("--tier", type=click.Choice(["trivial", "minor", "major"]), default=None, help="Action tier (sets the cost).")
@click.option("--auto", "auto", is_flag=True, help="The outcome is certain: pay the tier's cost, no roll.")
@click.option("--impossible", metavar="REASON", help="Impossible as declared: spend nothing (exit 3).")
@click.option("--check", "check_skill", metavar="SKILL", help="Resolve with a Skill Check (a Major action).")
@target_options
@check_options
def resolve_cmd(app, char, intent, method, tier, auto, impossible, check_skill, dr, vs, contested, boost, bonus_dice,
                cost, discount_base, discount_boost, fee, advantage, disadvantage, reaction, allow_boost, power_reroll,
                power_faces, power, faces, reroll_faces):
    from ..engine import scene as rules_scene
    from ..engine.actions import check_tier, resolve_auto
    from ..engine.errors import BadInput, Refused

    paths = [p for p, on in (("auto", auto), ("impossible", impossible is not None), ("check", check_skill)) if on]
    if len(paths) != 1:
        raise BadInput("choose one resolution path", fix="give exactly one of --auto, --impossible REASON, --check SKILL")
    path = paths[0]
    base = {"actor": char, "intent": intent, "method": method}
    with Session(app, write=path != "impossible") as s:
        sheet = s.sheet(char)
        if path == "impossible":
            raise Refused(f"impossible as declared: {impossible}", rule="R-ACT-1",
                          fix="revise the intent or method; nothing was spent")
        sc = scene_for(s, char)
        if path == "auto":
            tier = tier or "trivial"
            if any(x is not None for x in (dr, vs, contested)) or faces:
                raise BadInput("--auto takes no target or faces", fix="drop them, or use --check SKILL")
            nonneg("--cost", cost, s.rules.max_roll_dice)
            given = click.get_current_context().get_parameter_source("cost") != click.core.ParameterSource.DEFAULT
            auto = resolve_auto(sheet, tier, cost if given else None, s.rules)
            if sc is not None:
                rules_scene.require_activation(sc.state, char, "R-ACT-3")
                sc.new_state = rules_scene.record_action(sc.state, char, "resolve")
            data = {**base, "tier": tier, "path": "auto", "paid": auto["paid"], "check": None,
                    "dice_before": dict(sheet.dice), "dice_after": auto["dice_after"]}
            finish(s, "resolve", char, {"intent": intent, "method": method, "tier": tier, "cost": auto["cost"]}, data,
                   {char: auto["dice_after"]}, sc)
        else:
            check_tier(tier)
            decl = declaration(check_skill, boost, bonus_dice, cost, discount_base, discount_boost, fee, advantage,
                               disadvantage, reaction, allow_boost, power_reroll, power)
            dice = dice_source(app, s.rules, faces=(faces, "--faces"), reroll=(reroll_faces, "--reroll-faces"),
                               power=(power_faces, "--power-faces"))
            spec = target_spec(s, char, dr, vs, contested)
            result = check_in_scene(s, sheet, decl, spec, dice, None, command="resolve",
                                    extra={"intent": intent, "method": method, "tier": "major", "path": "check"})
            data = {**base, "tier": "major", "path": "check", "paid": result["paid"], "check": result,
                    "dice_after": result["dice_after"]}
    emit(app, "resolve", data)


@command(help="""Add or remove conditions (A-COND): +NAME adds, -NAME removes.

\b
Example:
  narateer condition selka +slowed -stunned""", context_settings={"ignore_unknown_options": True})
@click.argument("char")
@click.argument("changes", nargs=-1, type=click.UNPROCESSED)
def condition_cmd(app, char, changes):
    from ..engine.character import change_conditions

    with Session(app) as s:
        conds, added, removed = change_conditions(s.sheet(char).conditions, changes, s.rules)
        s.set_sheet(char, conditions=conds)
        data = {"actor": char, "conditions": conds, "added": added, "removed": removed}
        sc = scene_for(s, char)
        finish(s, "condition", char, {"changes": list(changes)}, data, {}, sc)
    emit(app, "condition", data)


def _dice_move(app, char, verb, fn, count=None):
    """refresh / wound / heal: move dice between states, never a die twice (A-REFRESH, A-WOUND)."""
    with Session(app) as s:
        sheet = s.sheet(char)
        if count is not None:
            nonneg("N", count, s.rules.max_state_dice)
        after, moved = fn(sheet.dice, s.rules) if count is None else fn(sheet.dice, count, s.rules)
        data = {"actor": char, "moved": moved, "dice_before": dict(sheet.dice), "dice_after": after}
        finish(s, verb, char, {"count": count}, data, {char: after}, scene_for(s, char))
    emit(app, verb, data)


@command(help="""Return Used dice to Ready (A-REFRESH).

\b
Example:
  narateer refresh selka""")
@click.argument("char")
def refresh_cmd(app, char):
    from ..engine.character import refresh

    _dice_move(app, char, "refresh", refresh)


@command(help="""Wound CHAR N times: each moves one die from Ready (else Used) to wounded (A-WOUND).

\b
Example:
  narateer wound bandit 2""", context_settings={"ignore_unknown_options": True})
@click.argument("char")
@click.argument("n", type=int, default=1)
def wound_cmd(app, char, n):
    from ..engine.character import wound

    _dice_move(app, char, "wound", wound, n)


@command(help="""Heal N wounds: wounded dice return to Used (A-WOUND).

\b
Example:
  narateer heal bandit 1""", context_settings={"ignore_unknown_options": True})
@click.argument("char")
@click.argument("n", type=int, default=1)
def heal_cmd(app, char, n):
    from ..engine.character import heal

    _dice_move(app, char, "heal", heal, n)


@command(help="""Revert the last logged action: every file it replaced gets its previous bytes back.

The undo itself is appended to the log.

\b
Example:
  narateer undo""")
@click.argument("enc_id", required=False)
def undo_cmd(app, enc_id):
    from ..store import encounters, yamlio
    from ..store.campaign import parse_sheet

    with Session(app) as s:
        log_id = _log_id(s, enc_id)
        root = s.campaign.root
        path, record = encounters.latest_undo(root, log_id)
        encounters.check_undo(root, record, log_id)
        dice = {}
        for rel, text in record["before"].items():
            s.txn.write(root / rel, text)
            if rel.startswith("characters/") and text is not None:
                cid = rel[len("characters/"):-len(".yaml")]
                dice[cid] = parse_sheet(cid, yamlio.load_rt(text, rel), rel, s.rules).dice
        s.txn.write(path, None)
        data = {"encounter": log_id, "undone": record["seq"], "files": sorted(record["before"])}
        moves = {cid: (s.sheet(cid).dice, dice[cid]) for cid in dice}
        undoes = {"undoes": record.get("id") or record["seq"], "resumes": record.get("parent")}
        append_entry(s, log_id, "undo", None, undoes, data, moves)
        changed = s.txn.changed()
        s.commit()
        autocommit(s, changed, "undo", None, {}, data)
    emit(app, "undo", data)


@command(help="""Re-check an encounter log: totals, margins, outcomes, payments, dice before/after.

Reports the first inconsistency with its entry and exits 1.

\b
Example:
  narateer verify ambush""")
@click.argument("enc_id", required=False)
def verify_cmd(app, enc_id):
    from ..engine.verify import verify_log
    from ..store import encounters

    with Session(app, write=False) as s:
        log_id = _log_id(s, enc_id)
        hist = encounters.verify_log_file(s.campaign.root, log_id, lambda e: verify_log([e], s.rules))
        problem = hist.problem
    data = {"encounter": log_id, "entries": hist.count, "ok": problem is None, "problem": problem}
    emit(app, "verify", data)
    if problem:
        raise click.exceptions.Exit(1)


@command(group=encounter_cmd, name="join", help="""Add CHAR to the current encounter.

Anyone already hidden is compared with CHAR using the recorded Stealth
total, with no new Stealth roll (R-HIDE-3): by CHAR's Observation
Readiness, or by its own Observation check with --searching.

\b
Example:
  narateer encounter join beast
  narateer encounter join beast --searching --faces 1    (while someone is hidden)""")
@click.argument("char")
@click.option("--searching", is_flag=True, help="CHAR arrives actively searching.")
@click.option("--boost", type=int, default=0, help="Boost of CHAR's Observation check.")
@click.option("--faces", metavar="F", help="Faces of CHAR's Observation check (one set per hider).")
def encounter_join(app, char, searching, boost, faces):
    from ..engine.stealth import join

    nonneg("--boost", boost)
    with Session(app) as s:
        sc = scene(s, required=True)
        dice = dice_source(app, s.rules, **{f"obs:{char}": (faces, "--faces")})
        sc.new_state, compared, after = join(sc.state, s.sheet(char), searching, boost, s.rules, dice)
        data = {"encounter": sc.id, "observer": char, "compared": compared}
        moved = {char: after} if after != s.sheet(char).dice else {}
        finish(s, "encounter join", char, {"searching": searching, "boost": boost}, data, moved, sc)
    emit(app, "join", data)
