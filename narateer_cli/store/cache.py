"""Private parse caches in the private folder (store/private.py): what a YAML file held, keyed by the identity of
the exact file version read (see yamlio.file_key). A cache may be lost or stale at any
time; a stale one simply never matches, and a command then parses the file again.

Each cache is sealed to this machine and campaign: one that fails is not used. It is
rebuilt without a word, as any stale cache is: a campaign folder copied outside git carries its
caches, and that is ordinary.

Caches are written only when a command has succeeded (`flush`, called by cli.main), so
a command that ends with bad input or a refusal writes nothing at all.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import NarateerError
from . import yamlio


def _path(root: Path, kind: str, name: str) -> Path:
    from . import private

    return private.location(root) / kind / f"{name}.json"


def get(root: Path, kind: str, name: str, key) -> dict | None:
    from . import private

    if private.folder(root, kind, make=False) is None:  # a link on the way is bad input
        return None
    path = _path(root, kind, name)
    try:  # a regular file, opened without blocking or following a link, up to the size limit
        text = yamlio.read_text(path, f"{kind}/{name}.json", nofollow=True)
    except (OSError, NarateerError):
        return None
    data = private.opened(root, "cache", f"{kind}/{name}", text, quiet=True)  # a failing one is rebuilt
    if not isinstance(data, dict) or data.get("key") != key or not isinstance(data.get("data"), dict):
        return None
    return data["data"]


def put(root: Path, kind: str, name: str, data: dict, key=None, path: Path | None = None, text: str | None = None):
    """Store `data` for a file version (`key` as read, or `path` and the `text` just written) once the
    command has succeeded (the command's own list, kept by its sink: another call's success never stores it)."""
    from ..sink import current

    current().pending.append((root, kind, name, data, key, path, text))


def _holds(path: Path, body: str) -> bool:
    """Does the cache file already hold exactly `body` (a regular file, read without blocking)?"""
    try:
        return yamlio.read_text(path, str(path), nofollow=True) == body
    except (OSError, NarateerError):
        return False


def flush():
    """Store the caches the command running here parsed (it has succeeded)."""
    from ..sink import current

    pending = current().pending
    while pending:
        _store(*pending.pop(0))


def _store(root: Path, kind: str, name: str, data: dict, key, path, text):
    try:
        if key is None:
            key = yamlio.file_key(os.stat(path), text.encode("utf-8"))
        from . import private
        from .txn import atomic_write

        target = private.folder(root, kind) / f"{name}.json"
        body = private.sealed(root, "cache", f"{kind}/{name}", {"key": key, "data": data})
        if _holds(target, body):  # e.g. an encounter state the command read and left as it was
            return
        atomic_write(root, target, body, durable=False)
    except (OSError, TypeError, ValueError, NarateerError):
        pass  # no cache: the next command parses the file again
