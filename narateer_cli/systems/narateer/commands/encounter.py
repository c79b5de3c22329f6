"""Narateer's encounter commands: resolve, refresh, wound; what encounter show and join, turn start and end,
condition and heal do (the host owns those commands)."""

from __future__ import annotations

import click

from narateer_cli.kit import command, declared, faces_options, nonneg
from narateer_cli.kit import Outcome, Show
from narateer_cli.kit import plain
from narateer_cli.kit import pick_encounter
from narateer_cli.kit import current_encounter, encounter_for

from .checks import SPENT, check_in_encounter
from ..declarations import CHECK, RESOLVE, RESOLVE_FORM, TARGET
from .checks import declaration, dice_source, target_spec
from .checks import told


def encounter_show(s, enc_id):
    """`encounter show` (the host's command): round, who acts, uses left, dice, and who is hidden from whom."""
    from ..engine.encounter import encounter_view

    enc = pick_encounter(s, enc_id)
    return Show("encounter_show", encounter_view(enc.state, [s.sheet(cid) for cid in enc.state["participants"]]))


TURN_WORDS = {
    "turn": {"help": """Start and end activations in the current encounter; whoever acts names who acts next.

\b
Examples:
  narateer turn start selka
  narateer turn end --next sentry"""},
    "turn start": {"help": """Begin CHAR's activation: Used AD become Ready, uses = SL + 1 per skill.

\b
Example:
  narateer turn start selka"""},
    "turn end": {"help": """End the current activation; --next names who acts next.

\b
Example:
  narateer turn end --next sentry""", "next_id": {"help": "Who acts next (among those who have not acted)."}},
}


def turn_start(s, char, options):
    """`turn start` (the host's command): CHAR's activation begins; conditions that end now leave its sheet."""
    from ..engine.encounter import begin_activation

    enc = current_encounter(s, required=True)
    sheet = s.sheet(char)
    state, result = begin_activation(enc.state, sheet, s.rules)
    kept = {char: {"conditions": [c for c in sheet.conditions if c not in result.expired]}} if result.expired else {}
    if sheet.magic_dice:  # Magic Dice refresh with the activation only when the ruleset's magic knob says so
        from .cast import magic_at_activation

        kept = magic_at_activation(sheet, s.rules, kept)
    if sheet.traits:  # trait uses come back with the activation only when the ruleset's traits knob says so
        from .cast import traits_at_activation

        kept = traits_at_activation(sheet, s.rules, kept)
    return Outcome("turn start", char, {}, result, kind="turn_start", show=result, dice={char: result.dice_after},
                   sheets=kept, encounter=enc.id, state=state)


def turn_end(s, next_id, options):
    """`turn end` (the host's command): the activation ends; NEXT acts next."""
    from ..engine.encounter import end_activation

    enc = current_encounter(s, required=True)
    state, result = end_activation(enc.state, next_id)
    return Outcome("turn end", result.ended, {"next": next_id}, result, kind="turn_end", show=result, dice={},
                   encounter=enc.id, state=state)


@command(rolls=True, checks=True, writes=lambda given: given["impossible"] is None, shows=SPENT, form=RESOLVE_FORM, help="""Resolve a declared Action by its path: automatic, impossible (nothing spent) or a Skill Check.

\b
Examples:
  narateer resolve tarin --intent "open the door" --tier trivial --auto
  narateer resolve tarin --intent "cross the roof" --impossible "the roof is gone"   (exit 3, nothing spent)
  narateer resolve tarin --intent "force the door" --method "shoulder" --check athletics --dr challenging --boost 2""",
         context_settings={"show_default": False})
