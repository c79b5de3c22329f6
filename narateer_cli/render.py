"""The host's output: JSON for scripts, and text for people through the system's formatters.

`out(kind, data, as_json, system)` prints one JSON object (and nothing else)
with --json; otherwise the text of the formatter of `kind`. The host's own
results (init, check, undo ...) have a `HostKind` and the host's formatters; a
game's results have a kind of its own (text, a snake_case name) and only the
game's `formatters`. A kind with no formatter is an error at once, never a
guess.
tabulate is imported only by formatters that print a table, and wcwidth only for
a table whose text is not all one column per character. Campaign text is
made printable (control characters escaped) before any formatter sees it, and colour comes last.
"""

from __future__ import annotations

import itertools
import json
import sys
from enum import StrEnum

from .outcome import check_headline
from .record import to_plain
from .errors import NarateerError
from .readonly import GameFault, failing_function, function_name, hook_failed, is_game, warn_once
from .readonly import SEALED, sealed_text
from .safetext import printable


def display_name(cid: str, name) -> str:
    """A creature's one display name: its sheet's `name`, with its id beside it, `Bandit 2 (thug-2)`, wherever
    the name does not read as the id (the id is what every command takes); `Selka` (selka) and `Thug 2`
    (thug-2) need none. A sheet without a name shows its id."""
    name = name.strip() if isinstance(name, str) and name.strip() else str(cid)
    if "-".join(name.lower().replace("_", " ").replace("-", " ").split()) == str(cid).lower().replace("_", "-"):
        return name
    return f"{name} ({cid})"


def plain(value):
    """A result as JSON-ready data: a record by its `to_json` (narateer_cli.record: its fields, as it declares
    them), mappings and lists item by item. Engines return records; this is where they become JSON."""
    return to_plain(value)


class HostKind(StrEnum):
    """The kinds of the host's own results, each rendered by the host's formatter of that name (`FORMATTERS`),
    never by a game's. Every other kind is a game's: text, rendered by that game's `formatters` alone."""

    init = "init"
    check = "check"
    systems = "systems"
    git_setup = "git_setup"
    reconcile = "reconcile"
    encounter_new = "encounter_new"
    encounter_end = "encounter_end"
    encounter_show = "encounter_show"
    encounter_log = "encounter_log"
    undo = "undo"
    verify = "verify"
    unveil = "unveil"
    stats = "stats"
    report = "report"
    dice_expression = "dice_expression"


def formatter(kind, system=None, by=None):
    """The text formatter of a result kind: the host's for a `HostKind`, else the game's (`system.formatter`,
    a GameFault naming `by`, the function that made the result, when the game's formatters have no such kind)."""
    if isinstance(kind, HostKind):
        return FORMATTERS.get(kind) or WITH_SYSTEM[kind]
    if system is None:
        raise TypeError(f"a game's result kind {kind!r} needs its system to be rendered")
    return system.formatter(kind, by)


def out(kind: str, data, as_json: bool, system=None, color: bool = False, seeded: int | None = None, sink=None):
    """Print one result to the command's sink (its App's; `narateer_cli.sink`): JSON (never coloured), or the
    text of the formatter of `kind` (`formatter`), led by the outcome line (coloured only when colour is
    on) and followed by `(seeded N)` when a seed was in force. A sink that keeps results (the Python API)
    keeps (kind, data) instead. A kind with no formatter fails before anything is printed, --json or not."""
    formatter(kind, system, _running_game())
    if sink is None:
        from .sink import current

        sink = current()
    if sink.kept is not None:
        sink.kept.append((kind, data))
        return
    data = plain(data)
    if as_json:
        sink.out(json.dumps(data, ensure_ascii=False) + "\n")
        return
    sink.out(words(kind, data, system, color, seeded) + "\n")


