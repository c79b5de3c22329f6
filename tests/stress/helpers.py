"""Helpers shared by the stress tests: exact snapshots, sheet dice, log parsing."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

from ruamel.yaml import YAML

STATES = ("ready", "used", "wounded")


def full_snapshot(top: Path, skip=(".narateer/lock", ".narateer/config", ".narateer/sheets", ".narateer/states")) -> dict:
    """Every entry under `top` (no symlink followed): file bytes, link targets, other kinds by type.

    Unlike tests/conftest.py's `snapshot`, this includes the tool's private
    folder (undo records, manifest, temp files) except the lock file, which a
    writing command may create empty, and the parse caches (config and sheets).
    """
    out = {}
    for folder, dirs, files in os.walk(top):
        for name in dirs + files:
            path = Path(folder) / name
            rel = str(path.relative_to(top))
            if any(rel == s or rel.endswith("/" + s) or ("/" + s + "/") in ("/" + rel) for s in skip):
                continue
            st = os.lstat(path)
            if stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(path))
            elif stat.S_ISREG(st.st_mode):
                out[rel] = ("file", path.read_bytes(), stat.S_IMODE(st.st_mode))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir",)
            else:
                out[rel] = ("other", stat.S_IFMT(st.st_mode))
    return out


def diff(before: dict, after: dict) -> list[str]:
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


def load_yaml(path: Path):
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def sheet_dice(root: Path, char: str) -> dict:
    doc = load_yaml(root / "characters" / f"{char}.yaml")
    dice = doc["action_dice"]
    return {s: int(dice.get(s, 0) or 0) for s in STATES}


def total(dice: dict) -> int:
    return sum(int(dice.get(s, 0) or 0) for s in STATES)


def log_entries(root: Path, enc: str = "ambush") -> list:
    path = root / "encounters" / f"{enc}.log.yaml"
    if not path.exists():
        return []
    return load_yaml(path) or []


def norm(dice: dict) -> dict:
    return {s: int(dice.get(s, 0) or 0) for s in STATES}


def check_log_against_sheets(root: Path, chars, enc: str = "ambush", initial: dict | None = None) -> list:
    """The log parses, its seq numbers are 1..N, each entry's dice continue from the
    previous entry's, and the last `after` of every character is its sheet's dice."""
    entries = log_entries(root, enc)
    assert isinstance(entries, list)
    seqs = [e["seq"] for e in entries]
    assert seqs == list(range(1, len(entries) + 1)), f"log seq numbers not 1..N: {seqs[-10:]}"
    last = dict(initial or {})
    for e in entries:
        for cid, move in (e.get("dice") or {}).items():
            before, after = norm(move["before"]), norm(move["after"])
            assert total(before) == total(after), f"entry {e['seq']}: {cid} dice not conserved"
            if cid in last:
                assert last[cid] == before, f"entry {e['seq']}: {cid} before {before} != previous after {last[cid]}"
            last[cid] = after
    for cid in chars:
        if cid in last:
            assert last[cid] == sheet_dice(root, cid), f"{cid}: sheet {sheet_dice(root, cid)} != log {last[cid]}"
    return entries


# ---- watching a real narateer process (kill and SIGINT tests) ------------------------------

def holds_lock(pid: int) -> bool:
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if os.readlink(f"/proc/{pid}/fd/{fd}").endswith(("/.narateer/lock", "/.narateer")):
                    return True
            except OSError:
                pass
    except OSError:
        pass
    return False


def wait_for_lock(proc, limit: float) -> float | None:
    """Seconds from now until the process opened the lock file (None: it ended first or took too long)."""
    t0 = time.monotonic()
    while proc.poll() is None and time.monotonic() - t0 < limit:
        if holds_lock(proc.pid):
            return time.monotonic() - t0
        time.sleep(0.0003)
    return None


def wait_for_commit(proc, private: Path, limit: float) -> bool:
    """Wait until the process writes its first temporary file or manifest under .narateer/."""
    t0 = time.monotonic()
    while proc.poll() is None and time.monotonic() - t0 < limit:
        try:
            if any(n.endswith(".tmp") or n == "txn.json" for n in os.listdir(private)):
                return True
        except OSError:
            pass
        time.sleep(0.0002)
    return False
