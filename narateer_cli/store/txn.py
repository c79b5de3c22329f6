"""The campaign lock, atomic replaces and all-or-nothing multi-file actions.

Every writing command holds an exclusive `fcntl.flock` on the campaign
folder itself for its whole read-modify-write. Its changes are gathered in a
`Transaction`; `commit` first writes a manifest holding every new file body
and every log append to `txn.json` in the private folder (store/private.py;
the commit point, itself an atomic replace), then applies it, then removes it. A command that finds a
manifest left by a killed process applies it again before doing anything:
the apply is idempotent (log appends truncate to the recorded size first),
so after a crash at any point either every file shows the action or none does.
See docs/storage.md.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import signal
from pathlib import Path

import stat

from ..errors import BadInput, NarateerError
from ..readonly import _RUNNING, refuse_write
from . import private

MANIFEST = "txn.json"
COMMITS = 0  # actions committed by this process (cli.main words its Ctrl-C message by it)
RECONCILED = 0  # of those, merge reconciliations a writer committed before its own action (not the action)


def private_dir(root: Path) -> Path:
    """The campaign's private folder, made where missing (inside git, in the git directory, which git never sends)."""
    return private.folder(root)


def manifest_path(root: Path) -> Path:
    return private.location(root) / MANIFEST


def _shown_manifest(root: Path) -> str:
    return os.path.join(private.shown(root), MANIFEST)


def atomic_write(root: Path, target: Path, text: str | bytes, durable: bool = True, mode: int | None = None):
    """Write a temporary file under .narateer/, fsync it, keep the target's mode, os.replace.

    `durable=False` is for caches, which may be lost but never half-read: no fsync, and
    (as they are written outside any commit) Ctrl-C waits until the temp file is gone.
    """
    if _RUNNING:
        refuse_write("atomic_write")
    if not durable:
        with _HoldCtrlC():
            return _write(root, target, text, durable, mode)
    return _write(root, target, text, durable, mode)


def _write(root: Path, target: Path, text: str | bytes, durable: bool, mode: int | None = None):
    fd, tmp = _temp_copy(root, target, text.encode("utf-8") if isinstance(text, str) else text, mode)
    try:
        if durable:
            os.fsync(fd)
    except BaseException:
        _discard({target: tmp})
        raise
    finally:
        os.close(fd)
    _place(root, tmp, target)


def _temp_copy(root: Path, target: Path, data: bytes, mode: int | None = None) -> tuple[int, str]:
    """A private temp file under .narateer/ holding `data` with `mode` (a private file's 0600), else the
    target's mode (not yet synced): its descriptor, still open, and its path."""
    try:
        mode = os.stat(target).st_mode & 0o7777 if mode is None else mode
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, tmp = _temp_file(private_dir(root))
    try:
        with open(fd, "wb", closefd=False) as fh:
            fh.write(data)
        os.chmod(tmp, mode)
    except BaseException:
        os.close(fd)
        _discard({target: tmp})
        raise
    return fd, tmp


def _place(root: Path, tmp: str, target: Path):
    """os.replace a finished temp file onto its target, inside a folder reached without following a
    symlink; the temp file is removed if that fails."""
    try:
        fd, name = folder_of(root, target)
        try:
            try:
                os.replace(tmp, name, dst_dir_fd=fd)
            except OSError as exc:
                if exc.errno != 18:  # EXDEV: the private folder is on another file system (a linked worktree)
                    raise
                _place_across(tmp, name, fd)
        finally:
            os.close(fd)
    except BaseException:
        _discard({target: tmp})
        raise


def _place_across(tmp: str, name: str, fd: int):
    """Copy a temp file into the target's own folder, then rename it there (still atomic for readers)."""
    with open(tmp, "rb") as fh:
        data = fh.read()
    mode = os.stat(tmp).st_mode & 0o7777
    near = f".{name}.narateer-{os.getpid()}.tmp"
    out = os.open(near, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600, dir_fd=fd)
    try:
        os.write(out, data)
        os.fchmod(out, mode)
        os.fsync(out)
    finally:
        os.close(out)
    os.replace(near, name, src_dir_fd=fd, dst_dir_fd=fd)
    os.unlink(tmp)


