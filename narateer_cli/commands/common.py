"""What every command shares: its decorator, the option sets, and the writing session.

`Session` is the read-modify-write of one command: it takes the campaign
lock, loads sheets once, gathers every change in one Transaction, and on
`commit` writes them all (sheets, encounter state, log entry, undo record)
or none of them.
"""

from __future__ import annotations

import functools
import os

import click

from ..cli import App, Command, Group  # noqa: F401 (Group: every system's command groups)
from ..errors import NarateerError
from ..readonly import _RUNNING, GameFault, function_name, hook_failed, is_game, refuse_write, running


class SignedWords(click.Command):
    """A command whose `changes` are signed words (`+stunned -hidden`): a word that starts with + or - and is
    none of the command's options is an argument, never a bundle of short flags (`-hidden` read as `-h`
    printed help and changed nothing)."""

    def parse_args(self, ctx, args):
        flags, valued = set(), set()
        for param in self.get_params(ctx):
            if isinstance(param, click.Option):
                (flags if param.is_flag or param.count else valued).update((*param.opts, *param.secondary_opts))
        words, signed, rest = [], [], list(args)
        while rest:
            word = rest.pop(0)
            if word == "--":
                signed += rest
                break
            if word in valued and rest:
                words += [word, rest.pop(0)]
            elif word[:1] in "+-" and len(word) > 1 and not word.startswith("--") and word not in flags:
                signed.append(word)
            else:
                words.append(word)
        return super().parse_args(ctx, words + (["--", *signed] if signed else []))


FORM_KEYS = ("common", "needs", "labels")


def page_form(form, cmd: click.Command) -> dict:
    """A verb's `form` declaration, checked against its parameters: {common, needs, labels}, each name in
    `common` and `needs` one of the command's parameters (ValueError naming the verb and the name otherwise,
    when the game is loaded); `labels` may be a table the game's verbs share."""
    form = dict(form or {})
    wrong = sorted(set(form) - set(FORM_KEYS))
    if wrong:
        raise ValueError(f"command {cmd.name}: form={{{wrong[0]!r}: ...}} is none of {', '.join(FORM_KEYS)}")
    out = {"common": tuple(form.get("common") or ()), "needs": tuple(form.get("needs") or ()),
           "labels": dict(form.get("labels") or {})}
    known = {p.name for p in cmd.params}
    for key in ("common", "needs"):
        unknown = [n for n in out[key] if n not in known]
        if unknown:
            raise ValueError(f"command {cmd.name}: form {key} names {unknown[0]!r}, which is none of its "
                             f"parameters ({', '.join(sorted(n for n in known if n))})")
    return out


def _signed(fn) -> bool:
    return any(isinstance(p, click.Argument) and p.name == "changes" for p in getattr(fn, "__click_params__", ()))


