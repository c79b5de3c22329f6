"""The game's side of the seam: every hook a game may give the host, typed, in one class.

A game subclasses `Game` (the kit's `kit.Game`) in one module of its package, which `SYSTEM.game` names,
and sets `GAME = TheClass()` there. Each hook is a method with the signature the host calls it with (a
value, such as the table of text formatters, is a read-only property). An abstract method is required;
every other hook is optional and its body here is the documented default the host uses when a game
leaves it out. mypy holds a game's methods to these signatures; `check_game` holds a plug-in to them at
run time when it loads (an unknown public name, a method that does not take what the host passes).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, Callable, Iterable

if TYPE_CHECKING:  # read for its type only
    from ..outcome import Outcome, Show

# `stats`' columns beside the host's own by default: {key of an actor's row: heading} (`Game.stats_columns`)
STATS_COLUMNS = {"dice_spent": "dice spent", "crits": "crits / expected"}


class Game(ABC):
    """What a rule system gives the host. Methods take the arguments the host passes, in order; a
    parameter with a default is one the host passes by keyword, and the hook must accept it."""

    # -- required --------------------------------------------------------------------------------
    @abstractmethod
    def ruleset(self, data: dict, overrides: dict, where: str, checked: bool = False) -> Any:
        """The campaign's ruleset: `overrides` (narateer.yaml `rules:`) over the shipped `data`, validated
        (BadInput naming the key path). `checked=True`: these same files built a ruleset before. It is
        whatever the game's own code reads, a dict (handed on read-only) or a frozen `kit.Record`: the host
        passes it back as `s.rules` and as every other hook's `rules`."""

    @abstractmethod
    def parse_sheet(self, char_id: str, doc: dict, label: str, rules) -> Any:
        """A frozen sheet record with `.id`, `.name` and `.counters` (the counters the log tracks; `.dice`, their
        older name, is read when a record has no `.counters`)."""

    @abstractmethod
    def log_checker(self, rules, continuity: bool) -> Callable[[dict], str | None]:
        """A fresh checker for one log, fed its entries in order: each returns the entry's first problem
        as `entry N (command): ...`, re-derived by the system's own check code, or None.
        `continuity` is False for the campaign log (the edits made outside any encounter).
        `base.entrywise(verify_log)` builds one from a function that checks entries each on its own."""

    # -- optional: encounters and sheets -------------------------------------------------------------
    def new_state(self, enc_id: str, participants: list, rules) -> dict:
        """A new encounter's state (`encounter new`). Default: its id and participants."""
        return {"id": enc_id, "participants": list(participants)}

    def load_state(self, data: dict, label: str, checked: bool = False) -> dict:
        """A validated encounter state; the host has checked it is a mapping with `id` and `participants`.
        Default: the mapping as read."""
        return data

    def undo_fields(self, sheets: dict) -> dict | None:
        """`undo`: the undo entry's own fields in place of `dice` ({id: (sheet now, sheet restored)}).
        Default: None, the host logs `dice`."""
        return None

    def fresh_sheet(self, doc, rules):
        """`new --from`: the copied round-trip document with fresh counters. Default: as copied."""
        return doc

    def check_files(self, root, rules) -> list:
        """`check`: problems of the system's own data files (`file:line: message`). Default: none."""
        return []

    @property
    def sheet_schema(self) -> Any:
        """A `narateer_cli.store.schema` table of a sheet; `parse_sheet` is given only documents that pass it.
        Default: no schema."""
        return None

    # -- optional: the verbs every table shares (the host owns the command, the game computes) ----------
    # A game lists such a verb in `SYSTEM.verbs` with `kit.HOST_COMMAND` as its module and gives the methods
    # below; the host reads the arguments, takes the lock and writes the Outcome the method returns. `s` is the
    # command's `kit.Session` (read through it; return every change).
    def verb_words(self, verb: str) -> dict:
        """The game's words for the host's commands of one verb (`condition`, `heal`, `turn`, `new`, `encounter`,
        `dice`): `{command: {"help": text, "context_settings": {...}, PARAMETER: {click keywords over the
        host's}, "options": (the game's own click options...)}}`, a command named by its words (`"turn end"`);
        a parameter given as None is left out (a game whose conditions have no `--rounds`). A group's entry
        (`"turn"`) holds its help and `commands`, the game's own subcommands beside the host's. Asked once per
        verb, so a game imports only the words of the verb that runs. Default: none."""
        return {}

    def condition(self, s: Any, char: str, changes: tuple[str, ...], rounds: int | None) -> Outcome:
        """`condition CHAR +NAME -NAME [--rounds N]`: the Outcome of adding and removing CHAR's conditions (its
        sheet edit, and any timers as the encounter's new state, `state=`). Default: the game has no such verb."""
        return _not_given(self, "condition")

    def heal(self, s: Any, char: str, n: int) -> Outcome:
        """`heal CHAR N`: the Outcome of healing CHAR by N. Default: the game has no such verb."""
        return _not_given(self, "heal")

    def new(self, s: Any, char_id: str, name: str | None, options: dict) -> Outcome:
        """`new ID [--name NAME]` with the game's own options (`options`, by name): the Outcome that creates the
        sheet (`created=`). Default: the game makes no sheet from scratch (its `new` only copies)."""
        return _not_given(self, "new")

    def copied(self, s: Any, source: str, count: int | None, made: dict) -> Outcome:
        """`new ID --from OTHER [--count N]`: the Outcome that logs the copies the host made of OTHER's sheet
        (`made`: {id: text}, each refreshed by `fresh_sheet`; return them as `created=made`). Default: the
        game has no such verb."""
        return _not_given(self, "copied")

    def encounter_show(self, s: Any, enc_id: str | None) -> Show:
        """`encounter show [ID]` (the current encounter when no ID): what the game shows of it, read through the
        command's read-only session. Default: the game has no show of its own (the host's is used)."""
        return _not_given(self, "encounter_show")

    def encounter_join(self, s: Any, char: str, options: dict) -> Outcome:
        """`encounter join CHAR` with the game's own options: CHAR joins the current encounter, its new state
        in the Outcome. Default: no such command."""
        return _not_given(self, "encounter_join")

    def end_conditions(self, s: Any, ended: dict) -> Outcome:
        """`encounter end`: the Outcome that takes off the sheets the timed conditions ending with the encounter
        (`ended`: {character id: (condition names...)}, each a timer `--rounds` set and still running). Its sheet
        edits (`sheets=`, `dice=`, `dice_changed=`) and entry fields (`extra=`) are what the host writes; the
        command, the result naming each condition and the encounter's state are the host's. Default: the game
        has none to end (an encounter with timers running then ends only with `--keep-conditions`)."""
        return _not_given(self, "end_conditions")

    def dice(self, app: Any, options: dict) -> Outcome | Show:
        """`dice ...`: a bare roll with no character, its arguments and options all the game's own
        (`verb_words["dice"]["options"]`, their values in `options`); `app` is the command's `App` (`app.rng()`;
        open a read-only `Session(app, write=False)` to read the campaign's rules). The Outcome is logged only
        when secret; a Show is a roll nothing logs. Default: no such verb."""
        return _not_given(self, "dice")

    def turn_start(self, s: Any, char: str | None, options: dict) -> Outcome:
        """`turn start CHAR`: the Outcome of CHAR's turn starting, the encounter's new state in it (`state=`);
        `options`: the values of the game's own options of the command, by name. Default: no such verb."""
        return _not_given(self, "turn_start")

    def turn_end(self, s: Any, next_id: str | None, options: dict) -> Outcome:
        """`turn end [--next CHAR]`: the Outcome of the running turn ending (and CHAR's starting), the encounter's
        new state in it; `options` as for `turn_start`. Default: no such verb."""
        return _not_given(self, "turn_end")

    # -- optional: words and output ------------------------------------------------------------------
    @property
    def formatters(self) -> Any:
        """The game's result kinds, `{kind: formatter(data) -> text}`: every kind an Outcome, a Show or `emit`
        of the game names, spelt as a snake_case name (`turn_start`), with the function that puts that result
        (its JSON data) in words. Only the game's own results are looked up here, the host's never; a kind
        missing here is an error naming it. Default: none."""
        return {}

    def headline(self, kind: str, data: dict) -> tuple | None:
        """The outcome line that leads a result's text, `(words, success)`, coloured by `--color`. Default: a check's
        `outcome` and `success`."""
        from ..outcome import check_headline

        return check_headline(data)

    @property
    def results(self) -> Any:
        """The record type of each logged command's result, `{command: Record subclass}` (`"turn start":
        TurnStarted`): the host reads an entry's result back with that type's `from_json` and hands `summary`
        the record. A command left out (its result is no one record) reaches `summary` as the logged JSON.
        Default: none."""
        return {}

    def summary(self, command: str, actor, declaration: dict, result) -> str | None:
        """A logged action in words (`encounter log`, report, commit messages): `result` is the record of the
        command's type in `results`, read back from the log, else the logged JSON; an entry whose result does
        not read back is worded by the host, with a warning naming the entry. Default: None, the host's
        words."""
        return None

    def face_names(self, face) -> str:
        """One die face in words for reports. Default: the face as text."""
        return str(face)

    def complete(self, param_name: str, campaign, params: dict) -> list:
        """Shell completion of a game parameter by its click name. Default: nothing."""
        return []

    # -- optional: luck and secrets ------------------------------------------------------------------
    def checks(self, result: dict, declaration: dict | None = None) -> Iterable[dict]:
        """The logged checks of a result (the hook may leave out `declaration`). Default: every mapping
        with an `actor` and a yes/no `success`."""
        from ..luck import any_checks

        return any_checks(result)

    def chance(self, check: dict, rules):
        """A check's exact chance as a Fraction, recorded before the roll, or None. Default: None."""
        return None

    def chance_ratio(self, check: dict, rules) -> tuple[int, int] | None:
        """The same chance as (numerator, denominator), so a roll need not import fractions. Default: None."""
        return None

    @property
    def check_marks(self) -> Any:
        """Texts (bytes) of which every log line holding one of this game's checks holds at least one, as the
        log writes it (a key every check has, say `b'"roll_dice"'`): `stats` parses only those lines and the
        host's own (undo, secret, unveil), and passes over every other whole line. Default: None, every line
        is parsed."""
        return None

    def luck(self, check: dict, rules) -> dict:
        """`stats`, per actor: {actor, success, spent, crits, crits_expected}. Default: actor, success, paid."""
        from ..luck import plain_luck

        return plain_luck(check, rules)

    @property
    def stats_columns(self) -> Any:
        """`stats`' columns beside the host's own (checks, successes, expected, luck), as {key: heading} in
        their order: `dice_spent` (what `luck` calls `spent`) and `crits` (top faces against the number
        expected); a column left out is not shown (`--json` keeps every key). Default: both."""
        return dict(STATS_COLUMNS)

    @property
    def conformance(self) -> Any:
        """The conformance kit's script for this game (the one suite every installed game goes through): a
        `narateer_cli.testing.Script`, a mapping of `setup`, `counter`, `secret`, `refused`, `more`, or a
        function returning one. Default: none (the kit
        skips the checks that need one and says so)."""
        return None

    # -- optional: the players' screen (serve) -------------------------------------------------------
    def view(self, state: dict, sheets: dict, rules) -> dict:
        """Per-participant fields over the host's on the players' page. Default: nothing added."""
        return {}

    def in_party(self, sheet: dict) -> bool:
        """Whether a sheet marks its character as one of the party (a player's, with a link of its own),
        beside narateer.yaml's `party:` list. Default: the sheet says `pc: true`."""
        return sheet.get("pc") is True

    def public_entry(self, entry: dict) -> dict | None:
        """A log entry as the party may see it, nothing hidden from it; None leaves it out. Default: the entry."""
        return entry

    def own_entry(self, entry: dict, char_id: str) -> dict | None:
        """A log entry as the player of `char_id` reads it when that character made it: what the party sees,
        plus what only that character knows (the total of its own roll). Default: the party's reading."""
        return self.public_entry(entry)

    def last_check(self, entry: dict) -> dict | None:
        """The roll `serve` shows for an entry. Default: None, the host's reading."""
        return None

    @property
    def answered_by(self) -> Any:
        """For the players' links: the choices of each role in a verb, `{verb: {argument naming the role: (its
        own parameter names...)}}` (Narateer: a check's Boost and faces are its roller's; an exchange's
        Response is the defender's). `serve --act` lets the Guide declare the rest and leave one role's choices
        to that character's player. Default: none."""
        return None

    @property
    def player_verbs(self) -> Any:
        """For the players' links: what a player runs unprompted for their own character (its first argument), `{verb:
        (the actor's own parameter names...)}`; every other option is the Guide's ruling. Default: none (a player
        answers only what the Guide declares)."""
        return None

    @property
    def others_dice(self) -> Any:
        """For the players' links: who gives another creature's dice during a player's action (a target's save, a
        victim's Concentration d20, a defender's or an observer's dice), `{option giving those faces: "server" or
        "guide"}`: "server" rolls them at once (the default for an option not named); "guide" holds the action,
        nothing written, until the Guide types each face on the Guide's screen. A campaign's `others_dice:` in
        narateer.yaml may set any of these options otherwise. Default: none (every such die is rolled by the
        server)."""
        return None

    def choices(self, state: dict, char_id: str, rules) -> list:
        """For the players' links: what CHAR may do now in answer to someone else (a reaction it is owed), each
        `{"text": words, "argv": the command line's words}`; `serve --act` shows them on that player's
        own screen alone. Default: none."""
        return []


