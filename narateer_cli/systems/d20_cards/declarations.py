"""What each d20-cards verb declares, as data: one table per verb, each field written once.

A table gives the verb's options (in the order its help lists them), the Python API's keywords and the
fields of the `Declaration` record (`attr`: the record's name of a field whose option reads otherwise); the
entry logs the record's fields that were given, and the dice streams the table marks as logged.
"""

from __future__ import annotations

from narateer_cli.kit import Declared, Option

# Whom a card is aimed at and how: `act` and `odds` declare the same
AIM = Declared(
    Option(field="target", attr="targets", names=("--target",), multiple=True, metavar="T",
           help="A target, in order (repeat)."),
    Option(field="distance", names=("--distance",), multiple=True, metavar="M|T=M",
           help="Metres to every target, or to T."),
    Option(field="unseen", names=("--unseen",), multiple=True, metavar="T", help="The performer cannot see T."),
    Option(field="unheard", names=("--unheard",), multiple=True, metavar="T", help="T cannot hear the performer."),
    Option(field="advantage", names=("--advantage",), flag=True, help="Two d20, keep the higher (both edges cancel)."),
    Option(field="disadvantage", names=("--disadvantage",), flag=True, help="Two d20, keep the lower."),
    Option(field="mod", names=("--mod",), type=int, default=0, help="A modifier to each attack roll (may be negative)."),
)

# act: the card's own choices, what the command line does with it, and the dice read at the table (each a
# stream the entry logs when given)
ACT = Declared(
    Option(field="companion", names=("--companion",), metavar="ID",
           help="The companion that performs a Companionship card."),
    Option(field="drop_concentration", names=("--drop-concentration",), flag=True,
           help="End the current Concentration first."),
    Option(field="reveal", names=("--reveal",), flag=True,
           help="Accept that a card that is not Discreet ends hiding (needed when the rules say `discreet: refuse`)."),
    Option(field="trigger", names=("--trigger",), metavar="TEXT", help="What triggered a Reaction (logged)."),
    Option(field="dry_run", names=("--dry-run",), flag=True, logged=False,
           help="List every gate and the odds; roll and write nothing."),
    Option(field="exit_code", names=("--exit-code",), flag=True, logged=False,
           help="Exit 1 when the card landed on no target."),
    Option(field="faces", names=("--faces",), metavar="F",
           help="The performer's d20s: one per target (two each under an edge)."),
    Option(field="evolutionary_face", names=("--evolutionary-face",), metavar="N", help="The Evolutionary d20."),
    Option(field="save_faces", names=("--save-faces",), multiple=True, metavar="T=F", help="A target's save d20."),
    Option(field="damage_faces", names=("--damage-faces",), metavar="F", help="Damage dice faces, in dice order."),
    Option(field="concentration_faces", names=("--concentration-faces",), multiple=True, metavar="T=F",
           help="A concentrating victim's d20."),
)

# How the acting page (`serve --act`) lays out the form of `act`: the options a Guide gives most often first, in
# the order given; every other option folds under "more". The words a form shows for each parameter are the
# table's words, not the option names.
LABELS = {
    "card": "Action card", "target": "Targets, in order", "distance": "Distance in metres (M, or T=M)",
    "unseen": "Targets the performer cannot see", "unheard": "Targets that cannot hear the performer",
    "mod": "Modifier to each attack roll", "companion": "Companion performing it", "drop_concentration": "End Concentration first",
    "reveal": "Accept ending hiding", "trigger": "What triggered this Reaction", "faces": "The performer's d20 faces",
    "evolutionary_face": "The Evolutionary d20", "save_faces": "Targets' save d20s (T=F)", "damage_faces": "Damage dice faces",
    "concentration_faces": "A concentrating victim's d20 (T=F)",
}
ACT_FORM = {"common": ("target", "distance", "advantage", "disadvantage", "mod", "faces", "damage_faces", "save_faces"),
            "labels": LABELS}
