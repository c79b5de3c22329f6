"""What each Narateer verb declares, as data: one table per verb, each field written once.

A table gives the verb's options (in the order its help lists them), the Python API's keywords, the
declaration its log entry holds and, for a check, what `verify` reads back to replay it.
"""

from __future__ import annotations

from narateer_cli.kit import Declared, Option

# The target of a check: one of a number, another's Readiness, or a contested roll (logged as the target
# the check was compared with, not as given).
TARGET = Declared(
    Option(field="dr", names=("--dr",), metavar="N|TIER", logged=False,
           help="Target DR: a number or a tier (routine, challenging, ...)."),
    Option(field="vs", names=("--vs",), metavar="OTHER:SKILL", logged=False,
           help="Target is that creature's Readiness in SKILL."),
    Option(field="contested", names=("--contested",), metavar="OTHER:SKILL", logged=False,
           help="Both roll; the initiator must exceed the other's total."),
)

# A Skill Check's declaration: the options of every check command, the fields of the engine's Declaration,
# the logged declaration, and (`result`: its key in the logged check) what a replay reads back.
CHECK = Declared(
    Option(field="boost", names=("--boost",), type=int, default=0, show_default=True, result="boost",
           help="Extra AD, up to the Skill Level."),
    Option(field="bonus_dice", names=("--bonus-dice",), type=int, default=0, result="bonus_dice",
           help="Explicitly granted dice: rolled, not paid."),
    Option(field="cost", names=("--cost",), type=int, default=1, show_default=True, result="base_cost",
           help="Base cost in AD (0 allowed)."),
    Option(field="discount_base", names=("--discount-base",), type=int, default=0, result="discount_base",
           help="Discount on the base cost only (never below 0)."),
    Option(field="discount_boost", names=("--discount-boost",), type=int, default=0, result="discount_boost",
           help="Discount on the Boost payment."),
    Option(field="fee", names=("--fee",), type=int, default=0, result="fee",
           help="Additional AD fee (Slowed doubles it too)."),
    Option(field="advantage", names=("--advantage",), flag=True, default=False,
           help="Reroll every Miss in the Edge Phase."),
    Option(field="disadvantage", names=("--disadvantage",), flag=True, default=False,
           help="Disadvantage: reroll the dice the rules name (Criticals by default)."),
    Option(field="reaction", names=("--reaction",), flag=True, result="reaction",
           help="This check is a Reaction (no proactive use)."),
    Option(field="allow_boost", names=("--allow-boost",), flag=True, default=False,
           help="The Guide allows Boost on this Reaction (for `reaction_boost: false`)."),
    Option(field="power_reroll", names=("--power-reroll",), metavar="I,J", result="power_rerolled",
           help="Dice a power or item rerolls after Edge (0-based)."),
    # a dice stream, not a declaration: listed here so that help shows it beside the rerolls it feeds
    Option(field="power_faces", names=("--power-faces",), metavar="F", logged=False,
           help="Faces of those explicit rerolls."),
    Option(field="power", names=("--power",), metavar="NAME", logged=False, result="power",
           help="Record the Class Power used for this Event."),
)

# roll: a check, with an Assist, the other side of a contest, and what the command line does with it
ROLL = CHECK + Declared(
    Option(field="assist", names=("--assist",), metavar="HELPER", logged=False,
           help="HELPER's Assist Reaction (1 AD by default) gives this check Advantage."),
    Option(field="other_boost", names=("--other-boost",), type=int, default=0, logged=False,
           help="With --contested: the other side's Boost."),
    Option(field="other_faces", names=("--other-faces",), metavar="F", logged=False,
           help="With --contested: the other side's faces."),
    Option(field="other_reroll_faces", names=("--other-reroll-faces",), metavar="F", logged=False,
           help="With --contested: the other side's Edge rerolls."),
    Option(field="dry_run", names=("--dry-run",), flag=True, logged=False,
           help="Write nothing; show payment and exact chance for each Boost 0..SL."),
    Option(field="exit_code", names=("--exit-code",), flag=True, logged=False,
           help="Exit 1 when the check fails."),
)

# resolve: the declared Action and its path (a check's fields follow in `CHECK`); the entry logs the intent
# and the method as given, then the tier and path the command settles
RESOLVE = Declared(
    Option(field="intent", names=("--intent",), required=True, help="What the character wants to change."),
    Option(field="method", names=("--method",), help="How they try."),
    Option(field="tier", names=("--tier",), choices=("trivial", "minor", "major"), logged=False,
           help="Action tier (sets the cost)."),
    Option(field="auto", names=("--auto",), flag=True, logged=False,
           help="The outcome is certain: pay the tier's cost, no roll."),
    Option(field="impossible", names=("--impossible",), metavar="REASON", logged=False,
           help="Impossible as declared: spend nothing (exit 3)."),
    Option(field="check_skill", names=("--check",), metavar="SKILL", logged=False, keyword="check",
           help="Resolve with a Skill Check (a Major action)."),
)
