"""G-LOG-5 in d20-cards: `new` (and `new --from --count`) is logged in the campaign log, so undo removes it."""

from __future__ import annotations

import json

from tests.conftest import ok, run


def test_new_and_copies_are_logged_and_undone(tmp_path):
    root = tmp_path / "c"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    ok(root, "new", "rook", "--attr", "fin=3", "--hp", "12")
    ok(root, "new", "thug", "--from", "bandit", "--count", "2")
    lines = (root / "encounters" / "campaign.log.yaml").read_text().splitlines()
    assert [(e["command"], e["actor"]) for e in map(lambda line: json.loads(line[2:]), lines)] == [
        ("new", "rook"), ("new", "thug-1")]
    assert ok(root, "verify", "campaign")["ok"] is True
    ok(root, "undo")
    assert not (root / "characters" / "thug-1.yaml").exists() and not (root / "characters" / "thug-2.yaml").exists()
    ok(root, "undo")
    assert not (root / "characters" / "rook.yaml").exists()
