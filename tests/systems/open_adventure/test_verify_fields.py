"""S-SYS-6, H2-SHAPE-1: `verify` re-derives every field of a logged check that follows from its faces, its DS and
its declaration (margin, outcome, shortfall, the Effect's fields, the faces' text, the dice that exploded, the
method, who rolled, the mishap): a hand edit of any one of them is named, where `verify` used to pass it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ok, run

LOG = "encounters/campaign.log.yaml"

# (the roll, then each field of its logged check with a value it cannot hold)
ROLLS = {
    "failure": (("roll", "ezarel", "strength", "--ds", "3", "--faces", "2"),
                {"margin": 0, "outcome": "Success", "shortfall": 0, "effect": 1, "effect_source": "roll",
                 "effect_bonus": 0, "faces_text": "3", "exploded": [0], "method": "guess", "actor": "amicus"}),
    "critical failure": (("roll", "ezarel", "strength", "--ds", "3", "--faces", "1"),
                         {"outcome": "Failure", "margin": -1, "shortfall": 1}),
    "success with a stunt": (("roll", "ezarel", "strength", "--stunt", "--ds", "3", "--faces", "5"),
                             {"margin": 1, "outcome": "Critical Failure", "shortfall": 0, "effect_source": "compare",
                              "effect_bonus": "1", "faces_text": "5+1", "mishap": "a cut hand"}),
}


def _edited(root: Path, field: str, value) -> Path:
    lines = (root / LOG).read_text(encoding="utf-8").splitlines(keepends=True)
    entry = json.loads(lines[-1][2:])
    assert field in entry["result"], field
    entry["result"][field] = value
    lines[-1] = "- " + json.dumps(entry) + "\n"
    (root / LOG).write_text("".join(lines), encoding="utf-8")
    return root


@pytest.mark.parametrize("case", sorted(ROLLS))
def test_S_SYS_6_verify_names_a_hand_edit_of_any_derived_field(oa, tmp_path, case):
    import shutil

    args, edits = ROLLS[case]
    ok(oa, *args)
    assert ok(oa, "verify", "campaign")["ok"] is True
    for field, value in edits.items():
        root = tmp_path / f"edit-{field}"
        shutil.copytree(oa, root)
        r = run(_edited(root, field, value), "--json", "verify", "campaign")
        assert r.code == 1 and "entry 1 (roll)" in r.json["problem"], (field, value, r.out, r.err)
