"""The verbs every table shares, each one command of the host: `condition`, `heal`, `turn start`, `turn end`,
`new` (and `new --from`), `encounter show` and `encounter join`, and `dice`.

A game lists such a verb in `SYSTEM.verbs` with `kit.HOST_COMMAND` as its module. The host makes the click
command here, once per game: its arguments and options are the host's, with the game's words over them
(`Game.verb_words(verb)`, keyed by the command's words: the help text, click keywords per parameter, such as a
`--rounds` the game bounds itself or leaves out, the game's own further options, and what a secret outcome
shows and seals, as `command(shows=..., seals=...)` takes them). Run, the command takes
the lock and calls the game's method (`Game.condition`, `Game.heal`, `Game.turn_start`, `Game.turn_end`),
which computes the Outcome; the host writes it and renders it, as for every command.
"""

from __future__ import annotations

from typing import Any

import click

from ..cli import Group
from .common import Session, command

# command -> the game's method, and the parameters the host gives it in the order the method takes them:
# (name, the option's names (none: an argument), the host's click keywords). A method of a command in
# OPTIONED is given one more argument: the values of the game's own options, by name.
COMMANDS: dict[str, tuple[str, tuple[tuple[str, tuple[str, ...], dict[str, Any]], ...]]] = {
    "condition": ("condition", (("char", (), {}),
                                ("changes", (), {"nargs": -1, "type": click.UNPROCESSED}),
                                ("rounds", ("--rounds",), {"type": int}))),
    "heal": ("heal", (("char", (), {}),
                      ("n", (), {"type": int}))),
    "turn start": ("turn_start", (("char", (), {}),)),
    "turn end": ("turn_end", (("next_id", ("--next",), {"metavar": "CHAR"}),)),
    "encounter join": ("encounter_join", (("char", (), {}),)),
    "dice": ("dice", ()),  # every argument and option is the game's
}
# `new ID` (the game's `new`) and `new ID --from OTHER [--count N]` (the host's copies, the game's `copied`):
# the game's own options go between --name and --from
NEW = ((("char_id", (), {}), ("name", ("--name",), {})),
       (("source", ("--from",), {"metavar": "OTHER"}), ("count", ("--count",), {"type": int})))
OPTIONED = ("turn start", "turn end", "encounter join", "dice")
ROLLS = ("dice",)  # a command that rolls and writes nothing (its method is given the App; a secret roll is logged)
GROUPS = {"turn": ("turn start", "turn end")}  # a verb that is a group of the host's commands

_MADE: dict[tuple[object, str], click.Command] = {}  # (the game object, verb) -> its command, made once


def command_for(system, verb: str) -> click.Command:
    """The host's command of `verb` in this game's words."""
    key = (system.game, verb)  # a game loaded again (its package re-imported) gets commands of its own
    if key not in _MADE:
        words = system.get("verb_words")(verb) or {}
        if verb == "new":
            _MADE[key] = _new(system, dict(words.get("new") or {}))
        elif verb == "encounter":
            _MADE[key] = _encounter(system, words)
        else:
            _MADE[key] = _group(system, verb, words) if verb in GROUPS else _make(system, verb, words)
    return _MADE[key]


def _group(system, verb: str, words: dict) -> click.Group:
    """A group of the host's commands; the game's own subcommands beside them (`commands`: click commands)."""
    said = dict(words.get(verb) or {})
    group = Group(verb, help=said.get("help"))
    for name in GROUPS[verb]:
        group.add_command(_make(system, name, words, name.split()[-1]))
    for own in said.get("commands", ()):
        group.add_command(own)
    return group


def _make(system, verb: str, words: dict, name: str | None = None) -> click.Command:
    """One command: the host's parameters in the game's words, then the game's own options (`options`: click
    option decorators, whose values reach the method as keywords)."""
    said = dict(words.get(verb) or {})
    method_name, parameters = COMMANDS[verb]
    method = system.require(method_name)
    given = [name for name, _, _ in parameters]

    def run(s, **kwargs):
        values = [kwargs.pop(name, None) for name in given]
        return method(s, *values, kwargs) if verb in OPTIONED else method(s, *values)

    run.__name__ = f"{verb.replace(' ', '_')}_cmd"
    run = _parameters(_parameters(run, (), said, said.get("options", ())), parameters, said)
    extra = {"context_settings": said["context_settings"]} if "context_settings" in said else {}
    if verb == "dice":
        extra["cls"] = ExpressionDice
    rolls = verb in ROLLS and said.get("rolls", True)  # `rolls: False`: a game's dice that nothing logs, even secret
    made = command(name=name or verb, rolls=rolls, writes=verb not in ROLLS, calls=method, help=said.get("help"),
                   shows=said.get("shows", ()), seals=said.get("seals", ()), **extra)(run)
    if verb == "dice" and any(isinstance(p, click.Argument) and p.type is not click.STRING for p in made.params):
        made.help = (made.help or "").rstrip() + "\n\n" + EXPRESSION_HELP
    return made


EXPRESSION_HELP = """A dice expression rolls those dice instead, in every game:

\b
  narateer dice 2d6+3       (or d20, d6+d8-1)"""


