"""`stats` over long logs, on two cores (so `stats` over 100,000 entries takes under 1 s).

What an entry means to `stats` (luck.entry_events) does not depend on any other entry; only folding
those events into the sums (luck.Tally) needs log order. So when the logs are long and this process
runs no other thread, the logs' bytes are cut in two at the start of an entry line near the middle:
a forked child computes the second half's events into an unnamed temporary file while this process
computes and folds the first half's, then folds the child's, in order. The answer is the one a single
pass gives: should the child fail in any way (a broken line in its half, an interrupt), this process
reads the second half itself, with the line numbers of its messages counted from the start.
"""

from __future__ import annotations

import os
import sys
from typing import NamedTuple

MIN_BYTES = 8 << 20  # logs shorter than this are read in one process: a fork would cost more than it saves
BATCH = 4096  # events the child writes at a time
WINDOW = 4 << 20  # bytes after the middle searched for the start of an entry line


class Part(NamedTuple):
    """A log, or the part of it from byte `start` to `end` (None: its end); `number`: the line number before
    `start` (None: not counted yet)."""
    path: object
    log_id: str
    label: str
    start: int = 0
    end: int | None = None
    number: int | None = 0


def campaign_stats(root, system, rules, actor: str | None = None, encounter: str | None = None,
                   since: str | None = None) -> dict:
    """`luck.stats_record` over the campaign's logs (or one), as `stats` shows it. The cyclic collector
    waits meanwhile: what a scan makes (entries parsed from JSON, their events) holds no cycle, and is freed
    as it goes."""
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        return _stats(root, system, rules, actor, encounter, since)
    finally:
        if collecting:
            gc.enable()


def _stats(root, system, rules, actor, encounter, since) -> dict:
    from . import luck
    from .store import encounters

    marks = luck.stats_marks(system)
    parts = [Part(path, path.name[: -len(".log.yaml")], encounters.log_label(path))
             for path in luck.log_paths(root, encounter, system)]

    def events(chosen):
        return luck.entry_events(_entries(chosen, marks), system, rules, actor, encounter, since)

    tally = luck.Tally()
    halves = _halves(parts)
    if halves is None:
        tally.fold(events(parts))
        return tally.record(actor, encounter, since)
    first, second = halves
    children: list = []
    try:
        _start(events(second), children)
        tally.fold(events(first))
        folded = bool(children) and _fold_child(tally, children[0])
    except BaseException:
        for child in children:
            _stop(child)
        raise
    if not folded:
        tally.fold(events(second))
    return tally.record(actor, encounter, since)


def _entries(parts, marks):
    """(log id, entry) of each `Part`."""
    from .store import loglines

    for part in parts:
        number = _lines_before(part.path, part.start) if part.number is None else part.number
        with loglines.Snapshot(part.path, part.label, part.end) as log:
            for entry in log.entries(marks, part.start, number, damaged=loglines.warn(part.label)):
                yield part.log_id, entry


def _halves(parts) -> tuple[list, list] | None:
    """The logs cut in two at an entry line near the middle of their bytes (the second half's line
    numbers left to count), or None: read in one pass (short logs, another thread, no fork here)."""
    threading = sys.modules.get("threading")
    if not hasattr(os, "fork") or (threading is not None and threading.active_count() > 1):
        return None
    sizes = []
    for part in parts:
        try:
            sizes.append(os.stat(part.path).st_size)
        except OSError:
            return None  # missing or unreadable: the one pass says so
    if sum(sizes) < MIN_BYTES:
        return None
    middle, before = sum(sizes) * 9 // 20, 0  # the parent also folds the child's events: it reads a little less
    for index, size in enumerate(sizes):
        if before + size > middle:
            break
        before += size
    cut = _entry_start(parts[index].path, middle - before, sizes[index])
    if cut is None:
        return None
    whole = [part._replace(end=size) for part, size in zip(parts, sizes)]
    first = [*whole[:index], whole[index]._replace(end=cut)]
    second = [whole[index]._replace(start=cut, number=None), *whole[index + 1:]]
    return first, second


def _entry_start(path, offset: int, size: int) -> int | None:
    """The first byte at or after `offset` that starts a one-line entry (`- {` after a newline): every old
    block entry before it ends there. None when there is none within WINDOW bytes."""
    try:
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK)) as fh:
            fh.seek(max(0, offset - 1))
            window = fh.read(min(WINDOW, size - max(0, offset - 1)))
    except OSError:
        return None
    found = window.find(b"\n- {")
    if found < 0:
        return None
    cut = max(0, offset - 1) + found + 1
    return cut if 0 < cut < size else None


def _lines_before(path, start: int) -> int:
    """How many lines end before byte `start` (the line number of the line before it)."""
    if start == 0:
        return 0
    count = 0
    with open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK)) as fh:
        while start > 0:
            block = fh.read(min(1 << 20, start))
            if not block:
                break
            count += block.count(b"\n")
            start -= len(block)
    return count


def _start(events, children: list):
    """A forked child that writes `events` to an unnamed temporary file in batches, then exits 0 (any
    failure: 1); (its pid, the file) goes on `children` (nothing when no child could be started). Ctrl-C is
    blocked from before the fork until the child is on the list: the child is born with it blocked (this
    process stops it on an interrupt), so it never unwinds into this one's code, and this one always
    knows its child."""
    import pickle
    import signal
    import tempfile

    try:
        out = tempfile.TemporaryFile()
    except OSError:
        return
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
    except OSError:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        out.close()
        return
    if pid != 0:
        children.append((pid, out))
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        return
    code = 1  # the child: nothing of the parent's (buffers, exit handlers, caches) is flushed here
    try:
        batch = []
        for event in events:
            batch.append(event)
            if len(batch) >= BATCH:
                pickle.dump(batch, out, pickle.HIGHEST_PROTOCOL)
                batch = []
        pickle.dump(batch, out, pickle.HIGHEST_PROTOCOL)
        out.flush()
        code = 0
    except BaseException:
        pass
    finally:
        os._exit(code)


def _fold_child(tally, child) -> bool:
    """Fold the child's events once it has exited 0; False when it failed (or could not be waited for: a
    SIGCHLD ignored where this process was started lets the system reap it)."""
    import pickle

    pid, out = child
    with out:
        try:
            _, status = os.waitpid(pid, 0)
        except OSError:
            return False
        except BaseException:  # an interrupt while waiting: the child goes too
            _stop(child)
            raise
        if os.waitstatus_to_exitcode(status) != 0:
            return False
        out.seek(0)
        while True:
            try:
                batch = pickle.load(out)  # written by this process's own child, to a file only it holds
            except EOFError:
                return True
            tally.fold(batch)


def _stop(child):
    import signal

    pid, out = child
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass
    out.close()
