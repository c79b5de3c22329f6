"""The log line: one entry per line, `- {json}`.

JSON is YAML, so a log stays a YAML list, but a line is read with the json
module alone: readers stream the file one line at a time (memory does not
grow with the log) and a writer looks only at the file's tail. Every
character YAML does not allow raw is written as a `\\u` escape, so the file
always reads as the same list as its JSON lines.

Logs written before entries had ids (YAML flow lines, or block entries) are
still read: such an entry has the implicit id `seq-N`, its parent the entry before it.
"""

from __future__ import annotations

import json
import os
import re
import stat

from ..errors import BadInput
from . import entry as shape

MEND = "mend or delete that line (or restore the log from git)"
ENTRY_LIMIT = 1024 * 1024  # bytes in one entry; never a limit on the file
FIRST_KEYS = ("seq", "id", "parent", "at", "command", "actor")
# C1 controls, DEL, line/paragraph separators, BOM, the two non-characters and lone surrogates;
# C0 controls are escaped by json.dumps itself
_UNSAFE = "[\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]"


def new_id() -> str:
    """12 lowercase hex digits, random: unique across clones."""
    return os.urandom(6).hex()


def now() -> str:
    import time

    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def entry_id(entry: dict) -> str:
    """An entry's id; an entry from before ids existed has the implicit id `seq-N`."""
    found = entry.get("id")
    return found if isinstance(found, str) and found else f"seq-{entry.get('seq')}"


def ordered(entry: dict) -> dict:
    out = {key: entry.get(key) for key in FIRST_KEYS}
    out.update((key, value) for key, value in entry.items() if key not in FIRST_KEYS)
    return out


def held(counters) -> dict:
    """The counters that are not zero: an absent counter counts 0, so two records compare by these."""
    return {key: value for key, value in (counters or {}).items() if value}


def entry_line(entry: dict) -> str:
    """`- ` and one JSON object on one line, the first keys in their fixed order."""
    text = json.dumps(ordered(entry), ensure_ascii=False, separators=(", ", ": "))
    if not text.isascii() or "\x7f" in text:  # the pattern is compiled only for a line that may need it
        text = re.sub(_UNSAFE, lambda m: f"\\u{ord(m.group()):04x}", text)
    return "- " + text + "\n"


def parse_line(line: str, raw: bytes | None = None) -> dict:
    """One line of the log as an entry; ValueError (`field: what is wrong`) when it is not one whole entry of
    the shape a writer writes (store/entry.py). `raw`: the line's bytes, when the reader has them."""
    if not line.startswith("- {"):
        raise ValueError("not a log entry line (`- {...}`)")
    old = False
    try:
        entry = _json_object(line, 2)  # json.loads(line[2:].rstrip("\r\n")), without the two copies
    except _Unbounded as exc:
        raise ValueError(str(exc)) from None
    except RecursionError:  # the scanner's own bound, far past the schema's
        raise ValueError(f"entry: nested deeper than {shape.MAX_DEPTH} levels") from None
    except ValueError:
        entry, old = _old_entry(line), True  # a YAML flow line from before entries were JSON
    return checked(entry, raw if raw is not None else line.encode("utf-8", "surrogatepass"), old)


def checked(entry, raw: bytes | None, old: bool = False) -> dict:
    """`entry` when it is of the shape a writer writes, within the size limits (always walked for an old YAML
    entry or without `raw`; else only when its bytes may break them); else ValueError naming the field."""
    if not isinstance(entry, dict) or not isinstance(entry.get("seq"), int) or isinstance(entry.get("seq"), bool):
        raise ValueError("not a log entry (no whole-number seq)")
    found = shape.problem(entry)
    if found is None and (old or raw is None or shape.may_break_limits(raw)):
        found = shape.limits_problem(entry)
    if found is not None:
        raise ValueError(found)
    return entry


class _Unbounded(ValueError):
    """A number the JSON scanner met that no entry may hold (1e999, NaN, Infinity)."""


def _float(text: str) -> float:
    try:
        return shape.parse_float(text)
    except ValueError as exc:
        raise _Unbounded(str(exc)) from None


def _constant(text: str):
    raise _Unbounded(f"a number that is not finite ({text})")


_SCAN = None


