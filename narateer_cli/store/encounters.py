"""Encounter files: a small state file and an append-only log.

`encounters/ID.yaml` holds the state the rules need now; `encounters/ID.log.yaml`
is a YAML sequence that only ever grows, one entry per writing command. A
writing command never parses the log: it appends one entry as text and reads only the
file's tail for the last sequence number, so its cost does not grow with the
log. Undo records (the previous bytes of every file an action replaced) live
under `.narateer/undo/ID/`.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ..errors import BadInput, Refused
from . import cache, yamlio
from .campaign import check_id

UNDO_KEEP = 100
SEQ_RE = re.compile(rb"^- \{seq: (\d+),", re.M)


def state_path(root: Path, enc_id: str) -> Path:
    return _inside(root, root / "encounters" / f"{check_id(enc_id, 'encounter')}.yaml")


def log_path(root: Path, enc_id: str) -> Path:
    return _inside(root, root / "encounters" / f"{enc_id}.log.yaml")


def _inside(root: Path, path: Path) -> Path:
    """An encounter file linked outside encounters/ would be read or appended to outside the campaign."""
    if path.is_symlink():
        try:
            ok = str(path.resolve()).startswith(str((root / "encounters").resolve()) + os.sep)
        except (OSError, RuntimeError):  # a symlink loop
            ok = False
        if not ok:
            raise BadInput(f"encounters/{path.name} links outside the campaign (or in a loop)",
                           fix="replace the link with the file itself")
    return path


def load_state(root: Path, enc_id: str, system) -> dict:
    """An encounter's state: the host checks the file and the keys every system has (id, round,
    participants); the system's `load_state` hook validates the rest."""
    path = state_path(root, enc_id)
    label = f"encounters/{enc_id}.yaml"
    if not path.exists():
        from ..suggest import unknown

        known = sorted(p.stem for p in (root / "encounters").glob("*.yaml") if not p.name.endswith(".log.yaml"))
        raise unknown("encounter", enc_id, known, detail=f" (no {label})", create="narateer encounter new ID CHAR...")
    text, key = yamlio.read_text(path, label, with_key=True)
    data = cache.get(root, "states", enc_id, key)
    fresh = data is None
    if fresh:
        data = yamlio.load_safe(text, label)
    if not isinstance(data, dict):
        raise BadInput(f"{label}: not an encounter state file", fix="restore it from git")
    missing = [k for k in ("id", "round", "participants") if k not in data]
    if missing:
        raise BadInput(f"{label}: missing {', '.join(missing)}", fix="restore it from git")
    out = system.require("load_state")(data, label)
    if fresh:
        cache.put(root, "states", enc_id, data, key)
    return out


def remember_state(root: Path, state: dict, text: str):
    """After a write: keep the state just written (as `text`) for the next command."""
    plain = dict(state)
    cache.put(root, "states", state["id"], plain, path=state_path(root, state["id"]), text=text)


def state_text(state: dict) -> str:
    header = "# narateer encounter state; its log is the .log.yaml beside this file\n"
    return header + yamlio.emit_text(dict(state))


def last_seq(path: Path) -> int:
    """The last entry's sequence number, read from the file's tail only."""
    try:
        size = os.path.getsize(path)
    except FileNotFoundError:
        return 0
    chunk = 4096
    with open(path, "rb") as fh:
        while True:
            start = max(0, size - chunk)
            fh.seek(start)
            data = fh.read(size - start)
            found = SEQ_RE.findall(data)
            if found:
                return int(found[-1])
            if start == 0:
                return 0
            chunk *= 4


def entry_text(entry: dict) -> str:
    """One log entry as one line (a YAML flow mapping in a block list).

    One line per entry is what lets git's union merge join two branches that
    each appended to the same log: no line is shared between two entries.
    """
    return "- " + yamlio.flow(entry) + "\n"


def undo_dir(root: Path, enc_id: str) -> Path:
    return root / ".narateer" / "undo" / enc_id


def digest(data: bytes | None) -> str | None:
    """A cheap fingerprint (length and CRC-32) to notice a file changed after an action."""
    if data is None:
        return None
    import zlib

    return f"{len(data)}:{zlib.crc32(data):08x}"


def undo_record(before: dict, writes: dict, seq: int) -> str:
    after = {rel: digest(text.encode("utf-8") if text is not None else None) for rel, text in writes.items()}
    return json.dumps({"seq": seq, "before": before, "after": after})


def latest_undo(root: Path, enc_id: str) -> tuple[Path, dict]:
    folder = undo_dir(root, enc_id)
    names = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not names:
        raise Refused(f"nothing to undo in encounter {enc_id}",
                      fix="undo history lives in .narateer/ on the machine that made the change; use git to go further")
    path = names[-1]
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        files = list(record["before"]) + list(record["after"])  # relative paths inside the campaign only
        if not isinstance(record["before"], dict) or not isinstance(record["after"], dict) or not all(
                isinstance(rel, str) and rel and not os.path.isabs(rel) and ".." not in Path(rel).parts for rel in files
        ) or not isinstance(record["seq"], int) or not all(t is None or isinstance(t, str) for t in record["before"].values()):
            raise ValueError
    except (ValueError, TypeError, KeyError):
        raise BadInput(f"{path}: undo record is damaged", fix="delete it and use git instead") from None
    return path, record


def check_undo(root: Path, record: dict):
    """Refuse an undo that would overwrite a change made after the action."""
    for rel, expected in record["after"].items():
        path = root / rel
        try:
            current = digest(path.read_bytes())
        except FileNotFoundError:
            current = None
        if current != expected:
            raise Refused(f"{rel} changed after entry {record['seq']}; undo would lose that change",
                          fix="revert it with git instead")


def old_undo_records(root: Path, enc_id: str) -> list[Path]:
    folder = undo_dir(root, enc_id)
    names = sorted(folder.glob("*.json")) if folder.is_dir() else []
    return names[:-UNDO_KEEP] if len(names) > UNDO_KEEP else []
