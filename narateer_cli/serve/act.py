"""Acting from the page (`serve --act`): the forms, who may run what, and the one way in.

The Guide's form for each verb is built from that verb's own click parameters (`forms`), never a second
list of options; an action is the command line's words (`argv`), run through the Python API, so it
takes the campaign lock, is logged, sealed, committed and undoable exactly as from the shell, and its answer
is the CLI's words. A player's link is bound to one character. Which choices are a player's is the
game's word: `player_verbs` ({verb: the actor's own parameters}) are what a player runs unprompted, with their
character first and only those options (never a target number, a bonus, another creature's dice or faces:
those are the Guide's rulings); `answered_by` ({verb: {role: its own parameters}}) are what the Guide may
declare and leave to the player in a role (a check's Boost and faces, an exchange's Response). The game's
rules refuse what is not theirs to do now (another's activation, a reaction not owed), and a player is told
only what the party may see. Another creature's die in a player's action is rolled here, or, as the game's
`others_dice` (or narateer.yaml's) says, held for the Guide to type it (`Actions.rolls`, in memory: nothing
is written until the whole action runs once). `Actions.run` is the only writer: every request's nonce used once, and the
campaign lock shared with the shell. Two actions may run at once: each API call has output of its own, and
their writes to the campaign take its lock one at a time.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

import click

# the shared options the page never offers: --json (the page shows words), and the Guide's own (a player's
# roll is the table's: no chosen seed, no secret, no other encounter, no commit of their own)
HIDDEN = {"as_json"}
GUIDE_ONLY = {"secret", "seed", "in_encounter", "git_commit"}
HOST_ACTIONS = ("undo", "unveil")  # the host's verbs the Guide's screen runs as buttons
ARG_LIMIT = 64  # words in one action
WORD_LIMIT = 400  # characters in one word
NOT_WAITING = "nothing is waiting for your answer (or it was already answered)"


class Refusal(Exception):
    """An action the page may not run (not the player's, or an unsafe request): nothing is run, nothing is written."""

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


def _param(p: click.Parameter, labels: dict | None = None) -> dict:
    """One field of a verb's form, from its click parameter (`labels`: the words the verb declares for some)."""
    role = "argument" if isinstance(p, click.Argument) else "flag" if getattr(p, "is_flag", False) else "option"
    ptype = p.type
    field = {"name": p.name, "role": role, "flag": (p.opts[0] if role != "argument" else None),
             "required": bool(p.required), "many": bool(getattr(p, "multiple", False) or p.nargs == -1),
             "type": "choice" if isinstance(ptype, click.Choice) else "int" if isinstance(ptype, (click.types.IntParamType, click.IntRange)) else "text",
             "help": getattr(p, "help", None) or "", "label": label(p, labels or {})}
    if isinstance(ptype, click.Choice):
        field["choices"] = list(ptype.choices)
    return field


# the words a form shows for the host's own parameters and for parameters every game names alike; a verb's
# own labels (its `form`) come first, and any other parameter is named by its option in words
HOST_LABELS = {"secret": "Secret roll",
               "seed": "Seed (the same dice again)",
               "in_encounter": "Encounter (not the current one)", "git_commit": "Commit the change to git",
               "exit_code": "Exit status 1 when it fails", "dry_run": "Odds only (nothing written)",
               "faces": "Faces rolled at the table", "reroll_faces": "Faces of the rerolls",
               "char": "Character", "chars": "Characters", "char_id": "New character's id", "actor": "Character",
               "actors": "Characters", "enc_id": "Encounter", "n": "Number", "changes": "Conditions (+name adds, -name removes)",
               "source": "Copy of", "count": "How many copies", "next_id": "Who is next"}
# shown with a verb's common options, after them, whatever it declares: a roll made in secret
SHOWN = ("secret",)
# folded under "more" in every verb (unless required): what a Guide at the table rarely gives
RARE = ("exit_code", "seed", "in_encounter", "git_commit")


def label(p: click.Parameter, labels: dict) -> str:
    """The words a form shows for parameter `p`: the verb's own label, the host's, else its option (or, when
    the option is one word, its name) in words: `--keep-conditions` is "Keep conditions"."""
    if p.name in labels:
        return labels[p.name]
    if p.name in HOST_LABELS:
        return HOST_LABELS[p.name]
    words = p.name or ""
    if isinstance(p, click.Option) and "-" in p.opts[0].lstrip("-"):
        words = p.opts[0].lstrip("-")
    words = words.rstrip("_").replace("_", " ").replace("-", " ")
    return words[:1].upper() + words[1:]


def _suggestions(campaign, name: str) -> list[str]:
    """What shell completion offers for parameter `name`: the page's list for that field."""
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


def _seen(campaign, found: list, visible) -> list:
    """Of the names offered, the characters a player's party sees (every name for the Guide)."""
    if visible is None:
        return found
    everyone = set(campaign.sheet_ids())
    return [name for name in found if name.split(":")[0] in visible or name not in everyone]


def _form(words: str, cmd: click.Command, campaign, own=None, visible=None) -> dict:
    """A verb's form: every parameter (the Guide's), or for a player its arguments and `own` options, the
    characters offered only those the party sees (`visible`), laid out as the verb declares (`_layout`)."""
    declared = getattr(cmd, "form", None) or {"common": (), "needs": (), "labels": {}}
    fields = [_param(p, declared["labels"]) for p in cmd.params if _offered(p, own)]
    for field in fields:
        if field["role"] != "flag" and field["type"] != "choice":
            field["suggest"] = _seen(campaign, _suggestions(campaign, field["name"]), visible)
    return {"verb": words, "help": (cmd.help or "").split("\n")[0], "fields": _layout(fields, declared),
            "odds": any(f["name"] == "dry_run" for f in fields), "rolls": bool(getattr(cmd, "rolls", False))}


def _offered(p: click.Parameter, own) -> bool:
    """Whether a form offers parameter `p`: not the page's own (--json), nor hidden; for a player (`own`: their
    options) an argument or one of theirs."""
    return p.name is not None and p.name not in HIDDEN and not getattr(p, "hidden", False) and \
        (own is None or isinstance(p, click.Argument) or p.name in own)


def _layout(fields: list, declared: dict) -> list:
    """The fields in the order a form shows them, each `more` when it folds under the form's "more": with the
    verb's `common` options declared, every option outside them (and `SHOWN`); else the options a Guide
    rarely gives (`RARE`). An argument, a required field, or one the verb's rules need (`needs`) never folds."""
    common, needs = list(declared["common"]), set(declared["needs"])
    common += [name for name in SHOWN if common and name not in common]
    for field in fields:
        field["needed"] = field["required"] or field["name"] in needs
        kept = field["role"] == "argument" or field["needed"] or field["name"] == "dry_run"
        field["more"] = not kept and (field["name"] not in common if common else field["name"] in RARE)

    def place(f):
        # the verb's arguments, then what it needs, then its common options in their declared order, then
        # the rest in the command's order, the shared ones (--secret, --seed, ...) last
        return (f["role"] != "argument", not f["needed"], f["more"],
                common.index(f["name"]) if f["name"] in common else len(common), f["name"] in GUIDE_ONLY)

    return sorted(fields, key=place)


def forms(root: Path, player: str | None = None, visible=None) -> list[dict]:
    """The forms the page draws: every verb of the game for the Guide, each naming the roles it may leave to
    a player (`answer`: the game's `answered_by`); a player's own verbs for a player (`player_verbs`)."""
    from ..store.campaign import Campaign

    campaign = Campaign(root)
    answers, own = _table(campaign.system.hook("answered_by")), _player_verbs(campaign)
    out = []
    for words, cmd in _system_commands(root):
        if player is None:
            form = _form(words, cmd, campaign)
            if isinstance(answers.get(words), dict):
                form["answer"] = {role: list(names) for role, names in answers[words].items()}
        elif words in own:
            form = _form(words, cmd, campaign, set(own[words]), visible)
            form["odds"] = False  # odds would show the Guide's numbers (a target's Readiness, a DR)
        else:
            continue
        out.append(form)
    return out


def _table(found) -> dict:
    """A game's value hook that maps verbs to parameter names ({} when it gives none)."""
    return found if isinstance(found, dict) else {}


def _answers(root: Path) -> dict:
    from ..store.campaign import Campaign

    return _table(Campaign(root).system.hook("answered_by"))


def waits_for_guide(root: Path) -> frozenset:
    """The options of another creature's dice that, in a player's action, wait for the Guide to type them: the
    game's `others_dice` declaration, each option as narateer.yaml's `others_dice` sets it when it does."""
    from ..store.campaign import Campaign

    campaign = Campaign(root)
    declared = _table(campaign.system.hook("others_dice"))
    chosen = _table(campaign.config().get("others_dice"))
    return frozenset(option for option, mode in declared.items() if chosen.get(option, mode) == "guide")


def _player_verbs(campaign) -> dict:
    return _table(campaign.system.hook("player_verbs"))


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


def _only_player_role(cmd, rest: list[str], roles: dict, linked: set) -> str | None:
    """The one role of the declared action whose character has a player's link (None: none, or several)."""
    found = [role for role in roles if _argument(cmd, rest, role) in linked]
    return found[0] if len(found) == 1 else None


def _secret(argv: list[str]) -> bool:
    """Whether the words ask for a secret roll (--secret, before any `--`)."""
    words = argv[:argv.index("--")] if "--" in argv else argv
    return any(w.split("=", 1)[0] == "--secret" for w in words)


def _words_ok(argv) -> bool:
    return isinstance(argv, list) and 0 < len(argv) <= ARG_LIMIT and \
        all(isinstance(w, str) and 0 < len(w) <= WORD_LIMIT and "\x00" not in w for w in argv)


def check_argv(root: Path, argv, player: str | None = None, visible=None) -> list[str]:
    """The action's words, when this screen may run them (else Refusal, 403 or 400): a verb of the game
    (or undo/unveil for the Guide); for a player, one of their verbs with their own character first, none of
    the Guide's options, and any creature it names one the party sees (`visible`, when given)."""
    if not _words_ok(argv):
        raise Refusal(400, "an action is a list of words (the command line's), at most "
                           f"{ARG_LIMIT}, each 1 to {WORD_LIMIT} characters")
    if argv[0].startswith("-"):
        raise Refusal(400, "an action starts with its verb")
    commands = dict(_system_commands(root))
    words, rest = verb_of(commands, argv)
    if player is None:
        if words in commands or argv[0] in HOST_ACTIONS:
            return argv
        raise Refusal(403, f"{argv[0]!r} is not a verb the Guide's screen runs")
    from ..store.campaign import Campaign

    campaign = Campaign(root)
    own = _player_verbs(campaign).get(words)
    _check_player(commands.get(words) if own is not None else None, words, rest, player, own or ())
    if visible is not None:
        _check_seen(campaign, commands[words], rest, set(own or ()), set(visible) | {player})
    return argv


def _check_seen(campaign, cmd: click.Command, rest: list[str], own: set, visible: set):
    """A creature a player's own option names (whom to search for, a card's target) is one the party sees: a
    creature hidden from the party is the Guide's to bring into play."""
    from ..complete import PARAMS

    kinds = {**PARAMS, **campaign.system.params}
    named = {o: p for p in cmd.params if p.name in own and isinstance(p, click.Option) and not p.is_flag
             and kinds.get(p.name, "").partition(":")[0] in ("character", "pair") for o in p.opts}
    for at, word in enumerate(rest):
        flag, eq, value = word.partition("=")
        if flag not in named or not (eq or at + 1 < len(rest)):
            continue
        who = (value if eq else rest[at + 1]).split(":")[0]
        if who not in visible:
            raise Refusal(403, f"{flag} names someone your party does not see: choose among those on your page")


def verb_of(commands: dict, argv: list[str]) -> tuple[str, list[str]]:
    """(the verb's words, the words after it): a group's verb is two words (`turn start`)."""
    two = " ".join(argv[:2])
    return (two, argv[2:]) if two in commands else (argv[0], argv[1:])


def _check_player(cmd, words: str, rest: list, player: str, own):
    """One of the player's verbs, their own character first, and no option but the actor's own: a
    target number, a bonus, a ruling, another creature's choices or faces are the Guide's."""
    if cmd is None:
        raise Refusal(403, f"{words!r} is the Guide's to declare; a player runs their own actions and answers "
                           "what the Guide declares for them")
    if not rest or rest[0] != player:
        raise Refusal(403, f"this link acts for {player} only")
    flags = {o for p in cmd.params if p.name in own for o in p.opts}
    theirs = [w for w in rest if w.startswith("-") and w.split("=", 1)[0] not in flags]
    if theirs:
        raise Refusal(403, f"{theirs[0].split('=', 1)[0]} is the Guide's ruling, not a player's choice")


def _typed(asked, own) -> list | None:
    """The faces typed so far on the page, as the dice source reads them: a text, or (the option it was
    typed for, the text). On a player's page (`own`: their options) each names its option, and one typed for
    another creature's die refuses the request (403) before anything runs."""
    if asked is None:
        return None
    if not isinstance(asked, list) or len(asked) > ARG_LIMIT:
        raise Refusal(400, f"the faces typed so far are a list of at most {ARG_LIMIT}")
    out: list = []
    for face in asked:
        if isinstance(face, dict) and set(face) == {"option", "face"} and _words_ok([face["option"], face["face"]]):
            if own is not None and face["option"] not in own:
                raise Refusal(403, f"{face['option']} is another creature's die: it is rolled for them, never "
                                   "typed on a player's page")
            out.append((face["option"], face["face"]))
        elif isinstance(face, str) and own is None and _words_ok([face]):
            out.append(face)
        else:
            raise Refusal(400, "each face typed is {option, face}: the option of the die it answers, and its face"
                          if own is not None else "the faces typed so far are a list of words")
    return out


def choices(root: Path, model: dict, cid: str, waiting: dict | None = None, held: dict | None = None) -> dict:
    """{now: whose turn it is, in words for this player; choices: the game's `choices` hook for them}."""
    from ..errors import NarateerError
    from ..store import encounters
    from ..store.campaign import Campaign

    actor, enc_id = model.get("actor"), model.get("encounter")
    if not enc_id:
        return {"now": "No encounter is running.", "choices": [held] if held else []}
    now = "It is your turn to act." if actor == cid else f"{actor} acts now." if actor else "Nobody acts now."
    campaign = Campaign(root)
    hook = campaign.system.hook("choices")
    try:
        found = hook(encounters.load_state(root, enc_id, campaign.system), cid, campaign.rules) if hook else []
    except NarateerError:
        found = []
    out = [c for c in found if isinstance(c, dict) and c.get("argv")]
    if waiting:  # the Guide declared an action this player answers
        named = next((i for i, w in enumerate(waiting["argv"]) if w.startswith("-")), len(waiting["argv"]))
        # the declaration's verb and who, not its options: the attacker's typed faces stay the Guide's
        out.insert(0, {"text": f"The Guide declared `{' '.join(waiting['argv'][:named])}`: your answer is needed",
                       "answer": {"id": waiting["id"], "verb": waiting["verb"], "fields": waiting["fields"]}})
    if held:  # the player's own action held for the Guide's die, or its result
        out.insert(0, held)
    return {"now": now, "choices": out}


SHELL = re.compile(r"`?narateer [a-z]")  # a shell command in an error's advice: the Guide's way, not a player's


def in_player_words(root: Path, exc, player: str) -> str:
    """A refusal as a player reads it: its reason, and, where its advice is a command the Guide runs at the
    shell (`turn end`, `turn start`), what the player does instead: wait for the Guide, whose turn it is."""
    if not (exc.fix and SHELL.search(exc.fix)) and not SHELL.search(exc.message):
        return exc.line()
    from .view import snapshot

    model = snapshot(root, guide=False)
    acting = next((row for row in model.get("order") or [] if row.get("acting")), None)
    reason = SHELL.split(exc.message)[0].rstrip(" :;,(`") or "the Guide must run this one"
    if acting is not None and acting.get("id") != player:
        return f"{reason}: it is {acting.get('name') or acting.get('id')}'s turn: wait for the Guide"
    if model.get("encounter") and acting is None:
        return f"{reason}: nobody acts now: wait for the Guide to start the next turn"
    return f"{reason}: ask the Guide"


def told_to_player(root: Path, answer: dict, player: str | None = None) -> dict:
    """A player is told only what the party may see: a result as the party's log words it (a Hide
    without its recorded total), an entry the party does not see as just that, and an error that names a
    creature hidden from the party in general words; the entry their own character made, as that character
    knows it (the game's `own_entry`: a hider's own Hide total)."""
    from .view import snapshot

    guide = snapshot(root, guide=True)
    if not answer.get("ok"):
        concealed = (guide.get("guide") or {}).get("concealed_from_party") or ()
        if any(re.search(rf"\b{re.escape(str(c))}\b", answer.get("error") or "") for c in concealed):
            answer = {**answer, "error": "the Guide must settle this one: it touches what your character cannot see"}
        return answer
    party = (snapshot(root, guide=False).get("log") or [{}])[-1]
    newest = (guide.get("log") or [{}])[-1]
    words = party.get("text") if party and party.get("seq") == newest.get("seq") else \
        "done: the Guide has the result (it touches what the party cannot see)"
    words = _as_actor_knows(root, guide, player, party, newest) or words
    return {"ok": True, "words": words or "done", "result": answer.get("result"), "json": None}


def _settled(answer: dict | None) -> bool:
    """Whether an action's answer settles what was waiting: it ran, or it is held for the Guide's die now."""
    return bool(answer and (answer.get("ok") or answer.get("wait")))


def _as_actor_knows(root: Path, guide: dict, player: str | None, party: dict, newest: dict) -> str | None:
    """The newest entry of the running encounter in the words of the game's `own_entry` for `player`, when
    `player`'s character made it and the party sees it (`party`, the party's newest row, is `newest`, the
    Guide's); None otherwise (or for a secret roll, which the Guide unveils)."""
    from ..store.campaign import Campaign
    from .view import is_secret, log_row, recent_entries

    enc_id = guide.get("encounter")
    if player is None or not enc_id or not party or party.get("seq") != newest.get("seq") \
            or party.get("actor") != player:
        return None
    system = Campaign(root).system
    entries = recent_entries(root, enc_id, set(), system, True, count=1)
    hook = system.hook("own_entry")
    if not entries or not isinstance(entries[-1], dict) or is_secret(entries[-1]) or hook is None:
        return None
    entry = hook(entries[-1], player)
    return None if entry is None else log_row(entry, system, False, False).get("text")


class Actions:
    """The page's one way to write: each action once (its nonce), through the API. `lock` guards this
    object's own memory (the nonces seen, the declarations waiting), never a whole action: the campaign's own
    lock orders the writes, as it does the shell's."""

    def __init__(self, root: Path, players: dict[str, str]):
        self.root = root
        self.players = players  # token -> character id (a player's link, new at every start)
        self.lock = threading.Lock()
        self.seen: set[str] = set()
        # actions the Guide declared that a player answers, by that player's character (in memory: a
        # declaration waiting for its answer is no part of the campaign until the whole action runs)
        self.waiting: dict[str, dict] = {}
        # players' actions held for another creature's die the Guide rolls (the game's or the campaign's
        # `others_dice`), by the request that asked for them; in memory too: nothing is written until they run
        self.rolls: dict[str, dict] = {}
        self.told: dict[str, dict] = {}  # a held action's result, by its player, for that player's page

    def declare(self, argv: list[str], nonce: str, role=None) -> dict:
        """The Guide declares an action and leaves the `role`'s own choices (the game's `answered_by`) to that
        character's player: it waits for their link (nothing runs, nothing is written)."""
        argv = check_argv(self.root, argv)
        commands = dict(_system_commands(self.root))
        words, rest = verb_of(commands, argv)
        roles = _answers(self.root).get(words)
        if not isinstance(roles, dict) or not roles:
            raise Refusal(400, f"nobody else answers {words!r}: run it")
        cmd = commands[words]
        role = role if role in roles else _only_player_role(cmd, rest, roles,
                                                            set(self.players.values())) if role is None else None
        if role is None:
            raise Refusal(400, f"say who answers: one of {', '.join(roles)}")
        spec = (role, tuple(roles[role]))
        who = _argument(cmd, rest, spec[0])
        if who not in self.players.values():
            raise Refusal(400, f"{who} has no player's link: choose the answer yourself and run it")
        theirs = {o for p in cmd.params if p.name in spec[1] for o in p.opts}
        if any(w.split("=", 1)[0] in theirs for w in argv):
            raise Refusal(400, f"leave {', '.join(sorted(theirs))} to {who}")
        with self.lock:
            self._once(nonce)
            if who in self.waiting:
                raise Refusal(409, f"{who} has a declaration waiting already: withdraw it first")
            self.waiting[who] = {"id": nonce, "argv": argv, "verb": words, "role": role, "error": None,
                                 "fields": [_param(p, (getattr(cmd, "form", None) or {}).get("labels"))
                                            for p in cmd.params if p.name in spec[1]],
                                 "own": frozenset(theirs)}
        return {"ok": True, "words": f"waiting for {who} to answer", "result": None, "json": None}

    def answer(self, player: str, ident, words, nonce: str) -> dict:
        """The player answers the action the Guide declared for them: the whole action runs once."""
        waiting = self.waiting.get(player)
        if waiting is None or ident != waiting["id"]:
            raise Refusal(409, NOT_WAITING)
        if not (words == [] or _words_ok(words)):
            raise Refusal(400, "an answer is a list of words")
        flags = {f["flag"] for f in waiting["fields"]}
        if any(w.startswith("-") and w.split("=", 1)[0] not in flags for w in words):
            raise Refusal(403, f"an answer gives only {', '.join(sorted(flags))}")
        with self.lock:  # the declaration is this answer's alone while it runs: a second answer at once is 409
            if self.waiting.get(player) is not waiting:
                raise Refusal(409, NOT_WAITING)
            del self.waiting[player]
        answer = None
        try:
            # the faces the answer gives are the player's; a die the Guide left out that is another creature's
            # is rolled here, or held for the Guide, as on the player's own page
            answer = self.run(waiting["argv"] + words, nonce, reader=player, own=waiting["own"])
        finally:
            if not _settled(answer):  # refused or failed: it waits for a better answer (or the Guide)
                waiting["error"] = (answer or {}).get("error")
                with self.lock:
                    self.waiting.setdefault(player, waiting)
        if answer.get("ok") and _secret(waiting["argv"]):
            # a secret roll: the player is told what the party's log says, not the sealed result
            return {"ok": True, "words": "your answer was taken: the Guide rolled this in secret", "result": None,
                    "json": None}
        return told_to_player(self.root, answer, player)

    def withdraw(self, who) -> dict:
        """The Guide takes back a declaration still waiting for `who` (nothing was run)."""
        with self.lock:
            if self.waiting.pop(who, None) is None:
                raise Refusal(409, f"nothing is waiting for {who}")
        return {"ok": True, "words": f"withdrawn: {who} has nothing to answer", "result": None, "json": None}

    def _hold(self, held: dict, wanted: dict | None = None, asks: dict | None = None) -> dict:
        """Hold a player's action, nothing written: for the Guide's die (`wanted`), or, the Guide's in, for the
        player's own next die (`asks`), typed on their page."""
        held = {**held, "wanted": wanted, "asks": asks, "error": None}
        with self.lock:
            self.rolls[held["id"]] = held
        if asks is not None:
            return {"ok": False, "wait": asks, "error": f"{held['who']} types {asks['what']} next, on their page"}
        assert wanted is not None
        return {"ok": False, "wait": wanted,
                "error": f"waiting for the Guide to roll {wanted['what']}: nothing is written until then"}

    def face(self, player: str, ident, face, nonce: str) -> dict:
        """The player types their own die that their held action needs after the Guide's: it runs again."""
        return self._give(ident, face, nonce, player)

    def roll(self, ident, face, nonce: str) -> dict:
        """The Guide types the face of the die a player's held action waits for: the action runs again with the
        player's faces and the Guide's, once; it is held again when it needs another die of the Guide's, and a
        face it refuses leaves it held for a better one."""
        return self._give(ident, face, nonce)

    def _give(self, ident, face, nonce: str, player: str | None = None) -> dict:
        """One face for a held action, the Guide's (`player` None: the die it waits for) or the player's own
        (the die it asks of them next): the action runs again, once; a face it refuses leaves it held as it was."""
        if not (isinstance(face, str) and _words_ok([face])):
            raise Refusal(400, "a face is one word")
        with self.lock:  # the held action is this answer's alone while it runs: a second answer at once is 409
            held = self.rolls.get(ident) if isinstance(ident, str) else None
            if held is None or (held["asks"] is None) is (player is not None) or \
                    (player is not None and held["who"] != player):
                raise Refusal(409, "no action waits for that die (or it was already rolled)")
            self._once(nonce)
            del self.rolls[ident]
        if player is None:
            again = {**held, "guided": [*held["guided"], (held["wanted"]["option"], face)]}
        else:
            again = {**held, "typed": [*held["typed"], (held["asks"]["option"], face)]}
        answer = None
        try:
            answer = self._attempt(again, guide=player is None)
        finally:
            if not _settled(answer):
                with self.lock:
                    self.rolls.setdefault(ident, {**held, "error": (answer or {}).get("error") or "refused"})
        if answer.get("ok") and held["who"] is not None:
            self.told[held["who"]] = told_to_player(self.root, answer, held["who"])
            return answer if player is None else self.told.pop(held["who"])
        return answer

    def dismiss(self, ident) -> dict:
        """The Guide sets aside a player's held action: nothing was run, nothing is written."""
        with self.lock:
            held = self.rolls.pop(ident, None) if isinstance(ident, str) else None
        if held is None:
            raise Refusal(409, "no action waits for that die (or it was already rolled)")
        if held["who"] is not None:
            self.told[held["who"]] = {"ok": False, "error": "the Guide set your action aside: nothing was written"}
        return {"ok": True, "words": f"set aside: {held['who']}'s {' '.join(held['argv'][:2])}", "result": None,
                "json": None}

    def pending(self) -> list:
        """The declarations waiting for a player, and the players' actions waiting for a die of the Guide's
        (`die`: which, the field the Guide's screen shows), as the Guide's screen lists them."""
        with self.lock:
            return [{"who": who, "argv": w["argv"], "role": w["role"], "error": w["error"]}
                    for who, w in sorted(self.waiting.items())] + \
                [{"who": h["who"], "argv": h["argv"], "error": h["error"], "id": ident, "die": h["wanted"],
                  "asks": h["asks"]} for ident, h in self.rolls.items()]

    def held_for(self, player: str) -> dict | None:
        """What this player's page is told of their own actions held for the Guide's die: the one waiting, else
        the result of the last one the Guide rolled (said once)."""
        with self.lock:
            ident, held = next(((i, h) for i, h in self.rolls.items() if h["who"] == player), (None, None))
            if held is not None and held["asks"] is not None:  # the Guide rolled theirs: this player's die is next
                return {"text": f"The Guide rolled; type {held['asks']['what']} ({held['asks']['option']}).",
                        "face": {"id": ident, **held["asks"]}}
            if held is not None:
                return {"text": f"Waiting for the Guide to roll {held['wanted']['what']}."}
            told = self.told.pop(player, None)
        if told is None:
            return None
        return {"text": told.get("words") if told.get("ok") else told.get("error")}

    def _own_flags(self, argv: list[str]) -> frozenset:
        """The options of a player's verb that are that player's own (its faces among them)."""
        from ..store.campaign import Campaign

        commands = dict(_system_commands(self.root))
        words, _ = verb_of(commands, argv)
        own = set(_player_verbs(Campaign(self.root)).get(words) or ())
        return frozenset(o for p in commands[words].params if p.name in own for o in p.opts)

    def _once(self, nonce):
        if not isinstance(nonce, str) or not 8 <= len(nonce) <= 64:
            raise Refusal(400, "each request carries a fresh nonce of 8 to 64 characters")
        if nonce in self.seen:
            raise Refusal(409, "this request was already run: nothing was done again")
        self.seen.add(nonce)

    def run(self, argv: list[str], nonce: str, player: str | None = None, asked=None, visible=None,
            reader: str | None = None, own: frozenset | None = None) -> dict:
        """Run one action; its answer as the page shows it: {ok, words, result, json} or {ok: False, error}
        (with `ask`: the next die to type, asked as it is needed; with `confirm`: the question to ask before the
        same words go again with `--force`, a check with no chance to succeed; `asked` are the faces typed so far, each
        a text or {option, face}: the option of the die it was typed for). A player's page is asked only for
        that player's own dice (the game's `player_verbs`): another creature's are rolled here, or, where the
        game's or the campaign's `others_dice` leaves one to the Guide, the action is held for the Guide's screen
        (with `wait`: the die it waits for; nothing written); a face typed for one is refused (403) before
        anything runs. A refusal is worded for the player who reads it
        (`player`, or `reader`: the player answering what the Guide declared, whose own options are `own`)."""
        argv = check_argv(self.root, argv, player, visible)
        reader = player or reader
        own = own if player is None else self._own_flags(argv)
        typed = _typed(asked, own)
        with self.lock:
            self._once(nonce)
        held = {"id": nonce, "who": reader, "argv": argv, "typed": None if typed is None else list(typed),
                "own": own, "waits": waits_for_guide(self.root) if own is not None else frozenset(), "guided": [],
                "player": player}
        return self._attempt(held)

    def _attempt(self, held: dict, guide: bool = False) -> dict:
        """Run a player's action (`held`: its words, the player's faces, the Guide's so far); when another
        creature's die waits for the Guide, nothing is written and the action is held for the Guide's screen.
        The answer is the player's, or the Guide's in full when the Guide's face ran it (`guide`)."""
        from ..api import open_campaign
        from ..ask import GuideWanted, NotTheirs
        from ..errors import NarateerError

        argv, typed, own = held["argv"], held["typed"], held["own"]
        player, reader = (None, None) if guide else (held["player"], held["who"])
        try:
            result = open_campaign(self.root).run(*argv, asked=None if typed is None else list(typed), own=own,
                                                  waits=held["waits"], guided=list(held["guided"]))
        except NotTheirs as exc:
            raise Refusal(403, exc.line()) from None
        except GuideWanted as exc:
            return self._hold(held, wanted=exc.wanted)
        except NarateerError as exc:
            answer = {"ok": False, "error": exc.line() if reader is None else in_player_words(self.root, exc, reader),
                      "exit": exc.exit_code, "ask": getattr(exc, "wanted", None),
                      "confirm": getattr(exc, "confirm", None)}
            if answer["ask"] and held["guided"] and typed is not None:  # the Guide's die is in: the player's own
                return self._hold(held, asks=answer["ask"])  # die comes next, typed on their page
            return answer if player is None else told_to_player(self.root, answer, player)
        if result is None:
            return {"ok": True, "words": "", "result": None, "json": None}
        answer = {"ok": True, "words": result.words(), "result": result.kind, "json": result.to_json(),
                  "stderr": list(result.notes)}
        return answer if player is None else told_to_player(self.root, answer, player)
