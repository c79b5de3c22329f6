"""Acting from the page (`serve --act`, SPEC Part 10): the forms, who may run what, and the one way in.

B-1: the Guide's form for each verb is built from that verb's own click parameters (`forms`), never a second
list of options; an action is the command line's words (`argv`), run through the Python API (S-SYS-12), so it
takes the campaign lock, is logged, sealed, committed and undoable exactly as from the shell, and its answer
is the CLI's words. B-2: a player's link is bound to one character; it offers only the verbs that roll
for an actor (`rolls`), with that character as the actor, and the game's own rules refuse what is not theirs
to do now (another's activation, a reaction not owed). B-3: `Actions.run` is the only writer: one at a time
in this process, every request's nonce used once, and the campaign lock shared with the shell.
"""

from __future__ import annotations

import threading
from pathlib import Path

import click

# the shared options the page never offers: --json (the page shows words), and the Guide's own (a player's
# roll is the table's: no chosen seed, no secret, no other encounter, no commit of their own)
HIDDEN = {"as_json"}
GUIDE_ONLY = {"secret", "seed", "in_encounter", "git_commit"}
HOST_ACTIONS = ("undo", "unveil")  # the host's verbs the Guide's screen runs as buttons (B-1)
ARG_LIMIT = 64  # words in one action
WORD_LIMIT = 400  # characters in one word


class Refusal(Exception):
    """An action the page may not run (B-2, B-3): nothing is run, nothing is written."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def _system_commands(root: Path) -> list[tuple[str, click.Command]]:
    """(words, command) of every verb of the campaign's game, a group's subcommands as `group sub`."""
    from ..store.campaign import Campaign

    system = Campaign(root).system
    out = []
    for verb in system.verbs:
        cmd = system.command(verb)
        if isinstance(cmd, click.Group):
            out.extend((f"{verb} {sub}", cmd.commands[sub]) for sub in sorted(cmd.commands))
        elif cmd is not None:
            out.append((verb, cmd))
    return out


def _param(p: click.Parameter) -> dict:
    """One field of a verb's form, from its click parameter."""
    role = "argument" if isinstance(p, click.Argument) else "flag" if getattr(p, "is_flag", False) else "option"
    ptype = p.type
    field = {"name": p.name, "role": role, "flag": (p.opts[0] if role != "argument" else None),
             "required": bool(p.required), "many": bool(getattr(p, "multiple", False) or p.nargs == -1),
             "type": "choice" if isinstance(ptype, click.Choice) else "int" if isinstance(ptype, (click.types.IntParamType, click.IntRange)) else "text",
             "help": getattr(p, "help", None) or "", "label": (getattr(p, "metavar", None) or p.name).lower()}
    if isinstance(ptype, click.Choice):
        field["choices"] = list(ptype.choices)
    return field


def _form(words: str, cmd: click.Command, player: bool) -> dict:
    skip = HIDDEN | (GUIDE_ONLY if player else set())
    fields = [_param(p) for p in cmd.params if p.name not in skip and not getattr(p, "hidden", False)
              and p.name is not None]
    # the verb's arguments first, then its own options, then the shared ones (--secret, --seed, ...)
    fields.sort(key=lambda f: (f["role"] != "argument", f["name"] in GUIDE_ONLY))
    return {"verb": words, "help": (cmd.help or "").split("\n")[0], "fields": fields,
            "odds": any(f["name"] == "dry_run" for f in fields), "rolls": bool(getattr(cmd, "rolls", False))}


def is_player_verb(cmd: click.Command) -> bool:
    """B-2: a verb a player may run for their character: it rolls, it can write, and its first argument
    is the one who acts."""
    first = next((p for p in cmd.params if isinstance(p, click.Argument)), None)
    return bool(getattr(cmd, "rolls", False)) and bool(getattr(cmd, "writes", False)) and first is not None \
        and first.nargs == 1


def forms(root: Path, player: str | None = None) -> list[dict]:
    """The forms the page draws: every verb of the game for the Guide, the player's verbs for a player."""
    out = []
    for words, cmd in _system_commands(root):
        if player is not None and not is_player_verb(cmd):
            continue
        out.append(_form(words, cmd, player is not None))
    return out