def folder_of(root: Path, target: Path, make: bool = True) -> tuple[int, str]:
    """An open descriptor of the folder holding `target` (a file of the campaign at `root`, or of its private
    folder) and its name there. The folder is reached from the campaign root (or the private folder) one
    component at a time without following symlinks: a link on the way is bad input. The caller
    closes the descriptor."""
    target = Path(target)
    for top in (private.location(root), root):
        if target.is_relative_to(top):
            mode = 0o700 if top != root else 0o777  # private folders stay private
            try:
                return _walk_down(top, target.relative_to(top).parts[:-1], make, mode), target.name
            except FileNotFoundError:
                if not make:
                    raise
                _vanished(root, top)
    raise BadInput(f"{target}: not a file of the campaign; nothing was written", rule="G-PRIV-2",
                   fix="run the command inside the campaign")


def _vanished(root: Path, top: Path):
    """The private folder (or the campaign folder) went away while a writer held the lock: it refuses, in one
    line, and writes nothing."""
    what = f"the private folder {private.shown(root)}" if top != root else "the campaign folder"
    raise BadInput(f"{what} went away while the command ran; nothing was written", rule="H2-REFUSE-1",
                   fix="run the command again (it makes the private folder anew)")


def _walk_down(top: Path, parts: tuple[str, ...], make: bool, mode: int = 0o777) -> int:
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for index, part in enumerate(parts):
        try:
            try:
                child = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except FileNotFoundError:
                if not make:
                    raise
                try:
                    os.mkdir(part, mode, dir_fd=fd)
                except FileExistsError:
                    pass
                child = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
        except OSError as exc:
            os.close(fd)
            if isinstance(exc, FileNotFoundError):
                raise
            where = os.path.join(*parts[: index + 1])
            raise BadInput(f"{where}: a symlink or a file stands where a folder of the campaign should be; "
                           "nothing was written", rule="G-PRIV-2", fix="replace it with a real folder") from None
        os.close(fd)
        fd = child
    return fd


def _discard(temps: dict):
    for tmp in temps.values():
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass


_UMASK = None
_COUNTER = 0


def _temp_file(folder: Path) -> tuple[int, str]:
    """A new private file (O_EXCL, mode 0600) named by pid and a counter."""
    global _COUNTER
    while True:
        _COUNTER += 1
        path = os.path.join(folder, f"write-{os.getpid()}-{_COUNTER}.tmp")
        try:
            return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), path
        except FileExistsError:
            continue


def _umask() -> int:
    """The process's umask, read once. Linux says it in /proc: setting it to read it back would leave it 0
    for a moment, and a file another thread (a Python API call) made then would be writable by all."""
    global _UMASK
    if _UMASK is None:
        try:
            with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
                _UMASK = next(int(line.split()[1], 8) for line in fh if line.startswith("Umask:"))
        except (OSError, StopIteration, IndexError, ValueError):
            _UMASK = os.umask(0)
            os.umask(_UMASK)
    return _UMASK


class Lock:
    """Exclusive flock on the campaign folder itself, which cannot vanish or be renamed under a running writer.

    The lock is held on the open campaign folder, which cannot be removed while it holds the campaign's
    files, and whose path is checked, once locked, to still name the folder locked: deleting, moving or
    emptying the private folder (or anything else a user may tidy away) never admits a second writer.
    The kernel drops the lock when the process dies, however it dies. `wait=False` raises `Busy` at
    once instead of waiting. Taking the lock completes an interrupted action first (`recover`).
    """

    def __init__(self, root: Path, wait: bool = True):
        self.root = root
        self.wait = wait
        self.fd = None

    def __enter__(self):
        import fcntl

        for _ in range(8):
            fd = self._open()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | (0 if self.wait else fcntl.LOCK_NB))
            except BlockingIOError:
                os.close(fd)
                raise Busy("another narateer command is writing this campaign") from None
            if self._still_here(fd):
                self.fd = fd
                break
            os.close(fd)  # the folder was moved away while we waited: lock what the path names now
        else:
            raise BadInput(f"{self.root}: the campaign folder keeps moving", fix="let the other command finish")
        try:
            recover(self.root)
        except BaseException:  # e.g. a damaged manifest: report it, but do not keep the lock
            self.__exit__()
            raise
        return self

    def _open(self) -> int:
        try:
            return os.open(self.root, os.O_RDONLY | os.O_DIRECTORY)
        except OSError as exc:
            raise BadInput(f"{self.root}: cannot open the campaign folder ({exc.strerror})",
                           fix="run the command in a campaign folder you can read") from None

    def _still_here(self, fd: int) -> bool:
        try:
            now, held = os.stat(self.root), os.fstat(fd)
        except OSError:
            return False
        return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)

    def __exit__(self, *exc):
        import fcntl

        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)
        self.fd = None
        return False


