"""The players' page in words (V-7) and explaining itself (V-8), through its view model and its HTML:
each game's scene (tests/serve/scenes.py) as the party and the Guide see it."""

from __future__ import annotations

import json
import re

from html import escape

import pytest

from narateer_cli.serve import page, view
from tests.conftest import ok, run

from . import scenes

RAW = re.compile(r"\b(True|False|None)\b|[{}]|\[\]|'\w+': ")  # a Python repr or a dict where words belong
ENTRY_ID = re.compile(r"\b[0-9a-f]{12}\b")


@pytest.fixture(params=sorted(scenes.SCENES))
def scene(request, tmp_path):
    return request.param, scenes.SCENES[request.param](tmp_path / request.param)


def _cli_log(camp) -> str:
    r = run(camp, "encounter", "log")
    assert r.code == 0, r.err
    return r.out


def test_V7_each_party_row_is_the_sentence_encounter_log_prints(scene):
    name, camp = scene
    said = _cli_log(camp)
    rows = view.snapshot(camp)["log"]
    assert rows
    for row in rows:
        text = row["text"]
        assert text and not text.rstrip().endswith(":"), row  # no empty `turn start:` line
        assert not RAW.search(text), row
        assert not ENTRY_ID.search(text), row  # no raw ids, after undo neither
        if row["secret"]:
            assert text == view.SECRET
        elif row["command"] != "undo":
            assert text in said, (text, said)


def test_V7_a_secret_roll_reads_the_guide_rolled_in_secret_and_nothing_more(tmp_path):
    camp = scenes.narateer(tmp_path / "camp")
    party, guide = view.snapshot(camp), view.snapshot(camp, guide=True)
    secret = [row for row in party["log"] if row["secret"]]
    assert len(secret) == 2  # the undone one and the last one
    assert all(row["text"] == view.SECRET and row["actor"] is None and row["command"] is None for row in secret)
    party_text = json.dumps(party) + page.encounter(party)
    assert "observation" not in party_text and "DR 3" not in party_text  # what the Guide checked
    # the undo names the secret entry by its number and by what the party was shown for it
    undo = next(row for row in party["log"] if row["command"] == "undo")
    assert undo["text"] == f"undid entry {secret[0]['seq']}: {view.SECRET}"
    # the Guide reads the roll in words, marked secret, here and as the last check; the undone one's sealed record
    # went with the undo (P2-SEAL-4), so the Guide too reads it as sealed
    marked = [row for row in guide["log"] if row["secret"]]
    assert [row["seq"] for row in marked] == [row["seq"] for row in secret]
    assert "observation" in marked[-1]["text"].lower() and "sealed until unveiled" in marked[0]["text"]
    assert guide["last_check"]["secret"] is True and guide["last_check"]["skill"] == "observation"
    guide_undo = next(row for row in guide["log"] if row["command"] == "undo")
    assert guide_undo["text"] == f"undid entry {marked[0]['seq']}: {marked[0]['text']}"
    assert page.encounter(guide).count(page.SECRET_MARK) == 3  # two rows and the last check's heading
    assert page.SECRET_MARK not in page.encounter(party)  # the party's rows say it in words


def test_V7_an_exchange_shows_both_rolls_damage_and_wound(tmp_path):
    camp = scenes.narateer(tmp_path / "camp")
    check = view.snapshot(camp)["last_check"]  # the party's: the exchange (the secret roll after it is the Guide's)
    assert check["command"] == "exchange"
    assert [(r["actor"], r["faces"]) for r in check["rolls"]] == [("mira", [0]), ("bandit", [2])]
    assert "damage 2" in check["words"] and "wound" in check["words"]
    html = page._last_check(check, view.snapshot(camp))
    assert html.count("class=\"roll\"") == 2 and "Mira" in html and "Bandit" in html and "damage 2" in html


def test_V7_d20_and_open_adventure_show_every_roll_of_their_last_check(tmp_path):
    d20 = view.snapshot(scenes.d20_cards(tmp_path / "d20"))["last_check"]
    assert [(r["skill"], r["faces"], r["outcome"]) for r in d20["rolls"]] == [
        ("Hex Bolt vs mira", [14], "Hit"), ("Concentration on ward", [3], "Dropped")]
    html = page._last_check(d20)
    assert "<span class=\"face\">3</span>" in html and "class=\"pip\"" not in html  # a d20's 3 is a number
    oa = view.snapshot(scenes.open_adventure(tmp_path / "oa"))["last_check"]
    assert [(r["actor"], r["faces"]) for r in oa["rolls"]] == [("warheart", [3, 4]), ("orc", [2, 5])]
    assert oa["rolls"][0]["target_label"] == "DS 7"


