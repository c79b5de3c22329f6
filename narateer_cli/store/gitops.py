"""What narateer asks of git: an unfinished merge (G-MERGE-3), the merge driver's
registration (G-MERGE-1) and private files someone committed (G-TRUST-1).

Git is asked only when the campaign is inside a work tree, and the question
"is a campaign file unmerged?" only when git's index changed since it was last
asked (the answer is kept under .narateer/), so an ordinary command pays
nothing for it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import Refused

DRIVER = "narateer"
ATTRIBUTES = (
    "# narateer: sheets and encounter states merge key by key, dice counters add both sides' changes\n"
    "characters/*.yaml merge=narateer\n"
    "encounters/*.yaml merge=narateer\n"
    "# encounter logs only grow: two branches that each appended merge cleanly\n"
    "encounters/*.log.yaml merge=union\n"
)


def git_dir(root: Path) -> Path | None:
    """The .git folder of the work tree holding the campaign (a `.git` file: a linked worktree)."""
    for folder in (root, *root.parents):
        dot = folder / ".git"
        if dot.is_dir():
            return dot
        if dot.is_file():
            try:
                text = dot.read_text(encoding="utf-8", errors="replace").strip()
            except OSError:
                return None
            if text.startswith("gitdir:"):
                found = Path(text[len("gitdir:"):].strip())
                return found if found.is_absolute() else (folder / found)
            return None
    return None


def _git(root: Path, *args):
    import subprocess  # only when git is asked: it costs a few ms at start-up

    try:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    except OSError:
        return None


def unmerged(root: Path) -> list[str]:
    """Campaign files git reports as unmerged (conflicted) now."""
    gdir = git_dir(root)
    if gdir is None:
        return []
    try:
        st = os.stat(gdir / "index")
        key = [st.st_ino, st.st_size, st.st_mtime_ns]
    except OSError:
        return []
    memo = root / ".narateer" / "git-index.json"
    try:
        seen = json.loads(memo.read_text(encoding="utf-8"))
        if seen.get("key") == key and seen.get("unmerged") == []:
            return []
    except (OSError, ValueError, AttributeError):
        pass
    done = _git(root, "ls-files", "-u", "-z", "--", ".")
    if done is None or done.returncode != 0:
        return []
    names = sorted({item.split("\t", 1)[1] for item in done.stdout.split("\0") if "\t" in item})
    try:
        (root / ".narateer").mkdir(exist_ok=True)
        from .txn import atomic_write

        atomic_write(root, memo, json.dumps({"key": key, "unmerged": names}), durable=False)
    except OSError:
        pass
    return names


def refuse_while_merging(root: Path):
    """G-MERGE-3: no writer runs while git reports an unmerged campaign file."""
    names = unmerged(root)
    if names:
        more = f" and {len(names) - 1} more" if len(names) > 1 else ""
        raise Refused(f"{names[0]}{more} is unmerged; finish the merge first", rule="G-MERGE-3",
                      fix="resolve the conflict, `git add` the file and commit, then run the command again")


def driver_command() -> str:
    import shlex
    import sys

    return f"{shlex.quote(sys.executable)} -m narateer_cli merge-driver %O %A %B %P"


def setup(root: Path) -> dict:
    """G-MERGE-1: .gitattributes for the campaign, and the driver in this clone's git config."""
    path = root / ".gitattributes"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    lines = text.splitlines()
    missing = [line for line in ATTRIBUTES.splitlines() if not line.startswith("#") and line not in lines]
    if missing:
        from .txn import atomic_write

        if text and not text.endswith("\n"):
            text += "\n"
        atomic_write(root, path, text + ATTRIBUTES)
    registered = False
    if git_dir(root) is not None:
        for key, value in ((f"merge.{DRIVER}.name", "narateer: YAML key by key, dice counters add up"),
                           (f"merge.{DRIVER}.driver", driver_command())):
            done = _git(root, "config", "--local", key, value)
            registered = done is not None and done.returncode == 0
    return {"attributes": ".gitattributes", "written": bool(missing), "driver": registered}


def check_problems(root: Path) -> list:
    """G-TRUST-1 tracked private files, G-MERGE-1 no merge driver: store.schema.Problem values."""
    if git_dir(root) is None:
        return []
    from .schema import Problem

    problems = []
    done = _git(root, "ls-files", "-z", "--", ".narateer")
    if done is not None and done.returncode == 0:
        for name in filter(None, done.stdout.split("\0")):
            problems.append(Problem(name, 1, "", "a private file is tracked by git; it is never trusted "
                                    f"(G-TRUST-1): `git rm --cached {name}`"))
    done = _git(root, "config", "--get", f"merge.{DRIVER}.driver")
    if done is not None and not done.stdout.strip():
        problems.append(Problem("narateer.yaml", 1, "", "the narateer merge driver is not registered in this clone "
                                "(G-MERGE-1): run `narateer git-setup`"))
    return problems