class Busy(NarateerError):
    """The lock is held and the caller asked not to wait."""

    exit_code = 3


class Transaction:
    """Gathers file replaces and log appends; commits them all or none."""

    def __init__(self, root: Path):
        self.root = root
        self.writes: dict[str, str | None] = {}  # relative path -> new text (None deletes)
        self.appends: dict[str, str] = {}

    def write(self, path: Path, text: str | None):
        if _RUNNING:  # a game's function is running: it returns its changes, it never writes
            refuse_write("Transaction.write")
        self.writes[self.rel(path)] = text

    def append(self, path: Path, text: str):
        if _RUNNING:
            refuse_write("Transaction.append (a log entry written by hand)")
        rel = self.rel(path)
        self.appends[rel] = self.appends.get(rel, "") + text

    def pending(self, path: Path) -> str:
        """What this transaction already appends to the log at `path` (a second entry chains after it)."""
        return self.appends.get(self.rel(path), "")

    def rel(self, path: Path) -> str:
        """A data file's path inside the campaign, or a private file's tagged name (`:private/undo/...`)."""
        return private.tag(self.root, path) or os.path.relpath(path, self.root)

    def before(self) -> dict[str, str | None]:
        """The current text of every file this transaction replaces (for undo)."""
        out = {}
        for rel in self.writes:
            try:
                out[rel] = private.untag(self.root, rel).read_text(encoding="utf-8")
            except (FileNotFoundError, NotADirectoryError):  # something in the way: commit refuses it
                out[rel] = None
        return out

    def changed(self) -> list[str]:
        out = []
        for rel, text in self.writes.items():
            path = private.untag(self.root, rel)
            try:
                current = path.read_text(encoding="utf-8")
            except OSError:  # missing, or something in the way (commit refuses that before its commit point)
                current = None
            if current != text:
                out.append(rel)
        return sorted(set(out) | set(self.appends))

    def commit(self):
        global COMMITS
        if _RUNNING:
            refuse_write("Transaction.commit")
        if not self.writes and not self.appends:
            return
        encoded = self.check_targets()
        manifest = {"version": 2, "writes": self.writes, "appends": {}}
        for rel, text in self.appends.items():
            size, prefix = prefix_mark(private.untag(self.root, rel))
            manifest["appends"][rel] = [size, prefix, text]
        manifest = seal(self.root, manifest)
        with _HoldCtrlC():
            try:
                staged = _save_manifest(self.root, manifest)
            except OSError as exc:
                raise BadInput(f"cannot save the action: {_shown_manifest(self.root)} cannot be written ({exc.strerror}); "
                               "nothing was written", fix="make room or fix the permissions, then run it again") from None
            if os.environ.get("NARATEER_CRASH_AFTER_MANIFEST"):  # test hook: die at the commit point
                os._exit(99)
            try:
                apply(self.root, manifest, staged)
                os.unlink(manifest_path(self.root))
            except OSError as exc:
                raise HalfDone(self.action, sorted(set(self.writes) | set(self.appends)), exc,
                               _shown_manifest(self.root)) from None
            COMMITS += 1
        del encoded

    action = "the action"

    def check_targets(self) -> int:
        """Before the commit point, so a refusal writes nothing: valid text, writable targets, room on the disk."""
        total = 0
        for rel, text in list(self.writes.items()) + list(self.appends.items()):
            if text is None:
                continue
            try:
                total += len(text.encode("utf-8"))
            except UnicodeEncodeError:
                raise BadInput(f"{rel}: the new text holds something that is not valid text "
                               "(a lone surrogate, or a byte that is not UTF-8)",
                               fix="give every text argument as UTF-8 text") from None
            check_target(self.root, rel)
        check_room(self.root, 2 * total + 65536)
        return total


class HalfDone(NarateerError):
    """A failure after the commit point: the manifest is on disk, the next command completes it."""

    exit_code = 2

    def __init__(self, action: str, files: list, exc: OSError, manifest: str = MANIFEST):
        names = ", ".join(files[:4]) + (f" and {len(files) - 4} more" if len(files) > 4 else "")
        super().__init__(f"{action} is half-done: it was saved in {manifest} but writing it out "
                         f"failed ({exc.strerror or exc}; files {names})",
                         fix="fix the cause (room, permissions); the next narateer command completes it - "
                             "do not run this one again")


