"""A failed fsync at the commit point is the commit's failure: nothing is placed (G-TRUST-5)."""

from __future__ import annotations

import os


def test_a_full_disk_at_the_commit_point_writes_nothing(tmp_path, monkeypatch):
    from tests.conftest import ok, run, snapshot

    camp = tmp_path / "camp"
    assert run(None, "init", str(camp), "--example").code == 0
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "3")
    before = snapshot(camp)

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    r = run(camp, "roll", "--force", "selka", "stealth", "--dr", "3")
    assert r.code == 2 and "cannot save the action" in r.err and "nothing was written" in r.err
    monkeypatch.undo()
    assert snapshot(camp) == before
