"""The players' view model (V-1, V-2) without a server: who the party is, what is left out for it,
and the log read from its tail."""

from __future__ import annotations

import json

import pytest

from narateer_cli.serve import page, view
from tests.systems.test_toy_system import coin, coin_camp  # noqa: F401 (fixtures)
from narateer_cli.store import loglines
from tests.conftest import ok


def test_party_from_config_and_pc_sheets():
    sheets = {"selka": {"pc": True}, "mira": {}, "thief": {"pc": "yes"}}
    assert view.party_ids({"party": ["mira"]}, sheets) == {"mira", "selka"}
    assert view.party_ids({}, sheets) == {"selka"}


def test_concealed_only_when_hidden_from_every_party_member_present():
    hidden = {"thief": {"selka": 4, "mira": 4}, "bandit": {"selka": 3}, "selka": {"sentry": 4}}
    ids = ["selka", "mira", "thief", "bandit", "sentry"]
    assert view.concealed_from({"selka", "mira"}, ids, hidden) == {"thief"}
    assert view.concealed_from({"selka", "mira", "kai"}, ids, hidden) == {"thief"}  # kai is not here
    assert view.concealed_from({"selka"}, ids, hidden) == {"thief", "bandit"}
    # no party member in the encounter: anyone hidden from anybody is left out (nothing leaks by default)
    assert view.concealed_from(set(), ids, hidden) == {"thief", "bandit", "selka"}


def test_conditions_with_rounds_left():
    assert view.conditions(["slowed"]) == [{"name": "slowed", "rounds": None}]
    assert view.conditions([{"name": "slowed", "rounds": 2}]) == [{"name": "slowed", "rounds": 2}]
    assert view.conditions({"prone": 1}) == [{"name": "prone", "rounds": 1}]


def test_party_model_leaves_out_the_hidden_thief_and_every_total(hidden_camp):
    party = view.snapshot(hidden_camp)
    text = json.dumps(party)
    assert "thief" not in text and "Cutpurse" not in text and "recorded" not in text
    assert [p["id"] for p in party["order"]] == ["selka", "mira"] and party["log"] == []
    guide = view.snapshot(hidden_camp, guide=True)
    assert [p["id"] for p in guide["order"]] == ["selka", "mira", "thief"]
    assert [e["command"] for e in guide["log"]] == ["encounter new", "turn start", "hide"]
    assert guide["last_check"]["faces"] == [2, 2] and guide["last_check"]["total"] == 4


