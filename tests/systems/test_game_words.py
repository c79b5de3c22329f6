"""S-SYS-10 through the command line: what used to be one game's in the host now comes from each game."""

from __future__ import annotations

from narateer_cli import systems
from narateer_cli.store import encounters
from tests.conftest import json_error, run, snapshot
from tests.systems.test_interface import plugin, plugins, system_source  # noqa: F401 (fixture)


def test_S_SYS_10_outside_a_campaign_a_verb_several_games_define_is_shown_for_each(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(None, "heal", "--help")
    assert r.code == 0
    assert "heal is a command of several games; pick one with --system NAME:" in r.out
    for name in ("narateer", "open-adventure", "d20-cards"):
        assert f"narateer --system {name} heal ..." in r.out
    r = run(None, "heal", "mira", "1")
    assert r.code == 2 and r.err == ("narateer: heal is a command of narateer, open-adventure and d20-cards"
                                     "; pick one: narateer --system NAME heal ... (or run it in a "
                                     "campaign)\n")
    assert "Remove N Wounds" in run(None, "--system", "open-adventure", "heal", "--help").out


def test_S_SYS_10_move_names_both_games_that_define_it(plugins, tmp_path, monkeypatch):  # noqa: F811
    source = system_source().replace("verbs={}", "verbs={'move': (__name__ + '.engine', 'Make a move.')}")
    plugin(plugins, "fakemoves", source)
    monkeypatch.chdir(tmp_path)
    out = run(None, "move", "--help").out
    assert "narateer --system narateer move ...  Spend movement." in out
    assert "narateer --system fakemoves move ...  Make a move." in out
    assert "Spend movement in the current activation" in run(None, "--system", "narateer", "move", "--help").out


def test_S_SYS_10_system_inside_a_campaign_names_only_its_own_game(camp):
    before = snapshot(camp)
    r = run(camp, "--system", "d20-cards", "show", "selka")
    assert r.code == 2 and r.err.startswith("narateer: this campaign plays narateer, not d20-cards; ")
    assert json_error(run(camp, "--json", "--system", "d20-cards", "show", "selka"), 2)["rule"] == "S-SYS-10"
    assert snapshot(camp) == before
    assert run(camp, "--system", "narateer", "show", "selka").code == 0


def test_S_SYS_10_config_keys_come_from_the_game(camp, tmp_path):
    d20 = tmp_path / "d20"
    assert run(None, "init", str(d20), "--system", "d20-cards").code == 0
    for root in (camp, d20):
        with open(root / "narateer.yaml", "a", encoding="utf-8") as fh:
            fh.write("clokc: 3\n")
    assert "did you mean clock?" in run(d20, "--json", "check").out
    assert "clock" not in run(camp, "--json", "check").out  # Narateer keeps no campaign clock


def test_S_SYS_10_an_encounter_state_needs_no_round(plugins, tmp_path):  # noqa: F811
    plugin(plugins, "fakestate", system_source())
    system = systems.load_system("fakestate")
    (tmp_path / "encounters").mkdir()
    (tmp_path / "encounters" / "e1.yaml").write_text("id: e1\nparticipants: [a, b]\n")
    assert encounters.load_state(tmp_path, "e1", system) == {"id": "e1", "participants": ["a", "b"]}
