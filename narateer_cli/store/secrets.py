"""Secret rolls: a commitment in the shared log, the roll in private.

A secret roll logs `commitment` = sha256(salt + canonical JSON of the result)
and only the parts of the result its type declares public (field by field: a
record's fields, the command's Outcome for a plain result; nothing when
nothing is declared). The salt and the whole result
stay in `secrets/ENTRY_ID.json` in the private folder (mode 0600; store/private.py:
inside the git directory in a work tree, so never in git). `unveil` later logs the salt and the result; anyone can then hash them
again and compare (docs/secret-rolls.md shows it with sha256sum).

Records are read under the private folder rules: a regular file
inside the campaign's own private `secrets/`, never through a link, read
without blocking up to a size limit, and sealed to this machine and campaign. A record that came by git
(a tracked file) proves nothing: `verify` checks an unveil only against the
commitment that was logged, never against the record.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from ..errors import BadInput, NarateerError
from ..record import ALL, Record

FOLDER = "secrets"
RECORD_LIMIT = 1024 * 1024
_ID_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyz-")


def canonical(result) -> bytes:
    """The exact bytes a commitment covers, with the salt before them."""
    return json.dumps(result, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def commitment(salt: bytes, result) -> str:
    return hashlib.sha256(salt + canonical(result)).hexdigest()


def new_salt() -> bytes:
    return os.urandom(16)


def public_paths(result, extra=()) -> frozenset | str:
    """What a secret entry may show of this result: what its record declares public on its fields
    (narateer_cli.record), and the command's `extra` paths; nothing declared is nothing shown."""
    declared = result.public_paths() if isinstance(result, Record) else frozenset()
    if declared == ALL or extra == ALL:
        return ALL
    return frozenset(declared) | frozenset(extra or ())


def shown(value, paths, prefix: str = ""):
    """The part of a JSON value a secret entry shows: each key whose dotted path is declared public, whole;
    a key some declared path runs through, filtered the same way (a list item by item); nothing else."""
    if paths == ALL:
        return value
    if isinstance(value, list):
        return [shown(v, paths, prefix) for v in value]
    if not isinstance(value, dict):
        return value if value is None or not prefix else None
    out = {}
    for key, item in value.items():
        path = prefix + str(key)
        if path in paths:
            out[key] = item
        elif any(p.startswith(path + ".") for p in paths):
            out[key] = shown(item, paths, path + ".")
    return out


def hides(value, paths) -> bool:
    """Does a secret entry hold back anything of this value (is it a roll to seal at all)? An empty part
    (None) held back hides nothing."""
    return paths != ALL and _filled(shown(value, paths)) != _filled(value)


