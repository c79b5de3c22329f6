"""The merge driver with d20-cards counters (G-MERGE-1, G-MERGE-2): two clones each spend AP and a charge
and deal damage; a real `git pull` adds both sides' changes to `hp.current`, `resources.ap.current` and
`charges.*`, and the forked log still verifies."""

from __future__ import annotations

import shutil

import pytest
from ruamel.yaml import YAML

from tests.conftest import json_error, ok, run
from tests.store.test_git_trust import git, repo

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _values(root, cid):
    doc = YAML(typ="safe").load((root / "characters" / f"{cid}.yaml").read_text())
    return doc["hp"]["current"], doc["resources"]["ap"]["current"], doc.get("charges") or {}


def _two_clones(tmp_path):
    a = tmp_path / "a"
    assert run(None, "init", str(a), "--system", "d20-cards", "--example").code == 0
    mira = a / "characters" / "mira.yaml"
    text = mira.read_text().replace("resources: {ap: {current: 3, max: 3}}", "resources: {ap: {current: 5, max: 5}}")
    mira.write_text(text.replace("charges: {}", "charges: {stun-word: 2}"))
    assert _values(a, "mira") == (30, 5, {"stun-word": 2})
    repo(a)
    ok(a, "git-setup")
    ok(a, "encounter", "new", "fight", "mira", "bandit")
    ok(a, "turn", "start", "mira")
    git(a, "add", "-A")
    git(a, "commit", "-qm", "fight")
    b = tmp_path / "b"
    git(tmp_path, "clone", "-q", str(a), str(b))
    ok(b, "git-setup")
    return a, b


def test_two_clones_spending_ap_charges_and_hp_keep_both_spends(tmp_path):
    a, b = _two_clones(tmp_path)
    stun = ("act", "mira", "stun-word", "--target", "bandit", "--save-faces", "bandit=8")  # W-6: 10 < 11, 6 damage
    for clone, extra in ((a, ("damage", "mira", "4")), (b, ("damage", "bandit", "1"))):
        ok(clone, *stun)
        ok(clone, *extra)
        git(clone, "add", "-A")
        git(clone, "commit", "-qm", "play")
    assert _values(a, "mira") == (26, 3, {"stun-word": 1}) and _values(b, "mira") == (30, 3, {"stun-word": 1})
    assert _values(a, "bandit")[0] == 14 and _values(b, "bandit")[0] == 13
    git(a, "pull", "-q", "--no-rebase", str(b), "main")
    # base + both changes: HP 30 - 4, AP 5 - 2 - 2, charges 2 - 1 - 1; bandit 20 - 6 - 6 - 1
    assert _values(a, "mira") == (26, 1, {"stun-word": 0})
    assert _values(a, "bandit")[0] == 7
    assert "<<<<<<<" not in (a / "characters" / "mira.yaml").read_text()
    assert run(a, "check").code == 0
    assert ok(a, "verify")["ok"] is True  # both branches continue from their fork
    # the merged sheet plays on: a third stun-word is refused for want of charges (R-CARD-CD-4)
    r = run(a, "--json", *stun)
    assert r.code == 3 and json_error(r, 3)["rule"] == "R-CARD-CD-4"
    ok(a, "damage", "mira", "1")
    entries = ok(a, "encounter", "log")["entries"]
    assert entries[-2]["command"] == "merge" and entries[-1]["parent"] == entries[-2]["id"]
    assert ok(a, "verify")["ok"] is True and run(a, "check").code == 0
