"""Narateer's encounter commands: encounter show and join, turn, resolve, condition, refresh, wound, heal."""

from __future__ import annotations

import click

from narateer_cli.kit import Group, Session, command, emit, nonneg
from narateer_cli.kit import Show
from narateer_cli.kit import plain
from narateer_cli.kit import encounter_group, pick_encounter
from narateer_cli.kit import current_encounter, encounter_for

from .checks import check_in_encounter
from .checks import check_options, declaration, dice_source, target_options, target_spec
from .checks import told


encounter_cmd = encounter_group()  # the host's new, log and end; show and join are Narateer's


@command(group=encounter_cmd, name="show", help="""Round, who acts, who has acted, uses left, dice, and who is hidden from whom.

\b
Example:
  narateer encounter show""")
@click.argument("enc_id", required=False)
def encounter_show(app, enc_id):
    from ..engine.encounter import encounter_view

    with Session(app, write=False) as s:
        enc = pick_encounter(s, enc_id)
        result = encounter_view(enc.state, [s.sheet(cid) for cid in enc.state["participants"]])
    emit(app, "encounter_show", result)


@click.group(cls=Group, name="turn", help="""Start and end activations in the current encounter; whoever acts names who acts next.

\b
Examples:
  narateer turn start selka
  narateer turn end --next sentry""")
def turn_cmd():
    pass


@command(group=turn_cmd, name="start", writes=True, help="""Begin CHAR's activation: Used AD become Ready, uses = SL + 1 per skill.

\b
Example:
  narateer turn start selka""")
@click.argument("char")
def turn_start(s, char):
    from ..engine.encounter import begin_activation

    enc = current_encounter(s, required=True)
    sheet = s.sheet(char)
    enc.new_state, result = begin_activation(enc.state, sheet, s.rules)
    kept = {char: {"conditions": [c for c in sheet.conditions if c not in result.expired]}} if result.expired else {}
    return told("turn_start", "turn start", char, {}, result, {char: result.dice_after}, enc, sheets=kept)


@command(group=turn_cmd, name="end", writes=True, help="""End the current activation; --next names who acts next.

\b
Example:
  narateer turn end --next sentry""")
@click.option("--next", "next_id", metavar="CHAR", help="Who acts next (among those who have not acted).")
def turn_end(s, next_id):
    from ..engine.encounter import end_activation

    enc = current_encounter(s, required=True)
    enc.new_state, result = end_activation(enc.state, next_id)
    return told("turn_end", "turn end", result.ended, {"next": next_id}, result, {}, enc)


