"""`check`'s kept check of a log: where the last check of a log ended, so that the next one reads only what
was appended since.

Right after a write, a log differs from the one the last `check` read by the entries appended to it. The state
a check of a log ends in (the history's ids, tips and newest snapshots, store/history.py; the game's checker
and the secret entries still sealed, store/secrets.py) is kept in the private folder (store/cache.py: sealed
to this machine and campaign, written only when the command has run), with what it covers: the log's length,
a sha256 of all of its bytes, the rules the campaign plays by (`Campaign.rules_key`) and the code that checks
it (store/checked.py's `code_stamp`). The next check resumes from that state only when the log still begins
with exactly those bytes and its last line was a whole entry; then it reads the lines after them, as a full
check would have read them after the same state. Anything else (a rewrite, a cut, other rules or code, no
record: a fresh clone, whose private folder git never carries) is a full check.

A log whose check followed a character into the other logs (a gap another log's entries fill) depends on
them as well: its record then names each other log's length and sha256, and it resumes only while each still
begins with those bytes (entries added there can only fill more gaps). A check that ended in a problem keeps
nothing.

The state is kept with pickle, read back through an unpickler that builds only narateer's own classes and
a few standard containers, and only from a record whose seal (an HMAC made with this machine's key) holds;
a checker that cannot be kept (a game's closure) keeps nothing, and its log is checked in full each time.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import pickle

from ..errors import BadInput, NarateerError
from . import cache, loglines

KIND = "checks"
VERSION = 1
CHUNK = 1 << 20
_SAFE = {("collections", "OrderedDict"), ("array", "array"), ("array", "_array_reconstructor"),
         ("builtins", "set"), ("builtins", "frozenset"), ("fractions", "Fraction")}


class Watched:
    """The campaign's `Bridges` as one log's check uses it: `used` once the check looked into the other logs."""

    def __init__(self, bridges):
        self.bridges, self.used = bridges, False

    def __call__(self, *args) -> bool:
        self.used = True
        return self.bridges(*args)


class _Pickler(pickle.Pickler):
    def __init__(self, fh, shared: dict):
        super().__init__(fh, protocol=pickle.HIGHEST_PROTOCOL)
        self.shared = {id(value): name for name, value in shared.items() if value is not None}

    def persistent_id(self, obj):
        return self.shared.get(id(obj))


class _Unpickler(pickle.Unpickler):
    def __init__(self, fh, shared: dict, packages: tuple):
        super().__init__(fh)
        self.shared, self.packages = shared, packages

    def persistent_load(self, pid):
        if pid not in self.shared:
            raise pickle.UnpicklingError("unknown shared object")
        return self.shared[pid]

    def find_class(self, module, name):
        if (module, name) in _SAFE or any(module == p or module.startswith(p + ".") for p in self.packages):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not kept")


def _name(label: str) -> str:
    return "log-" + label.rsplit("/", 1)[-1]


def _key(campaign, label: str) -> list | None:
    from .checked import code_stamp

    if campaign.rules_key is None:
        return None
    return [VERSION, campaign.rules_key, code_stamp(campaign.system.package), label]


def _hash(fd: int, digest, start: int, end: int):
    """Feed bytes [start, end) of the file to `digest`."""
    while start < end:
        chunk = os.pread(fd, min(CHUNK, end - start), start)
        if not chunk:
            raise OSError("the file is shorter than it was")
        digest.update(chunk)
        start += len(chunk)


def _prefix(path, size: int) -> str | None:
    """The sha256 of the first `size` bytes of the file at `path` (None: it is shorter, or unreadable)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        if os.fstat(fd).st_size < size:
            return None
        digest = hashlib.sha256()
        _hash(fd, digest, 0, size)
        return digest.hexdigest()
    except OSError:
        return None
    finally:
        os.close(fd)


def _ends_whole(fd: int, size: int) -> bool:
    """Does the file's last line hold a one-line entry, ended by its newline (so an append cannot continue it)?"""
    if size == 0:
        return False
    back = 4096
    while True:
        start = max(0, size - back)
        data = os.pread(fd, size - start, start)
        if not data.endswith(b"\n"):
            return False
        cut = data.rfind(b"\n", 0, len(data) - 1)
        if cut >= 0 or start == 0:
            return data[cut + 1:].startswith(b"- {")
        if back > loglines.ENTRY_LIMIT:
            return False
        back *= 4