def _not_given(game: Game, name: str):
    from ..errors import BadInput

    raise BadInput(f"{type(game).__name__} gives no {name}", fix=f"define {name} in its Game class")


# Trailing parameters a hook may leave out (the host looks at how many it takes).
MAY_OMIT = {"checks": ("declaration",)}


SystemHooks = Game  # the name the interface had before games subclassed it


def _members() -> dict:
    return {name: value for name, value in vars(Game).items() if not name.startswith("_")}


def names() -> tuple[str, ...]:
    return tuple(_members())


def required() -> tuple[str, ...]:
    return tuple(sorted(SystemHooks.__abstractmethods__))


def is_value(name: str) -> bool:
    """Whether the hook is a value (a table, a module, names) rather than a function."""
    return isinstance(_members().get(name), property)


def provided(game: Game, name: str) -> bool:
    """Whether the game gives this hook itself (its class overrides the interface's default)."""
    return getattr(type(game), name, None) is not _members()[name]


def check_game(game) -> list[tuple[str, str]]:
    """(part, problem) for a game object: not a `Game`, a required hook missing, a public name that is no
    hook (a misspelt one is named with the closest hook), a hook that does not take what the host passes.
    Reads the class only: no hook is called, no property read."""
    if not isinstance(game, Game):
        return [("GAME", f"is a {type(game).__name__}, not a subclass of narateer_cli.kit.Game")]
    known, found = _members(), []
    own = {n for k in type(game).__mro__ if k is not Game and issubclass(k, Game) for n in vars(k)}
    for name in sorted(own):
        if name.startswith("_") or name in known:
            continue
        from ..suggest import closest  # only for a name that is wrong: start-up never pays for it

        near = closest(name, list(known))
        found.append((f"GAME.{name}", "is not a hook (name a helper with a leading underscore)"
                      + (f"; did you mean {' or '.join(near)}?" if near else "")))
    for name in known:
        if provided(game, name) and not is_value(name):
            problem = check_target(name, getattr(game, name))
            if problem is not None:
                found.append((f"GAME.{name}", problem))
    return found