def _json_object(text: str, start: int = 0):
    """`json.loads(text[start:])` for a text whose JSON starts with `{` at `start`, by the same C scanner
    without json.loads' layers of Python (a sixth of the parse of a long log, which `stats`, `verify` and
    `report` read line by line): the same value, the same ValueError for anything else (trailing
    whitespace allowed, as json.loads does)."""
    global _SCAN
    if _SCAN is None:
        _SCAN = json.JSONDecoder(parse_float=_float, parse_constant=_constant).scan_once
    try:
        value, end = _SCAN(text, start)
    except StopIteration:  # json.loads: "Expecting value"
        raise ValueError("Expecting value") from None
    if end != len(text) and text[end:].strip(" \t\n\r"):
        raise ValueError("Extra data")
    return value


def _old_entry(chunk: str):
    from . import yamlio

    try:
        data = yamlio.load_safe(chunk, "log")  # refuses alias bombs and tags, like every YAML read
    except BadInput as exc:
        raise ValueError("not a whole entry: " + re.sub(r"^log(:\d+)*:\s*", "", exc.message)) from None
    except RecursionError:
        raise ValueError(f"entry: nested deeper than {shape.MAX_DEPTH} levels") from None
    if not isinstance(data, list) or len(data) != 1:
        raise ValueError("not one whole entry")
    entry = data[0]
    if isinstance(entry, dict) and hasattr(entry.get("at"), "isoformat"):  # an unquoted YAML time
        entry["at"] = _iso(entry["at"])
    return entry


def _iso(when) -> str:
    """A time YAML read as a datetime, as the text a writer writes (UTC, `Z`)."""
    from datetime import datetime, timezone

    if isinstance(when, datetime) and when.tzinfo is not None:
        when = when.astimezone(timezone.utc).replace(tzinfo=None)
    text = when.isoformat() if isinstance(when, datetime) else when.isoformat() + "T00:00:00"
    return text + "Z"


def open_log(path, label: str):
    """The log opened for reading: a regular file, without blocking (a FIFO must not hang us)."""
    try:
        fh = open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise BadInput(f"{label}: cannot read ({exc.strerror})", fix="check the file's permissions") from None
    if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
        fh.close()
        raise BadInput(f"{label}: not a regular file", fix="replace it with the log itself (or restore it from git)")
    return fh


def iter_lines(path, label: str):
    """Yield (line number, entry or None, problem or None) for each entry, one line at a time.

    Blank lines and comments are skipped. An old block entry (`- seq: 1` and indented lines)
    is gathered up to the next entry; every entry is limited to ENTRY_LIMIT bytes. Lines appended
    while the log is read are left for the next reader (the log as it stood when opened).
    """
    with Snapshot(path, label) as log:
        yield from log.lines()


