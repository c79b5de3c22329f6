"""The verbs every table shares, each one command of the host: `condition` and `heal`.

A game lists such a verb in `SYSTEM.verbs` with `kit.HOST_COMMAND` as its module. The host makes the click
command here, once per game: its arguments and options are the host's, with the game's words over them
(`Game.verb_words`: the help text, and click keywords per parameter, such as a `--rounds` the game bounds
itself or leaves out). Run, the command takes the lock and calls the game's method (`Game.condition`,
`Game.heal`), which computes the Outcome; the host writes it and renders it, as for every command.
"""

from __future__ import annotations

from typing import Any

import click

from .common import command

# verb -> its parameters in the order the game's method takes them: (name, the options' names (none: an
# argument), the host's click keywords)
PARAMETERS: dict[str, tuple[tuple[str, tuple[str, ...], dict[str, Any]], ...]] = {
    "condition": (("char", (), {}),
                  ("changes", (), {"nargs": -1, "type": click.UNPROCESSED}),
                  ("rounds", ("--rounds",), {"type": int})),
    "heal": (("char", (), {}),
             ("n", (), {"type": int})),
}

_MADE: dict[tuple[str, str], click.Command] = {}  # (game package, verb) -> its command, made once


def command_for(system, verb: str) -> click.Command:
    """The host's command of `verb` in this game's words."""
    key = (system.package, verb)
    if key not in _MADE:
        _MADE[key] = _make(system, verb)
    return _MADE[key]


def _make(system, verb: str) -> click.Command:
    words = dict((system.get("verb_words") or {}).get(verb) or {})
    method = system.require(verb)
    given = [name for name, _, _ in PARAMETERS[verb]]

    def run(s, **kwargs):
        return method(s, *(kwargs.get(name) for name in given))

    run.__name__ = f"{verb}_cmd"
    for name, opts, keywords in reversed(PARAMETERS[verb]):
        if name in words and words[name] is None:
            continue  # the game's verb has no such parameter: its method is given None
        made = {**keywords, **(words.get(name) or {})}
        if opts:
            run = click.option(*opts, name, **made)(run)
        else:
            run = click.argument(name, **made)(run)
    extra = {"context_settings": words["context_settings"]} if "context_settings" in words else {}
    return command(name=verb, writes=True, calls=method, help=words.get("help"), **extra)(run)