def check_target(name: str, target) -> str | None:
    """What is wrong with an imported hook target, or None: a function whose parameters do not fit the
    call the host makes, or a value of the wrong kind."""
    if is_value(name):
        if name == "conformance" and not (target is None or callable(target) or hasattr(target, "get")
                                          or hasattr(target, "actions")):
            return "must be a mapping of script keys (setup, counter, secret, refused, more), a Script, or a function"
        return None
    if not callable(target):
        return f"must be a function, not {type(target).__name__}"
    method = _members()[name]
    code = method.__code__
    params = code.co_varnames[1:code.co_argcount]
    keywords = params[len(params) - len(method.__defaults__ or ()):]
    positional = len(params) - len(keywords)
    omit = MAY_OMIT.get(name, ())
    wanted = [k for k in keywords if k not in omit]
    shapes = [(positional + extra, wanted) for extra in range(len(omit) + 1)]
    if any(_accepts(target, count, words) for count, words in shapes):
        return None
    shown = ", ".join(params[:positional] + tuple(f"{k}=..." for k in wanted))
    return f"must take ({shown})"


def _accepts(fn, count: int, keywords) -> bool:
    """Whether fn(count positional arguments, **keywords) binds."""
    if getattr(fn, "__code__", None) is None or not hasattr(fn, "__defaults__"):
        import inspect  # not a plain function (a class, a builtin, a partial): rare, and worth the import

        try:
            inspect.signature(fn).bind(*[None] * count, **{k: None for k in keywords})
        except (TypeError, ValueError):
            return False
        return True
    return _code_accepts(fn, fn.__code__, count, keywords)


def _code_accepts(fn, code, count: int, keywords) -> bool:
    """`_accepts` for a plain function or method, read from its code object (no `inspect` import)."""
    argcount, flags = code.co_argcount, code.co_flags
    args = code.co_varnames[:argcount]
    kwonly = code.co_varnames[argcount:argcount + code.co_kwonlyargcount]
    if getattr(fn, "__self__", None) is not None:  # a bound method: its first parameter is given
        args, argcount = args[1:], argcount - 1
    needed = argcount - len(fn.__defaults__ or ())
    if count < needed or (count > argcount and not flags & 0x04):  # 0x04: *args
        return False
    if any(k not in (fn.__kwdefaults__ or {}) and k not in keywords for k in kwonly):
        return False
    return all(k in args[count:] or k in kwonly or flags & 0x08 for k in keywords)  # 0x08: **kwargs