class ExpressionDice(click.Command):
    """`dice`: the game's own command, or, when its argument takes a number and is given a dice expression
    (`2d6+3`), the host's roll of that expression (`narateer_cli.dice`), with `--faces` and the options
    every command has. A bare number keeps meaning the game's own dice."""

    def parse_args(self, ctx, args):
        from ..dice import looks_like_expression as looks_like

        try:
            return super().parse_args(ctx, list(args))
        except click.BadParameter as exc:
            if not isinstance(exc.param, click.Argument) or not any(looks_like(a) for a in args):
                raise
        ctx.params.clear()
        ctx.meta[_EXPRESSION] = True  # the context of this one command line
        try:
            return expression_command().parse_args(ctx, args)
        except click.UsageError as exc:
            raise click.UsageError(f"{exc.format_message()}: a dice expression takes only --faces beside the options "
                                   "every command has (the game's own dice take a number)", ctx) from None

    def invoke(self, ctx):
        if ctx.meta.get(_EXPRESSION):
            return ctx.invoke(expression_command().callback, **ctx.params)
        return super().invoke(ctx)


_EXPRESSION = "narateer.dice_expression"
_EXPRESSION_COMMAND: list = []


def expression_command() -> click.Command:
    """The host's `dice EXPR [--faces F]`, made once."""
    if not _EXPRESSION_COMMAND:
        def dice_cmd(app, expr, faces):
            from ..dice import roll_expression as roll
            from ..outcome import Outcome
            from ..render import HostKind

            result = roll(expr, faces, app.rng())
            return Outcome("dice expression", None, {"dice": expr, "faces": faces}, result,
                           kind=HostKind.dice_expression,
                           show=result,
                           public=("expr", "dice"), declared_public=("dice",))  # logged only when secret

        run = click.option("--faces", metavar="F", help="The faces rolled at the table, in dice order.")(dice_cmd)
        _EXPRESSION_COMMAND.append(command(name="dice", rolls=True, help=EXPRESSION_HELP)(click.argument("expr")(run)))
    return _EXPRESSION_COMMAND[0]


def _parameters(run, parameters, said: dict, options=()):
    """`run` with the host's parameters in the game's words, each before the ones already on it, and the
    game's own options (click decorators) after them."""
    for option in reversed(options):
        run = option(run)
    for key, opts, keywords in reversed(parameters):
        if key in said and said[key] is None:
            continue  # the game's verb has no such parameter: its method is given None
        made = {**keywords, **(said.get(key) or {})}
        if opts:
            run = click.option(*opts, key, **made)(run)
        else:
            run = click.argument(key, **made)(run)
    return run


def _new(system, said: dict) -> click.Command:
    """`new`: a sheet made by the game (`Game.new`), or copies of another sheet with fresh counters made by the
    host (`Game.fresh_sheet` says what fresh is), logged as the game's `Game.copied` says. The game's words
    may name its options that do not go with --from (`alone`, refused in its words `alone_words`), the
    character its fix names (`example`), and a check of its options made first (`refuse`)."""
    copied = system.require("copied")

    def new_cmd(s, char_id, name=None, source=None, count=None, **options):
        from ..errors import BadInput
        from .copying import sheet_copies

        if said.get("refuse") is not None:
            said["refuse"](options)
        if source is None and count is None:
            return system.require("new")(s, char_id, name, options)
        if source is None:
            raise BadInput("--count needs --from OTHER",
                           fix=f"for example narateer new {char_id} --from {said.get('example', 'OTHER')} --count 3")
        if any(_given(options.get(key)) for key in said.get("alone", ())):
            raise BadInput(said["alone_words"], fix="copy first, then edit the copies' sheets")
        return copied(s, source, count, sheet_copies(s, source, char_id, count, name))

    first, last = NEW
    run = _parameters(new_cmd, last, said)
    run = _parameters(run, first, said, said.get("options", ()))
    return command(name="new", writes=True, calls=system.hook("new") or copied, help=said.get("help"))(run)


def _encounter(system, words: dict) -> click.Group:
    """`encounter`: the host's new, show, log and end (each with the game's help when it gives one), `show` made
    by the game's `encounter_show` and `join` by its `encounter_join` when it gives them, and the game's own
    subcommands (`commands` of its `encounter` words) in place of the host's of the same name."""
    from .encounters import ENCOUNTER_HELP, HOST_SUBCOMMANDS, host_command

    said = dict(words.get("encounter") or {})
    group = Group("encounter", help=said.get("help", ENCOUNTER_HELP))
    for name in HOST_SUBCOMMANDS:
        own = (words.get(f"encounter {name}") or {}).get("help")
        group.add_command(HOST_SUBCOMMANDS[name] if own is None else host_command(f"encounter_{name}", own))
    show = system.hook("encounter_show")
    if show is not None:
        group.add_command(_shown(show, dict(words.get("encounter show") or {})))
    if system.hook("encounter_join") is not None:
        group.add_command(_make(system, "encounter join", words, "join"))
    for own in said.get("commands", ()):
        group.add_command(own)
    return group


def _shown(method, said: dict) -> click.Command:
    """`encounter show [ID]` read through the game's `encounter_show`, which returns the Show the host prints."""

    def encounter_show(app, enc_id):
        with Session(app, write=False) as s:
            return method(s, enc_id)

    run = _parameters(encounter_show, (("enc_id", (), {"required": False}),), said, said.get("options", ()))
    return command(name="show", calls=method, help=said.get("help"))(run)


def _given(value) -> bool:
    """Whether an option was given: not its absence (None), an unset flag (False) or no repeats (())."""
    return not (value is None or value is False or value == ())