def _filled(value):
    if isinstance(value, dict):
        return {k: _filled(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_filled(v) for v in value]
    return value


def shows(result, shown) -> bool:
    """Is `shown` (what a secret entry logged) `result` with only some keys left out, every value the same?"""
    if isinstance(shown, dict):
        return isinstance(result, dict) and all(k in result and shows(result[k], v) for k, v in shown.items())
    if isinstance(shown, list):
        return isinstance(result, list) and len(result) == len(shown) and all(map(shows, result, shown))
    return result == shown and type(result) is type(shown)


def folder(root: Path) -> Path:
    """The private `secrets/` folder, made private (0700); a link or a file on the way is bad input."""
    from .private import folder as private_folder

    return private_folder(root, FOLDER)


def record_path(root: Path, entry_id: str) -> Path:
    if not (isinstance(entry_id, str) and 1 <= len(entry_id) <= 40 and _ID_CHARS.issuperset(entry_id)):
        raise BadInput(f"{entry_id!r} is not a log entry id", fix="give the 12 hex digits shown by `narateer encounter log`")
    return folder(root) / f"{entry_id}.json"


def write_record(root: Path, entry_id: str, record: dict):
    """The private record, written whole (temporary file, fsync, rename) with mode 0600."""
    from .txn import atomic_write

    from .private import sealed

    text = sealed(root, "secret", entry_id, record)
    atomic_write(root, record_path(root, entry_id), text, mode=0o600)


def read_record(root: Path, entry_id: str) -> dict | None:
    """The private record of a secret entry, or None when this machine has none (lost, or never here)."""
    path = record_path(root, entry_id)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except (FileNotFoundError, OSError):
        return None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return None
        data = fh.read(RECORD_LIMIT + 1)
    if len(data) > RECORD_LIMIT:
        return None
    from .private import opened

    try:
        record = opened(root, "secret", entry_id, data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("salt"), str) or "result" not in record:
        return None
    return record


def matches(commit: str, salt_hex, result) -> bool:
    """Does this salt and result hash to the logged commitment?"""
    if not isinstance(salt_hex, str) or len(salt_hex) != 32 or not set(salt_hex) <= set("0123456789abcdef"):
        return False
    return commitment(bytes.fromhex(salt_hex), result) == commit


def seal(root: Path, entry_id: str, result, log_id: str, sealed: dict | None = None) -> str:
    """Make the salt, keep the private record, return the commitment for the log. `sealed`: the values the
    action sealed in the state or its sheet ({commitment: {salt, value}}, store/sealed.py), kept with it."""
    salt = new_salt()
    commit = commitment(salt, result)
    record = {"entry": entry_id, "log": log_id, "salt": salt.hex(), "result": result, "commitment": commit}
    if sealed:
        record["sealed"] = sealed
    write_record(root, entry_id, record)
    return commit


class Audit:
    """Follows a log's secret entries and unveils as `verify` streams it, listing the ids still secret.

    Keeps, per secret entry not yet unveiled, only what an unveil is checked against."""

    def __init__(self, root: Path, recheck):
        self.root = root
        self.recheck = recheck  # (entry with its result unveiled) -> problem text or None: the system's verify
        self.pending: dict[str, dict] = {}
        self.unveiled: set[str] = set()
        self.problem: str | None = None

    def add(self, entry: dict) -> str | None:
        from .loglines import entry_id

        if entry.get("commitment") is not None:
            self.pending[entry_id(entry)] = {k: entry.get(k) for k in ("seq", "command", "actor", "declaration",
                                                                        "result", "dice", "commitment", "seals")}
            return None
        if "unveils" in entry:
            return self._unveil(entry)
        return None

    def _unveil(self, entry: dict) -> str | None:
        target = entry.get("unveils")
        where = f"entry {entry.get('seq')} (unveil)"
        secret = self.pending.pop(target, None) if isinstance(target, str) else None
        if secret is None:
            again = " again" if target in self.unveiled else ""
            return f"{where}: unveils {target}{again}, which is not an earlier secret entry still sealed"
        self.unveiled.add(target)
        result = entry.get("result")
        if not matches(secret["commitment"], entry.get("salt"), result):
            return f"{where}: salt and result do not hash to the commitment of entry {target}"
        if not shows(result, secret["result"]):
            return f"{where}: the unveiled result differs from what entry {target} showed the table"
        found = _sealed_problem(secret.get("seals"), entry.get("sealed"), target)
        if found:
            return f"{where}: {found}"
        unsealed = {k: v for k, v in secret.items() if k not in ("commitment", "seals")}
        found = self.recheck({**unsealed, "result": result})  # the entry as it would have been logged
        return f"{where}: entry {target}'s roll: {found}" if found else None

    def still_secret(self) -> list[str]:
        return list(self.pending)

    def lost(self) -> list[str]:
        return [eid for eid in self.pending if read_record(self.root, eid) is None]


def _sealed_problem(seals, published, target: str) -> str | None:
    """What is wrong with an unveil's sealed values against the secret entry's `seals` ({key path: commitment}):
    each commitment published once, its salt and value hashing to it, and nothing else; None when all is well."""
    wanted = set((seals or {}).values()) if isinstance(seals, dict) else set()
    given = published if isinstance(published, dict) else {}
    if published is not None and not isinstance(published, dict):
        return "its sealed values are not a mapping of commitments"
    for commit in sorted(wanted - set(given)):
        path = next(p for p, c in seals.items() if c == commit)
        return f"publishes no value for {path}, which entry {target} sealed"
    for commit, kept in given.items():
        if commit not in wanted:
            return f"publishes a sealed value entry {target} never sealed ({commit[:12]}...)"
        if not (isinstance(kept, dict) and matches(commit, kept.get("salt"), kept.get("value"))):
            path = next(p for p, c in seals.items() if c == commit)
            return f"the salt and value published for {path} do not hash to its commitment in entry {target}"
    return None


def checker(root: Path, system, rules, campaign_log: bool = False):
    """(audit, per-entry problem) for a streamed log: the system's `log_checker`, made once for this log and
    fed its entries in order, and each unveil checked against its commitment and re-run as the entry it
    unveils, alone (`campaign_log`: the campaign log, whose characters also change in
    encounters between its entries)."""
    found = EntryProblem(root, system, rules, campaign_log)
    return found.audit, found


class Alone:
    """An unveiled entry re-run by a fresh checker: it alone."""

    def __init__(self, system, rules):
        self.system, self.rules = system, rules

    def __call__(self, entry: dict) -> str | None:
        from ..luck import chance_problem

        return self.system.log_checker(self.rules, True)(entry) or chance_problem(self.system, self.rules, entry)


class EntryProblem:
    """What `checker` gives: one entry's problem, or None. Made of objects rather than closures, so that `check`
    can keep it with the rest of a log's checked state (store/resume.py)."""

    def __init__(self, root: Path, system, rules, campaign_log: bool = False):
        self.system, self.rules = system, rules
        self.audit = Audit(root, Alone(system, rules))
        self.check = system.log_checker(rules, not campaign_log)

    def __call__(self, entry: dict) -> str | None:
        if "unveils" in entry or entry.get("commitment") is not None:
            return self.audit.add(entry)  # a sealed roll has no faces to re-run until it is unveiled
        try:
            found = self.check(entry)
        except NarateerError:
            raise
        except Exception as exc:  # the game's verify code failed on this entry; say whose, and where
            from ..readonly import hook_failed

            raise hook_failed(exc, f"verify hook (log_checker) on entry {entry.get('seq')}",
                              self.system.hook("log_checker")) from exc
        from ..luck import chance_problem

        return found or chance_problem(self.system, self.rules, entry)