def command(group=None, name=None, rolls=False, writes=False, calls=None, shows=(), seals=(), checks=False, form=None, **attrs):
    """A command with the shared `--json` and `--seed` options (accepted after the name too), and
    `--secret` (the roll is logged as a commitment), listed in the help of a command that `rolls`, accepted by every command.
    A command that `checks` (rolls for success) has `--force` too: its dice (`ask.zero_gate`) ask before a
    check with no chance to succeed, unless forced.
    A command with a `changes` argument reads signed words (`SignedWords`).

    The function computes and returns what happened; the host alone writes and renders it:
    an `Outcome` is applied in one transaction (`commands/apply.py`), a `Show` only rendered, None
    means the function rendered its answer itself. With `writes` the function is called with the
    command's locked `Session` in place of the App (`writes="NAME"`: only when the flag NAME is given;
    otherwise a read-only Session); without it an `Outcome` is a roll with no character, logged only
    when secret. `calls`: the game's method a host command computes with (the shared verbs):
    it runs as the game's own code, and what goes wrong names it rather than the host's function.

    `shows` and `seals` declare what a secret outcome of the command may change besides counters
    (`declare.Secrecy`): key paths of the encounter state (`state.hidden.*.*`) and of the actor's own sheet
    (`sheet.omen`) that the table perceives, written in clear, and those sealed in the private folder with
    only a commitment in the shared file. A secret outcome with any other change is refused, nothing written.

    `form` says how the acting page (`serve --act`) lays out the verb's form: `common`, the options a Guide
    gives most often, shown first in that order (the rest fold under "more"); `needs`, options the verb's
    rules need though the command line lets them out (never folded); `labels`, the words a form shows for a
    parameter in place of its option name ({"dr": "Difficulty (DR)"}), a table the game's verbs may share."""

    def wrap(fn):
        from ..declare import Secrecy

        secrecy = Secrecy(shows, seals, where=function_name(calls if calls is not None else fn))
        if _signed(fn):
            attrs.setdefault("cls", SignedWords)
        if checks:
            from ..ask import FORCE_HELP

            fn = click.option("--force", is_flag=True, help=FORCE_HELP)(fn)  # its value is taken by `inner`
        @click.option("--secret", is_flag=True, hidden=not rolls,
                      help="Log only a commitment to this roll; `narateer unveil` publishes it.")
        @click.option("--json", "as_json", is_flag=True, help="Print one JSON object for scripts.")
        @click.option("--seed", type=int, help="Seed every random roll.")
        @click.option("--in", "in_encounter", metavar="ID", help="Use encounter ID instead of the current one.")
        @click.option("--commit", "git_commit", is_flag=True, help="git-commit the files this action changed.")
        @click.pass_context
        @functools.wraps(fn)
        def inner(ctx, secret, as_json, seed, in_encounter, git_commit, **kwargs):
            app: App = ctx.obj or App()
            app.as_json = app.as_json or as_json
            app.secret = getattr(app, "secret", False) or secret
            if seed is not None:
                app.seed = seed
            app.encounter_id = in_encounter
            app.git_commit = git_commit
            app.rolls = rolls  # only a command declared to roll can be secret
            app.secrecy = secrecy  # what its secret outcome may change, and who declared it
            app.secrecy_of = calls if calls is not None else fn
            app.checks, app.force = checks, bool(kwargs.pop("force", False)) if checks else False
            if app.secret and not rolls:
                from ..errors import BadInput

                raise BadInput("--secret hides a roll, and this command rolls nothing", rule="P-SECRET-1",
                               fix="drop --secret")
            real_ids(app, kwargs)
            named = fn if calls is None else calls  # the function named when the game's code goes wrong
            game = is_game(named)  # a game's function computes; a host call that writes refuses while it runs
            if not writes:
                return shown(app, settle(app, None, _called(fn, game, app, kwargs, named), named))
            write = writes is True or bool(writes(kwargs) if callable(writes) else kwargs.get(writes))
            with Session(app, write=write) as s:
                answer = _called(fn, game, s, kwargs, named)
                if game:
                    returned(s, named, answer)
                settled = settle(app, s if write else None, answer, named)
            return shown(app, settled)

        factory = (group.command if group is not None else click.command)
        made = factory(name=name, cls=attrs.pop("cls", Command), **attrs)(inner)
        made.rolls, made.writes = rolls, writes  # what the page may offer a player to run
        made.secrecy = secrecy
        made.function = fn if calls is None else calls  # the function that computes (the kit's checks name it)
        made.form = page_form(form, made)
        return made

    return wrap


def real_ids(app, kwargs: dict) -> None:
    """The character ids among a command's parameters (the host's and the game's `params`: a character, or
    the OTHER of OTHER:NAME) as the campaign files them, in place: `Selka` is `selka` when no sheet is named
    `Selka` and one is named so but for case; two such sheets are bad input naming both. Outside a
    campaign nothing changes."""
    if not any(isinstance(v, str) or isinstance(v, (tuple, list)) and v for v in kwargs.values()):
        return
    from ..systems.base import HOST_PARAMS

    try:
        campaign = app.campaign
        kinds = {**HOST_PARAMS, **campaign.system.params}
    except NarateerError:
        return
    for name, value in kwargs.items():
        kind = kinds.get(name, "")
        if kind == "character":
            kwargs[name] = _each(value, campaign.real_id)
        elif kind.startswith("pair:"):
            kwargs[name] = _each(value, lambda text: _pair_id(campaign, text))


def _each(value, real):
    if isinstance(value, str):
        return real(value)
    if isinstance(value, (tuple, list)):
        return type(value)(real(v) if isinstance(v, str) else v for v in value)
    return value


def _pair_id(campaign, text: str) -> str:
    who, sep, rest = text.partition(":")
    return campaign.real_id(who) + sep + rest if sep else text