def check_target(root: Path, rel: str):
    """A target must be a plain file (or nothing yet) in a real folder of the campaign (reached without
    following a symlink), and writable."""
    if not (is_data_path(rel) or is_log_path(rel)):
        raise BadInput(f"{rel}: not a data file of the campaign; nothing was written", rule="G-PRIV-2",
                       fix="narateer writes only narateer.yaml, characters/, encounters/ and actions/")
    path = private.untag(root, rel)
    fd, name = folder_of(root, path)
    try:
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            st = None
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise BadInput(f"{rel}: cannot be written (a link, folder or special file is in the way); "
                           "nothing was written", fix="move away whatever is in its place, then run the command again")
        if st is not None and (not os.access(name, os.W_OK, dir_fd=fd) or not st.st_mode & 0o222):
            raise BadInput(f"{rel}: the file is read-only; nothing was written", rule="G-TRUST-5",
                           fix="make it writable (chmod u+w), then run the command again")
        info = os.fstat(fd)
    finally:
        os.close(fd)
    if not os.access(path.parent, os.W_OK) or not info.st_mode & 0o222:
        raise BadInput(f"{os.path.relpath(path.parent, root)}/: the folder is read-only; nothing was written",
                       rule="G-TRUST-5", fix="make it writable (chmod u+w), then run the command again")


def check_room(root: Path, needed: int):
    try:
        st = os.statvfs(root)
    except OSError:
        return
    if st.f_bavail * st.f_frsize < needed:
        raise BadInput(f"no room on the disk for this action ({needed} bytes needed); nothing was written",
                       rule="G-TRUST-5", fix="free some space, then run the command again")


def prefix_mark(path: Path) -> tuple[int, str]:
    """A log's size and a hash of the bytes just before it (up to PREFIX_BYTES): replay appends
    only when the log still ends with exactly these bytes (never padded, cut or grown otherwise)."""
    try:
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK | os.O_NOFOLLOW)) as fh:
            size = os.fstat(fh.fileno()).st_size
            fh.seek(max(0, size - PREFIX_BYTES))
            data = fh.read(PREFIX_BYTES)
    except FileNotFoundError:
        return 0, hashlib.sha256(b"").hexdigest()
    return size, hashlib.sha256(data).hexdigest()


PREFIX_BYTES = 65536


class _HoldCtrlC:
    """Defer SIGINT from the commit point to the end of apply, then raise KeyboardInterrupt.

    An interrupt in between would leave a half-applied action for the next
    command to finish; holding it keeps the action whole in this process.
    Only the default handler is replaced (an ignored SIGINT stays ignored),
    and only in the main thread, where Python runs signal handlers.
    """

    def __enter__(self):
        self.held = False
        self.old = None
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            try:
                self.old = signal.signal(signal.SIGINT, self._hold)
            except ValueError:  # not the main thread
                self.old = None
        return self

    def _hold(self, signum, frame):
        self.held = True

    def __exit__(self, kind, value, tb):
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)
        if self.held and kind is None:
            raise KeyboardInterrupt
        return False


def _save_manifest(root: Path, manifest: dict) -> dict:
    """The commit point. Every replaced file's new text goes to a temp file first; those and the manifest
    are synced together (one journal commit instead of one per file), and only then does the manifest
    take its name. Returns {rel: temp path} for `apply`; on failure nothing is left behind."""
    staged, fds = {}, []
    try:
        for rel, text in manifest["writes"].items():
            if text is not None and _current(private.untag(root, rel)) != text.encode("utf-8"):
                fd, staged[rel] = _temp_copy(root, private.untag(root, rel), text.encode("utf-8"))
                fds.append(fd)
        fd, tmp = _temp_copy(root, manifest_path(root), json.dumps(manifest).encode("utf-8"))
        fds.append(fd)
        staged[MANIFEST] = tmp
        for fd in fds:
            os.fsync(fd)
        _place(root, staged.pop(MANIFEST), manifest_path(root))
    except BaseException:
        _discard(staged)
        raise
    finally:
        for fd in fds:
            os.close(fd)
    return staged


def _current(path: Path) -> bytes | None:
    try:
        return path.read_bytes() if not path.is_symlink() else None
    except FileNotFoundError:
        return None


