"""S-SYS-2: a third-party system plugs in through the `narateer.systems` entry point group alone.

The coin game lives in tests/systems/toy/ as an installed distribution would:
its package beside a dist-info whose entry_points.txt registers it. Nothing
outside that folder knows about it.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from narateer_cli import systems
from tests.conftest import Steady, matches_golden, ok, refused, run, snapshot

TOY = Path(__file__).resolve().parent / "toy"
GOLDEN = TOY / "golden"


def _forget_coin():
    systems._LOADED.pop("coin", None)
    for name in [m for m in sys.modules if m == "coin_system" or m.startswith("coin_system.")]:
        del sys.modules[name]


@pytest.fixture
def coin(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(TOY))
    importlib.invalidate_caches()
    yield
    _forget_coin()


@pytest.fixture
def coin_camp(coin, tmp_path):
    root = tmp_path / "coins"
    r = run(None, "init", str(root), "--system", "coin", "--example")
    assert r.code == 0, r.err
    assert "system: coin\n" in (root / "narateer.yaml").read_text()
    assert (root / "characters" / "pim.yaml").exists()
    return root


def test_the_entry_point_is_looked_up_only_for_a_name_not_built_in(coin):
    assert "coin" in systems.installed()
    assert systems.load_system("coin").title == "Coin"
    assert "coin_system" in sys.modules


def test_without_the_distribution_the_name_is_unknown(tmp_path):
    r = run(None, "init", str(tmp_path / "c"), "--system", "coin")
    assert r.code == 2 and "unknown rule system 'coin'" in r.err


def test_systems_lists_it_as_an_add_on(coin_camp):
    rows = {s["name"]: s for s in ok(coin_camp, "systems")["systems"]}
    assert rows["coin"] == {"name": "coin", "title": "Coin", "summary": "Flip coins, count heads, beat the target.",
                            "builtin": False, "current": True}
    assert rows["narateer"]["current"] is False


def test_roll_spends_a_coin_and_counts_heads(coin_camp):
    data = ok(coin_camp, "roll", "pim", "--target", "1", "--coins", "3", "--faces", "heads,tails,heads")
    assert (data["total"], data["success"], data["dice_after"]) == (2, True, {"ready": 2, "spent": 1})
    assert (coin_camp / "characters" / "pim.yaml").read_text() == "name: Pim\ncoins: {ready: 2, spent: 1}\n"


def test_odds_are_exact(coin_camp):
    assert ok(coin_camp, "odds", "3", "--target", "1")["exact"] == "1/2"
    assert ok(coin_camp, "odds", "2", "--target", "0")["exact"] == "3/4"


def test_its_own_verb_runs_and_another_systems_verb_points_back(coin_camp):
    assert ok(coin_camp, "call", "tails", "--faces", "h")["won"] is False
    err = refused(coin_camp, 2, "hide", "pim", "--from", "x", rule="S-SYS-3")
    assert err == ("narateer: hide is a narateer command; this campaign plays coin; "
                   "a coin cannot hide; try `narateer call heads`\n")


def test_help_lists_the_shared_verbs_and_its_own(coin_camp):
    out = run(coin_camp, "--help").out
    assert "  call " in out and "  roll " in out and "  undo " in out
    assert "  hide " not in out and "  readiness " not in out


def test_encounter_undo_and_verify_through_the_coin_system(coin_camp):
    ok(coin_camp, "encounter", "new", "toss", "pim")
    assert ok(coin_camp, "encounter", "show")["status"] == {"pim": {"dice": {"ready": 3, "spent": 0}}}
    before = snapshot(coin_camp)
    ok(coin_camp, "roll", "pim", "--target", "0", "--coins", "1", "--faces", "1")
    entries = ok(coin_camp, "encounter", "log")["entries"]
    assert [e["command"] for e in entries] == ["encounter new", "roll"]
    assert entries[-1]["dice"] == {"pim": {"before": {"ready": 3, "spent": 0}, "after": {"ready": 2, "spent": 1}}}
    assert ok(coin_camp, "verify")["ok"] is True
    undone = ok(coin_camp, "undo")
    assert undone["files"] == ["characters/pim.yaml", "encounters/toss.yaml"]
    after = snapshot(coin_camp)
    assert after.pop("encounters/toss.log.yaml") != before.pop("encounters/toss.log.yaml")  # the undo is logged
    assert after == before
    assert ok(coin_camp, "verify")["ok"] is True


def test_verify_re_runs_the_coin_rules_on_a_tampered_entry(coin_camp):
    ok(coin_camp, "encounter", "new", "toss", "pim")
    ok(coin_camp, "roll", "pim", "--target", "1", "--coins", "2", "--faces", "1,0")
    log = coin_camp / "encounters" / "toss.log.yaml"
    log.write_text(log.read_text().replace('"success": false', '"success": true').replace(
        "success: false", "success: true"))
    r = run(coin_camp, "--json", "verify")
    assert r.code == 1
    assert r.json["problem"] == "encounters/toss.log.yaml:2: entry 2 (roll): success do not follow from the faces"


def test_an_add_on_verb_in_a_narateer_campaign_points_to_its_system(coin, camp):
    err = refused(camp, 2, "call", "heads", rule="S-SYS-3")
    assert err.startswith("narateer: call is a coin command; this campaign plays narateer; ")


def test_stats_through_the_coin_system_by_the_host_defaults(coin_camp):
    """A system with only a `chance` hook: the host finds its checks and counts them (P-LUCK-2)."""
    ok(coin_camp, "encounter", "new", "toss", "pim")
    ok(coin_camp, "roll", "pim", "--target", "0", "--coins", "1", "--faces", "1")
    [row] = ok(coin_camp, "stats")["actors"]
    assert row["actor"] == "pim" and row["checks"] == 1 and row["dice_spent"] == 1


# (golden file, argv): the coin game's human text through the host, in one fresh example campaign
GOLDEN_STEPS = [
    ("systems", ["systems"]),
    ("check", ["check"]),
    ("roll", ["roll", "pim", "--target", "1", "--coins", "2", "--faces", "1,0"]),
    ("odds", ["odds", "2", "--target", "0"]),
    ("call", ["call", "heads", "--faces", "h"]),
    ("encounter_new", ["encounter", "new", "toss", "pim"]),
    ("encounter_show", ["encounter", "show"]),
    ("roll_in_encounter", ["roll", "pim", "--target", "0", "--coins", "1", "--faces", "1"]),
    ("encounter_log", ["encounter", "log"]),
    ("verify", ["verify"]),
    ("stats", ["stats"]),
    ("report", ["report"]),
    ("undo", ["undo"]),
    ("encounter_end", ["encounter", "end"]),
]


@pytest.fixture(scope="module")
def coin_played(tmp_path_factory):
    root = tmp_path_factory.mktemp("coin_golden") / "coins"
    steady = Steady(root)
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(TOY))
        importlib.invalidate_caches()
        try:
            r = run(None, "init", str(root), "--system", "coin", "--example")
            outputs = {"init": (r.code, steady(r.out), r.err)}
            for name, argv in GOLDEN_STEPS:
                r = run(root, *argv)
                outputs[name] = (r.code, steady(r.out), r.err)
        finally:
            _forget_coin()
    return outputs


@pytest.mark.parametrize("name", ["init"] + [name for name, _ in GOLDEN_STEPS])
def test_the_coin_games_text_matches_its_golden_file(coin_played, name):
    matches_golden(coin_played, name, GOLDEN, "md" if name == "report" else "txt")