def _called(fn, game: bool, first, kwargs, named=None):
    """The command's function called; a game's runs under `running`, and an error that is not one of
    narateer's own is the game's code failing: named as such (`named`: the game's function a host
    command calls), not as an internal error of the host."""
    named = fn if named is None else named
    if not game:
        return fn(first, **kwargs)
    try:
        with running(named):
            return fn(first, **kwargs)
    except (NarateerError, click.exceptions.Exit, click.ClickException, KeyboardInterrupt):
        raise
    except Exception as exc:
        raise hook_failed(exc, "command " + named.__name__, named) from exc


def _counters(sheet):
    from ..store.campaign import counters_of

    try:
        return dict(counters_of(sheet))
    except (AttributeError, TypeError, ValueError):
        return None


def returned(s, fn, answer):
    """What a game's command changed in memory is in what it returned: a sheet record whose counters it
    moved must be in its Outcome (`dice=` or `sheets=`); otherwise the change would be lost, or written
    later with no log entry. (The state and the sheets it reads are read-only: changing them fails at once.)
    A Show (a dry run) changes nothing and may compute what it likes."""
    from ..outcome import Outcome

    if not isinstance(answer, Outcome):
        return
    name = function_name(fn)
    dice = answer.dice if isinstance(answer.dice, dict) else {}
    for cid, sf in s.sheets.items():
        before, now = s.first_counters.get(cid), _counters(sf.sheet) or {}
        if before is None or now == before or cid in dice or cid in answer.sheets or answer.dice_changed:
            continue
        moved = ", ".join(f"{k} {before.get(k)} -> {now.get(k)}" for k in dict.fromkeys([*before, *now])
                          if before.get(k) != now.get(k))
        raise GameFault(f"{name} changed {cid}'s counters in memory ({moved}) and did not return them; "
                        "nothing was written", rule="K-4",
                        fix=f"return them: Outcome(..., dice={{{cid!r}: counters}}), computed on a copy")


OUTCOME_TYPES = {"sheets": (dict,), "created": (dict,), "config": (dict,), "state": (dict, type(None)),
                 "encounter": (str, type(None))}  # `dice` is held to {id: counters} by Outcome itself


def _well_typed(answer, fn):
    """An Outcome's fields of the types the host writes, else GameFault naming the command's function."""
    wrong = next((f"{field} is {type(getattr(answer, field)).__name__}" for field, types in OUTCOME_TYPES.items()
                  if not isinstance(getattr(answer, field), types)), None)
    if wrong is None:
        wrong = _state_problem(answer.encounter, answer.state)
    if wrong is None:
        wrong = _counter_problem(answer.dice or {})
    if wrong is None:
        wrong = next((f"sheets[{cid!r}] is {type(edits).__name__}" for cid, edits in answer.sheets.items()
                      if not isinstance(edits, dict)), None)
    if wrong is not None:
        raise GameFault(f"{function_name(fn)} returned an Outcome whose {wrong}; nothing was written", rule="K-4",
                        fix="see the Outcome's fields in docs/write-a-game.md")


def _state_problem(encounter: str | None, state) -> str | None:
    """What keeps an Outcome's encounter state from being written as an encounter's state file, or None: a
    state with no encounter to write it to, or one without the `id` and `participants` every state has."""
    if state is None:
        return None
    if encounter is None:
        return "state names no encounter (encounter=None)"
    if "id" not in state or not isinstance(state.get("participants"), list):
        return f"state for encounter {encounter!r} has no id or no participants list"
    return None


def _counter_problem(dice: dict) -> str | None:
    """What is not a whole number among the counters an Outcome returns (`dice={id: {counter: n}}`), or None."""
    for cid, counters in dice.items():
        if not isinstance(counters, dict):
            return f"dice[{cid!r}] is {type(counters).__name__}"
        for name, value in counters.items():
            if type(value) is not int:
                return f"dice[{cid!r}][{name!r}] is {value!r}, not a whole number"
    return None


