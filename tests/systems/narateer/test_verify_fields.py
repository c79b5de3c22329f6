"""S-SYS-6, H2-SHAPE-1: a Narateer roll's logged check repeats its declaration (who rolled, the skill, a
reaction or not, the discounts and fee, the kind of target, an Edge the declaration allows): `verify` names a
hand edit of any of them, where it used to pass it."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import ok, run

LOG = "encounters/campaign.log.yaml"
EDITS = {"actor": "kai", "skill": "melee", "reaction": True, "discount_base": 1, "discount_boost": 1, "fee": 1,
         "target_source": "readiness", "edge": "disadvantage"}


@pytest.mark.parametrize("field", sorted(EDITS))
def test_S_SYS_6_verify_names_a_check_that_does_not_repeat_its_declaration(camp, tmp_path, field):
    ok(camp, "roll", "selka", "athletics", "--dr", "2", "--faces", "2", "--force")
    assert ok(camp, "verify", "campaign")["ok"] is True
    root = tmp_path / "edited"
    shutil.copytree(camp, root)
    lines = (root / LOG).read_text(encoding="utf-8").splitlines(keepends=True)
    entry = json.loads(lines[-1][2:])
    assert field in entry["result"] and entry["result"][field] != EDITS[field]
    entry["result"][field] = EDITS[field]
    lines[-1] = "- " + json.dumps(entry) + "\n"
    (root / LOG).write_text("".join(lines), encoding="utf-8")
    r = run(root, "--json", "verify", "campaign")
    assert r.code == 1 and "(roll)" in r.json["problem"], (r.out, r.err)
