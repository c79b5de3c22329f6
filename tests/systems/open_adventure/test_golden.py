"""Golden output: Open Adventure's human text and JSON for every result type, byte for byte.

One example campaign plays a short encounter with physical faces (--faces), so
every roll is fixed; each step's stdout must equal golden/NAME.txt, and the
same step run with --json in a second campaign must equal golden/NAME.json.
Set NARATEER_GOLDEN_UPDATE=1 to rewrite the files after a deliberate change of
wording, then read the diff.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import matches_golden, run

HERE = Path(__file__).resolve().parent / "golden"

# (golden file, argv): run in this order in one fresh example campaign
STEPS = [
    ("check", ["check"]),
    ("show", ["show", "amicus"]),
    ("show_npc", ["show", "orc"]),
    ("chart", ["chart", "6", "7", "15"]),
    ("chart_time", ["chart", "--time"]),
    ("ds_ladder", ["ds"]),
    ("ds", ["ds", "moderate"]),
    ("dice", ["dice", "7", "--faces", "6+2,5"]),
    ("odds", ["odds", "7", "--ds", "9", "--upto", "12"]),
    ("roll", ["roll", "amicus", "strength", "--mo", "--ds", "9", "--faces", "4,6+3"]),
    ("roll_fail", ["roll", "amicus", "intellect", "--ds", "hard", "--drawback", "1", "--faces", "2"]),
    ("roll_compare", ["roll", "amicus", "coordination", "--mo", "--compare", "--ds", "6"]),
    ("dry_run", ["roll", "bloodwind", "strength", "--mo", "--vs", "goblin:body", "--stunt", "--targets", "3",
                 "--dry-run"]),
    ("dry_run_opposed", ["roll", "warheart", "strength", "--opposed", "orc:strength", "--dry-run"]),
    ("new", ["new", "kara", "--attribute", "strength=3", "--attribute", "presence=2", "--mo", "Warrior=2",
             "--specialization", "swords", "--points", "body=5"]),
    ("new_npc", ["new", "wolf", "--npc", "--attribute", "body=4", "--reaction", "5", "--action", "bite=6:2"]),
    ("new_from", ["new", "gob", "--from", "goblin", "--count", "2"]),
    ("points", ["points", "goblin", "challenge", "-3"]),
    ("points_zero", ["points", "kara", "body", "-9"]),
    ("wound", ["wound", "amicus", "2"]),
    ("heal", ["heal", "amicus"]),
    ("condition", ["condition", "amicus", "+prone", "+dazed"]),
    ("condition_remove", ["condition", "amicus", "-dazed"]),
    ("encounter_new", ["encounter", "new", "hall", "bloodwind", "warheart", "goblin", "orc",
                       "--reaction", "bloodwind=9", "--reaction", "warheart=5"]),
    ("encounter_show", ["encounter", "show"]),
    ("turn_start", ["turn", "start"]),
    ("roll_stunt", ["roll", "bloodwind", "strength", "--mo", "--specialization", "axes", "--vs", "goblin:body",
                    "--stunt", "--targets", "3", "--faces", "4,7"]),
    ("turn_end", ["turn", "end"]),
    ("turn_start_goblin", ["turn", "start"]),
    ("roll_crit", ["roll", "goblin", "spear", "--vs", "bloodwind:body", "--faces", "1,1",
                   "--mishap", "the spear snaps on the flagstones"]),
    ("condition_rounds", ["condition", "warheart", "+stunned", "--rounds", "1"]),
    ("turn_end_goblin", ["turn", "end"]),
    ("turn_start_warheart", ["turn", "start"]),
    ("roll_opposed", ["roll", "warheart", "strength", "--mo", "--opposed", "orc:strength", "--faces", "3,4",
                      "--other-faces", "2,5"]),
    ("turn_end_warheart", ["turn", "end"]),
    ("turn_start_orc", ["turn", "start"]),
    ("resolve_auto", ["resolve", "orc", "--intent", "kick the door", "--auto"]),
    ("resolve_impossible", ["resolve", "orc", "--intent", "fly", "--impossible", "world"]),
    ("turn_end_orc", ["turn", "end"]),
    ("turn_start_round2", ["turn", "start"]),
    ("resolve_maintain", ["resolve", "bloodwind", "--intent", "hold the portcullis", "--maintain"]),
    ("turn_end_round2", ["turn", "end"]),
    ("turn_start_goblin2", ["turn", "start"]),
    ("resolve_check", ["resolve", "goblin", "--intent", "trip the orc", "--check", "dirty-trick", "--stunt",
                       "--ds", "5", "--faces", "3,2"]),
    ("turn_end_goblin2", ["turn", "end"]),
    ("turn_start_expired", ["turn", "start"]),
    ("encounter_join", ["encounter", "join", "amicus", "--reaction", "7"]),
    ("show_timed", ["show", "amicus"]),
    ("encounter_log", ["encounter", "log", "--last", "5"]),
    ("verify", ["verify"]),
    ("undo", ["undo"]),
    ("encounter_end", ["encounter", "end"]),
]


def play(root: Path, extra: tuple = ()) -> dict:
    assert run(None, "init", str(root), "--system", "open-adventure", "--example").code == 0
    outputs = {}
    for name, argv in STEPS:
        r = run(root, *argv, *extra)
        outputs[name] = (r.code, steady(r.out.replace(str(root), "CAMP")), r.err)
    for log in sorted((root / "encounters").glob("*.log.yaml")):  # what each command logged
        outputs["log_" + log.name.removesuffix(".log.yaml")] = (0, steady(log.read_text(encoding="utf-8")), "")
    return outputs


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    return play(tmp_path_factory.mktemp("oa-golden") / "camp")


@pytest.fixture(scope="module")
def played_json(tmp_path_factory):
    return play(tmp_path_factory.mktemp("oa-golden-json") / "camp", ("--json",))


def steady(text: str) -> str:
    """Clock times and entry ids (which hash the time) as placeholders: the rest is byte for byte."""
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?", "TIME", text)
    text = re.sub(r"\b\d\d:\d\d:\d\d\b", "HH:MM:SS", text)
    text = re.sub(r'("(?:id|parent|resumes|undoes)": )"[0-9a-f]{7,}"', r'\1"ID"', text)
    return re.sub(r"(?m)^(\s*\d+  )[0-9a-f]{7}(  )", r"\1IDIDIDI\2", text)


def compare(outputs: dict, name: str, suffix: str):
    matches_golden(outputs, name, HERE, suffix)


@pytest.mark.parametrize("name", [name for name, _ in STEPS])
def test_human_output_matches_its_golden_file(played, name):
    compare(played, name, "txt")


@pytest.mark.parametrize("name", [name for name, _ in STEPS])
def test_json_output_matches_its_golden_file(played_json, name):
    compare(played_json, name, "json")


@pytest.mark.parametrize("name", ["log_hall", "log_campaign"])
def test_logged_entries_match_their_golden_file(played, name):
    compare(played, name, "yaml")


def test_init_text(tmp_path):
    """`init --example` points at an encounter, in the command line's word."""
    r = run(None, "init", str(tmp_path / "c"), "--system", "open-adventure", "--example")
    compare({"init": (r.code, r.out.replace(str(tmp_path / "c"), "CAMP"), r.err)}, "init", "txt")
