"""S-SYS-1..3: picking a system, listing them, and verbs per system."""

from __future__ import annotations

import pytest

from tests.conftest import ok, refused, run


def test_init_writes_the_system_and_systems_lists_it(tmp_path):
    root = tmp_path / "c"
    assert run(None, "init", str(root), "--system", "narateer").code == 0
    assert "system: narateer\n" in (root / "narateer.yaml").read_text()
    data = ok(root, "systems")
    assert data["current"] == "narateer"
    assert {"name": "narateer", "title": "Narateer", "builtin": True, "current": True}.items() <= \
        next(s for s in data["systems"] if s["name"] == "narateer").items()


def test_init_with_an_unknown_system_is_bad_input_and_makes_nothing(tmp_path):
    r = run(None, "init", str(tmp_path / "c"), "--system", "narateeer")
    assert r.code == 2
    assert r.err.startswith("narateer: unknown rule system 'narateeer' (did you mean narateer?); installed: ")
    assert not (tmp_path / "c").exists()


def test_an_unknown_system_in_the_campaign_is_exit_2_for_every_command(camp):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text().replace("system: narateer", "system: chess"))
    for args in (("roll", "selka", "stealth", "--dr", "3"), ("show", "selka"), ("encounter", "show", "ambush")):
        err = refused(camp, 2, *args, contains="unknown rule system 'chess'")
        assert "unknown rule system 'chess'" in err and "installed: narateer" in err


def test_a_campaign_without_the_key_plays_narateer(camp):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text().replace("system: narateer\n", ""))
    assert ok(camp, "systems")["current"] == "narateer"
    assert ok(camp, "roll", "--force", "selka", "stealth", "--dr", "3", "--faces", "1")["total"] == 1


def test_help_inside_a_campaign_lists_shared_then_own_verbs(camp):
    r = run(camp, "--help")
    assert r.code == 0
    shared, own = r.out.split("Shared commands:")[1].split("Narateer commands (system: narateer):")
    assert "  roll " in shared and "  systems " in shared and "  hide " not in shared
    assert "  hide " in own and "  exchange " in own and "  roll " not in own


def test_help_outside_a_campaign_groups_verbs_by_system(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = run(None, "--help").out
    assert out.index("Shared commands:") < out.index("Narateer commands (system: narateer):")
    assert "  init " in out and "  systems " in out and "  hide " in out


def test_help_loads_no_yaml_no_store_and_no_entry_points(tmp_path):
    import subprocess
    import sys

    probe = ("import sys\nfrom narateer_cli.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
             "heavy = [m for m in ('ruamel.yaml', 'importlib.metadata', 'narateer_cli.store', 'tabulate',"
             " 'narateer_cli.systems.narateer.engine') if m in sys.modules]\nprint('HEAVY', heavy)\n")
    r = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True)
    assert r.stdout.strip().splitlines()[-1] == "HEAVY []", r.stdout + r.stderr


@pytest.mark.parametrize("text, name", [
    ("system: narateer\n", "narateer"),
    ("# c\nsystem:  'open-adventure'   # the game\n", "open-adventure"),
    ('autocommit: false\nsystem: "d20-cards"\n', "d20-cards"),
    ("system:coin\n", "coin"),
    ("systems: coin\nrules:\n  system: coin\n", "narateer"),
    ("", "narateer"),
])
def test_the_system_line_is_read_without_a_yaml_parser(tmp_path, text, name):
    from narateer_cli.systems import system_name

    (tmp_path / "narateer.yaml").write_text(text)
    assert system_name(tmp_path) == name


def test_another_games_encounter_is_never_read_or_rewritten(tmp_path):
    """S-SYS-1: an Open Adventure encounter in a campaign that now plays narateer (a `system:` edited or
    misspelt): writers, verify, report, stats and encounter log refuse with exit 2 and change no byte;
    `check` names the encounter; `report --all` and `stats` leave its log out."""
    root = tmp_path / "oa"
    assert run(None, "init", str(root), "--system", "open-adventure", "--example").code == 0
    ok(root, "encounter", "new", "hall", "bloodwind", "goblin", "--reaction", "bloodwind=9")
    ok(root, "turn", "start")
    ok(root, "roll", "bloodwind", "strength", "--mo", "--vs", "goblin:body", "--faces", "4,6+3")
    config = root / "narateer.yaml"
    config.write_text(config.read_text().replace("system: open-adventure", "system: narateer"))
    said = "encounters/hall.yaml: an encounter of open-adventure, but this campaign plays narateer"
    for args in (("turn", "end"), ("encounter", "show"), ("verify", "hall"), ("report", "hall"),
                 ("stats", "--encounter", "hall"), ("encounter", "log", "hall")):
        assert said in refused(root, 2, *args,
                               contains="an encounter of open-adventure, but this campaign plays narateer"), args
    assert any(p.startswith("encounters/hall.yaml:1: an encounter of open-adventure")
               for p in run(root, "--json", "check").json["problems"])
    config.write_text(config.read_text().replace("encounter: hall\n", ""))
    assert "hall" not in run(root, "report", "--all").out
    assert ok(root, "stats")["actors"] == []  # the roll in hall is not counted


def test_another_systems_verb_is_named_with_its_system(camp):
    assert refused(camp, 2, "chart", rule="S-SYS-3") == ("narateer: chart is an open-adventure command; this "
                                                         "campaign plays narateer; `narateer --help` lists what narateer offers\n")
    refused(camp, 2, "act", contains="narateer: act is a d20-cards command; this campaign plays narateer")
