"""H2-REFUSE-1: a writer whose private folder went away under it (after it took the lock, before its action
was saved) refuses in one line and writes nothing; the next command makes the folder anew."""

from __future__ import annotations

import shutil

import pytest

from narateer_cli.store import private, txn

from ..conftest import run, snapshot


@pytest.mark.parametrize("in_git", [False, True], ids=["folder", "git"])
def test_H2_REFUSE_1_a_writer_whose_private_folder_vanished_refuses_in_one_line(encounter_camp, monkeypatch,
                                                                                 in_git):
    if in_git:
        assert run(None, "init", str(encounter_camp.parent / "g"), "--example", "--git").code == 0
        encounter_camp = encounter_camp.parent / "g"
    assert run(encounter_camp, "wound", "selka").code == 0  # the private folder is there, with undo records
    before = snapshot(encounter_camp)
    saved = txn.Transaction.check_targets

    def vanish(self):
        shutil.rmtree(private.location(self.root))
        return saved(self)

    monkeypatch.setattr(txn.Transaction, "check_targets", vanish)
    r = run(encounter_camp, "wound", "selka")
    assert r.code == 2 and r.err.count("\n") == 1, r.err
    assert "internal error" not in r.err and "private folder" in r.err and "nothing was written" in r.err
    assert snapshot(encounter_camp) == before
    monkeypatch.setattr(txn.Transaction, "check_targets", saved)
    assert run(encounter_camp, "wound", "selka").code == 0