def test_a_visible_hider_keeps_its_observers_but_not_its_total(camp):
    with open(camp / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write("party: [selka]\n")
    ok(camp, "encounter", "new", "alley", "selka", "mira", "thief")
    ok(camp, "turn", "start", "thief")
    ok(camp, "hide", "thief", "--from", "mira", "--boost", "1", "--faces", "2,2")
    party = view.snapshot(camp)
    thief = next(p for p in party["order"] if p["id"] == "thief")
    assert thief["hidden_from"] == ["mira"]
    hide = party["log"][-1]
    assert hide["command"] == "hide" and "4" not in hide["text"] and "mira" in hide["text"]
    assert party["last_check"] is None  # the hide's faces and total are the Guide's
    assert '"total": 4' not in json.dumps(party)


def test_last_lines_reads_the_tail(tmp_path):
    path = tmp_path / "x.log.yaml"
    path.write_text("".join(loglines.entry_line({"seq": i, "id": f"{i:012x}", "parent": f"{i - 1:012x}" if i > 1 else None,
                                                 "at": "2026-01-01T00:00:00Z", "command": "roll", "pad": "x" * 300})
                            for i in range(1, 2001)))
    lines = loglines.last_lines(path, "x", 12)
    assert [loglines.parse_line(raw.decode())["seq"] for raw in lines] == list(range(1989, 2001))
    assert loglines.last_lines(path, "x", 5000)[0].startswith(b'- {"seq": 1,')
    assert loglines.last_lines(tmp_path / "none.log.yaml", "none", 3) == []


def test_last_check_skips_an_undone_roll_and_finds_an_exchange_attack(camp):
    ok(camp, "encounter", "new", "brawl", "mira", "bandit")
    ok(camp, "turn", "start", "mira")
    ok(camp, "exchange", "mira", "bandit", "--weapon", "sword", "--response", "guard", "--boost", "1",
       "--response-boost", "1", "--faces", "2,1", "--response-faces", "1,0")
    ok(camp, "roll", "--force", "mira", "athletics", "--dr", "2", "--faces", "2")
    assert view.snapshot(camp)["last_check"]["skill"] == "athletics"
    ok(camp, "undo")
    model = view.snapshot(camp)
    check = model["last_check"]
    assert (check["command"], check["skill"], check["faces"], check["outcome"]) == ("exchange", "melee", [2, 1], "Success")
    assert [row["undone"] for row in model["log"]][-2:] == [True, False]


def test_a_system_without_view_hooks_is_served_by_the_host_default(coin_camp):
    """S-SYS-2 meets V-1: the coin add-on names no `view` hook; its counters show as pools and the
    chance of its last flip comes from its `chance` hook."""
    ok(coin_camp, "encounter", "new", "toss", "pim")
    ok(coin_camp, "roll", "pim", "--target", "1", "--coins", "2", "--faces", "heads,heads")
    with (coin_camp / "narateer.yaml").open("a") as config:
        config.write("party: [pim]\n")  # the party sees its own pools as numbers
    model = view.snapshot(coin_camp)
    assert model["system"] == "coin" and [p["id"] for p in model["order"]] == ["pim"]
    pools = {p["name"]: p["value"] for p in model["order"][0]["pools"]}
    assert pools == {"coins ready": 2, "coins spent": 1}  # a roll spends one coin (3 ready before)
    assert model["last_check"]["faces"] is not None and model["last_check"]["chance"] == "25%"
    html = page.encounter(model)
    assert "coins ready" in html and "25%" in html


def test_luck_series_counts_expected_and_actual_successes_and_skips_undone(coin_camp):
    from narateer_cli.serve import charts
    from narateer_cli.store.campaign import Campaign

    ok(coin_camp, "encounter", "new", "toss", "pim")
    ok(coin_camp, "roll", "pim", "--target", "1", "--coins", "2", "--faces", "heads,heads")  # 1/4, success
    ok(coin_camp, "roll", "pim", "--target", "0", "--coins", "1", "--faces", "tails")  # 1/2, failure
    ok(coin_camp, "roll", "pim", "--target", "0", "--coins", "1", "--faces", "heads")
    ok(coin_camp, "undo")
    campaign = Campaign(coin_camp)
    points = charts.series(coin_camp, campaign.system, campaign.rules)["pim"]
    assert [(str(e), a) for e, a in points] == [("1/4", 1), ("3/4", 1)]
    assert charts.series(coin_camp, campaign.system, campaign.rules, skip={"pim"}) == {}
    svg = charts.svg(points)
    assert svg.startswith("<svg") and "2 checks: 1 success, 0.8 expected" in svg


def test_a_secret_roll_shows_its_result_to_the_guide_only(hidden_camp):
    """P-SECRET-1 meets V-2: the party sees the commitment's entry as logged, the Guide the sealed result."""
    secrets = pytest.importorskip("narateer_cli.store.secrets")
    ok(hidden_camp, "turn", "end", "--next", "selka")
    ok(hidden_camp, "turn", "start", "selka")
    ok(hidden_camp, "roll", "selka", "athletics", "--dr", "2", "--faces", "2,2", "--boost", "1", "--secret")
    party, guide = view.snapshot(hidden_camp), view.snapshot(hidden_camp, guide=True)
    assert party["last_check"] is None and '"faces"' not in json.dumps(party["log"])
    assert guide["last_check"]["faces"] == [2, 2] and guide["last_check"]["skill"] == "athletics"
    sealed = list(loglines.entries(hidden_camp / "encounters" / "alley.log.yaml", "alley"))[-1]
    assert sealed["commitment"] and "faces" not in json.dumps(sealed)  # the log holds the commitment only
    assert secrets.read_record(hidden_camp, sealed["id"]) is not None  # what the Guide's view was read from


def test_d20_cards_turn_pools_hidden_condition_and_attack_roll(tmp_path):
    """The d20-cards system through its view hooks: whose `turn`, HP and AP as pools, `+hidden` hides
    a character from everyone else, and an attack's d20 is the last check."""
    from tests.conftest import run

    camp = tmp_path / "d20"
    assert run(None, "init", str(camp), "--system", "d20-cards", "--example").code == 0
    with open(camp / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write("party: [mira]\n")
    for argv in (["encounter", "new", "fight", "mira", "bandit", "hexer"], ["turn", "start", "mira"],
                 ["act", "mira", "strike", "--target", "bandit", "--faces", "11"], ["condition", "bandit", "+hidden"]):
        r = run(camp, *argv)
        assert r.code == 0, (argv, r.err)
    party, guide = view.snapshot(camp), view.snapshot(camp, guide=True)
    assert party["actor"] == "mira" and [p["id"] for p in party["order"]] == ["mira", "hexer"]
    assert "bandit" not in json.dumps(party).lower()
    pools = [(p["name"], p["value"], p["max"], p["draw"]) for p in party["order"][0]["pools"]]
    assert pools == [("HP", 30, 30, "bar"), ("AP", 1, 3, "dots")]
    assert party["last_check"] is None  # the strike names the bandit: the party's log leaves it out
    check = guide["last_check"]
    assert (check["faces"], check["total"], check["target"], check["outcome"]) == ([11], 15, 14, "Hit")
    assert guide["guide"]["concealed_from_party"] == ["bandit"]
    assert "AP" in page.encounter(party) and "1/3" in page.encounter(party)


def test_open_adventure_pools_and_its_check(tmp_path):
    """Open Adventure's view hook: its point pools and Wounds are pools, its nested faces one row of dice."""
    from tests.conftest import run

    camp = tmp_path / "oa"
    assert run(None, "init", str(camp), "--system", "open-adventure", "--example").code == 0
    for argv in (["encounter", "new", "hall", "bloodwind", "warheart", "goblin", "orc", "--reaction", "bloodwind=9",
                  "--reaction", "warheart=5"],
                 ["turn", "start"],
                 ["roll", "bloodwind", "strength", "--mo", "--specialization", "axes", "--vs", "goblin:body", "--faces", "4,7"]):
        r = run(camp, *argv)
        assert r.code == 0, (argv, r.err)
    model = view.snapshot(camp)
    assert model["actor"] == "bloodwind" and len(model["order"]) == 4
    from narateer_cli.store import yamlio

    sheet = yamlio.load_safe((camp / "characters" / "bloodwind.yaml").read_text(), "bloodwind")
    pools = {p["name"]: (p["value"], p["state"]) for p in model["order"][0]["pools"]}
    assert pools["body points"] == (sheet["points"]["body"], "left") and pools["wounds"] == (sheet["wounds"], "wounded")
    assert model["last_check"]["faces"] == [4, 7] and model["last_check"]["outcome"] in ("Success", "Failure")
    assert model["last_check"]["chance"].endswith("%")


@pytest.mark.parametrize("system", ["narateer", "open-adventure", "d20-cards"])
def test_T3_PARTY_every_example_has_a_party_and_inits_hint_names_its_characters(tmp_path, system):
    """T3-PARTY: each game's example campaign has a party (Open Adventure's `kind: pc` counts as the
    default `pc: true` does), so `serve --act` has players to give links to; `init`'s hint names characters
    of that game's own example, and the encounter it suggests starts."""
    import re
    import shlex

    from narateer_cli.store.campaign import Campaign
    from tests.conftest import run

    root = tmp_path / "camp"
    r = run(None, "init", str(root), "--system", system, "--example")
    assert r.code == 0, r.err
    party = view.whole_party(Campaign(root))
    assert party and all((root / "characters" / f"{cid}.yaml").exists() for cid in party)
    suggested = re.search(r"`narateer (encounter new [^`]+)`, e\.g\. `narateer (encounter new [^`]+)`", r.out)
    assert suggested, r.out
    words = shlex.split(suggested.group(2))
    assert set(words[3:]) & party, (words, party)
    assert run(root, *words).code == 0