def words(kind: str, data, system=None, color: bool = False, seeded: int | None = None) -> str:
    """A result (plain data) as a person reads it: what `out` prints without --json (the page shows the same
    words for an action run from it)."""
    data = shown(data)
    if isinstance(kind, HostKind):  # WITH_SYSTEM: the host's own layout, with the system's words inside
        text = WITH_SYSTEM[kind](data, system) if kind in WITH_SYSTEM else FORMATTERS[kind](data)
    else:
        text = game_text(formatter(kind, system), data, f"text formatter for {kind!r}")
    text = lines(text.rstrip("\n"))  # and what a formatter read for itself
    head = headline(kind, data, system)
    if head is not None:
        said, good = head
        text = paint(said, good, color) + "\n" + text
    if seeded is not None:
        text += f"\n(seeded {seeded})"
    return text


def shown_entry(entry: dict) -> dict:
    """`shown(entry)` for an entry read from a log, which is plain JSON: mostly it holds nothing to escape,
    and one `json.dumps` (in C) tells so faster than walking every string of it."""
    from .safetext import needs_escape

    text = json.dumps(entry, ensure_ascii=False)
    return shown(entry) if "\\" in text or needs_escape(text) else entry


def shown(data):
    """`data` with every string (keys too) made printable: a name, note or path from the campaign
    reaches the formatters with its control characters, newlines included, written as visible escapes, so
    it cannot move the cursor, retitle the window or forge a line; the outcome's colour is added after.
    A `layout` is a system's finished text (d20-cards' sheet and card): each of its lines is escaped. A sealed
    value's commitment (a secret the Guide's machine holds) reads "sealed"."""
    if isinstance(data, str):
        return "sealed" if data.startswith(SEALED) and sealed_text(data) else printable(data)
    if isinstance(data, dict):
        return {shown(key): lines(value) if key == "layout" and isinstance(value, str) else shown(value)
                for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [shown(item) for item in data]
    return data


def lines(text: str) -> str:
    """Text of many lines, each made printable; the line breaks stay."""
    return "\n".join(map(printable, text.split("\n")))


def headline(kind: str, data, system=None):
    """The outcome line that leads a result's text, coloured by success when colour is on: (the outcome in
    words, success True/False/None) for a result that has one, else None.
    A system's `headline` hook decides for its own result kinds; the host's default (and the host's own
    kinds') reads a check's
    `outcome` and `success`, at the top level or under `check`."""
    hook = system.hook("headline") if system is not None and not isinstance(kind, HostKind) else None
    if hook is not None:
        try:
            return hook(kind, data)
        except NarateerError:
            raise
        except Exception as exc:  # the game's code failed; say whose
            raise hook_failed(exc, "headline hook", hook) from exc
    return check_headline(data)


def game_text(formatter, data, role: str) -> str:
    """A game's formatter's text; GameFault naming it when it fails or gives no text."""
    try:
        text = formatter(data)
    except NarateerError:
        raise
    except Exception as exc:
        raise hook_failed(exc, role, formatter) from exc
    if not isinstance(text, str):
        raise GameFault(f"{function_name(formatter)} returned {type(text).__name__}, not text, as the game's {role}",
                        rule="K-4", fix="return the text a person reads")
    return text


COLOURS = {True: "green", False: "red", None: "yellow"}


def paint(text: str, good, color: bool) -> str:
    """The outcome line, coloured (green success, red failure, yellow anything else) when `color`."""
    if not color:
        return text
    import click

    return click.style(text, fg=COLOURS.get(good, "yellow"), bold=True)


def table(rows, headers, wide: bool | None = None, **kw) -> str:
    """Rows as a tabulate table. Widths are counted with wcwidth only when a cell holds a character that
    is not one column wide (wide East Asian text, emoji, combining marks) and wcwidth is installed; for
    every other table len() is already the width, and the ~11 ms of importing wcwidth is not paid.
    `wide`: decided by the caller for the whole table (a table printed in chunks, narateer_cli/stream.py)."""
    rows = list(rows)
    module = _tabulate()
    module.WIDE_CHARS_MODE = False
    if _needs_wide(headers, rows) if wide is None else wide:
        try:
            import wcwidth
        except ImportError:
            pass
        else:
            module.wcwidth, module.WIDE_CHARS_MODE = wcwidth, True
    return module.tabulate(rows, headers=headers, tablefmt=kw.pop("tablefmt", "simple"), **kw)


def _tabulate():
    """The tabulate module, imported with wcwidth hidden from it (an entry of None in sys.modules makes
    `import wcwidth` fail), since tabulate imports wcwidth at import whenever it is installed; `table`
    hands it over (the module's `wcwidth` and its documented WIDE_CHARS_MODE) when a table needs it."""
    module = sys.modules.get("tabulate")
    if module is not None:
        return module
    hide = "wcwidth" not in sys.modules
    if hide:
        sys.modules["wcwidth"] = None
    try:
        import tabulate

        module = tabulate
    finally:
        if hide and sys.modules.get("wcwidth", False) is None:
            del sys.modules["wcwidth"]
    return module


def _needs_wide(headers, rows) -> bool:
    """Whether any header or cell holds a character whose width is not one column."""
    odd = [text for text in _cells(headers, rows) if not text.isascii()]
    if not odd:
        return False
    import unicodedata

    return any(unicodedata.east_asian_width(ch) in "WF" or unicodedata.category(ch) in ("Mn", "Me", "Cf")
               for text in odd for ch in text if not ch.isascii())


def _cells(headers, rows):
    yield from (str(h) for h in headers if not isinstance(headers, str))
    for row in rows:
        yield from (str(cell) for cell in (row.values() if isinstance(row, dict) else row))


def init(data: dict) -> str:
    text = f"campaign ready in {data['campaign']}"
    if data["example"]:
        text += f" with {len(data['created']) - 1} example files"
        if data.get("next"):  # the system's example_hint: what to do next in its example
            text += f"; {data['next']}"
    made = data.get("git")
    if made:  # init --git
        driver = "merge driver registered" if made["driver"] else "merge driver NOT registered (run `narateer git-setup`)"
        text += (f"\ngit: {'a new repository, ' if made['initialized'] else ''}{driver}, "
                 f"first commit {made['commit']}; share it with `git remote add origin URL` and "
                 "`git push -u origin HEAD`, and run `narateer git-setup` once in every clone")
    return text


def encounter_end(data: dict) -> str:
    """The timed conditions the end took off the sheets, or kept on them, each by name."""
    lines = [f"encounter {data['id']} ended; changes outside encounters now go to the campaign log"]
    ended = data.get("ended") or []
    if ended:
        lines.append("conditions ended with it: " + ", ".join(f"{e['char']} {e['condition']}" for e in ended))
    kept = data.get("kept") or []
    if kept:
        lines.append("conditions kept (--keep-conditions): " + ", ".join(
            f"{k['char']} {k['condition']} ({k['rounds_left']} round{'' if k['rounds_left'] == 1 else 's'} left)"
            for k in kept))
    return "\n".join(lines)


def reconcile(data: dict) -> str:
    done = data.get("reconciled") or []
    if not done:
        return "every sheet already holds what its log adds up to"
    return "set to what the log adds up to: " + ", ".join(f"characters/{cid}.yaml" for cid in done)


def git_setup(data: dict) -> str:
    moved = data.get("private") or {}
    if moved.get("removed"):
        return (git_setup({**data, "private": None}) + f"\nmoved {moved['moved']} private record(s) of this machine "
                "out of .narateer/ into the git directory and removed .narateer/ (private files live there now)")
    if moved.get("moved") or moved.get("left"):
        return (git_setup({**data, "private": None}) + f"\nmoved {moved['moved']} private record(s) of this machine "
                f"out of .narateer/ into the git directory; {moved['left']} left there (not made here): "
                "remove .narateer/ when you no longer need it")
    if data["driver"]:
        pull = {"merge": "; a plain `git pull` merges", "rebase": "; a plain `git pull` rebases"}.get(data.get("pull"), "")
        return "narateer merge driver registered in this clone; .gitattributes ready" + pull
    return ".gitattributes ready; not in a git clone, so no merge driver yet: run `narateer git-setup` after `git init`"


def problem(p) -> str:
    """A structured problem (store.schema.Problem: file, line, key, message, fix) as `file:line: message`."""
    return f"{p.file}:{p.line}: {p.message}" + (f"; {p.fix}" if p.fix else "")


def check(data: dict) -> str:
    return "\n".join(data["problems"]) if data["problems"] else "campaign ok"


def encounter_new(data: dict) -> str:
    return f"encounter {data['id']} created and current ({', '.join(data['participants']) or 'no participants'})"


def undo(data: dict) -> str:
    what = f" ({data['undid']})" if data.get("undid") else ""
    restored = f"restored {', '.join(data['files'])}" if data["files"] else "no file to restore"
    return f"undid entry {data['undone']} of {data['encounter']}{what}; {restored}"


def verify(data: dict) -> str:
    if data["ok"]:
        text = f"encounter {data['encounter']}: {data['entries']} entries verified, no problems"
    else:
        text = f"encounter {data['encounter']}: {data['problem']}"
    if data.get("secret"):
        text += f"\nstill secret: {', '.join(data['secret'])}"
    if data.get("lost"):
        text += f"\nprivate record lost here (stays a commitment): {', '.join(data['lost'])}"
    return text


def stats_columns(system) -> dict:
    """{key: heading} of the game's own `stats` columns, in its order (`Game.stats_columns`); a key `stats`
    does not count is passed over."""
    from .systems.interface import STATS_COLUMNS

    given = system.get("stats_columns") if system is not None else STATS_COLUMNS
    if not isinstance(given, dict):
        return {}
    return {key: str(heading) for key, heading in given.items() if key in STATS_CELLS}


def unveil(data: dict) -> str:
    lines = [f"{u.get('words') or 'unveiled ' + u['entry']} (in {u['log']}, entry {u['unveil']})"
             for u in data["unveiled"]]
    if data["lost"]:
        lines.append(f"private record lost, still a commitment: {', '.join(data['lost'])}")
    return "\n".join(lines) or "nothing to unveil"


# The columns of `stats` a game may show beside the host's own, with what each shows of an actor's row.
STATS_CELLS = {"dice_spent": lambda r: r["dice_spent"], "crits": lambda r: f"{r['crits']} / {r['crits_expected']:.2f}"}


def stats(data: dict, system=None) -> str:
    """`stats` as a table and a terminal chart: successes against expected, and the percentile; then the
    game's own columns (its `stats_columns`: dice spent, top faces), none another game's."""
    rows = data["actors"]
    if not rows:
        return "no checks logged" + (f" ({data['scope']['sealed']} still secret)" if data["scope"]["sealed"] else "")
    own = stats_columns(system)
    head = table([(r["actor"], r["checks"], f"{r['successes']}", f"{r['expected']:.2f}",
                   "-" if r["percentile"] is None else f"{r['percentile']:.1f}%",
                   *(STATS_CELLS[key](r) for key in own)) for r in rows],
                 ["actor", "checks", "successes", "expected", "luck", *own.values()],
                 disable_numparse=True, colalign=("left",) + ("right",) * (4 + len(own)))
    width = max(len(r["actor"]) for r in rows)
    chart = ["", "luck (percentile of possible sessions; | marks 50%)"]
    for r in rows:
        pct = r["percentile"]
        if pct is None:  # no check with a chance of its own: no luck to draw, never a 0.0% bar
            chart.append(f"{r['actor']:<{width}}  {'':10}|{'':10}  {'-':>6}  (no checks with a chance)")
            continue
        bar = ("#" * round(pct / 5)).ljust(20)
        chart.append(f"{r['actor']:<{width}}  {bar[:10]}|{bar[10:]}  {pct:5.1f}%")
    if data["scope"]["sealed"]:
        chart.append(f"({data['scope']['sealed']} secret roll(s) count once unveiled)")
    return head + "\n" + "\n".join(chart)


def systems(data: dict) -> str:
    rows = [("*" if s["current"] else "", s["name"], s["title"], s["summary"]) for s in data["systems"]]
    return table(rows, ["", "system", "title", "what it plays"])


# -- one log entry in words: `encounter log`, `report` and git commit messages (`--commit`) ---------------

HOST_SUMMARIES = {
    "encounter new": lambda a, d, r: f"encounter {r['id']} begins: {', '.join(d.get('participants') or []) or 'nobody yet'}",
    "encounter end": lambda a, d, r: f"encounter {r['id']} ends" + _conditions_ending(r),
    "undo": lambda a, d, r: f"undid entry {r['undone']}" + (f": {r['undid']}" if r.get("undid") else ""),
    "new": lambda a, d, r: f"new character {r['id']}",
    "dice expression": lambda a, d, r: dice_expression(r),
}


def _conditions_ending(result: dict) -> str:
    """The timed conditions an encounter's end took off the sheets, or kept, by name."""
    words = ""
    for key, said in (("ended", "ending"), ("kept", "keeping")):
        rows = [row for row in result.get(key) or () if isinstance(row, dict)]
        if rows:
            words += f", {said} " + ", ".join(f"{row.get('char')}'s {row.get('condition')}" for row in rows)
    return words


def _host_summary(command, actor, declaration, result):
    make = HOST_SUMMARIES.get(command)
    return make(actor, declaration, result) if make is not None else None


def flat_text(system, kind: str, result: dict) -> str | None:
    """A result's own text (the game's formatter of its kind `kind`, which must be one of its kinds) on one
    line: a summary any game gets. None for a result that is no mapping, or empty."""
    if not isinstance(result, dict) or not result:
        return None
    return _one_line(system.formatter(kind)(result))


def _one_line(text: str) -> str:
    return "; ".join(line.strip() for line in text.splitlines() if line.strip())


def _same_name_text(system, command: str, result) -> str | None:
    """A logged command of a game that gives it no words: the text of the game's formatter of the kind named
    like the command (`turn start`: `turn_start`), on one line, when its formatters have one."""
    own = system.formatters().get(command.replace(" ", "_")) if system is not None else None
    if own is None or not isinstance(result, dict) or not result:
        return None
    return _one_line(own(result))


def summary(entry: dict, system=None) -> str:
    """A log entry in words, never empty and never `None`: the system's `summary` hook for its commands,
    the host's for its own, else the command with the counters it moved."""
    command, actor = entry.get("command") or "action", entry.get("actor")
    if "unveils" in entry or entry.get("commitment") is not None:
        return secret_words(entry, system)
    text = _made_words(entry, system, command, actor)
    if text is not None:
        return text
    moved = _moved(entry.get("dice") or {})
    return " ".join(x for x in (actor, command, f"({moved})" if moved.strip("; ") else "") if x)


def _made_words(entry: dict, system, command: str, actor) -> str | None:
    """The first words of the game's `summary` (given its record of the result), the host's for its own
    commands, or the game's formatter of the kind named like the command; None when none has any."""
    declaration, result = entry.get("declaration") or {}, entry.get("result") or {}
    own = system.hook("summary") if system is not None else None
    makers = [own, _host_summary, lambda c, a, d, r: _same_name_text(system, c, r)]
    for make in filter(None, makers):
        given = _read_back(system, entry, command, result) if make is own else result
        if given is _UNREAD:
            continue
        text = _words_of(make, entry, (command, actor, declaration, given))
        if isinstance(text, str) and text and "None" not in text.split():
            return text
    return None


_UNREAD = object()


def _read_back(system, entry: dict, command: str, result):
    """The result the game's `summary` reads: its record of the command's result (`Game.results`), read back;
    `_UNREAD`, with one warning naming the entry, when it does not read back (a damaged or older entry)."""
    try:
        return system.logged_result(command, result)
    except ValueError as exc:
        warn_once(("result", entry.get("seq"), command),
                  f"entry {entry.get('seq')} ({command}): {exc}; the host's words are shown instead")
        return _UNREAD


def _words_of(make, entry: dict, args: tuple):
    """One maker's words for an entry. A summary is never worth a failed command (undo, encounter log): one
    that raises, or a game's that gives something else than text or None, is named once, and the next
    maker's words follow."""
    try:
        text = make(*args)
    except Exception as exc:
        _summary_failed(exc, make, entry)
        return None
    if text is not None and not isinstance(text, str) and is_game(make):
        name = function_name(make)
        warn_once(("summary", name), f"{name} returned {type(text).__name__}, not text, for entry "
                                     f"{entry.get('seq')}; the host's words are shown instead")
    return text


def _summary_failed(exc, make, entry: dict):
    """A game's `summary` (or the formatter it falls back on) that raised: one warning naming it, then the
    host's own words. The game's own `summary` hook is always named; in the host's fallbacks (a formatter
    given an entry that lacks a field it reads) such an error is the usual way to the next words."""
    usual = isinstance(exc, (KeyError, TypeError, AttributeError, IndexError)) and not isinstance(exc, GameFault)
    if usual and not is_game(make):
        return
    name = failing_function(exc, make if make is not _host_summary else None)
    warn_once(("summary", name), f"{name} failed to put entry {entry.get('seq')} in words "
                                 f"({type(exc).__name__}: {exc}); the host's words are shown instead")


def secret_words(entry: dict, system=None) -> str:
    """A sealed entry by its public part only (the log holds a commitment, never the secret), with the dice
    the table saw move; an unveil as the roll it publishes, in the words an open roll would have had."""
    if "unveils" in entry:
        return unveiled_words(entry, system)
    command, actor = entry.get("command") or "action", entry.get("actor")
    moved = _moved(entry.get("dice") or {})
    words = (f"{actor + ': ' if actor else ''}secret {'' if command == 'roll' else command + ' '}roll, sealed "
             f"until unveiled" + (f" ({moved})" if moved else ""))
    held = entry.get(SEALED_HERE)
    if isinstance(held, dict):  # this machine holds the sealed record: its reader sees the roll it keeps
        words += "; sealed here: " + summary({"command": command, "actor": actor, "result": held}, system)
    return words


# the key under which `encounter log` hands render, in text only, the sealed result this machine holds for a
# secret entry (never written to a file, never in --json: a log printed as JSON is what the files say)
SEALED_HERE = "sealed_here"


def unveiled_words(entry: dict, system=None) -> str:
    """An unveil entry as the words its secret roll would have had if logged openly (`of` names
    that roll's command; an unveil logged before `of` was kept says only that its result is public)."""
    target = str(entry.get("unveils") or "")
    result = entry.get("result") if isinstance(entry.get("result"), dict) else {}
    if not entry.get("of"):
        return f"unveiled {target}: its result is public (`encounter log --json` shows it)"
    return f"unveiled {target}: " + summary({"command": entry["of"], "actor": entry.get("actor"), "result": result},
                                            system)


def _moved(dice: dict) -> str:
    """The counters a log entry moved, `id ready 5 -> 3, used 0 -> 2; ...` (a character none of whose counters
    moved is left out)."""
    moved = ((cid, ", ".join(f"{k} {m['before'].get(k, 0)} -> {v}" for k, v in m["after"].items()
                             if m["before"].get(k, 0) != v)) for cid, m in dice.items())
    return "; ".join(f"{cid} {changes}" for cid, changes in moved if changes)


LOG_HEADERS = ["#", "id", "time", "actor", "what happened"]


def encounter_log(data: dict, system=None) -> str:
    """`encounter log`: one row per entry: seq, short id, time, actor, what happened in words."""
    if not data["entries"]:
        return f"encounter {data['id']}: no entries yet"
    # an id is text: 8449e68 is no number in exponent form, 0123456 keeps its zero
    return table([log_row(e, system) for e in data["entries"]], LOG_HEADERS, disable_numparse=[1])


def log_row(entry: dict, system=None) -> list:
    """One row of `encounter log`; an entry a later undo took back (`undone`) is marked so."""
    return [entry.get("seq"), (entry.get("id") or "")[:7], _clock(entry.get("at")), entry.get("actor") or "-",
            ("(undone) " if entry.get("undone") is True else "") + summary(entry, system)]


def out_log(log_id: str, entries, as_json: bool, system=None, color: bool = False, seeded: int | None = None,
            sink=None):
    """`encounter log` as `out(HostKind.encounter_log, {"id": log_id, "entries": [...]})` prints it, byte for byte,
    holding one chunk of rows, so memory stays flat however long the log. `entries()` gives the entries
    afresh each time: the log is read once to find a broken line (or the table's widths) before anything is
    printed, then again to print."""
    from . import stream

    if sink is None:
        from .sink import current

        sink = current()
    if sink.kept is not None:  # the Python API (so the page's actions too) gets the result, never the server's stdout
        kept = list(entries())
        if system is not None and system.hook("summary") is not None:
            for entry in kept:  # a summary that fails is said in this call's notes, as the command line says it
                summary(entry, system)
        sink.kept.append((HostKind.encounter_log, {"id": log_id, "entries": kept}))
        return
    write = sink.out
    if as_json:  # JSON from the log: plain already; each entry encoded once, kept until every line is read
        import json
        import tempfile

        with tempfile.TemporaryFile("w+", encoding="utf-8", newline="\n") as spool:
            for entry in entries():
                spool.write(json.dumps(entry, ensure_ascii=False) + "\n")  # no newline inside: JSON escapes it
            spool.seek(0)
            stream.json_object(write, {"id": log_id}, "entries", (line[:-1] for line in spool), encoded=True)
        return
    data = shown({"id": log_id, "entries": []})
    if next(iter(entries()), None) is None:
        text = iter([encounter_log(data, system)])
    else:
        rows = lambda: (log_row(shown_entry(e), system) for e in entries())  # noqa: E731
        text = stream.table_lines(rows, LOG_HEADERS, disable_numparse=[1])
    first = next(text)  # the widths are known, every line read: now printing may start
    head = headline(HostKind.encounter_log, data, system)
    if head is not None:
        write(paint(head[0], head[1], color) + "\n")
    for line in itertools.chain([first], text):
        write(printable(line) + "\n")
    if seeded is not None:
        write(f"(seeded {seeded})\n")


def _clock(at) -> str:
    """`2026-11-30T13:31:47Z` as `13:31:47` (the date is the log's, said once by `report`)."""
    text = str(at or "")
    return text[11:19] if len(text) >= 19 else text or "-"


def generic(data: dict) -> str:
    """A result with no formatter of its own, as indented `key: value` lines (never Python reprs)."""
    return "\n".join(_generic_lines(data, ""))


def _generic_lines(data: dict, indent: str):
    for key, value in data.items():
        if isinstance(value, dict) and value:
            yield f"{indent}{key}:"
            yield from _generic_lines(value, indent + "  ")
        elif isinstance(value, (list, tuple)):
            yield f"{indent}{key}: {', '.join(map(str, value)) or '-'}"
        else:
            yield f"{indent}{key}: {'-' if value is None or value == {} else value}"


def report(data: dict) -> str:
    from . import report as reports

    return (reports.html if data["format"] == "html" else reports.markdown)(data["encounters"])


def dice_expression(data: dict) -> str:
    from .dice import expression_text

    return expression_text(data)


def _running_game():
    """The game's function running now (a command), named when a result it shows has no formatter."""
    from .readonly import _RUNNING

    return _RUNNING[-1] if _RUNNING else None


# the host's formatter of each of its kinds (a test holds it to HostKind); `encounter_show` is the host's own
# show of an encounter, for a game that gives none
FORMATTERS = {
    HostKind.init: init, HostKind.check: check, HostKind.encounter_new: encounter_new, HostKind.undo: undo,
    HostKind.verify: verify, HostKind.systems: systems, HostKind.git_setup: git_setup,
    HostKind.reconcile: reconcile, HostKind.encounter_end: encounter_end, HostKind.unveil: unveil,
    HostKind.report: report, HostKind.dice_expression: dice_expression, HostKind.encounter_show: generic,
}
WITH_SYSTEM = {HostKind.encounter_log: encounter_log, HostKind.stats: stats}  # the host's layout, with the game's words inside
