"""What narateer asks of git: an unfinished merge (no writer runs meanwhile), the merge driver's
registration (sheets merge key by key) and private files someone committed (never trusted).

Git is asked only when the campaign is inside a work tree, and the question
"is a campaign file unmerged?" only when git's index changed since it was last
asked (the answer is kept in a private cache), so an ordinary command pays
nothing for it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import BadInput, Refused

DRIVER = "narateer"
ATTRIBUTES = (
    "# narateer: sheets and encounter states merge key by key, dice counters add both sides' changes\n"
    "characters/*.yaml merge=narateer\n"
    "encounters/*.yaml merge=narateer\n"
    "# encounter logs only grow: two branches that each appended merge cleanly\n"
    "encounters/*.log.yaml merge=union\n"
)


def git_dir(root: Path) -> Path | None:
    """The git directory of the work tree holding the campaign (a `.git` file: a linked worktree)."""
    from .private import git_dir as found

    place = found(root)
    return place[1] if place is not None else None


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
    from . import cache

    if cache.get(root, "git", "index", key) == {"unmerged": []}:
        return []
    done = _git(root, "ls-files", "-u", "-z", "--", ".")
    if done is None or done.returncode != 0:
        return []
    names = sorted({item.split("\t", 1)[1] for item in done.stdout.split("\0") if "\t" in item})
    cache.put(root, "git", "index", {"unmerged": names}, key)
    return names


FINISH = "resolve the conflict, `git add` the file and commit, then run the command again"


class Unmerged(Refused):
    """Campaign files git left unmerged; writers and readers alike say so (finish the merge), never a parser message."""

    def __init__(self, names: list[str]):
        more = f" and {len(names) - 1} more" if len(names) > 1 else ""
        super().__init__(f"{names[0]}{more} is unmerged; finish the merge first", rule="G-MERGE-3", fix=FINISH)
        self.names = list(names)


def refuse_while_merging(root: Path):
    """No writer runs while git reports an unmerged campaign file."""
    names = unmerged(root)
    if names:
        raise Unmerged(names)


def has_conflict_markers(text: str) -> bool:
    """Whether a file holds the markers git (or narateer's merge driver) leaves around a conflict,
    each at a line start: `<<<<<<<`, then `>>>>>>>`."""
    if "<<<<<<<" not in text:  # the common case costs one scan in C
        return False
    import re

    return bool(re.search(r"^<{7}(?:[ \t]|$)", text, re.M) and re.search(r"^>{7}(?:[ \t]|$)", text, re.M))


def driver_command() -> str:
    import shlex
    import sys

    return f"{shlex.quote(sys.executable)} -m narateer_cli merge-driver %O %A %B %P"


def setup(root: Path) -> dict:
    """The merge setup: .gitattributes for the campaign, and the driver in this clone's git config."""
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
    moved = {"moved": 0, "left": 0}
    if git_dir(root) is not None:
        moved = _adopt(root)
        for key, value in ((f"merge.{DRIVER}.name", "narateer: YAML key by key, dice counters add up"),
                           (f"merge.{DRIVER}.driver", driver_command())):
            done = _git(root, "config", "--local", key, value)
            registered = done is not None and done.returncode == 0
        pull = _pull_setting(root)
    else:
        pull = None
    return {"attributes": ".gitattributes", "written": bool(missing), "driver": registered, "private": moved,
            "pull": pull}


def _pull_setting(root: Path) -> str | None:
    """What a plain `git pull` does in this clone once two clones have diverged. Current git refuses to
    guess ("Need to specify how to reconcile divergent branches") until `pull.rebase` is set; when no
    configuration sets it, this clone gets `pull.rebase false` (a merge, which the merge driver makes
    exact). A choice the user already made, in any git configuration, is kept. Returns "merge" when set
    here, "rebase" or "merge" as already chosen, None when git could not be asked."""
    done = _git(root, "config", "--get", "pull.rebase")
    if done is None:
        return None
    chosen = done.stdout.strip().lower()
    if done.returncode == 0 and chosen:
        return "merge" if chosen in ("false", "no", "off", "0") else "rebase"
    set_now = _git(root, "config", "--local", "pull.rebase", "false")
    return "merge" if set_now is not None and set_now.returncode == 0 else None


def start(root: Path) -> bool:
    """`init --git`: `git init` in the campaign folder unless it already is in a git work tree (True when
    it ran). Bad input when git cannot make the repository."""
    if git_dir(root) is not None:
        return False
    done = _git(root, "init", "-q")
    if done is None or done.returncode != 0:
        raise BadInput(f"git init failed in {root} ({_first_line(done)})",
                       fix="fix what git says, then run `git init` and `narateer git-setup` there")
    return True


def first_commit(root: Path, paths: list[str], message: str) -> str:
    """`init --git`: the campaign's files as one commit (only these paths, whatever else is staged);
    its short id. Bad input naming the cause when git refuses; the campaign stays as it is."""
    for args in (("add", "--", *paths), ("commit", "-q", "-m", message, "--", *paths)):
        done = _git(root, *args)
        if done is None or done.returncode != 0:
            raise BadInput(f"the campaign is ready in {root}, but git {args[0]} failed ({_first_line(done)})",
                           fix="fix what git says (often: set `git config user.name` and `user.email`), "
                               "then `git add -A && git commit` there")
    done = _git(root, "rev-parse", "--short", "HEAD")
    return done.stdout.strip() if done is not None else ""


def _first_line(done) -> str:
    if done is None:
        return "git could not be run"
    from ..safetext import printable

    lines = [line for line in (done.stderr or done.stdout or "").splitlines() if line.strip()]
    return printable(lines[0].strip().removeprefix("fatal: ")) if lines else f"exit status {done.returncode}"


def _adopt(root: Path) -> dict:
    """This machine's own private records out of a `.narateer/` in the work tree, into the git directory."""
    from . import private

    if private.legacy(root) is None:
        return {"moved": 0, "left": 0}
    done = _git(root, "ls-files", "-z", "--", private.LEGACY)
    tracked = set(filter(None, done.stdout.split("\0"))) if done is not None and done.returncode == 0 else set()
    moved = private.adopt(root, tracked)
    if not moved["left"] and not tracked:  # nothing left but caches and temporary files: the folder goes
        private.retire(root)
        moved["removed"] = True
    return moved


def check_problems(root: Path) -> list:
    """Private files tracked by git, and no merge driver in this clone: store.schema.Problem values."""
    if git_dir(root) is None:
        return []
    from .schema import Problem

    from . import private

    problems = []
    if private.legacy(root) is not None:
        problems.append(Problem(f"{private.LEGACY}/", 1, "", "a private folder inside a git work tree is never read "
                                f"(private files now live in {private.shown(root)}/); `narateer git-setup` "
                                f"moves this machine's own records out of it, then remove {private.LEGACY}/",
                                rule="G-PRIV-1"))
    done = _git(root, "ls-files", "-z", "--", ".narateer")
    if done is not None and done.returncode == 0:
        for name in filter(None, done.stdout.split("\0")):
            problems.append(Problem(name, 1, "", "a private file is tracked by git; it is never trusted: "
                                    f"`git rm --cached {name}`", rule="G-TRUST-1"))
    done = _git(root, "config", "--get", f"merge.{DRIVER}.driver")
    if done is not None and not done.stdout.strip():
        problems.append(Problem("narateer.yaml", 1, "", "the narateer merge driver is not registered in this clone: "
                                "run `narateer git-setup`", rule="G-MERGE-1"))
    return problems
