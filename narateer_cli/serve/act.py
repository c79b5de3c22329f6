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


def _suggestions(campaign, name: str) -> list[str]:
    """What shell completion offers for parameter `name` (T-COMPLETE): the page's list for that field."""
    from ..complete import PARAMS, _system, encounter_ids

    kind = {**PARAMS, **campaign.system.params}.get(name, "").partition(":")[0]
    try:
        if kind == "character" or kind == "pair":
            return campaign.sheet_ids()
        if kind == "encounter":
            return encounter_ids(campaign.root)
        return [] if kind else _system(campaign, name, {})[:200]
    except Exception:  # noqa: BLE001 - a list to pick from is a help, never a reason the form fails
        return []


def _form(words: str, cmd: click.Command, player: bool, campaign) -> dict:
    skip = HIDDEN | (GUIDE_ONLY if player else set())
    fields = [_param(p) for p in cmd.params if p.name not in skip and not getattr(p, "hidden", False)
              and p.name is not None]
    for field in fields:
        if field["role"] != "flag" and field["type"] != "choice":
            field["suggest"] = _suggestions(campaign, field["name"])
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
    """The forms the page draws: every verb of the game for the Guide, the player's verbs for a player.
    A Guide's form names the fields another participant may answer (`answer`, the game's `answered_by`)."""
    from ..store.campaign import Campaign

    out = []
    answers = _answers(root)
    campaign = Campaign(root)
    for words, cmd in _system_commands(root):
        if player is not None and not is_player_verb(cmd):
            continue
        form = _form(words, cmd, player is not None, campaign)
        if player is None and words in answers:
            form["answer"] = {"by": answers[words][0], "fields": list(answers[words][1])}
        out.append(form)
    return out


def _answers(root: Path) -> dict:
    from ..store.campaign import Campaign

    found = Campaign(root).system.hook("answered_by")
    return found if isinstance(found, dict) else {}


def _argument(cmd: click.Command, rest: list[str], name: str) -> str | None:
    """The word of `rest` (the words after the verb) that is the command's argument `name`: arguments are
    counted among the words that are no option or an option's value."""
    values = {o for p in cmd.params if isinstance(p, click.Option) and not p.is_flag for o in p.opts}
    positional, skip = [], False
    for word in rest:
        if skip:
            skip = False
        elif word.startswith("-"):
            skip = word in values
        else:
            positional.append(word)
    names = [p.name for p in cmd.params if isinstance(p, click.Argument)]
    return positional[names.index(name)] if name in names and names.index(name) < len(positional) else None


def _secret(argv: list[str]) -> bool:
    """Whether the words ask for a secret roll (--secret, before any `--`)."""
    words = argv[:argv.index("--")] if "--" in argv else argv
    return any(w.split("=", 1)[0] == "--secret" for w in words)


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


def choices(root: Path, model: dict, cid: str, waiting: dict | None = None) -> dict:
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
    out = [c for c in found if isinstance(c, dict) and c.get("argv")]
    if waiting:  # B-2: the Guide declared an action this player answers
        named = next((i for i, w in enumerate(waiting["argv"]) if w.startswith("-")), len(waiting["argv"]))
        # the declaration's verb and who, not its options: the attacker's typed faces stay the Guide's
        out.insert(0, {"text": f"The Guide declared `{' '.join(waiting['argv'][:named])}`: your answer is needed",
                       "answer": {"id": waiting["id"], "verb": waiting["verb"], "fields": waiting["fields"]}})
    return {"now": now, "choices": out}