@command(rolls=True, writes=lambda given: given["impossible"] is None, help="""Resolve a declared Action by its path: automatic, impossible (nothing spent) or a Skill Check.

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
def resolve_cmd(s, char, intent, method, tier, auto, impossible, check_skill, dr, vs, contested, declared, power_faces,
                faces, reroll_faces):
    from narateer_cli.kit import BadInput

    paths = [p for p, on in (("auto", auto), ("impossible", impossible is not None), ("check", check_skill)) if on]
    if len(paths) != 1:
        raise BadInput("choose one resolution path", fix="give exactly one of --auto, --impossible REASON, --check SKILL")
    base = {"actor": char, "intent": intent, "method": method}
    sheet = s.sheet(char)
    if paths[0] == "impossible":
        from ..engine.actions import impossible as refuse

        refuse(impossible)
    if paths[0] == "auto":
        if any(x is not None for x in (dr, vs, contested)) or faces:
            raise BadInput("--auto takes no target or faces", fix="drop them, or use --check SKILL")
        given = click.get_current_context().get_parameter_source("cost") != click.core.ParameterSource.DEFAULT
        return _resolve_auto(s, sheet, base, tier or "trivial", declared["cost"] if given else None)
    return _resolve_check(s.app, s, sheet, base, tier, check_skill, (dr, vs, contested), (faces, reroll_faces),
                          declaration(check_skill, declared), power_faces)


def _resolve_check(app, s, sheet, base: dict, tier, skill, targets, faces, decl, power_faces):
    """Resolving by a Skill Check makes the action Major; the check is logged as the resolve."""
    from ..engine.actions import check_tier, resolved_by_check

    check_tier(tier)
    dice = dice_source(app, s.rules, faces=(faces[0], "--faces"), reroll=(faces[1], "--reroll-faces"),
                       power=(power_faces, "--power-faces"))
    outcome, logged = check_in_encounter(s, sheet, decl, target_spec(s, sheet.id, *targets), dice, None,
                                         command="resolve", extra={"intent": base["intent"],
                                                                   "method": base["method"], "tier": "major",
                                                                   "path": "check"})
    from ..engine.actions import CheckOutcome

    return logged.replace(kind="resolve", show=resolved_by_check(sheet.id, base["intent"], base["method"], outcome),
                          public=("intent", "method", "tier", "path", *(f"check.{p}" for p in CheckOutcome.declared_paths())))


def _resolve_auto(s, sheet, base: dict, tier: str, cost):
    """An action that happens without a check pays its tier's cost, inside the actor's activation when in an
    encounter."""
    from ..engine.actions import resolve_auto_in

    nonneg("--cost", cost, s.rules.max_roll_dice)
    enc = encounter_for(s, sheet.id)
    state, result = resolve_auto_in(enc.state if enc else None, sheet, base["intent"], base["method"], tier, cost,
                                    s.rules)
    if enc is not None:
        assert state is not None  # resolve_auto_in gives a state back when given one
        enc.new_state = state
    return told("resolve", "resolve", sheet.id, {"intent": base["intent"], "method": base["method"], "tier": tier,
                                                 "cost": result.cost}, result, {sheet.id: result.dice_after}, enc)


@command(writes=True, help="""Add or remove conditions: +NAME adds, -NAME removes.

With --rounds N (in an encounter) the conditions added end by themselves at
the start of CHAR's activation N rounds later.

\b
Examples:
  narateer condition selka +slowed -stunned
  narateer condition bandit +stunned --rounds 2""", context_settings={"ignore_unknown_options": True})
@click.argument("char")
@click.argument("changes", nargs=-1, type=click.UNPROCESSED)
@click.option("--rounds", type=int, help="The added conditions end at the start of CHAR's activation N rounds later.")
def condition_cmd(s, char, changes, rounds):
    from narateer_cli.kit import durations
    from ..engine.character import conditions_changed

    result = conditions_changed(s.sheet(char), changes, s.rules)
    enc = timed(s, char, rounds, changes)
    return told("condition", "condition", char, {"changes": list(changes), "rounds": rounds}, result, {}, enc,
                sheets={char: {"conditions": result.conditions}},
                show={**plain(result), "rounds_left": durations.left(enc and enc.new_state, char)})


def timed(s, char, rounds, changes):
    """A condition added for N rounds ends by itself: record when each ends (a removed one forgets its end)."""
    from narateer_cli.kit import durations
    from narateer_cli.kit import BadInput

    enc = encounter_for(s, char)
    plus = [c[1:].lower() for c in changes if c[:1] == "+"]
    if rounds is not None:
        nonneg("--rounds", rounds, 1000)
        if enc is None:
            raise BadInput(f"--rounds needs {char} in the current encounter", rule="T-DURATION",
                           fix=f"add {char} to an encounter, or drop --rounds")
        if not plus or rounds < 1:
            raise BadInput("--rounds needs at least one +CONDITION and N of 1 or more", rule="T-DURATION",
                           fix=f"for example narateer condition {char} +stunned --rounds 2")
    if enc is not None:
        named = [c[1:].lower() for c in changes if c[:1] in "+-"]  # re-added without --rounds: no end any more
        enc.new_state = durations.drop(enc.state, char, named)
        if rounds is not None:
            enc.new_state = durations.add(enc.new_state, char, plus, rounds)
    return enc


def mark_out(s, char, moved) -> dict:
    """A character wounded past its dice is out of the fight: one whose every die is wounded gets the ruleset's
    out-of-the-fight condition (the sheet edit, {} when none)."""
    if moved is not None and getattr(moved, "out", None):
        return {char: {"conditions": [*s.sheet(char).conditions, moved.out]}}
    return {}


def _dice_move(s, char, verb, count=None):
    """refresh / wound / heal: one engine call (used dice back to ready, a die wounded or healed), logged."""
    from ..engine.character import move_dice

    if count is not None:
        nonneg("N", count, s.rules.max_state_dice)
    result = move_dice(s.sheet(char), verb, count, s.rules)
    return told(verb, verb, char, {"count": count}, result, {char: result.dice_after}, encounter_for(s, char),
                sheets=mark_out(s, char, result))


@command(writes=True, help="""Return Used dice to Ready.

\b
Example:
  narateer refresh selka""")
@click.argument("char")
def refresh_cmd(s, char):
    return _dice_move(s, char, "refresh")


@command(writes=True, help="""Wound CHAR N times: each moves one die from Ready (else Used) to wounded.

\b
Example:
  narateer wound bandit 2""", context_settings={"ignore_unknown_options": True})
@click.argument("char")
@click.argument("n", type=int, default=1)
def wound_cmd(s, char, n):
    return _dice_move(s, char, "wound", n)


@command(writes=True, help="""Heal N wounds: wounded dice return to Used.

\b
Example:
  narateer heal bandit 1""", context_settings={"ignore_unknown_options": True})
@click.argument("char")
@click.argument("n", type=int, default=1)
def heal_cmd(s, char, n):
    return _dice_move(s, char, "heal", n)


@command(group=encounter_cmd, name="join", writes=True, help="""Add CHAR to the current encounter.

Anyone already hidden is compared with CHAR using the recorded Stealth
total, with no new Stealth roll: by CHAR's Observation
Readiness, or by its own Observation check with --searching.

\b
Example:
  narateer encounter join beast
  narateer encounter join beast --searching --faces 1    (while someone is hidden)""")
@click.argument("char")
@click.option("--searching", is_flag=True, help="CHAR arrives actively searching.")
@click.option("--boost", type=int, default=0, help="Boost of CHAR's Observation check.")
@click.option("--faces", metavar="F", help="Faces of CHAR's Observation check (one set per hider).")
def encounter_join(s, char, searching, boost, faces):
    from ..engine.stealth import join
    from .stealth import SEALED_KEYS, resealed, unsealed

    nonneg("--boost", boost)
    enc = current_encounter(s, required=True)
    dice = dice_source(s.app, s.rules, **{f"obs:{char}": (faces, "--faces")})
    state, sealed = unsealed(s, enc, list(enc.state["recorded"]))  # secret Hide totals
    enc.new_state, result, after = join(state, s.sheet(char), searching, boost, s.rules, dice)
    enc.new_state = resealed(enc.new_state, sealed)
    moved = {char: after} if after != s.sheet(char).dice else {}
    return told("join", "encounter join", char, {"searching": searching, "boost": boost}, result, moved, enc,
                secret=bool(sealed), private=SEALED_KEYS if sealed else ())
