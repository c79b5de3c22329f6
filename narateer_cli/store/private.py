"""Where a campaign's private working files live, and how they are trusted.

Private files (the transaction manifest, undo records, parse caches, the records of secret rolls, the
shell's history) are this machine's own. Whatever lies in a work tree can arrive by git, so in a git work
tree they live inside the git directory, which no clone, fetch or pull ever transfers:

- a campaign at the top of a work tree: `<git dir>/narateer/`;
- a campaign in a sub-folder `a/b` of a work tree: `<git dir>/narateer/campaigns/a%2Fb/`;
- a linked worktree (`.git` is a `gitdir:` file): the same, inside that worktree's own git directory;
- outside git: `.narateer/` at the campaign root, as before.

The git directory is found without running git (start-up time): walk up from the campaign to the
first `.git`, a folder or a `gitdir:` file, that holds a `HEAD`. Inside a work tree a `.narateer/`
folder is never read or written: `check` reports it, and `git-setup` moves this machine's own records
out of it (`adopt`).

Every folder on the way below the git directory (or the campaign root) is opened one component at a
time with O_NOFOLLOW, so a symlink anywhere on the way is bad input, never followed. Every record that
can lead to a write carries an HMAC made with the machine secret over its kind, its name, its content
and the campaign's identity (its real path and the private folder's inode): `sealed` makes one,
`opened` checks one and ignores a failing one with one stderr line.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
from pathlib import Path

from ..errors import BadInput

LEGACY = ".narateer"  # the private folder's name outside git (and before private state moved into git)
IN_GIT = "narateer"
TAG = ":private/"  # how a transaction names a private file (a data file's path never holds a colon)

_WHERE: dict[str, tuple[Path, Path, tuple[str, ...]]] = {}  # campaign root -> (base, folder, parts below base)
_MADE: set[str] = set()
_IDENTITY: dict = {}  # campaign root -> its identity, and "secret" -> the machine secret (this command's)


def forget():
    """Forget what this process found and made (each command looks again: a folder may have moved)."""
    _WHERE.clear()
    _MADE.clear()
    _IDENTITY.clear()


def git_dir(root: Path) -> tuple[Path, Path] | None:
    """(work tree top, git directory) of the repository holding `root`, without running git; None outside git."""
    for folder in (root, *root.parents):
        dot = folder / ".git"
        try:
            st = os.lstat(dot)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError:
            return None
        place = dot if stat.S_ISDIR(st.st_mode) else _gitdir_file(dot) if stat.S_ISREG(st.st_mode) else None
        if place is not None and (place / "HEAD").is_file():
            return folder, place
    return None


def _gitdir_file(dot: Path) -> Path | None:
    """The folder a `.git` file names (`gitdir: PATH`, relative to the file's folder), as git reads it."""
    try:
        with open(dot, "rb") as fh:
            text = fh.read(4096).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("gitdir: "):
        return None
    named = Path(text[len("gitdir: "):].strip())
    return Path(os.path.normpath(dot.parent / named))


def where(root: Path) -> tuple[Path, Path, tuple[str, ...]]:
    """(the base folder, the private folder, its components below the base)."""
    key = str(root)
    known = _WHERE.get(key)  # read once: an API call in another thread may `forget` at any moment
    if known is None:
        found = git_dir(root)
        if found is None:
            parts = (LEGACY,)
            base = root
        else:
            top, base = found
            rel = os.path.relpath(root, top)
            parts = (IN_GIT,) if rel == "." else (IN_GIT, "campaigns", rel.replace("%", "%25").replace(os.sep, "%2F"))
        known = _WHERE[key] = (base, base.joinpath(*parts), parts)
    return known


def location(root: Path) -> Path:
    """Where the private folder of the campaign at `root` lives (it may not exist yet)."""
    return where(root)[1]


def in_git(root: Path) -> bool:
    return where(root)[2][0] != LEGACY


def shown(root: Path) -> str:
    """The private folder as a person reads it in a message: relative to the campaign where it can be."""
    place = location(root)
    try:
        return os.path.relpath(place, root)
    except ValueError:
        return str(place)


def folder(root: Path, *below: str, make: bool = True) -> Path | None:
    """The private folder (or a folder below it), made 0700 where missing. Each component below the git
    directory or the campaign root is opened without following symlinks: a link or a file in the way
    is bad input. With `make=False` a missing folder is None (nothing is made)."""
    base, place, parts = where(root)
    path = place.joinpath(*below)
    key = str(path)
    if key not in _MADE:
        try:
            _walk(base, (*parts, *below), make)
        except FileNotFoundError:
            return None
        _MADE.add(key)
    return path


def _walk(base: Path, parts: tuple[str, ...], make: bool = True):
    try:
        fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise BadInput(f"{base}: cannot open the folder that holds the campaign's private files ({exc.strerror})",
                       fix="make it a readable, writable folder") from None
    for index, part in enumerate(parts):
        fd = _step(fd, part, base.joinpath(*parts[: index + 1]), make)  # closes the folder above
    os.close(fd)


def _step(fd: int, part: str, path: Path, make: bool) -> int:
    """Open (making it when missing) the folder `part` below the folder open at `fd`; closes `fd`."""
    flags = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
    try:
        for _ in range(2):
            try:
                return os.open(part, flags, dir_fd=fd)
            except FileNotFoundError:
                if not make:
                    raise
                try:
                    os.mkdir(part, 0o700, dir_fd=fd)
                except FileExistsError:
                    pass
        return os.open(part, flags, dir_fd=fd)
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise BadInput(f"{path}: the campaign's private folder is a symlink or a file, or cannot be made "
                       f"({exc.strerror})", rule="G-PRIV-2",
                       fix="move whatever is in its place away (it holds only private working files), "
                           "then run the command again") from None
    finally:
        os.close(fd)


def tag(root: Path, path: Path) -> str | None:
    """A transaction's name for a private file (`:private/undo/e1/00000003.json`), or None outside it."""
    try:
        return TAG + Path(path).relative_to(location(root)).as_posix()
    except ValueError:
        return None


def untag(root: Path, rel: str) -> Path:
    """The file a transaction's name stands for: a private file, or a file of the campaign."""
    if rel.startswith(TAG):
        return location(root) / rel[len(TAG):]
    return root / rel


def legacy(root: Path) -> Path | None:
    """A `.narateer/` folder inside a git work tree: never read or written there (git could bring it), only reported."""
    if not in_git(root):
        return None
    path = root / LEGACY
    return path if os.path.lexists(path) else None


# ---- records bound to this machine and this campaign --------------------------------------------

def identity(root: Path) -> str:
    """What a clone or a copy cannot carry: the campaign's real path and its private folder's inode (found once
    per command: a command seals and opens several records)."""
    key = str(root)
    found = _IDENTITY.get(key)
    if found is None:  # read into a local: another command in this process may forget() meanwhile
        found = _IDENTITY[key] = f"{root.resolve()}\n{os.stat(folder(root)).st_ino}"
    return found


def _secret() -> bytes | None:
    """The machine secret, read once per command."""
    from .txn import machine_secret

    found = _IDENTITY.get("secret")
    if found is None:
        found = _IDENTITY["secret"] = machine_secret()
    return found


def _mac(root: Path, kind: str, name: str, body: str, ident: str | None = None) -> str | None:
    secret = _secret()
    if secret is None:
        return None
    message = "\n".join((kind, name, ident or identity(root), body)).encode("utf-8", "surrogatepass")
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def sealed(root: Path, kind: str, name: str, data: dict) -> str:
    """The text of a private record: its fields and `mac`, an HMAC binding them to this machine, this
    campaign, the record's kind and its name. The HMAC is made over the fields as `opened` will read
    them, so a record whose data has numbers as keys (Open Adventure's chart rows) still opens."""
    plain = json.loads(json.dumps(data))  # as `opened` reads it back: a number as a key comes back as text
    return json.dumps({**plain, "mac": _mac(root, kind, name, json.dumps(plain, sort_keys=True))})


def opened(root: Path, kind: str, name: str, text: str, quiet: bool = False, ident: str | None = None) -> dict | None:
    """The fields of a sealed record, or None (with one stderr line unless `quiet`) when it fails.
    `ident`: the identity it was sealed with, when not the private folder's (`adopt`)."""
    try:
        data = json.loads(text)
        mac = data.pop("mac") if isinstance(data, dict) else None
    except (ValueError, KeyError):
        data = mac = None
    expected = _mac(root, kind, name, json.dumps(data, sort_keys=True), ident) if isinstance(mac, str) else None
    if expected is None or not hmac.compare_digest(mac, expected):
        if not quiet:
            ignored(f"{kind} record {name}", "it was not made on this machine for this campaign")
        return None
    return data


def ignored(what: str, reason: str):
    """One stderr line for a private record that is not used (once per record and command)."""
    from ..safetext import printable
    from ..sink import warn_once

    warn_once(("private", what), f"narateer: ignored the private {printable(what)}: {reason}\n")


# ---- moving this machine's own records out of a `.narateer/` in a work tree -----------------------

_RECORDS = (("secret", "secrets"), ("undo", "undo"))


def adopt(root: Path, tracked: set) -> dict:
    """`git-setup` in a git work tree: move the records of a `.narateer/` folder whose seal holds (sealed on
    this machine for this campaign; a secret roll's record from before seals, when its salt and result give
    the commitment its log holds) into the private folder. Files git tracks, links and anything else stay;
    caches are not moved (they are rebuilt). Returns {moved, left}."""
    old = legacy(root)
    if old is None or os.path.islink(old) or not os.path.isdir(old):
        return {"moved": 0, "left": 0}
    ident = f"{root.resolve()}\n{os.lstat(old).st_ino}"
    moved = left = 0
    for kind, sub in _RECORDS:
        for path in sorted((old / sub).glob("*.json" if kind == "secret" else "*/*.json")):
            rel = path.relative_to(root).as_posix()
            name = path.stem if kind == "secret" else f"{path.parent.name}/{path.stem}"
            data = None if rel in tracked or path.is_symlink() else _legacy_record(root, kind, name, path, ident)
            if data is None:
                left += 1
                continue
            _move_in(root, kind, name, data, sub, path)
            moved += 1
    return {"moved": moved, "left": left}


def _legacy_record(root: Path, kind: str, name: str, path: Path, ident: str) -> dict | None:
    from . import yamlio

    try:
        text = yamlio.read_text(path, path.name, nofollow=True)
    except Exception:  # noqa: BLE001 - anything unreadable simply stays where it is
        return None
    data = opened(root, kind, name, text, quiet=True, ident=ident)
    if data is None and kind == "secret":
        data = _proven_secret(root, name, text)
    if kind == "undo" and data is not None:
        from .txn import is_data_path

        if not all(is_data_path(rel) for rel in (*(data.get("before") or {}), *(data.get("after") or {}))):
            return None
    return data


def _proven_secret(root: Path, name: str, text: str) -> dict | None:
    """An unsealed secret record that proves itself: its salt and result hash to its commitment, and the log it
    names holds that commitment for this entry."""
    from .secrets import matches

    try:
        data = json.loads(text)
        log, commit = data["log"], data["commitment"]
        if data.get("entry") != name or not matches(commit, data["salt"], data["result"]):
            return None
        from .encounters import log_path

        with open(log_path(root, log), "rb") as fh:
            return data if any(commit.encode() in line and name.encode() in line for line in fh) else None
    except Exception:  # noqa: BLE001 - a record that does not prove itself simply stays where it is
        return None


def _move_in(root: Path, kind: str, name: str, data: dict, sub: str, path: Path):
    from .txn import atomic_write

    below = (sub,) if kind == "secret" else (sub, path.parent.name)
    target = folder(root, *below) / path.name
    atomic_write(root, target, sealed(root, kind, name, data), mode=0o600)
    os.unlink(path)


def retire(root: Path):
    """Remove a `.narateer/` in a work tree once nothing in it is needed: its caches are rebuilt; the shell's
    history moves to the private folder."""
    import shutil

    old = legacy(root)
    if old is None or os.path.islink(old) or not os.path.isdir(old):
        return
    history = old / "history"
    if history.is_file() and not history.is_symlink() and not (folder(root) / "history").exists():
        os.replace(history, folder(root) / "history")
    shutil.rmtree(old)