@click.argument("char")
@declared(RESOLVE, "action")
@declared(TARGET, "target")
@faces_options
@declared(CHECK)
def resolve_cmd(s, char, action, target, faces, reroll_faces, declared):
    from narateer_cli.kit import BadInput

    a = action
    paths = [p for p, on in (("auto", a.auto), ("impossible", a.impossible is not None), ("check", a.check_skill)) if on]
    if len(paths) != 1:
        raise BadInput("choose one resolution path", fix="give exactly one of --auto, --impossible REASON, --check SKILL")
    base = {"actor": char, **RESOLVE.logged(a)}  # the intent and the method
    sheet = s.sheet(char)
    if paths[0] == "impossible":
        from ..engine.actions import impossible as refuse

        refuse(a.impossible)
    if paths[0] == "auto":
        if any(x is not None for x in target.values()) or faces:
            raise BadInput("--auto takes no target or faces", fix="drop them, or use --check SKILL")
        given = click.get_current_context().get_parameter_source("cost") != click.core.ParameterSource.DEFAULT
        return _resolve_auto(s, sheet, base, a.tier or "trivial", declared.cost if given else None)
    return _resolve_check(s.app, s, sheet, base, a.tier, a.check_skill, target, (faces, reroll_faces),
                          declaration(a.check_skill, declared), declared.power_faces)