def test_V8_a_legend_for_every_pool_and_die_drawn(scene):
    name, camp = scene
    for guide in (False, True):
        model = view.snapshot(camp, guide=guide)
        drawn = {("dot", s) for row in model["order"] for s in (row.get("dice") or {})}
        drawn |= {("pool", p["name"]) for row in model["order"] for p in row["pools"]}
        explained = {("dot", i["state"]) for i in model["legend"] if "names" not in i}
        explained |= {("pool", n) for i in model["legend"] for n in i.get("names") or ()}
        assert drawn and drawn <= explained, (drawn - explained)
        html = page.encounter(model)
        assert "id=\"legend\"" in html and all(i["text"] in html for i in model["legend"])


def test_V8_hp_is_a_bar_with_numbers_for_every_creature_at_any_size(tmp_path):
    camp = scenes.d20_cards(tmp_path / "d20")
    model = view.snapshot(camp, guide=True)
    for row in model["order"]:
        hp = next(p for p in row["pools"] if p["name"] == "HP")
        html = page._pool(hp)
        assert hp["draw"] == "bar" and "role=\"meter\"" in html, row["id"]
        assert f"aria-valuenow=\"{hp['value']}\"" in html and f"<b>{hp['value']}/{hp['max']}</b>" in html
    assert any(p["max"] > page.DOT_LIMIT for row in model["order"] for p in row["pools"] if p["name"] == "HP")


def test_V8_open_adventure_wounds_are_drawn_apart_from_points(tmp_path):
    camp = scenes.open_adventure(tmp_path / "oa")
    model = view.snapshot(camp)
    bloodwind = next(row for row in model["order"] if row["id"] == "bloodwind")
    pools = {p["name"]: p for p in bloodwind["pools"]}
    wounds, body = page._pool(pools["wounds"]), page._pool(pools["body points"])
    assert wounds.count("dot wounded") == pools["wounds"]["value"] == 2
    assert "dot wounded" not in body and body.count("dot left") == pools["body points"]["value"]


def test_V8_a_pool_past_twenty_is_drawn_alike_with_a_count_of_the_rest():
    html = page._pool({"name": "coins", "value": 23, "draw": "dots"})
    assert html.count("class=\"dot left\"") == page.DOT_LIMIT and "+3" in html and "<b>23</b>" in html


def test_V1_conditions_keep_their_rounds_left(tmp_path):
    camp = scenes.narateer(tmp_path / "camp")
    bandit = next(row for row in view.snapshot(camp)["order"] if row["id"] == "bandit")
    assert {"name": "stunned", "rounds": 2} in bandit["conditions"]
    assert "stunned \u00b7 2 rounds left" in page.encounter(view.snapshot(camp))
    for make, who, name in ((scenes.d20_cards, "bandit", "immobilized"), (scenes.open_adventure, "orc", "stunned")):
        model = view.snapshot(make(tmp_path / who))
        row = next(r for r in model["order"] if r["id"] == who)
        assert any(c["name"] == name and isinstance(c["rounds"], int) and c["rounds"] > 0 for c in row["conditions"])


def test_V4_the_luck_page_has_a_legend_and_counts_one_check(camp):
    from narateer_cli.serve import charts
    from narateer_cli.store.campaign import Campaign

    ok(camp, "encounter", "new", "solo", "selka")
    ok(camp, "turn", "start", "selka")
    ok(camp, "roll", "--force", "selka", "athletics", "--dr", "2", "--faces", "2")
    campaign = Campaign(camp)
    drawn = charts.charts(camp, campaign.system, campaign.rules)
    html = page.stats("Luck", drawn)
    assert "1 check:" in html and "1 checks" not in html
    assert "id=\"legend\"" in html and all(escape(text) in html for _, text in charts.LEGEND)


def _set_hp(camp, creature: str, now: int, wanted: int):
    ok(camp, *(("damage", creature, str(now - wanted)) if now >= wanted else ("heal", creature, str(wanted - now))))