def settle(app, session, answer, fn=None):
    """Apply what a command returned (see `command`); returns (kind, data) to render, or None. `session`: the
    command's writing Session (None: an Outcome is a roll with no character). `fn`: the command's function,
    named when it returned something else than an Outcome, a Show or None (then nothing is written)."""
    from ..outcome import Outcome, Show

    if isinstance(answer, Show):
        _renders(app, answer.kind, fn)
        return answer.kind, answer.data, 0
    if answer is not None and not isinstance(answer, Outcome):
        raise GameFault(f"{function_name(fn)} returned {type(answer).__name__}, not an Outcome, a Show or None; "
                        "nothing was written", rule="K-4",
                        fix="return Outcome(...) for an action, Show(kind, data) for an answer that changes nothing")
    if answer is None:
        return None
    _well_typed(answer, fn)
    if answer.kind is not None:
        _renders(app, answer.kind, fn)
    from .apply import apply, apply_bare

    if session is not None:
        logged = apply(session, answer)
    else:
        if answer.secret or getattr(app, "secret", False):
            apply_bare(app, answer)
        logged = answer.result
    shown = _shown(answer, logged, session)
    return answer.kind, shown if shown is not None else logged, answer.exit


def _shown(answer, logged, session):
    """What a settled Outcome shows: its result as logged (with each check's exact chance) when it shows its
    result, another view of it with its checks' chances carried over, or its `show` as given."""
    shown = answer.show
    if shown is not None and shown is answer.result and isinstance(logged, dict):
        return Logged(shown, logged)  # the result as logged: with each check's exact chance
    if shown is not None and isinstance(logged, dict) and session is not None:
        from ..luck import carry_chances
        from ..render import plain

        data = plain(shown)  # another view of the result (a resolve's words around its check): its checks' chances
        if carry_chances(session.campaign.system, data, logged, answer.declaration):
            return Logged(shown, data)
    return shown


class Logged:
    """A result shown as its log entry holds it: `to_json` gives the logged JSON (each check with the exact
    `chance` the log added before the roll), so `--json` prints what the log keeps; `record` is the game's own
    value, whose attributes it reads through (the Python API's `Result.value` is the record)."""

    __slots__ = ("record", "data")

    def __init__(self, record, data: dict):
        self.record, self.data = record, data

    def to_json(self) -> dict:
        return self.data

    def __getattr__(self, name):
        return getattr(self.record, name)

    def __repr__(self):
        return repr(self.record)


def _renders(app, kind, fn):
    """A result's kind has a formatter (the host's for its own kinds, else the game's), else GameFault naming
    `fn`, before anything is written or printed."""
    from ..render import formatter

    try:
        formatter(kind, app.system, fn)
    except GameFault as fault:
        raise GameFault(fault.message + "; nothing was written", rule=fault.rule, fix=fault.fix) from None


def shown(app, answer):
    """Render a settled answer (after the lock is let go), then exit with its status."""
    if answer is None:
        return
    kind, data, status = answer
    if kind is not None:
        emit(app, kind, data)
    if status:
        raise click.exceptions.Exit(status)


def faces_options(fn):
    """--faces and --reroll-faces (`declare.FACES`), each given to the function on its own."""
    from ..declare import FACES

    for option in reversed(FACES.options):
        fn = option.click_option()(fn)
    return fn


def nonneg(name, value, limit=None):
    from ..errors import BadInput

    if value is None:
        return value
    if value < 0:
        raise BadInput(f"{name} {value} is negative", fix=f"give {name} 0 or more")
    if limit is not None and value > limit:
        raise BadInput(f"{name} {value} is past the limit of {limit}", rule="A-LIMITS", fix=f"give {name} {limit} or less")
    return value


def split_pairs(items, option: str, example: str) -> dict:
    """Repeated NAME=VALUE options (--vital, --skill, --observer-faces ...), values as text."""
    from ..errors import BadInput

    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise BadInput(f"{option} {item!r} must be NAME=VALUE", fix=f"for example {option} {example}")
        out[key] = value
    return out


def split_ref(text: str, option: str) -> tuple[str, str]:
    """OTHER:SKILL as used by --vs and --contested."""
    from ..errors import BadInput

    if not text or ":" not in text:
        raise BadInput(f"{option} {text!r} must be OTHER:SKILL", fix=f"for example {option} sentry:observation")
    who, skill = text.split(":", 1)
    if not who or not skill:
        raise BadInput(f"{option} {text!r} must be OTHER:SKILL", fix=f"for example {option} sentry:observation")
    return who, skill.lower()


def emit(app: App, kind: str, data: object):
    """Print a result: a record, a mapping or plain data (`render.plain` makes it JSON-ready)."""
    from .. import render

    render.out(kind, data, app.as_json, app.system, color=app.use_color(), seeded=app.seeded, sink=app.sink)


