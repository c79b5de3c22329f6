"""`check`'s private cache of each file's problems (for speed; sealed like every private record).

Parsing every sheet and card with the round-trip YAML parser was most of `check`. What a file's problems
are depends only on its bytes, on what the caller puts in the key (the campaign's rules: narateer.yaml
and the system's ruleset, `Campaign.rules_key`) and on the code that finds them. So the problems of one
folder's files are kept in one private cache record (store/cache.py: sealed to this machine and campaign,
written only when the command has run) as {label: [file key, problems]}, under a key made of the caller's
key and the code's identity: narateer's version and the size and mtime of every module of the host and
of the system's package, so an upgrade or an edit of either finds nothing cached.

A file is parsed again when its identity changed (inode, size, mtime and two checksums of its bytes,
yamlio.file_key). The private folder is machine-local and never trusted blindly: a record that fails its
seal is not used, and what it holds is used only when it is exactly a list of problems.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

from . import cache, yamlio

KIND = "checks"
VERSION = 1
SEVERITIES = ("error", "warning")
_STAMPS: dict = {}


class Folder:
    """The cached problems of one folder's files (`name`: the record's name, e.g. "characters"; `key`: what
    else they depend on, None: nothing is cached; `package`: the system whose code finds them)."""

    def __init__(self, root, name: str, key: list | None, package: str | None = None):
        self.root, self.name = root, name
        self.key = None if key is None else [VERSION, *key, code_stamp(package)]
        found = cache.get(root, KIND, name, self.key) if self.key is not None else None
        files = found.get("files") if found is not None else None
        self.old = files if isinstance(files, dict) else {}
        self.new: dict = {}

    def problems(self, label: str, path, compute, keyed: bool = False) -> list:
        """The problems of the file at `path`: `compute(text)` (`keyed`: `compute(text, key)`, the identity of
        the bytes read) when the cache has none for exactly these bytes. Reading the file fails as
        `yamlio.read_text` does (BadInput); so does `compute`, uncached."""
        text, key = yamlio.read_text(path, label, with_key=True)
        return self.cached(label, key, lambda: list(compute(text, key) if keyed else compute(text)))

    def cached(self, label: str, key, compute, load=None, dump=None):
        """`compute()`, or what the cache holds for `label` under the same `key`: by default a list of
        problems; `load` turns the cached JSON back into a value (None: not one), `dump` a value into JSON."""
        load, dump = load or _problems, dump or _dump_problems
        entry = self.old.get(label)
        found = load(entry[1]) if isinstance(entry, list) and len(entry) == 2 and entry[0] == key else None
        if found is None:
            found = compute()
        self.new[label] = [key, dump(found)]
        return found

    def keep(self):
        """Store what this run found (only when it differs from the record read)."""
        if self.key is not None and self.new != self.old:
            cache.put(self.root, KIND, self.name, {"files": self.new}, self.key)


def _dump_problems(found) -> list:
    return [p if isinstance(p, str) else list(p) for p in found]


def _problems(items) -> list | None:
    """The problems a record holds (texts, or Problem fields), or None when it holds anything else."""
    if not isinstance(items, list):
        return None
    out = [item if isinstance(item, str) else problem_of(item) for item in items]
    return None if any(p is None for p in out) else out


def problem_of(item):
    """A Problem from its cached fields [file, line, key, message, fix, severity, rule], each of its type;
    None for anything else."""
    from .schema import Problem

    if (isinstance(item, list) and len(item) in (6, 7) and type(item[1]) is int
            and all(isinstance(item[i], str) for i in (0, 2, 3, 4)) and item[5] in SEVERITIES
            and (len(item) == 6 or item[6] is None or isinstance(item[6], str))):
        return Problem(*item)
    return None


def kept_sheet(root, char_id: str, key) -> dict | None:
    """The plain parse of a character file that a command kept for exactly the bytes whose identity is `key`
    (store/cache.py's sheets/ID.json: what a write leaves for the next command), or None; only a parse JSON
    gives back exactly (every key text) is used. A clean file can be checked on it without the round-trip
    parser; a problem is named from the round-trip parse, which knows its line."""
    kept = cache.get(root, "sheets", char_id, key)
    doc = kept.get("doc") if kept is not None and kept.get("exact") is True else None  # see Campaign.remember
    return doc if isinstance(doc, dict) else None


def stream_key(path) -> list | None:
    """`yamlio.file_key` of a file of any length (a long log), read in chunks, so memory does not grow with
    it; None when it is not a regular file that can be read here (a link is not followed)."""
    import stat
    import zlib

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        crc, adler = 0, 1
        while chunk := os.read(fd, 1 << 20):
            crc, adler = zlib.crc32(chunk, crc), zlib.adler32(chunk, adler)
    except OSError:
        return None
    finally:
        os.close(fd)
    return [st.st_ino, st.st_size, st.st_mtime_ns, crc, adler]


def code_stamp(package: str | None = None) -> str:
    """The identity of the code that finds problems: narateer's version, and [name, size, mtime] of every
    module of the host (narateer_cli/, its store/ and systems/ folders, not a game's own package) and of
    the system's package, recursively, as one digest."""
    module = sys.modules.get(package) if package is not None else None
    top = os.path.dirname(getattr(module, "__file__", None) or "") or None
    if top not in _STAMPS:
        from .. import __version__

        host = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        folders = [host, os.path.join(host, "store"), os.path.join(host, "systems")]
        stamp = [__version__, *(_stamp(_modules(folder)) for folder in folders),
                 _stamp(_modules(top, recursive=True) if top else [])]
        _STAMPS[top] = hashlib.sha256(json.dumps(stamp).encode("utf-8")).hexdigest()
    return _STAMPS[top]


def _modules(top: str, recursive: bool = False) -> list:
    out = []
    for folder, subfolders, names in os.walk(top):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__") if recursive else []
        out.extend(os.path.join(folder, name) for name in sorted(names) if name.endswith(".py"))
    return out


def _stamp(paths) -> list:
    out = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            continue
        out.append([os.path.basename(path), st.st_size, st.st_mtime_ns])
    return out