class Snapshot:
    """A log as it stood when opened, to read from its start as often as a command needs (a table's widths,
    then its rows), one line at a time so memory stays flat; never past the end it had when opened, so
    every pass sees the same entries while writers append."""

    def __init__(self, path, label: str, end: int | None = None):
        """`end`: read no further than this byte (where an earlier snapshot of the same log ended)."""
        self.label = label
        self.fh = open_log(path, label)
        size = os.fstat(self.fh.fileno()).st_size if self.fh is not None else 0
        self.end = size if end is None else min(end, size)

    @classmethod
    def of(cls, fh, label: str, end: int) -> "Snapshot":
        """A snapshot of a log already opened (`open_log`), up to byte `end`; it closes `fh`."""
        log = cls.__new__(cls)
        log.label, log.fh, log.end = label, fh, end
        return log

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.fh is not None:
            self.fh.close()
        return False

    def entries(self, marks: tuple | None = None, start: int = 0, number: int = 0, damaged=None):
        """Each entry from the start (or from byte `start`, line `number` + 1); a broken line is bad input
        naming file:line, or with `damaged` (a function of its number and problem, see `warn`) passed over
        (a reader that shows the log keeps serving). `marks`: only the one-line entries whose bytes
        hold one of these texts (a whole line that holds none is passed over unparsed, see `_passed_over`)."""
        for number, entry, problem in self.lines(marks, start, number):
            if problem:
                if damaged is not None:
                    damaged(number, problem)
                    continue
                raise BadInput(f"{self.label}:{number}: {problem}", fix=MEND)
            yield entry

    def _readline(self, limit: int) -> bytes:
        raw = self.fh.readline(min(limit, self.end - self.pos))
        self.pos += len(raw)
        return raw

    def lines(self, marks: tuple | None = None, start: int = 0, number: int = 0):
        """(line number, entry or None, problem or None) for each entry, from the start (`marks`: as
        `entries`; `start`: from this byte instead, the start of line `number` + 1)."""
        if self.fh is None:
            return
        self.fh.seek(start)
        self.pos = start
        wanted = _marked(marks).search if marks is not None else None
        block: list = []  # an old block entry being gathered: its first line's number, then its lines
        while True:
            raw = self._readline(ENTRY_LIMIT + 1)
            number += 1
            if not block and raw[:3] == b"- {" and raw[-1:] == b"\n":  # the usual line: one whole entry
                if not _passed_over(raw, wanted):
                    yield (number, *_parse_raw(raw))
                continue
            yield from self._other(raw, number, block, wanted)
            if not raw:
                return

    def _other(self, raw: bytes, number: int, block: list, wanted):
        """What `lines` makes of any other line: one over ENTRY_LIMIT (passed over, a problem), a line of an
        old block entry (gathered in `block`), the end of the log, a blank line, a comment, an entry after
        a block entry, a stray line (a problem)."""
        if len(raw) > ENTRY_LIMIT and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):  # skip the rest of the over-long line
                raw = self._readline(ENTRY_LIMIT)
            yield number, None, _too_long()
            return
        if block and raw[:1] in (b" ", b"\t"):
            block.append(raw)
            if sum(map(len, block[1:])) > ENTRY_LIMIT:
                yield block[0], None, _too_long()
                block.clear()
            return
        if block:
            yield (block[0], *_parse_block(block[1:]))
            block.clear()
        if not raw.strip() or raw.startswith(b"#"):
            return
        if raw.startswith(b"- {"):
            if not _passed_over(raw, wanted):
                yield (number, *_parse_raw(raw))
        elif raw.startswith(b"- "):
            block.extend((number, raw))
        else:
            yield number, None, "not a log entry line (each entry is `- {...}` on one line)"


def _passed_over(raw: bytes, wanted) -> bool:
    """Whether a one-line entry may be passed over unparsed: marks are asked for (`wanted`), it holds none,
    and it looks whole, as narateer writes a line (ASCII JSON from `- {"` to `}`). Any other line is
    parsed: an old YAML flow line (`- {seq: 1, ...}`, whose keys are unquoted), and a cut or damaged
    one, which is then named as without marks."""
    return (wanted is not None and not wanted(raw) and raw.startswith(b'- {"') and raw.isascii()
            and raw.rstrip(b"\r\n").endswith(b"}"))


def _too_long() -> str:
    return f"entry longer than {ENTRY_LIMIT // 1024 // 1024} MiB"
_MARKED: dict = {}


def _marked(marks: tuple):
    """One pattern that finds any of `marks` in a line (one search per line, not one per mark)."""
    found = _MARKED.get(marks)
    if found is None:
        found = _MARKED[marks] = re.compile(b"|".join(re.escape(mark) for mark in marks))
    return found


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text (byte {exc.start})") from None


def _parse_raw(raw: bytes):
    try:
        return parse_line(_decode(raw), raw), None
    except ValueError as exc:
        return None, str(exc)


def _parse_block(lines: list):
    try:
        return checked(_old_entry(_decode(b"".join(lines))), None, old=True), None
    except ValueError as exc:
        return None, str(exc)


def entries(path, label: str, marks: tuple | None = None, damaged=None):
    """Each entry of a log, streamed; a broken line is bad input naming file:line, or passed to `damaged`
    (`marks`: only the one-line entries that hold one of these byte texts, see `Snapshot.entries`)."""
    with Snapshot(path, label) as log:
        yield from log.entries(marks, damaged=damaged)


def warn(label: str):
    """A `damaged` for `entries`: each damaged line is one warning on stderr, naming it and the fix, and is
    passed over (stdout, `--json` included, stays the reader's own)."""
    from ..safetext import printable
    from ..sink import note

    def damaged(number: int, problem: str):
        note(printable(f"narateer: warning: {label}:{number}: {problem}; the line is passed over: " + MEND) + "\n")

    return damaged


