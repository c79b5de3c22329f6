"""Golden text: the human output of every result type, byte for byte (tests/golden/*.txt).

One campaign plays a short scene; each step's stdout must equal its golden
file. Set NARATEER_GOLDEN_UPDATE=1 to rewrite the files after a deliberate
change of wording, then read the diff.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import example_campaign, matches_golden, run

HERE = Path(__file__).resolve().parent

# (golden file, argv): run in this order in one fresh example campaign
STEPS = [
    ("systems", ["systems"]),
    ("show", ["show", "selka"]),
    ("readiness", ["readiness", "selka", "stealth", "observation"]),
    ("roll", ["roll", "selka", "stealth", "--dr", "3", "--boost", "2", "--faces", "2,1,1"]),
    ("roll_edge", ["roll", "kai", "stealth", "--dr", "2", "--boost", "2", "--advantage", "--faces", "0,1,2", "--reroll-faces", "2"]),
    ("dry_run", ["roll", "selka", "stealth", "--dr", "3", "--dry-run"]),
    ("dice", ["dice", "3", "--advantage", "--faces", "0,1,2", "--reroll-faces", "2"]),
    ("dr_ladder", ["dr"]),
    ("dr", ["dr", "challenging"]),
    ("random_dr", ["dr", "hard", "--random", "--faces", "1,2,0"]),
    ("odds", ["odds", "3", "--dr", "3", "--advantage"]),
    ("behind", ["behind", "selka", "stealth", "--dr", "3"]),
    ("new", ["new", "nyra", "--vital", "agility=3", "--skill", "stealth=2"]),
    ("check", ["check"]),
    ("encounter_new", ["encounter", "new", "golden", "selka", "sentry", "mira", "bandit"]),
    ("turn_start", ["turn", "start", "selka"]),
    ("hide", ["hide", "selka", "--from", "bandit", "--from", "sentry", "--boost", "1", "--faces", "2,1"]),
    ("move", ["move", "selka", "2"]),
    ("turn_end", ["turn", "end", "--next", "bandit"]),
    ("encounter_show", ["encounter", "show"]),
    ("condition", ["condition", "selka", "+slowed"]),
    ("wound", ["wound", "bandit", "1"]),
    ("heal", ["heal", "bandit", "1"]),
    ("refresh", ["refresh", "bandit"]),
    ("turn_start_bandit", ["turn", "start", "bandit"]),
    ("search", ["search", "bandit", "--for", "selka", "--faces", "2"]),
    ("reveal", ["reveal", "selka"]),
    ("exchange", ["exchange", "bandit", "selka", "--response", "none", "--faces", "2", "--force"]),
    ("turn_end_bandit", ["turn", "end", "--next", "mira"]),
    ("turn_start_mira", ["turn", "start", "mira"]),
    ("move_mira", ["move", "mira", "2"]),
    ("react", ["react", "sentry", "opportunity", "--against", "mira", "--faces", "1", "--force"]),
    ("resolve", ["resolve", "mira", "--intent", "open the door", "--tier", "trivial", "--auto"]),
    ("join", ["encounter", "join", "beast"]),
    ("encounter_log", ["encounter", "log", "--last", "4"]),
    ("verify", ["verify"]),
    ("undo", ["undo"]),
]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    root = example_campaign(tmp_path_factory.mktemp("golden") / "camp")
    outputs = {}
    for name, argv in STEPS:
        r = run(root, *argv)
        outputs[name] = (r.code, steady(r.out.replace(str(root), "CAMP")), r.err)
    return outputs


def steady(text: str) -> str:
    """The log's clock times and entry ids (which hash the time) as placeholders: the rest is byte for byte."""
    text = re.sub(r"\b\d\d:\d\d:\d\d\b", "HH:MM:SS", text)
    return re.sub(r"(?m)^(\s*\d+  )[0-9a-f]{7}(  )", r"\1IDIDIDI\2", text)


@pytest.mark.parametrize("name", [name for name, _ in STEPS])
def test_human_output_matches_its_golden_file(played, name):
    matches_golden(played, name, HERE)


def test_init_text(tmp_path):
    r = run(None, "init", str(tmp_path / "c"), "--example")
    matches_golden({"init": (r.code, r.out.replace(str(tmp_path / "c"), "CAMP"), r.err)}, "init", HERE)
