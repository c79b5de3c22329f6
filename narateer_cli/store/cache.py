"""Private parse caches under .narateer/: what a YAML file held, keyed by the identity of
the exact file version read (see yamlio.file_key). A cache may be lost or stale at any
time; a stale one simply never matches, and a command then parses the file again.

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
    return root / ".narateer" / kind / f"{name}.json"


def get(root: Path, kind: str, name: str, key) -> dict | None:
    path = _path(root, kind, name)
    if not path.exists():
        return None
    try:  # a regular file, opened without blocking, up to the size limit (G-TRUST-4)
        data = json.loads(yamlio.read_text(path, f".narateer/{kind}/{name}.json"))
    except (OSError, ValueError, NarateerError):
        return None
    if not isinstance(data, dict) or data.get("key") != key or not isinstance(data.get("data"), dict):
        return None
    return data["data"]


_PENDING: list = []


def put(root: Path, kind: str, name: str, data: dict, key=None, path: Path | None = None, text: str | None = None):
    """Store `data` for a file version (`key` as read, or `path` and the `text` just written) once the
    command has succeeded."""
    _PENDING.append((root, kind, name, data, key, path, text))


def _holds(path: Path, body: str) -> bool:
    """Does the cache file already hold exactly `body` (a regular file, read without blocking)?"""
    try:
        return yamlio.read_text(path, str(path)) == body
    except (OSError, NarateerError):
        return False


def flush():
    while _PENDING:
        _store(*_PENDING.pop(0))


def _store(root: Path, kind: str, name: str, data: dict, key, path, text):
    try:
        if key is None:
            key = yamlio.file_key(os.stat(path), text.encode("utf-8"))
        from .txn import atomic_write

        target = _path(root, kind, name)
        body = json.dumps({"key": key, "data": data})
        if _holds(target, body):  # e.g. an encounter state the command read and left as it was
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(root, target, body, durable=False)
    except (OSError, TypeError, ValueError, NarateerError):
        pass  # no cache: the next command parses the file again
