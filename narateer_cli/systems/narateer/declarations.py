"""What each Narateer verb declares, as data: one table per verb, each field written once.

A table gives the verb's options (in the order its help lists them), the Python API's keywords, the
declaration its log entry holds and, for a check, what `verify` reads back to replay it.
"""

from __future__ import annotations

from narateer_cli.kit import FACES, Declared, Option

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

# exchange: the attacker's declaration, the defender's answer, and the faces of both sides; the entry logs the
# defender (an argument) first
EXCHANGE = Declared(
    Option(field="response", names=("--response",), required=True, choices=("none", "guard", "clash"),
           help="The defender's Exchange Response."),
    Option(field="skill", names=("--skill",), logged=False, help="Attack skill (default: the ruleset's, melee)."),
    Option(field="weapon", names=("--weapon",), metavar="W",
           help="A weapon on the attacker's sheet (its attack_cost and damage)."),
    Option(field="boost", names=("--boost",), type=int, default=0, help="Attack Boost, up to SL."),
    Option(field="response_boost", names=("--response-boost",), type=int, default=0,
           help="Guard or Clash Boost, up to the defender's SL."),
    Option(field="cost", names=("--cost",), type=int, logged=False,
           help="Attack cost (default: the weapon's, else 1)."),
    Option(field="dr", names=("--dr",), type=int, logged=False,
           help="With --response none against a creature whose Readiness is off."),
    Option(field="advantage", names=("--advantage",), flag=True, logged=False),
    Option(field="disadvantage", names=("--disadvantage",), flag=True, logged=False),
) + FACES + Declared(
    Option(field="response_faces", names=("--response-faces",), metavar="F", logged=False,
           help="The defender's faces."),
    Option(field="response_reroll_faces", names=("--response-reroll-faces",), metavar="F", logged=False,
           help="The defender's Edge rerolls."),
    Option(field="response_weapon", names=("--response-weapon",), metavar="W",
           help="The weapon of a defender who Clashes (its damage if it lands)."),
    Option(field="apply_", names=("--apply",), flag=True, log_as="apply", keyword="apply",
           help="Wound whoever is hit by the weapon's damage in this command."),
    # logged only when given (`commands.combat`), so an entry without a trait reads as before
    Option(field="trait", names=("--trait",), metavar="NAME", logged=False,
           help="A trait of the defender declared with its Full Guard or Clash (it spends one use)."),
)

# react: a Reaction against a mover (or a trait after an Exchange); the entry logs its kind (an argument) first
REACT = Declared(
    Option(field="mover", names=("--against",), required=True, metavar="MOVER", log_as="against", keyword="against"),
    Option(field="boost", names=("--boost",), type=int, default=0),
    Option(field="allow_boost", names=("--allow-boost",), flag=True, logged=False,
           help="The Guide allows Boost on this Reaction (for `reaction_boost: false`)."),
    Option(field="weapon", names=("--weapon",), metavar="W",
           help="A weapon on CHAR's sheet: its attack cost and damage."),
    Option(field="apply_", names=("--apply",), flag=True, log_as="apply", keyword="apply",
           help="Wound the mover by the weapon's damage if it lands."),
    Option(field="trait", names=("--trait",), metavar="NAME", logged=False,
           help="A trait of CHAR: with `opportunity`, one that modifies the attack; with `trait`, one that "
                "triggers once the Exchange with --against has resolved. It spends one use."),
) + FACES

# hide: whom from, who searches, the hider's Stealth and the searching observers' own dice; the entry logs
# every observer (named by --from or --searching) as "from"
HIDE = Declared(
    Option(field="observers", names=("--from",), multiple=True, metavar="OBS", logged=False, keyword="from_",
           help="An observer (repeat)."),
    Option(field="searching", names=("--searching",), multiple=True, metavar="OBS",
           help="An observer actively searching (repeat)."),
    Option(field="boost", names=("--boost",), type=int, default=0, help="Stealth Boost, up to SL."),
    Option(field="advantage", names=("--advantage",), flag=True, logged=False),
    Option(field="disadvantage", names=("--disadvantage",), flag=True, logged=False),
) + FACES + Declared(
    Option(field="observer_faces", names=("--observer-faces",), multiple=True, metavar="OBS=F", logged=False,
           help="A searching observer's faces."),
    Option(field="observer_reroll_faces", names=("--observer-reroll-faces",), multiple=True, metavar="OBS=F",
           logged=False, help="A searching observer's Edge rerolls."),
    Option(field="observer_boost", names=("--observer-boost",), multiple=True, metavar="OBS=N", logged=False,
           help="A searching observer's Boost."),
)