class Actions:
    """The page's one way to write (B-3): each action once (its nonce), one at a time, through the API."""

    def __init__(self, root: Path, players: dict[str, str]):
        self.root = root
        self.players = players  # token -> character id (B-2: new at every start)
        self.lock = threading.Lock()
        self.seen: set[str] = set()
        # B-2: actions the Guide declared that a player answers, by that player's character (in memory: a
        # declaration waiting for its answer is no part of the campaign until the whole action runs)
        self.waiting: dict[str, dict] = {}

    def declare(self, argv: list[str], nonce: str) -> dict:
        """The Guide declares an action whose `answered_by` fields another participant chooses: it waits for
        that player's link (nothing runs, nothing is written)."""
        argv = check_argv(self.root, argv)
        commands = dict(_system_commands(self.root))
        words = " ".join(argv[:2]) if " ".join(argv[:2]) in commands else argv[0]
        spec = _answers(self.root).get(words)
        if spec is None:
            raise Refusal(400, f"nobody else answers {words!r}: run it")
        cmd = commands[words]
        who = _argument(cmd, argv[len(words.split()):], spec[0])
        if who not in self.players.values():
            raise Refusal(400, f"{who} has no player's link: choose the answer yourself and run it")
        theirs = {o for p in cmd.params if p.name in spec[1] for o in p.opts}
        if any(w.split("=", 1)[0] in theirs for w in argv):
            raise Refusal(400, f"leave {', '.join(sorted(theirs))} to {who}")
        with self.lock:
            self._once(nonce)
            self.waiting[who] = {"id": nonce, "argv": argv, "verb": words,
                                 "fields": [_param(p) for p in cmd.params if p.name in spec[1]]}
        return {"ok": True, "words": f"waiting for {who} to answer", "result": None, "json": None}

    def answer(self, player: str, ident, words, nonce: str) -> dict:
        """B-2: the player answers the action the Guide declared for them: the whole action runs once."""
        waiting = self.waiting.get(player)
        if waiting is None or ident != waiting["id"]:
            raise Refusal(409, "nothing is waiting for your answer (or it was already answered)")
        if not (words == [] or _words_ok(words)):
            raise Refusal(400, "an answer is a list of words")
        flags = {f["flag"] for f in waiting["fields"]}
        if any(w.startswith("-") and w.split("=", 1)[0] not in flags for w in words):
            raise Refusal(403, f"an answer gives only {', '.join(sorted(flags))}")
        with self.lock:  # the declaration is this answer's alone while it runs: a second answer at once is 409
            if self.waiting.get(player) is not waiting:
                raise Refusal(409, "nothing is waiting for your answer (or it was already answered)")
            del self.waiting[player]
        answer = None
        try:
            answer = self.run(waiting["argv"] + words, nonce)
        finally:
            if not (answer or {}).get("ok"):  # refused or failed: it waits for a better answer
                with self.lock:
                    self.waiting.setdefault(player, waiting)
        if answer.get("ok") and _secret(waiting["argv"]):
            # P-SECRET: the player is told what the party's log says, not the sealed result
            return {"ok": True, "words": "your answer was taken: the Guide rolled this in secret", "result": None,
                    "json": None}
        return answer

    def _once(self, nonce):
        if not isinstance(nonce, str) or not 8 <= len(nonce) <= 64 or nonce in self.seen:
            raise Refusal(409, "this request was already run (or carries no nonce): nothing was done again")
        self.seen.add(nonce)

    def run(self, argv: list[str], nonce: str, player: str | None = None, asked=None) -> dict:
        """Run one action; its answer as the page shows it: {ok, words, result, json} or {ok: False, error}
        (with `ask`: the next die to type, T-ASK; `asked` are the faces typed so far)."""
        argv = check_argv(self.root, argv, player)
        if asked is not None and not (_words_ok(asked) or asked == []):
            raise Refusal(400, "the faces typed so far are a list of words")
        from ..api import open_campaign
        from ..errors import NarateerError

        with self.lock:
            self._once(nonce)
            try:
                result = open_campaign(self.root).run(*argv, asked=asked)
            except NarateerError as exc:
                return {"ok": False, "error": exc.line(), "exit": exc.exit_code, "ask": getattr(exc, "wanted", None)}
        if result is None:
            return {"ok": True, "words": "", "result": None, "json": None}
        return {"ok": True, "words": result.words(), "result": result.kind, "json": result.to_json(),
                "stderr": list(result.notes)}