def apply(root: Path, manifest: dict, staged: dict | None = None):
    """Idempotent: replaying a manifest twice gives the same files. A log is cut back only to its
    recorded size (never extended or padded) before the entry goes on. `staged` holds temp files
    already synced with the manifest's text (the committing process); replay writes afresh."""
    for rel, text in manifest["writes"].items():
        path = private.untag(root, rel)
        if staged and rel in staged:
            _place(root, staged.pop(rel), path)
        elif text is None:
            _remove(root, path)
        elif _current(path) != text.encode("utf-8"):
            atomic_write(root, path, text)
    for rel, (size, _prefix, text) in manifest["appends"].items():
        _append(root, private.untag(root, rel), rel, size, text)


def _remove(root: Path, path: Path):
    try:
        fd, name = folder_of(root, path, make=False)
    except FileNotFoundError:
        return
    try:
        os.unlink(name, dir_fd=fd)
    except FileNotFoundError:
        pass
    finally:
        os.close(fd)


def _append(root: Path, path: Path, rel: str, size: int, text: str):
    folder, name = folder_of(root, path)
    try:
        fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o666 & ~_umask(), dir_fd=folder)
    finally:
        os.close(folder)
    with os.fdopen(fd, "rb+") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size < size:
            raise OSError(f"{rel} is shorter than when the action began")
        fh.truncate(size)
        fh.seek(size)
        fh.write(text.encode("utf-8"))
        fh.flush()
        os.fsync(fh.fileno())


# ---- the manifest is bound to this machine and this campaign --------------------------------

def secret_path() -> Path:
    """A machine-local secret, outside every campaign (so no clone can carry it)."""
    base = (os.environ.get("NARATEER_STATE_DIR") or os.environ.get("XDG_STATE_HOME")
            or os.path.join(os.path.expanduser("~"), ".local", "state"))
    return Path(base) / "narateer" / "secret"


def machine_secret() -> bytes | None:
    path = secret_path()
    for _ in range(2):
        try:
            with open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NOFOLLOW | os.O_NONBLOCK)) as fh:
                data = fh.read(64)
            if len(data) >= 32:
                return data
            return None
        except FileNotFoundError:
            try:
                path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "wb") as fh:
                    fh.write(os.urandom(32))
            except FileExistsError:
                continue
            except OSError:
                return None
        except OSError:
            return None
    return None


