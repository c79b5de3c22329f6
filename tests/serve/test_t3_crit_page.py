"""T3-CRIT on the page: a d20 creature in Critical Condition carries the mark beside its name on the party's
and the Guide's screens; when the party sees no NPC hit points, the party's page does not show an NPC's mark."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ok, run

from .conftest import Server

pytest.importorskip("uvicorn", reason="the serve extra is not installed: pip install -e '.[test,serve]'")

MARK = '<span class="cond mark">Critical Condition</span>'


def _row(html: str, cid: str) -> str:
    start = html.index(f'id="p-{cid}"')
    return html[start:html.index("</li>", start)]


@pytest.fixture
def fight(tmp_path):
    root = tmp_path / "d20"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    with open(root / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write("party: [mira, tor]\n")
    ok(root, "encounter", "new", "fight", "mira", "bandit")
    ok(root, "turn", "start", "mira")
    ok(root, "damage", "mira", "30")  # HP 0
    ok(root, "damage", "bandit", "25")  # HP -5
    return root


def test_T3_CRIT_the_page_marks_critical_condition(fight):
    with Server(fight) as srv:
        status, _, html = srv.get("/")
        assert status == 200 and MARK in _row(html, "mira") and MARK in _row(html, "bandit")
        data = json.loads(srv.get("/data")[2])
        assert {row["id"]: row["marks"] for row in data["order"]} == {"mira": ["Critical Condition"],
                                                                      "bandit": ["Critical Condition"]}
    ok(fight, "heal", "mira", "5")
    with Server(fight) as srv:
        assert MARK not in _row(srv.get("/")[2], "mira")


def test_T3_CRIT_a_hidden_npc_pool_hides_its_mark_from_the_party(fight):
    with open(fight / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write("party_sees: {npc_hp: hidden}\n")
    with Server(fight) as srv:
        html = srv.get("/")[2]
        assert MARK in _row(html, "mira") and MARK not in _row(html, "bandit")
        guide = srv.get(f"/guide?token={srv.token}")[2]
        assert MARK in _row(guide, "bandit")
