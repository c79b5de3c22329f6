"""The campaign lock, atomic replaces and all-or-nothing multi-file actions.

Every writing command holds an exclusive `fcntl.flock` on `.narateer/lock`
for its whole read-modify-write. Its changes are gathered in a
`Transaction`; `commit` first writes a manifest holding every new file body
and every log append to `.narateer/txn.json` (the commit point, itself an
atomic replace), then applies it, then removes it. A command that finds a
manifest left by a killed process applies it again before doing anything:
the apply is idempotent (log appends truncate to the recorded size first),
so after a crash at any point either every file shows the action or none does.
See docs/storage.md.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import BadInput

PRIVATE = ".narateer"
MANIFEST = "txn.json"
COMMITS = 0  # actions committed by this process (cli.main words its Ctrl-C message by it)


def private_dir(root: Path) -> Path:
    path = root / PRIVATE
    path.mkdir(exist_ok=True)
    return path


def atomic_write(root: Path, target: Path, text: str | bytes, durable: bool = True):
    """Write a temporary file under .narateer/, fsync it, keep the target's mode, os.replace.

    `durable=False` is for caches, which may be lost but never half-read: no fsync, and
    (as they are written outside any commit) Ctrl-C waits until the temp file is gone.
    """
    if not durable:
        with _HoldCtrlC():
            return _write(root, target, text, durable)
    return _write(root, target, text, durable)


def _write(root: Path, target: Path, text: str | bytes, durable: bool):
    data = text.encode("utf-8") if isinstance(text, str) else text
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, tmp = _temp_file(private_dir(root))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


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
    global _UMASK
    if _UMASK is None:
        _UMASK = os.umask(0)
        os.umask(_UMASK)
    return _UMASK


class Lock:
    """Exclusive flock on .narateer/lock; the kernel drops it when a process dies."""

    def __init__(self, root: Path):
        self.root = root
        self.fd = None

    def __enter__(self):
        import fcntl

        try:
            self.fd = os.open(private_dir(self.root) / "lock", os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise BadInput(f"{PRIVATE}/lock: cannot open the campaign lock ({exc.strerror})",
                           fix=f"make {PRIVATE}/ a writable folder (move away whatever is in its place)") from None
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        try:
            recover(self.root)
        except BaseException:  # e.g. a damaged manifest: report it, but do not keep the lock
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc):
        import fcntl

        fcntl.flock(self.fd, fcntl.LOCK_UN)
        os.close(self.fd)
        self.fd = None
        return False


class Transaction:
    """Gathers file replaces and log appends; commits them all or none."""

    def __init__(self, root: Path):
        self.root = root
        self.writes: dict[str, str | None] = {}  # relative path -> new text (None deletes)
        self.appends: dict[str, str] = {}

    def write(self, path: Path, text: str | None):
        self.writes[self.rel(path)] = text

    def append(self, path: Path, text: str):
        rel = self.rel(path)
        self.appends[rel] = self.appends.get(rel, "") + text

    def rel(self, path: Path) -> str:
        return os.path.relpath(path, self.root)

    def before(self) -> dict[str, str | None]:
        """The current text of every file this transaction replaces (for undo)."""
        out = {}
        for rel in self.writes:
            try:
                out[rel] = (self.root / rel).read_text(encoding="utf-8")
            except FileNotFoundError:
                out[rel] = None
        return out

    def changed(self) -> list[str]:
        out = []
        for rel, text in self.writes.items():
            path = self.root / rel
            try:
                current = path.read_text(encoding="utf-8")
            except OSError:  # missing, or something in the way (commit refuses that before its commit point)
                current = None
            if current != text:
                out.append(rel)
        return sorted(set(out) | set(self.appends))

    def commit(self):
        global COMMITS
        if not self.writes and not self.appends:
            return
        for rel in [r for r, text in self.writes.items() if text is not None] + list(self.appends):
            path = self.root / rel  # bad input must show before the commit point, not half way through apply
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                ok = not path.is_dir()
            except OSError:
                ok = False
            if not ok:
                raise BadInput(f"{rel}: cannot be written (a file or folder is in the way)",
                               fix="move away whatever is in its place, then run the command again")
        manifest = {"writes": self.writes, "appends": {}}
        for rel, text in self.appends.items():
            path = self.root / rel
            size = path.stat().st_size if path.exists() else 0
            manifest["appends"][rel] = [size, text]
        with _HoldCtrlC():
            atomic_write(self.root, private_dir(self.root) / MANIFEST, json.dumps(manifest))
            if os.environ.get("NARATEER_CRASH_AFTER_MANIFEST"):  # test hook: die at the commit point
                os._exit(99)
            apply(self.root, manifest)
            os.unlink(private_dir(self.root) / MANIFEST)
            COMMITS += 1


class _HoldCtrlC:
    """Defer SIGINT from the commit point to the end of apply, then raise KeyboardInterrupt.

    An interrupt in between would leave a half-applied action for the next
    command to finish; holding it keeps the action whole in this process.
    Only the default handler is replaced (an ignored SIGINT stays ignored),
    and only in the main thread, where Python runs signal handlers.
    """

    def __enter__(self):
        import signal

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
        import signal

        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)
        if self.held and kind is None:
            raise KeyboardInterrupt
        return False


def apply(root: Path, manifest: dict):
    """Idempotent: replaying a manifest twice gives the same files."""
    for rel, text in manifest["writes"].items():
        path = root / rel
        if text is None:
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
        else:
            try:
                current = path.read_bytes()
            except FileNotFoundError:
                current = None
            if current != text.encode("utf-8"):
                atomic_write(root, path, text)
    for rel, (size, text) in manifest["appends"].items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab+") as fh:
            fh.truncate(size)
            fh.seek(0, os.SEEK_END)
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())


def _well_formed(manifest) -> bool:
    """Only replay what a commit writes: texts and sizes, at relative paths inside the campaign."""
    try:
        paths = list(manifest["writes"]) + list(manifest["appends"])
        return (all(text is None or isinstance(text, str) for text in manifest["writes"].values())
                and all(isinstance(size, int) and size >= 0 and isinstance(text, str)
                        for size, text in manifest["appends"].values())
                and all(isinstance(rel, str) and rel and not os.path.isabs(rel) and ".." not in Path(rel).parts
                        for rel in paths))
    except (TypeError, KeyError, ValueError, AttributeError):
        return False


def recover(root: Path):
    """Finish an action whose manifest a killed process left behind; clear stray temp files."""
    private = root / PRIVATE
    manifest_path = private / MANIFEST
    if manifest_path.exists():
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except ValueError:
            manifest = None  # torn before the commit point: the action never happened
        if manifest is not None:
            if not _well_formed(manifest):
                raise BadInput(f"{PRIVATE}/{MANIFEST}: the record of an unfinished action is damaged",
                               fix=f"delete {PRIVATE}/{MANIFEST}, then check the files with `narateer check`")
            apply(root, manifest)
        os.unlink(manifest_path)
    try:
        names = os.listdir(private)
    except FileNotFoundError:
        return
    for name in names:
        if name.startswith("write-") and name.endswith(".tmp"):
            try:
                os.unlink(private / name)
            except FileNotFoundError:
                pass