def _resolve_check(app, s, sheet, base: dict, tier, skill, target, faces, decl, power_faces):
    """Resolving by a Skill Check makes the action Major; the check is logged as the resolve."""
    from ..engine.actions import check_tier, resolved_by_check

    check_tier(tier)
    dice = dice_source(app, s.rules, faces=(faces[0], "--faces"), reroll=(faces[1], "--reroll-faces"),
                       power=(power_faces, "--power-faces"))
    outcome, logged = check_in_encounter(s, sheet, decl, target_spec(s, sheet.id, target), dice, None,
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
    return told("resolve", "resolve", sheet.id, {"intent": base["intent"], "method": base["method"], "tier": tier,
                                                 "cost": result.cost}, result, {sheet.id: result.dice_after}, enc,
                state=state)


CONDITION_HELP = """Add or remove conditions: +NAME adds, -NAME removes.

With --rounds N (in an encounter) the conditions added end by themselves at
the start of CHAR's activation N rounds later.

\b
Examples:
  narateer condition selka +slowed -stunned
  narateer condition bandit +stunned --rounds 2"""


HEAL_HELP = """Heal N wounds: wounded dice return to Used.

\b
Example:
  narateer heal bandit 1"""


# Narateer's words for the host's condition and heal commands (`Game.verb_words`)
WORDS = {
    "condition": {"help": CONDITION_HELP, "context_settings": {"ignore_unknown_options": True},
                  "rounds": {"help": "The added conditions end at the start of CHAR's activation N rounds later."}},
    "heal": {"help": HEAL_HELP, "context_settings": {"ignore_unknown_options": True}, "n": {"default": 1}},
    **TURN_WORDS,
}


def condition(s, char, changes, rounds):
    """`condition` (the host's command): the sheet's conditions, and when each timed one ends in the encounter."""
    from narateer_cli.kit import durations
    from ..engine.character import conditions_changed

    result = conditions_changed(s.sheet(char), changes, s.rules)
    enc, state = timed(s, char, rounds, changes)
    return Outcome("condition", char, {"changes": list(changes), "rounds": rounds}, result, kind="condition",
                   show={**plain(result), "rounds_left": durations.left(state, char)}, dice={},
                   sheets={char: {"conditions": result.conditions}}, encounter=None if enc is None else enc.id,
                   state=state)


def end_conditions(s, ended):
    """`encounter end` (the host's command): the timed conditions that end with the encounter leave the sheets."""
    sheets = {}
    for char, names in ended.items():
        conditions = s.sheet(char).conditions
        kept = [c for c in conditions if c not in names]
        if kept != list(conditions):
            sheets[char] = {"conditions": kept}
    return Outcome("encounter end", None, {}, {}, dice={}, sheets=sheets)


def timed(s, char, rounds, changes):
    """A condition added for N rounds ends by itself: when each ends, recorded in the encounter's new state (a
    removed one forgets its end); (the encounter CHAR is in, or None, and that state)."""
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
    if enc is None:
        return None, None
    named = [c[1:].lower() for c in changes if c[:1] in "+-"]  # re-added without --rounds: no end any more
    state = durations.drop(enc.state, char, named)
    if rounds is not None:
        state = durations.add(state, char, plus, rounds)
    return enc, state


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


@command(writes=True, help="""Return Used dice to Ready (--magic: the Magic Dice instead; --traits: every
class trait's uses back to its max).

\b
Examples:
  narateer refresh selka
  narateer refresh wren --magic
  narateer refresh bandit --traits""")
@click.argument("char")
@click.option("--magic", is_flag=True, help="Refresh the Magic Dice (as the ruleset's magic knob says), not the AD.")
@click.option("--traits", "traits", is_flag=True, help="Give every class trait its uses back, not the AD.")
def refresh_cmd(s, char, magic, traits):
    if magic and traits:
        from narateer_cli.kit import BadInput

        raise BadInput("--magic and --traits refresh different things", fix="give one of them")
    if traits:
        from .cast import refresh_traits

        return refresh_traits(s, char)
    if magic:
        from .cast import refresh_magic

        return refresh_magic(s, char)
    return _dice_move(s, char, "refresh")


@command(writes=True, help="""Wound CHAR N times: each moves one die from Ready (else Used) to wounded.

\b
Example:
  narateer wound bandit 2""", context_settings={"ignore_unknown_options": True})
@click.argument("char")
@click.argument("n", type=int, default=1)
def wound_cmd(s, char, n):
    return _dice_move(s, char, "wound", n)


def heal(s, char, n):
    """`heal` (the host's command): N wounded dice back to Used."""
    return _dice_move(s, char, "heal", n)


def encounter_join(s, char, options):
    """`encounter join` (the host's command): CHAR joins; anyone hidden is compared with it by the recorded Stealth
    total (a secret Hide's total unsealed here and sealed again in the new state)."""
    from ..engine.stealth import join
    from .stealth import SEALED_KEYS, resealed, sealed_for, unsealed

    searching, boost, faces = options["searching"], options["boost"], options["faces"]
    nonneg("--boost", boost)
    enc = current_encounter(s, required=True)
    dice = dice_source(s.app, s.rules, **{f"obs:{char}": (faces, "--faces")})
    state, sealed = unsealed(s, enc, list(enc.state["recorded"]))  # secret Hide totals
    state, result, after = join(state, s.sheet(char), searching, boost, s.rules, dice)
    moved = {char: after} if after != s.sheet(char).dice else {}
    secret = bool(sealed) or sealed_for(enc, list(enc.state["recorded"]))
    return Outcome("encounter join", char, {"searching": searching, "boost": boost}, result, kind="join", show=result,
                   dice=moved, encounter=enc.id, state=resealed(state, sealed), secret=secret,
                   private=SEALED_KEYS if secret else ())


ENCOUNTER_WORDS = {
    "encounter show": {"help": """Round, who acts, who has acted, uses left, dice, and who is hidden from whom.

\b
Example:
  narateer encounter show"""},
    "encounter join": {"help": """Add CHAR to the current encounter.

Anyone already hidden is compared with CHAR using the recorded Stealth
total, with no new Stealth roll: by CHAR's Observation
Readiness, or by its own Observation check with --searching.

\b
Example:
  narateer encounter join beast
  narateer encounter join beast --searching --faces 1    (while someone is hidden)""",
                       "options": (click.option("--searching", is_flag=True, help="CHAR arrives actively searching."),
                                   click.option("--boost", type=int, default=0, help="Boost of CHAR's Observation check."),
                                   click.option("--faces", metavar="F",
                                                help="Faces of CHAR's Observation check (one set per hider).")),
                       # compared with a secret Hide: the newcomer joins in sight of all, and whom it cannot see
                       # is its own to know; the total each hider is hidden from it by stays sealed
                       "shows": ("state.participants", "state.searches"), "seals": ("state.hidden.*.*",)},
}
