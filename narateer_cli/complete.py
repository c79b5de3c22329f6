"""Shell completion from the campaign on disk, through click's own completion machinery.

`narateer completion bash|zsh|fish` prints click's script for that shell. When
the shell asks for candidates (`_NARATEER_COMPLETE` set, or the `narateer
shell` prompt), `LazyGroup.get_command` hands each command to `attach`, which
gives its parameters completers by name: the host completes character ids and
encounter ids; everything game-specific (skills, attributes, cards, weapons,
conditions, tiers) comes from the system's `complete` hook. Nothing here is
imported by an ordinary command.
"""

from __future__ import annotations

import os

from .systems.base import HOST_PARAMS as PARAMS  # what the host's parameter names hold; a system adds its `params`

ENV = "_NARATEER_COMPLETE"
PROG = "narateer"
ACTIVE = False  # set by the shell, which completes without the environment variable


LINE: list = []  # the words before the one being completed (see `register`)


def register():
    """Click's bash/zsh/fish completers, noting the words typed so far: click's resilient parse drops every
    value when the line ends in an option waiting for its value (`exchange mira bandit --weapon `)."""
    from click.shell_completion import BashComplete, FishComplete, ZshComplete, add_completion_class

    for base in (BashComplete, ZshComplete, FishComplete):
        add_completion_class(type(base.__name__, (_Noting, base), {}), base.name)


class _Noting:
    def get_completions(self, args, incomplete):
        LINE[:] = list(args)
        return super().get_completions(args, incomplete)


def typed(ctx) -> dict:
    """The command's parameters as typed so far, even when the line ends in an option without its value."""
    params = dict(ctx.params)
    words = LINE[:]
    if ctx.info_name not in words:
        return params
    words = words[len(words) - words[::-1].index(ctx.info_name):]
    if words and words[-1].startswith("-"):
        words = words[:-1]
    try:
        again = ctx.command.make_context(ctx.info_name, words, parent=ctx.parent, resilient_parsing=True)
    except Exception:
        return params
    return {k: v for k, v in again.params.items() if v not in (None, (), [])} | \
        {k: v for k, v in params.items() if v not in (None, (), [])}


def active() -> bool:
    return ACTIVE or ENV in os.environ


def script(shell: str) -> str:
    """The completion script for `shell`, as click writes it for this program."""
    from click.shell_completion import get_completion_class

    from .cli import cli

    cls = get_completion_class(shell)
    return cls(cli, {}, PROG, ENV).source()


def attach(command):
    """Give a command's parameters (and its subcommands', for a group) their completers by name."""
    import click

    for param in getattr(command, "params", ()):
        if isinstance(param.type, click.Choice) or param.type in (click.INT, click.BOOL) or \
                getattr(param, "is_flag", False):
            continue
        param._custom_shell_complete = _completer(param.name)
    for sub in getattr(command, "commands", {}).values():
        attach(sub)
    return command


def _completer(name: str):
    """Candidates that start with what is typed; one holding a control character is never offered:
    the shell would print it raw in its list, and no command could be typed with it."""
    from .safetext import printable

    def complete(ctx, param, incomplete):
        try:
            return [c for c in candidates(ctx, name, incomplete) if c.startswith(incomplete) and printable(c) == c]
        except Exception:  # completion never breaks the shell: a broken sheet completes nothing
            return []

    return complete


def candidates(ctx, name: str, incomplete: str) -> list[str]:
    """What may stand in parameter `name`, read from the campaign on disk."""
    campaign = _campaign(ctx)
    if campaign is None:
        return []
    params = typed(ctx)
    kind, _, what = {**PARAMS, **campaign.system.params}.get(name, "").partition(":")
    if kind == "character":
        return campaign.sheet_ids()
    if kind == "encounter":
        return encounter_ids(campaign.root)
    if kind == "pair":
        who, sep, _ = incomplete.partition(":")
        if not sep:
            return [f"{cid}:" for cid in campaign.sheet_ids()]
        params = {**params, "char": who}
        return [f"{who}:{s}" for s in _system(campaign, what, params)]
    if kind == "signed":
        return [sign + c for c in _system(campaign, what, params) for sign in ("+", "-")]
    return _system(campaign, name, params)


def _system(campaign, name: str, params: dict) -> list[str]:
    hook = campaign.system.hook("complete")
    if hook is None:
        return []
    return list(hook(name, campaign, params) or [])


def alias_items(root, incomplete: str, verbs) -> list:
    """The campaign's aliases starting with `incomplete`, each with the command line it runs;
    a name that is a verb stays the verb's (an alias never shadows one)."""
    from click.shell_completion import CompletionItem

    from .aliases import aliases
    from .safetext import printable

    try:
        table = aliases(root)
    except Exception:  # a broken narateer.yaml completes no alias, never breaks the shell
        return []
    return [CompletionItem(name, help=f"alias: {printable(line)}") for name, line in table.items()
            if name.startswith(incomplete) and name not in verbs and printable(name) == name]


def encounter_ids(root) -> list[str]:
    folder = root / "encounters"
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.yaml") if not p.name.endswith(".log.yaml") and p.stem != "campaign")


def _campaign(ctx):
    from .errors import NarateerError
    from .store.campaign import Campaign, find_root

    root_ctx = ctx.find_root()
    given = root_ctx.params.get("campaign_dir")
    try:
        return Campaign(find_root(given))
    except NarateerError:
        return None