def quiet(number: int, problem: str):
    """A `damaged` for `entries` that passes a damaged line over without a word (a second pass of one log)."""


class Tail:
    """What a writer needs from a log, read from its end only: the last two entries,
    whether the last line lost its newline, and the size."""

    def __init__(self, last=None, previous=None, size=0, newline=True):
        self.last, self.previous, self.size, self.newline = last, previous, size, newline

    @property
    def seq(self) -> int:
        return self.last["seq"] if self.last else 0

    @property
    def tip(self) -> str | None:
        return entry_id(self.last) if self.last else None

    def forked(self) -> bool:
        """A fork: the last line's parent is not the line before it (two branches joined by git)."""
        if not self.last or not self.previous or "parent" not in self.last:
            return False
        return self.last.get("parent") != entry_id(self.previous)


def read_tail(path, label: str) -> Tail:
    """The last two entries of a log, reading backwards in growing chunks (a broken
    last line stops the writer with exit 2 until it is mended)."""
    fh = open_log(path, label)
    if fh is None:
        return Tail()
    with fh:
        size = os.fstat(fh.fileno()).st_size
        start, data, found = _last_lines(fh, size)
    newline = size == 0 or data.endswith(b"\n")
    parsed = [_parse_raw(raw) if raw.startswith(b"- {") else (None, "old block entry") for raw in found[-2:]]
    problem = parsed[-1][1] if parsed and parsed[-1][1] != "old block entry" else None
    problem = problem or _tail_problem(parsed)
    if problem:
        line = data[: data.rfind(found[-1])].count(b"\n") if start == 0 else None
        where = f"{label}:{line + 1}" if line is not None else f"{label} (last line)"
        raise BadInput(f"{where}: {problem}; nothing can be added to this log", rule="G-LOG-4", fix=MEND)
    if parsed and parsed[-1][0] is None:  # an old block-style log: read it whole, once
        last = prev = None
        for entry in entries(path, label):
            prev, last = last, entry
        return Tail(last, prev, size, newline)
    last = parsed[-1][0] if parsed else None
    prev = parsed[-2][0] if len(parsed) == 2 else None
    return Tail(last, prev, size, newline)


def _tail_problem(parsed: list) -> str | None:
    """A line only in the form writers produce, as far as the last two lines tell: the last continues the
    line before it as a writer continues it (an id after entries with ids, the next seq after its parent's)."""
    if len(parsed) < 2 or parsed[-1][0] is None or parsed[-2][0] is None:
        return None
    last, previous = parsed[-1][0], parsed[-2][0]
    if last.get("id") is None and previous.get("id") is not None:
        return "id: missing (only a log from before ids has entries without one)"
    if last.get("parent") is not None and last["parent"] == previous.get("id") and last["seq"] != previous["seq"] + 1:
        return f"seq: {last['seq']} does not continue the entry it continues ({previous['seq']})"
    return None


def _last_lines(fh, size: int, wanted: int = 2):
    """(start, data, entry lines) of the log's end: chunks grow from 8 KiB until they hold `wanted`
    entry lines, the whole file, or more than `wanted` entries can fill."""
    chunk = 8192
    while True:
        start = max(0, size - chunk)
        fh.seek(start)
        data = fh.read(size - start)
        lines = data.split(b"\n")
        if start > 0:
            lines = lines[1:]  # may be cut
        found = [line for line in lines if line.strip() and not line.startswith((b"#", b" "))]
        if len(found) >= wanted or start == 0 or chunk > wanted * ENTRY_LIMIT + 8192:
            return start, data, found
        chunk *= 4


def last_lines(path, label: str, count: int) -> list[bytes]:
    """The last `count` entry lines of a log (raw bytes, oldest first), read from its end: the cost
    follows `count`, not the log's length. Old block entries are skipped."""
    fh = open_log(path, label)
    if fh is None:
        return []
    with fh:
        if count <= 0:
            return []
        _, _, found = _last_lines(fh, os.fstat(fh.fileno()).st_size, count)
    return [line for line in found if line.startswith(b"- {")][-count:]
