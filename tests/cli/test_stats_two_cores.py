"""`stats` over long logs on two cores (narateer_cli/luck_scan.py): a forked child
reads the second half of the logs' bytes while this process reads the first. Whatever the cut, the
answer is the one a single pass over every line of every log gives, in every game; an undo in one half
of what the other half logged is taken back; a broken line in the child's half is named with its own
line number."""

from __future__ import annotations

import pytest

from narateer_cli import luck, luck_scan
from narateer_cli.errors import BadInput
from narateer_cli.store.campaign import Campaign

from ..biglogs import LOG, PLAYS, BigLog
from ..conftest import ok


@pytest.fixture(scope="module", params=list(PLAYS))
def grown(request, tmp_path_factory):
    big = BigLog(tmp_path_factory.mktemp(request.param) / "camp", request.param)
    big.grow(400)
    return big


def one_pass(root):
    """Every line of every log parsed, in one process: the reference."""
    camp = Campaign(root)
    return luck.stats_record(luck.campaign_entries(root, None, camp.system), camp.system, camp.rules)


@pytest.fixture
def two_cores(monkeypatch):
    """campaign_stats with the child forced (no size floor); fails when no child ran."""
    started = []
    start = luck_scan._start
    monkeypatch.setattr(luck_scan, "MIN_BYTES", 0)
    monkeypatch.setattr(luck_scan, "_start", lambda events, children: started.append(1) or start(events, children))

    def stats(root):
        started.clear()
        camp = Campaign(root)
        out = luck_scan.campaign_stats(root, camp.system, camp.rules)
        assert started, "no child was started"
        return out
    return stats


def test_two_cores_give_what_one_pass_gives(grown, two_cores):
    expected = one_pass(grown.root)
    assert sum(row["checks"] for row in expected["actors"]) > 50
    assert two_cores(grown.root) == expected


@pytest.mark.parametrize("share", [1, 5, 10, 15, 19])
def test_any_cut_gives_the_same_answer(grown, two_cores, monkeypatch, share):
    real = luck_scan._entry_start
    size = (grown.root / LOG).stat().st_size
    monkeypatch.setattr(luck_scan, "_entry_start", lambda path, offset, total: real(path, size * share // 20, total))
    assert two_cores(grown.root) == one_pass(grown.root)


def test_an_undo_in_the_childs_half_takes_back_an_entry_of_the_first(tmp_path, two_cores, monkeypatch):
    big = BigLog(tmp_path / "camp", "narateer")
    big.grow(60)
    before = one_pass(big.root)
    ok(big.root, "--seed", "4", "roll", "--force", "selka", "observation", "--dr", "3")
    ok(big.root, "undo")
    log = big.root / LOG
    last = log.read_bytes().rstrip(b"\n").rfind(b"\n") + 1  # the undo alone is the child's half
    monkeypatch.setattr(luck_scan, "_entry_start", lambda path, offset, total: last)
    assert one_pass(big.root) == before
    assert two_cores(big.root) == before


def test_a_broken_line_in_the_childs_half_is_named_at_its_line(tmp_path, two_cores, monkeypatch, capfd):
    """A damaged line is passed over and named at its line (H2-SHAPE-1), whichever core reads it: the two-core
    answer and its warning are the one pass's."""
    big = BigLog(tmp_path / "camp", "narateer")
    big.grow(60)
    log = big.root / LOG
    with open(log, "a", encoding="utf-8") as fh:
        fh.write('- {"command": "undo", broken\n')
    lines = len(log.read_text(encoding="utf-8").splitlines())
    camp = Campaign(big.root)
    marks = luck.stats_marks(camp.system)
    one = luck.stats_record(luck.campaign_entries(big.root, None, camp.system, marks), camp.system, camp.rules)
    said_once = capfd.readouterr().err
    monkeypatch.setattr(luck_scan, "MIN_BYTES", 0)
    two = luck_scan.campaign_stats(big.root, camp.system, camp.rules)
    said_twice = capfd.readouterr().err
    assert f"{LOG}:{lines}:" in said_once and "passed over" in said_once
    assert said_twice == said_once
    assert two == one


def test_a_failing_child_leaves_the_answer_whole(grown, two_cores, monkeypatch):
    """The child cannot write its events (a full disk, say): this process reads the second half itself."""
    import pickle

    def full(*args, **kwargs):
        raise OSError("no room")

    monkeypatch.setattr(pickle, "dump", full)
    assert two_cores(grown.root) == one_pass(grown.root)


def test_a_child_the_system_reaps_leaves_the_answer_whole(grown, two_cores):
    """Started with SIGCHLD ignored, the system reaps the child and it cannot be waited for: this process
    reads the second half itself."""
    import signal

    old = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        got = two_cores(grown.root)
    finally:
        signal.signal(signal.SIGCHLD, old)
    assert got == one_pass(grown.root)