def _words_ok(argv) -> bool:
    return isinstance(argv, list) and 0 < len(argv) <= ARG_LIMIT and \
        all(isinstance(w, str) and 0 < len(w) <= WORD_LIMIT and "\x00" not in w for w in argv)


def check_argv(root: Path, argv, player: str | None = None) -> list[str]:
    """The action's words, when this screen may run them (else Refusal, 403 or 400): a verb of the game
    (or undo/unveil for the Guide); for a player, one of their verbs with their own character first and
    none of the Guide's options."""
    if not _words_ok(argv):
        raise Refusal(400, "an action is a list of words (the command line's), at most "
                           f"{ARG_LIMIT}, each 1 to {WORD_LIMIT} characters")
    if argv[0].startswith("-"):
        raise Refusal(400, "an action starts with its verb")
    commands = dict(_system_commands(root))
    two = " ".join(argv[:2])
    words, rest = (two, argv[2:]) if two in commands else (argv[0], argv[1:])
    if player is None:
        if words in commands or argv[0] in HOST_ACTIONS:
            return argv
        raise Refusal(403, f"{argv[0]!r} is not a verb the Guide's screen runs")
    _check_player(commands.get(words), words, rest, player)
    return argv


def _check_player(cmd, words: str, rest: list, player: str):
    """B-2: one of the player's verbs, their own character first, none of the Guide's options."""
    if cmd is None or not is_player_verb(cmd):
        raise Refusal(403, f"a player runs only their own character's checks, not {words!r}")
    if not rest or rest[0] != player:
        raise Refusal(403, f"this link acts for {player} only")
    own = {o for p in cmd.params if p.name in GUIDE_ONLY for o in p.opts}
    if any(w.split("=", 1)[0] in own for w in rest):
        raise Refusal(403, "only the Guide chooses --secret, --seed, --in or --commit")


def choices(root: Path, model: dict, cid: str) -> dict:
    """B-2: {now: whose turn it is, in words for this player; choices: the game's `choices` hook for them}."""
    from ..errors import NarateerError
    from ..store import encounters
    from ..store.campaign import Campaign

    actor, enc_id = model.get("actor"), model.get("encounter")
    if not enc_id:
        return {"now": "No encounter is running.", "choices": []}
    now = "It is your turn to act." if actor == cid else f"{actor} acts now." if actor else "Nobody acts now."
    campaign = Campaign(root)
    hook = campaign.system.hook("choices")
    try:
        found = hook(encounters.load_state(root, enc_id, campaign.system), cid, campaign.rules) if hook else []
    except NarateerError:
        found = []
    return {"now": now, "choices": [c for c in found if isinstance(c, dict) and c.get("argv")]}


class Actions:
    """The page's one way to write (B-3): each action once (its nonce), one at a time, through the API."""

    def __init__(self, root: Path, players: dict[str, str]):
        self.root = root
        self.players = players  # token -> character id (B-2: new at every start)
        self.lock = threading.Lock()
        self.seen: set[str] = set()

    def run(self, argv: list[str], nonce: str, player: str | None = None, asked=None) -> dict:
        """Run one action; its answer as the page shows it: {ok, words, result, json} or {ok: False, error}
        (with `ask`: the next die to type, T-ASK; `asked` are the faces typed so far)."""
        argv = check_argv(self.root, argv, player)
        if asked is not None and not (_words_ok(asked) or asked == []):
            raise Refusal(400, "the faces typed so far are a list of words")
        from ..api import open_campaign
        from ..errors import NarateerError

        with self.lock:
            if not isinstance(nonce, str) or not 8 <= len(nonce) <= 64 or nonce in self.seen:
                raise Refusal(409, "this request was already run (or carries no nonce): nothing was done again")
            self.seen.add(nonce)
            try:
                result = open_campaign(self.root).run(*argv, asked=asked)
            except NarateerError as exc:
                return {"ok": False, "error": exc.line(), "exit": exc.exit_code, "ask": getattr(exc, "wanted", None)}
        if result is None:
            return {"ok": True, "words": "", "result": None, "json": None}
        return {"ok": True, "words": result.words(), "result": result.kind, "json": result.to_json(),
                "stderr": list(result.notes)}
