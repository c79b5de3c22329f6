"""Shared pieces of Open Adventure's commands: ruleset lookup, refs, Narateer-only options."""

from __future__ import annotations

import click

from narateer_cli.kit import BadInput

# What a secret check shows in the encounter's state: the Actions it spent this Turn (the actor's, and the
# opponent's Major Action that resisting uses), as the table sees them (`command(shows=...)`)
SPENT = ("state.major", "state.minor", "state.spent")
# the encounter a help example starts before a command that needs one (the example campaign's cast)
GATE = "narateer encounter new gate warheart amicus orc --reaction warheart=9 --reaction amicus=7"
# Narateer-only options: name -> (takes a value?, pointer)
NARATEER_FLAGS = {"--boost": (True, "raise the AS with --benefit N or --bonus N"),
                  "--advantage": (False, "add a Benefit with --benefit 1"),
                  "--disadvantage": (False, "add a Drawback with --drawback 1"),
                  "--vital": (True, "use --attribute K=V"), "--skill": (True, "name an attribute or --specialization S"),
                  "--dice": (True, "the AS picks the dice from the Action Chart (`chart`)"),
                  "--dr": (True, "use --ds N or a tier (`ds` lists them)"),
                  "--reroll-faces": (True, "nothing is rerolled: an exploding die is one chain in --faces, e.g. 6+2")}
# the same options on `dice AS` and `odds AS`, which take the Action Score itself
BARE_POINTERS = {"--boost": "a Benefit adds 1 to the AS: give the AS it makes",
                 "--advantage": "a Benefit adds 1 to the AS: give the AS it makes",
                 "--disadvantage": "a Drawback adds 1 to the DS: give `odds AS --ds N+1`",
                 "--vital": "give the AS as a number (`show CHAR` lists each attribute's)",
                 "--skill": "give the AS as a number (`show CHAR` lists each attribute's)",
                 "--dr": "use `odds AS --ds N` or a tier (`ds` lists them)"}


def narateer_flags(fn):
    """Accept Narateer's options only to say (exit 2) what to use instead."""
    for flag, (value, _) in NARATEER_FLAGS.items():
        dest = "nf_" + flag.strip("-").replace("-", "_")
        if value:
            fn = click.option(flag, dest, hidden=True, default=None)(fn)
        else:
            fn = click.option(flag, dest, hidden=True, is_flag=True, default=False)(fn)
    return fn


def refuse_narateer_flags(kwargs: dict, pointers: dict | None = None):
    """Exit 2 for the first Narateer option given, with what to use instead (`pointers` overrides the
    roll's own); the options are taken out of `kwargs`."""
    for flag, (value, pointer) in NARATEER_FLAGS.items():
        given = kwargs.pop("nf_" + flag.strip("-").replace("-", "_"), None)
        if given not in (None, False):
            raise BadInput(f"{flag} is a narateer-system option; this campaign plays open-adventure",
                           rule="S-SYS-3", fix=(pointers or {}).get(flag, pointer))


def rules_of(s):
    """The campaign's ruleset, or the shipped one outside a campaign (dice, odds, chart, ds)."""
    try:
        return s.campaign.rules
    except BadInput:
        from . import SYSTEM

        return SYSTEM.ruleset({}, "defaults")


def split_ref(text: str, option: str, what: str) -> tuple[str, str]:
    who, sep, name = (text or "").partition(":")
    if not sep or not who or not name:
        raise BadInput(f"{option} {text!r} must be {what}", fix=f"for example {option} goblin:body")
    return who, name


def answer(kind: str, value, exit: int = 0):
    """What a command returns: its Outcome, rendered as `kind` (one of `render.FORMATTERS`) once the host has
    written it, or a record that changes nothing."""
    from narateer_cli.kit import Outcome, Show

    if isinstance(value, Outcome):
        return value.replace(kind=kind, exit=exit)
    return Show(kind, value)


def whole(text, option: str) -> int:
    try:
        return int(str(text))
    except ValueError:
        raise BadInput(f"{option} {text!r} is not a whole number", fix=f"give {option} N") from None