# search: for whom, with what, and what changed since the last search
SEARCH = Declared(
    Option(field="hider", names=("--for",), required=True, metavar="HIDER", log_as="for", keyword="for_",
           help="The hidden creature."),
    Option(field="boost", names=("--boost",), type=int, default=0),
    Option(field="advantage", names=("--advantage",), flag=True, logged=False),
    Option(field="disadvantage", names=("--disadvantage",), flag=True, logged=False),
) + FACES + Declared(
    Option(field="changed", names=("--changed",), metavar="TEXT",
           help="What is different since the last search (a new method or evidence)."),
)

# How the acting page (`serve --act`) lays out each verb's form: the options a Guide gives most often first, in
# the order given; every other option folds under "more". The words a form shows for each parameter are the
# table's words, not the option names.
LABELS = {
    "skill": "Skill", "dr": "Difficulty (DR)", "vs": "Against a Readiness (OTHER:SKILL)",
    "contested": "Contested by (OTHER:SKILL)", "boost": "Boost", "bonus_dice": "Bonus dice", "cost": "Base cost (AD)",
    "discount_base": "Discount on the base cost", "discount_boost": "Discount on the Boost", "fee": "Fee (AD)",
    "reaction": "A Reaction", "allow_boost": "Boost allowed on this Reaction", "reroll_faces": "Faces of the Edge rerolls",
    "power_reroll": "Dice a power rerolls", "power_faces": "Faces of the power's rerolls", "power": "Class Power used",
    "assist": "Assisted by", "other_boost": "The other side's Boost", "other_faces": "The other side's faces",
    "other_reroll_faces": "The other side's Edge rerolls", "intent": "Intent", "method": "Method",
    "tier": "Action tier", "auto": "Certain (pay, no roll)", "impossible": "Impossible, because",
    "check_skill": "Check with skill", "observers": "Hiding from", "searching": "Observers searching actively",
    "observer_faces": "A searching observer's faces (OBS=F)", "observer_reroll_faces": "A searching observer's rerolls (OBS=F)",
    "observer_boost": "A searching observer's Boost (OBS=N)", "hider": "Searching for", "changed": "What changed since the last search",
    "attacker": "Attacker", "defender": "Defender", "response": "Defender's Response", "weapon": "Weapon",
    "response_boost": "Response Boost", "response_faces": "Defender's faces", "response_reroll_faces": "Defender's Edge rerolls",
    "response_weapon": "Defender's weapon (a Clash)", "apply_": "Apply the damage now", "kind": "Reaction",
    "mover": "Against (the mover)",
}
ROLL_FORM = {"common": ("dr", "vs", "boost", "advantage", "disadvantage", "reaction", "assist", "faces"),
             "labels": LABELS}
RESOLVE_FORM = {"common": ("method", "tier", "auto", "impossible", "check_skill", "dr", "vs", "boost", "advantage",
                           "disadvantage", "faces"), "labels": LABELS}
HIDE_FORM = {"common": ("observers", "searching", "boost", "advantage", "disadvantage", "faces"),
             "needs": ("observers",), "labels": LABELS}
SEARCH_FORM = {"common": ("boost", "advantage", "disadvantage", "faces", "changed"), "labels": LABELS}
EXCHANGE_FORM = {"common": ("weapon", "boost", "advantage", "disadvantage", "faces", "response_boost", "response_faces",
                            "response_weapon", "apply_"), "labels": LABELS}
REACT_FORM = {"common": ("weapon", "boost", "faces", "apply_"), "labels": LABELS}
