"""Golden output of d20-cards: the human text and the JSON of every result type, byte for byte.

One fresh example campaign plays a short encounter with the table's faces (`--faces`), so every
roll is fixed; each step's stdout must equal its file under golden/ (`NAME.txt` for the text,
`NAME.json` for `--json`, played in a second campaign). Set NARATEER_GOLDEN_UPDATE=1 to rewrite
the files after a deliberate change of wording, then read the diff.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import matches_golden, run

HERE = Path(__file__).resolve().parent / "golden"

# (golden file, argv): run in this order in one fresh d20-cards example campaign
STEPS = [
    ("new", ["new", "rook", "--name", "Rook", "--attr", "fin=3", "--attr", "phy=2", "--ac", "physical=13",
             "--hp", "20", "--action", "strike"]),
    ("new_copies", ["new", "thug", "--from", "bandit", "--count", "2"]),
    ("show", ["show", "mira"]),
    ("card_show", ["card", "show", "stun-word"]),
    ("card_show_for", ["card", "show", "strike", "--for", "mira"]),
    ("card_list", ["card", "list"]),
    ("card_list_for", ["card", "list", "--for", "mira"]),
    ("dice", ["dice", "2d6+3", "--faces", "4,5"]),
    ("odds", ["odds", "mira", "strike", "--target", "bandit"]),
    ("odds_save", ["odds", "mira", "stun-word", "--target", "bandit", "--disadvantage"]),
    ("encounter_new", ["encounter", "new", "fight", "mira", "bandit", "hexer"]),
    ("turn_start", ["turn", "start", "mira"]),
    ("act_dry_run", ["act", "mira", "firebolt", "--target", "bandit", "--distance", "8", "--dry-run"]),
    ("act_concentration", ["act", "mira", "ward"]),
    ("act_attack", ["act", "mira", "strike", "--target", "bandit", "--faces", "11"]),
    ("turn_end", ["turn", "end"]),
    ("turn_start_hexer", ["turn", "start", "hexer"]),
    ("act_concentration_check", ["act", "hexer", "hex-bolt", "--target", "mira", "--faces", "14",
                                 "--concentration-faces", "mira=3"]),
    ("condition_short", ["condition", "hexer", "+slowed", "--rounds", "1"]),
    ("join", ["encounter", "join", "tor"]),
    ("turn_start_round2", ["turn", "start", "mira"]),
    ("act_save", ["act", "mira", "stun-word", "--target", "bandit", "--save-faces", "bandit=8"]),
    ("refresh", ["refresh", "mira"]),
    ("act_evolutionary", ["act", "mira", "wild-surge", "--target", "hexer", "--distance", "9", "--advantage",
                          "--faces", "5,12", "--evolutionary-face", "14", "--damage-faces", "3,4"]),
    ("refresh_again", ["refresh", "mira"]),
    ("act_long_concentration", ["act", "mira", "rally-hymn"]),
    ("damage", ["damage", "mira", "4", "--concentration-faces", "15"]),
    ("drop", ["drop", "mira"]),
    ("heal", ["heal", "mira", "3"]),
    ("condition", ["condition", "bandit", "+immobilized", "--rounds", "2"]),
    ("condition_remove", ["condition", "tor", "-stunned", "+dying"]),
    ("turn_end_round2", ["turn", "end"]),
    ("turn_start_expiry", ["turn", "start", "hexer"]),
    ("act_reaction", ["act", "mira", "parry", "--trigger", "hexer's bolt"]),
    ("act_dry_run_refused", ["act", "hexer", "hex-bolt", "--target", "mira", "--dry-run"]),
    ("rest", ["rest", "mira", "hexer", "--proper", "--mid-encounter"]),
    ("elapse", ["elapse", "2h"]),
    ("encounter_show", ["encounter", "show"]),
    ("encounter_log", ["encounter", "log", "--last", "5"]),
    ("verify", ["verify"]),
    ("undo", ["undo"]),
]


def _play(root, as_json):
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    outputs = {}
    for name, argv in STEPS:
        r = run(root, *argv, *(["--json"] if as_json else []))
        outputs[name] = (r.code, steady(r.out.replace(str(root), "CAMP")), r.err)
    return outputs


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    return _play(tmp_path_factory.mktemp("golden") / "camp", False)


@pytest.fixture(scope="module")
def played_json(tmp_path_factory):
    return _play(tmp_path_factory.mktemp("golden-json") / "camp", True)


def steady(text: str) -> str:
    """The log's clock times and entry ids (which hash the time) as placeholders: the rest is byte for byte."""
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", "YYYY-MM-DDTHH:MM:SSZ", text)
    text = re.sub(r"\b\d\d:\d\d:\d\d\b", "HH:MM:SS", text)
    text = re.sub(r'"(id|parent)": "[0-9a-f]{12,}"', r'"\1": "IDIDIDI"', text)
    return re.sub(r"(?m)^(\s*\d+  )[0-9a-f]{7}(  )", r"\1IDIDIDI\2", text)


def _check(outputs, name, suffix):
    matches_golden(outputs, name, HERE, suffix)


@pytest.mark.parametrize("name", [name for name, _ in STEPS])
def test_human_output_matches_its_golden_file(played, name):
    _check(played, name, "txt")


@pytest.mark.parametrize("name", [name for name, _ in STEPS])
def test_json_output_matches_its_golden_file(played_json, name):
    _check(played_json, name, "json")
