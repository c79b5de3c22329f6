"""What each Open Adventure verb declares, as data: one table per verb, each field written once.

A table gives the verb's options (in the order its help lists them) and the Python API's keywords; the
fields it logs are the check's `Declaration` record, which the table builds (`attr`: the record's name of a
field whose option reads otherwise).
"""

from __future__ import annotations

from narateer_cli.kit import Declared, Option

# An Action Check: everything `roll` and `resolve --check` declare, then what the command line does with it
CHECK = Declared(
    Option(field="ds", names=("--ds",), metavar="N|TIER", help="Difficulty Score, a number or a ladder tier."),
    Option(field="vs", names=("--vs",), metavar="TARGET:DEFENSE", help="The target's Defense is the Base DS."),
    Option(field="opposed", names=("--opposed",), metavar="OTHER:ATTRIBUTE",
           help="An opposed check: the opponent's total is the Base DS."),
    Option(field="drawback", names=("--drawback",), type=int, default=0, help="Drawbacks (+1 DS each)."),
    Option(field="defense_benefit", names=("--defense-benefit",), type=int, default=0,
           help="Benefits the Guide grants the Defense."),
    Option(field="mo", names=("--mo",), flag=True, help="Add the MO score (the action is part of the MO's training)."),
    Option(field="familiarity", names=("--familiarity",), flag=True,
           help="Familiarity: MO added, DS +1, no Specialization."),
    Option(field="specialization", attr="specializations", names=("--specialization",), multiple=True, metavar="S",
           help="An applicable Specialization, repeatable."),
    Option(field="benefit", names=("--benefit",), type=int, default=0, help="Benefits (+1 each)."),
    Option(field="bonus", attr="bonuses", names=("--bonus",), multiple=True, metavar="N|NAME",
           help="An item's or power's bonus, repeatable."),
    Option(field="time", names=("--time",), metavar="STEP", help="Time taken: each Time Chart step up is a Benefit."),
    Option(field="base_time", names=("--base-time",), metavar="STEP", help="The action's base time on the Time Chart."),
    Option(field="effect_bonus", attr="effect_bonuses", names=("--effect-bonus",), multiple=True, metavar="N|NAME",
           help="An Effect bonus, repeatable."),
    Option(field="stunt", names=("--stunt",), flag=True, help="A Stunt: points lost from the attribute's pool."),
    Option(field="targets", names=("--targets",), type=int, default=1, help="Targets at once (a Stunt)."),
    Option(field="outcomes", names=("--outcomes",), type=int, default=1, help="Outcomes at once (a Stunt)."),
    Option(field="compare", names=("--compare",), flag=True, help="Comparing Scores: AS against DS, no roll."),
    Option(field="faces", names=("--faces",), metavar="F", logged=False,
           help="Faces rolled at the table, one group per die; 4,6+3 (+ joins an explosion)."),
    Option(field="other_faces", names=("--other-faces",), metavar="F", logged=False,
           help="The opponent's faces, e.g. 2,5."),
    Option(field="other_benefit", names=("--other-benefit",), type=int, default=0,
           help="Benefits for the opposing side."),
    Option(field="apply", names=("--apply",), flag=True, logged=False,
           help="Lower the target's Challenge Points by the Effect (the --vs target, else the --opposed one)."),
    Option(field="mishap", names=("--mishap",), metavar="TEXT", help="The Guide's mishap, logged with a Critical Failure."),
    Option(field="dry_run", names=("--dry-run",), flag=True, logged=False,
           help="Show AS, dice, DS and the exact chance; roll and write nothing."),
    Option(field="exit_code", names=("--exit-code",), flag=True, logged=False, help="Exit 1 when the check fails."),
)

# resolve: the declared action and its path (a check's fields follow in `CHECK`); the entry logs the intent
# and the path the command settles
RESOLVE = Declared(
    Option(field="intent", names=("--intent",), required=True, metavar="TEXT",
           help="What the character does and wants."),
    Option(field="auto", names=("--auto",), flag=True, logged=False,
           help="No check: success is certain or nothing is at stake."),
    Option(field="impossible", names=("--impossible",), choices=("time", "materials", "world"), logged=False,
           help="No check: it cannot be done."),
    Option(field="maintain", names=("--maintain",), flag=True, logged=False,
           help="Hold a lasting success: spends this Turn's Major Action."),
    Option(field="use", names=("--check",), metavar="ATTRIBUTE|ACTION", logged=False, keyword="check",
           help="Resolve it with an Action Check."),
)

# How the acting page (`serve --act`) lays out each verb's form: the options a Guide gives most often first, in
# the order given; every other option folds under "more". The words a form shows for each parameter are the
# table's words, not the option names.
LABELS = {
    "use": "Attribute or action", "ds": "Difficulty Score (DS)", "vs": "Against a Defense (OTHER:DEFENSE)",
    "opposed": "Opposed by (OTHER:ATTRIBUTE)", "drawback": "Drawbacks", "defense_benefit": "Benefits to the Defense",
    "mo": "Add the MO", "familiarity": "Familiarity", "specialization": "Specializations", "benefit": "Benefits",
    "bonus": "Bonuses (items, powers)", "time": "Time taken", "base_time": "Base time", "effect_bonus": "Effect bonuses",
    "stunt": "A Stunt", "targets": "Targets at once", "outcomes": "Outcomes at once", "compare": "Compare scores (no roll)",
    "other_faces": "The opponent's faces", "other_benefit": "The opponent's Benefits", "mishap": "Mishap",
    "intent": "Intent", "auto": "Certain (no check)", "impossible": "Impossible", "maintain": "Maintain a success",
}
ROLL_FORM = {"common": ("ds", "vs", "opposed", "mo", "benefit", "drawback", "specialization", "faces"),
             "labels": LABELS}
RESOLVE_FORM = {"common": ("auto", "impossible", "maintain", "use", "ds", "vs", "mo", "benefit", "drawback", "faces"),
                "labels": {**LABELS, "use": "Check with (attribute or action)"}}