def _mac(secret: bytes, manifest: dict) -> str:
    body = {key: value for key, value in manifest.items() if key != "mac"}
    return hmac.new(secret, json.dumps(body, sort_keys=True).encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def _binding(root: Path) -> dict:
    return {"campaign": str(root.resolve()), "private": os.stat(private_dir(root)).st_ino}


def seal(root: Path, manifest: dict) -> dict:
    """Bind a manifest to this campaign's private folder (its inode) and this machine (an HMAC with
    the machine secret): a manifest that arrived by git can never pass."""
    out = {**manifest, **_binding(root)}
    secret = machine_secret()
    out["mac"] = _mac(secret, out) if secret is not None else None
    return out


_ID = r"[A-Za-z0-9_-]{1,64}"
_WRITABLE = (rf"narateer\.yaml|characters/{_ID}\.yaml|encounters/{_ID}\.yaml|actions/{_ID}\.yaml"
             rf"|{private.TAG}undo/{_ID}/[0-9]{{1,12}}\.json|{private.TAG}secrets/[0-9a-z-]{{1,40}}\.json")
_APPENDABLE = rf"encounters/{_ID}\.log\.yaml"


def is_data_path(rel) -> bool:
    """A path a transaction may replace or remove, by full match (never `.git/`, never a newline)."""
    return isinstance(rel, str) and re.fullmatch(_WRITABLE, rel) is not None


def is_log_path(rel) -> bool:
    return isinstance(rel, str) and re.fullmatch(_APPENDABLE, rel) is not None


def distrust(root: Path, manifest) -> str | None:
    """Why a manifest may not be replayed (None: it may): made elsewhere, or reaching beyond the campaign's data."""
    try:
        return _untrusted_origin(root, manifest) or _untrusted_targets(root, manifest)
    except (TypeError, KeyError, ValueError, AttributeError, OSError):
        return "it is damaged"


def _untrusted_origin(root: Path, manifest) -> str | None:
    """The manifest's shape, its HMAC with this machine's secret, and its campaign binding."""
    writes, appends = manifest["writes"], manifest["appends"]
    if manifest.get("version") != 2 or not isinstance(writes, dict) or not isinstance(appends, dict):
        return "it is not what this version of narateer writes"
    secret = machine_secret()
    if secret is None or not isinstance(manifest.get("mac"), str) or not hmac.compare_digest(
            manifest["mac"], _mac(secret, manifest)):
        return "it was not made on this machine"
    if {k: manifest.get(k) for k in ("campaign", "private")} != _binding(root):
        return "it was made for another campaign"
    return None


def _untrusted_targets(root: Path, manifest) -> str | None:
    """Only campaign data files, none reached through a symlink, and logs that still hold
    exactly what they held when the action began."""
    writes, appends = manifest["writes"], manifest["appends"]
    for rel, text in writes.items():
        if not _is_data_write(rel, text):
            return f"it names {rel!r}, which is not a campaign data file"
    for rel, item in appends.items():
        if not _is_log_append(rel, item):
            return f"it appends to {rel!r}, which is not an encounter log"
    for rel in list(writes) + list(appends):
        if _linked(root, rel):
            return f"{rel} is reached through a symlink"
    for rel, (size, prefix, text) in appends.items():
        if not _log_continues(private.untag(root, rel), size, prefix, text):
            return f"{rel} changed since the action began"
    return None


def _is_data_write(rel, text) -> bool:
    """A manifest write: a campaign data file's path and its new text (None: remove it); an encounter log is
    only ever removed (by undoing the `encounter new` that began it), never rewritten."""
    return (is_data_path(rel) and (text is None or isinstance(text, str))) or (is_log_path(rel) and text is None)


def _is_log_append(rel, item) -> bool:
    """A manifest append: an encounter log's path and [size before, prefix digest, text]."""
    return bool(is_log_path(rel) and isinstance(item, list) and len(item) == 3
                and isinstance(item[0], int) and isinstance(item[2], str))


def _linked(root: Path, rel: str) -> bool:
    """Is the file reached through a symlink, or is something other than a plain file in its place?"""
    try:
        fd, name = folder_of(root, private.untag(root, rel), make=False)
    except FileNotFoundError:
        return False
    except BadInput:
        return True
    try:
        st = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    finally:
        os.close(fd)
    return not stat.S_ISREG(st.st_mode)


def _log_continues(path: Path, size: int, prefix: str, text: str) -> bool:
    """The log still holds exactly the recorded prefix, then nothing or a part of this very entry."""
    try:
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NOFOLLOW | os.O_NONBLOCK)) as fh:
            current = os.fstat(fh.fileno()).st_size
            data = text.encode("utf-8")
            if current < size or current > size + len(data):
                return False
            fh.seek(max(0, size - PREFIX_BYTES))
            before = fh.read(size - max(0, size - PREFIX_BYTES))
            after = fh.read()
    except FileNotFoundError:
        return size == 0 and prefix == hashlib.sha256(b"").hexdigest()
    return hashlib.sha256(before).hexdigest() == prefix and data.startswith(after)


def recover(root: Path):
    """Finish an action whose manifest a killed process left behind (only one this machine made for
    this campaign), else set it aside and say so; clear stray temp files."""
    folder = private_dir(root)
    path = folder / MANIFEST
    if os.path.lexists(path):
        manifest = _read_manifest(path)
        reason = distrust(root, manifest) if isinstance(manifest, dict) else "it is damaged"
        if reason is None:
            apply(root, manifest)
            os.unlink(path)
        else:
            _set_aside(root, path, manifest, reason)
    for name in os.listdir(folder):
        if name.startswith("write-") and name.endswith(".tmp"):
            try:
                os.unlink(folder / name)
            except FileNotFoundError:
                pass


def _read_manifest(path: Path):
    """The manifest's data: a regular file, not followed through a link, up to 64 MiB; else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return None
        raw = fh.read(64 * 1024 * 1024 + 1)
    try:
        return json.loads(raw.decode("utf-8")) if len(raw) <= 64 * 1024 * 1024 else None
    except ValueError:
        return None


def _set_aside(root: Path, path: Path, manifest, reason: str):
    import time

    from ..safetext import printable
    from ..sink import note

    aside = path.with_name(f"txn-set-aside-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.json")
    os.replace(path, aside)
    try:
        names = sorted(set(manifest.get("writes") or {}) | set(manifest.get("appends") or {}))
        names = [str(n) for n in names]
    except (AttributeError, TypeError):
        names = []
    touched = ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "") or "nothing readable"
    shown = private.shown(root)
    note(printable(f"narateer: set aside an unfinished action ({shown}/{MANIFEST} -> {shown}/{aside.name}): "
                   f"{reason}; it would have touched {touched}; nothing of it was applied") + "\n")
