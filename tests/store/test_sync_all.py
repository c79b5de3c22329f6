"""The commit point syncs the staged files and the manifest all at once (store/txn.sync_all): every one
is synced before it returns, and a failure of any one is the commit's failure (nothing is placed)."""

from __future__ import annotations

import os

import pytest

from narateer_cli.store import txn


def test_every_descriptor_is_synced_and_a_failure_is_raised(tmp_path, monkeypatch):
    fds = [os.open(tmp_path / f"f{i}", os.O_WRONLY | os.O_CREAT) for i in range(3)]
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (real(fd), synced.append(fd)))
    try:
        txn.sync_all(fds)
        assert sorted(synced) == sorted(fds)
        closed = os.open(tmp_path / "gone", os.O_WRONLY | os.O_CREAT)
        os.close(closed)
        for order in ([fds[0], closed, fds[1]], [closed, fds[2]]):
            with pytest.raises(OSError):
                txn.sync_all(order)
    finally:
        for fd in fds:
            os.close(fd)


def test_a_full_disk_at_the_commit_point_writes_nothing(tmp_path, monkeypatch):
    from tests.conftest import ok, run, snapshot

    camp = tmp_path / "camp"
    assert run(None, "init", str(camp), "--example").code == 0
    ok(camp, "roll", "selka", "stealth", "--dr", "3")
    before = snapshot(camp)

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    r = run(camp, "roll", "selka", "stealth", "--dr", "3")
    assert r.code == 2 and "cannot save the action" in r.err and "nothing was written" in r.err
    monkeypatch.undo()
    assert snapshot(camp) == before