class Session:
    """One command's locked read-modify-write."""

    def __init__(self, app: App, write: bool = True):
        self.app = app
        self.write = write
        self.sheets = {}
        self.rendered = {}  # char id -> the text its SheetFile rendered
        self.first_plain = {}  # char id -> the sheet's plain data as first read (for the log's `changes`)
        self.first_counters = {}  # char id -> its record's counters as first read (a change must be returned)
        self.lock = None
        self.txn = None
        self.reconciled = []
        self.reconciled_files = None  # what the merge reconciliations replaced (taken back with a refusal)
        self._encounter = None

    @property
    def campaign(self):
        return self.app.campaign

    def __enter__(self):
        from ..store.txn import Lock, Transaction, recover

        if self.write:
            from .encounter_ops import require_git

            require_git(self)
            self.lock = Lock(self.campaign.root).__enter__()
            from ..store.gitops import refuse_while_merging

            try:
                self.campaign.reload()  # settings as they are under the lock, after any replay
                refuse_while_merging(self.campaign.root)  # no writing while git reports a file unmerged
                self.txn = Transaction(self.campaign.root)
                from .encounter_ops import reconcile

                self.reconciled = reconcile(self)  # the first writer after a merge sets sheets to the log
            except BaseException:
                self.lock.__exit__()
                raise
        else:
            try:
                root = self.campaign.root
            except Exception:
                return self  # dice-only commands run outside a campaign
            from ..store.txn import manifest_path

            if os.path.lexists(manifest_path(root)):
                with Lock(root):
                    pass  # taking the lock finishes an interrupted action
                self.campaign.reload()  # read what the replay wrote, not what was there before the lock
        return self

    def __exit__(self, *exc):
        try:
            if exc[0] is not None and self.lock is not None:
                self._take_back_reconciliation()
        finally:
            if self.lock is not None:
                self.lock.__exit__(*exc)
        return False

    def _take_back_reconciliation(self):
        """A command refused after its merge reconciliation writes nothing: the reconciliation goes with it
        (unless the command's own action was saved after it). The next writer reconciles again."""
        from ..store import txn

        back = self.reconciled_files
        if back is None or back.commits is None or back.commits != txn.COMMITS:
            return
        try:
            back.take_back()
        except OSError:
            pass  # the refusal says what went wrong; the next writer reconciles what stands

    @property
    def rules(self):
        return self.campaign.rules

    def load(self, char_id: str):
        if char_id not in self.sheets and self.campaign.real_id(char_id) != char_id:
            return self.load(self.campaign.real_id(char_id))  # `Selka` is selka's sheet, loaded once
        if char_id not in self.sheets:
            self.sheets[char_id] = self.campaign.load(char_id)
            self.first_plain[char_id] = self.sheets[char_id].plain
            self.first_counters[char_id] = _counters(self.sheets[char_id].sheet)
        return self.sheets[char_id]

    def sheet(self, char_id: str):
        return self.load(char_id).sheet

    def set_sheet(self, char_id: str, dice: dict):
        """Set a sheet's counters in this transaction (edited where they stand when they can be). The host's
        alone: a game returns its counters in its Outcome (`dice=`), and a call from a game refuses."""
        if _RUNNING:
            refuse_write("Session.set_sheet")
        self._rewrite(self.load(char_id), self.load(char_id).render(dice))

    def edit_sheet(self, char_id: str, edits: dict, explicit_null: bool = False, skip_zero=frozenset()):
        """Set key paths of a sheet in this transaction, only their lines changed (store/edit.py). The host's
        alone: a game returns its edits in its Outcome (`sheets=`), and a call from a game refuses."""
        if _RUNNING:
            refuse_write("Session.edit_sheet")
        sf = self.load(char_id)
        self._rewrite(sf, sf.edit(edits, explicit_null, skip_zero))

    def _rewrite(self, sf, text: str):
        self.rendered[sf.id] = text
        if text != sf.original:
            self.txn.write(sf.path, text)
        else:
            self.txn.writes.pop(self.txn.rel(sf.path), None)

    def commit(self):
        if _RUNNING:
            refuse_write("Session.commit")
        if self.txn is not None:
            written = set(self.txn.writes)
            self.txn.commit()
            for sf in self.sheets.values():  # still under the lock: nobody else rewrites sheets
                text = self.txn.writes.get(self.txn.rel(sf.path))
                if text is not None and text == self.rendered.get(sf.id):  # what this parse describes
                    self.campaign.remember(sf, text=text)