def _hp_seen(camp, guide: bool = False) -> dict:
    return {row["id"]: next((p for p in row["pools"] if p["name"] == "HP"), None)
            for row in view.snapshot(camp, guide=guide)["order"]}


def test_T3_NPC_the_party_sees_an_npcs_hp_as_a_band_and_the_guide_sees_the_numbers(tmp_path):
    """T3-NPC: by default a creature outside the party shows its HP as a band (unhurt, hurt above half,
    bloodied at half or less, down at 0 or below), with no number in the party's view model or page; the
    party's own HP and the Guide's screen keep the numbers."""
    camp = scenes.d20_cards(tmp_path / "d20")
    full = {c: run(camp, "--json", "show", c).json["hp"] for c in ("bandit", "hexer")}
    _set_hp(camp, "hexer", full["hexer"]["current"], full["hexer"]["max"] // 2)  # exactly half left
    _set_hp(camp, "bandit", full["bandit"]["current"], full["bandit"]["max"] // 2 + 1)  # one above half
    seen, guide = _hp_seen(camp), _hp_seen(camp, guide=True)
    assert seen["mira"]["draw"] == "bar" and seen["mira"]["value"] == guide["mira"]["value"]  # one of the party
    assert seen["hexer"] == {"name": "HP", "band": "bloodied", "draw": "band"}
    assert seen["bandit"]["band"] == "hurt"
    assert "value" in guide["hexer"] and guide["hexer"]["value"] == full["hexer"]["max"] // 2
    html = page.encounter(view.snapshot(camp))
    assert "bloodied" in html and f"{full['hexer']['max'] // 2}/{full['hexer']['max']}" not in html
    ok(camp, "damage", "hexer", str(full["hexer"]["max"]))
    assert _hp_seen(camp)["hexer"]["band"] == "down"


@pytest.mark.parametrize("chosen", ["exact", "hidden"])
def test_T3_NPC_the_guide_chooses_exact_numbers_or_nothing(tmp_path, chosen):
    camp = scenes.d20_cards(tmp_path / "d20")
    with (camp / "narateer.yaml").open("a") as config:
        config.write(f"party_sees: {{npc_hp: {chosen}}}\n")
    seen = _hp_seen(camp)
    if chosen == "exact":
        assert seen["hexer"]["draw"] == "bar" and isinstance(seen["hexer"]["value"], int)
    else:
        assert seen["hexer"] is None and seen["bandit"] is None and seen["mira"]["draw"] == "bar"
    assert run(camp, "check").out.strip() == "campaign ok"


def test_T3_NPC_a_misspelt_choice_is_named_by_check_and_the_page_keeps_the_band(tmp_path):
    camp = scenes.d20_cards(tmp_path / "d20")
    with (camp / "narateer.yaml").open("a") as config:
        config.write("party_sees: {npc_hp: exakt}\n")
    r = run(camp, "check")
    assert r.code == 1 and "party_sees.npc_hp must be one of exact, band, hidden" in r.out + r.err, r.out + r.err
    assert "did you mean exact?" in r.out + r.err
    assert _hp_seen(camp)["hexer"]["draw"] == "band"


def _ap_seen(camp) -> dict:
    return {row["id"]: next((p for p in row["pools"] if p["name"] == "AP"), None)
            for row in view.snapshot(camp)["order"]}


@pytest.mark.parametrize("chosen", ["band", "hidden"])
def test_T3_NPC_an_npcs_action_points_are_no_health_band(tmp_path, chosen):
    """T3-NPC: only what measures harm (hit points) is put in a band or hidden: a creature's action points,
    spent in plain sight and refreshed each turn, keep their dots on the party's page, never "bloodied"."""
    camp = scenes.d20_cards(tmp_path / "d20")
    with (camp / "narateer.yaml").open("a") as config:
        config.write(f"party_sees: {{npc_hp: {chosen}}}\n")
    guide = {row["id"]: row for row in view.snapshot(camp, guide=True)["order"]}
    seen = _ap_seen(camp)
    for npc in ("bandit", "hexer"):
        ap = next(p for p in guide[npc]["pools"] if p["name"] == "AP")
        assert seen[npc] is not None and seen[npc]["draw"] == "dots" and "band" not in seen[npc], seen[npc]
        assert seen[npc]["value"] == ap["value"] and seen[npc]["max"] == ap["max"]
    html = page.encounter(view.snapshot(camp))
    assert "AP of a creature outside the party" not in html
