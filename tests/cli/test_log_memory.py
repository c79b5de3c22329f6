"""G-LOG-3 and Part 9 "Speed, third round": `verify`, `report`, a full `encounter log` and its `--json` read a
log one line at a time in every game, so what they hold does not grow with the log. Measured with
tracemalloc in process (deterministic, unlike wall time or RSS): the peak over a log ten times longer is
within 1.5x (holding the log would make it several times larger).

What these commands keep for the newest entries only (dice snapshots, parent links and Narateer's
activations in verify, the d20-cards sheet values, the rows of one table chunk) is made small here, so that both logs fill it and the
logs can stay short enough for tracemalloc to read them quickly; scripts/stream_measure.py measures whole
processes at 10,000 and 100,000 entries."""

from __future__ import annotations

import contextlib
import io
import shutil
import tracemalloc

import pytest

from narateer_cli.cli import main

from ..biglogs import PLAYS, BigLog

SMALL, LARGE = 200, 2_000
WINDOW = 50  # entries kept by each bounded window during these tests
COMMANDS = {
    "verify": ["verify"],
    "report": ["report"],
    "encounter log": ["encounter", "log"],
    "encounter log --json": ["--json", "encounter", "log"],
}


class Sink(io.TextIOBase):
    """stdout that keeps only how much was written and its last line."""

    def __init__(self):
        self.size, self.tail = 0, ""

    def writable(self):
        return True

    def write(self, text):
        self.size += len(text)
        self.tail = (self.tail + text)[-200:]
        return len(text)


def peak(root, args) -> tuple[int, Sink]:
    """The peak of memory traced while `narateer ARGS` runs in the campaign at `root`, and its output."""
    out, err = Sink(), io.StringIO()
    tracemalloc.start()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(["--campaign", str(root), *args])
            except SystemExit as exc:
                assert not exc.code, err.getvalue()
        return tracemalloc.get_traced_memory()[1], out
    finally:
        tracemalloc.stop()


@pytest.fixture(scope="module", params=sorted(PLAYS))
def logs(request, tmp_path_factory):
    """(campaign with a 2,000-entry log, the same with 20,000) of one game."""
    base = tmp_path_factory.mktemp(request.param)
    big = BigLog(base / "small", request.param)
    shutil.copytree(big.root, base / "large")
    big.grow(SMALL)
    large = BigLog.__new__(BigLog)
    large.__dict__.update(big.__dict__, root=base / "large", path=base / "large" / big.path.relative_to(big.root))
    large.grow(LARGE)
    for args in COMMANDS.values():  # imports and caches, before anything is measured
        peak(big.root, args)
    return big.root, large.root


@pytest.fixture
def small_windows(monkeypatch):
    from narateer_cli import stream
    from narateer_cli.store import history
    from narateer_cli.systems.d20_cards import verify
    from narateer_cli.systems.narateer.engine import verify as narateer_verify

    monkeypatch.setattr(history, "SNAPSHOTS", WINDOW)
    monkeypatch.setattr(history.Ids, "RUN", WINDOW)
    monkeypatch.setattr(verify, "AFTER_KEPT", WINDOW)
    monkeypatch.setattr(narateer_verify.Uses, "KEEP", WINDOW)
    monkeypatch.setattr(stream, "CHUNK", WINDOW)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_memory_stays_flat_as_the_log_grows(logs, command, small_windows):
    small, large = logs
    args = COMMANDS[command]
    low, low_out = peak(small, args)
    high, high_out = peak(large, args)
    if command == "verify":
        assert f"{LARGE} entries verified, no problems" in high_out.tail
    else:
        assert high_out.size > 5 * low_out.size  # every entry was read and shown
    assert high <= 1.5 * low, f"{command}: peak {high / 1e6:.1f} MB at {LARGE} entries, {low / 1e6:.1f} MB at {SMALL}"