class Scan:
    """One log read once from start to end as `check` found it: its identity for the whole-campaign cache
    (inode, size, mtime and sha256), the kept record of its last check, and whether that record covers the
    start of the log as it is (the sha256 of the bytes it covers, taken on the way). The file stays open for
    the check (`close`), so the check reads exactly the bytes hashed, however writers go on appending."""

    def __init__(self, campaign, path, label: str):
        self.campaign, self.path, self.label = campaign, path, label
        self.fh, self.key, self.record, self.covers = None, None, None, False
        self.size, self.sha, self.error = 0, None, None
        self.at = _key(campaign, label)
        try:
            self.fh = loglines.open_log(path, label)
            if self.fh is None:
                return
            st = os.fstat(self.fh.fileno())
            self.size = st.st_size
            self.record = self._record()
            end = self.record["end"] if self.record is not None else None
            digest = hashlib.sha256()
            if end is not None and end <= self.size:
                _hash(self.fh.fileno(), digest, 0, end)
                self.covers = digest.hexdigest() == self.record["sha256"]
                _hash(self.fh.fileno(), digest, end, self.size)
            else:
                _hash(self.fh.fileno(), digest, 0, self.size)
            self.sha = digest.hexdigest()
            self.key = [st.st_ino, st.st_size, st.st_mtime_ns, self.sha]
        except (OSError, NarateerError) as exc:  # the check of the log says what it is (a FIFO, no permission)
            self.close()
            self.key, self.error = None, exc

    def _record(self) -> dict | None:
        record = cache.get(self.campaign.root, KIND, _name(self.label), self.at) if self.at is not None else None
        if record is None:
            return None
        end, line, sha, others, state = (record.get(k) for k in ("end", "line", "sha256", "others", "state"))
        if (type(end) is not int or type(line) is not int or end <= 0 or not isinstance(sha, str)
                or not isinstance(state, str) or not isinstance(others, dict)):
            return None
        return record

    def close(self):
        if self.fh is not None:
            self.fh.close()
            self.fh = None


class Resumed:
    """One log's check: from a kept state when one covers the start of the log as it is, else from its start."""

    def __init__(self, campaign, scan: Scan, fresh, bridges):
        """`fresh(bridge)`: (history, checker) for a check from the start; `bridges`: the campaign's `Bridges`."""
        self.campaign, self.scan = campaign, scan
        self.path, self.label = scan.path, scan.label
        self.bridge = Watched(bridges) if bridges is not None else None
        self.fresh = fresh
        self.start = self.line = 0
        self.read = 0  # entries read by this check (a resumed one reads only the appended ones)

    def _shared(self) -> dict:
        return {"rules": self.campaign.rules, "system": self.campaign.system, "root": self.campaign.root,
                "bridge": self.bridge}

    def _packages(self) -> tuple:
        package = getattr(self.campaign.system, "package", None)
        return ("narateer_cli", *((package,) if isinstance(package, str) and package else ()))

    def _kept(self):
        """The kept (history, checker) when the record covers the start of this log, else None."""
        record = self.scan.record
        if record is None or not self.scan.covers or not self._others_hold(record["others"]):
            return None
        try:
            state = base64.b64decode(record["state"], validate=True)
            hist, check = _Unpickler(io.BytesIO(state), self._shared(), self._packages()).load()
        except Exception:  # noqa: BLE001 - a record that does not load is a full check, like any stale cache
            return None
        from .history import History

        if not isinstance(hist, History) or hist.entry_problem is not check or hist.problem is not None:
            return None
        self.start, self.line = record["end"], record["line"]
        return hist, check

    def _others_hold(self, others: dict) -> bool:
        folder = self.path.parent
        return all(isinstance(v, list) and len(v) == 2 and type(v[0]) is int and isinstance(v[1], str)
                   and "/" not in name and _prefix(folder / name, v[0]) == v[1] for name, v in others.items())

    def history(self):
        """The log's history, checked (resumed where a kept state allows); the state it ends in is kept for the
        next check when the log is clean and ends in a whole entry."""
        from .history import walk

        scan = self.scan
        if scan.error is not None:
            if isinstance(scan.error, NarateerError):
                raise scan.error
            raise BadInput(f"{self.label}: cannot read ({scan.error})", fix="check the file's permissions")
        kept = self._kept() if scan.fh is not None else None
        hist, check = kept or self.fresh(self.bridge)
        if scan.fh is None:
            return hist
        fh, scan.fh = scan.fh, None
        with loglines.Snapshot.of(fh, self.label, scan.size) as log:
            before = hist.count
            last = walk(hist, log.lines(start=self.start, number=self.line))
            self.read = hist.count - before
            if hist.problem is None and scan.at is not None and _ends_whole(fh.fileno(), scan.size):
                if kept is None or self.read or scan.record["end"] != scan.size:
                    self._keep(hist, check, scan.size, last or self.line, scan.sha)
        return hist

    def _keep(self, hist, check, size: int, line: int, sha: str):
        others = {}
        if self.bridge is not None and self.bridge.used:
            for other in sorted(self.path.parent.glob("*.log.yaml")):
                if other.name != self.path.name:
                    try:
                        length = os.stat(other, follow_symlinks=False).st_size
                    except OSError:
                        return
                    found = _prefix(other, length)
                    if found is None:
                        return
                    others[other.name] = [length, found]
        buffer = io.BytesIO()
        try:
            _Pickler(buffer, self._shared()).dump((hist, check))
        except Exception:  # noqa: BLE001 - a checker that cannot be kept (a closure): the next check is a full one
            return
        state = base64.b64encode(buffer.getvalue()).decode("ascii")
        cache.put(self.campaign.root, KIND, _name(self.label),
                  {"end": size, "line": line, "sha256": sha, "others": others, "state": state}, self.scan.at)
