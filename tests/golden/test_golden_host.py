"""Golden text of the host's own result types: secret rolls sealed, lost and unveiled, stats, the report,
undo in the campaign log, git-setup, and verify and check when something is wrong (exit 1).

One fresh example campaign plays outside any encounter (so every entry goes to the campaign log) with fixed
faces; each named step's stdout must equal its file here (NARATEER_GOLDEN_UPDATE=1 rewrites them after a
deliberate change of wording). Clock times, dates and entry ids become placeholders; the rest is byte for byte.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import Steady, example_campaign, matches_golden, run

HERE = Path(__file__).resolve().parent


def _forget_second_secret(root: Path):
    """This machine loses the private record of the second secret roll (P-SECRET-3: it stays a commitment)."""
    entries = _entries(root)
    (root / ".narateer" / "secrets" / f"{entries[1]['id']}.json").unlink()


def _tamper_unveiled_total(root: Path):
    """Someone edits the published total of the unveiled roll: it no longer hashes to its commitment."""
    log = root / "encounters" / "campaign.log.yaml"
    text = log.read_text(encoding="utf-8")
    assert text.count('"total": 3') == 1
    log.write_text(text.replace('"total": 3', '"total": 4'), encoding="utf-8")


def _break_sheets(root: Path):
    """A vital that is no number in one sheet, a counter out of range in a new one."""
    sheet = root / "characters" / "selka.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("  agility: 3\n", "  agility: seven\n"),
                     encoding="utf-8")
    (root / "characters" / "bad.yaml").write_text("name: Bad\naction_dice: {ready: -1}\n", encoding="utf-8")


def _git_init(root: Path):
    subprocess.run(["git", "init", "-q", str(root)], check=True)


# (golden file or None for a step whose output is not compared, argv or a change made by hand, exit status)
STEPS = [
    (None, ["roll", "selka", "stealth", "--dr", "3", "--boost", "1", "--faces", "2,1", "--secret"], 0),
    (None, ["roll", "selka", "stealth", "--dr", "1", "--faces", "1", "--secret"], 0),
    ("verify_sealed", ["verify"], 0),
    (None, _forget_second_secret, 0),
    ("verify_lost", ["verify", "campaign"], 0),
    ("unveil", ["unveil", "ENTRY-1"], 0),
    ("unveil_all", ["unveil", "--all"], 0),
    (None, ["wound", "selka"], 0),
    ("stats", ["stats"], 0),
    ("report", ["report"], 0),
    ("report_html", ["report", "--format", "html"], 0),
    ("undo_campaign", ["undo"], 0),
    ("git_setup", ["git-setup"], 0),
    (None, _tamper_unveiled_total, 0),
    ("verify_tampered", ["verify"], 1),
    (None, _break_sheets, 0),
    ("check_problems", ["check"], 1),
    (None, _git_init, 0),
    ("git_setup_clone", ["git-setup"], 0),
]

SUFFIX = {"report": "md", "report_html": "html"}


def _entries(root: Path) -> list:
    text = (root / "encounters" / "campaign.log.yaml").read_text(encoding="utf-8")
    return [json.loads(line[2:]) for line in text.splitlines() if line.startswith("- {")]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    root = example_campaign(tmp_path_factory.mktemp("golden_host") / "camp")
    steady, outputs = Steady(root), {}
    for name, step, code in STEPS:
        if callable(step):
            step(root)
            continue
        r = run(root, *[steady.real(arg) for arg in step])
        out, err = steady(r.out), steady(r.err)
        if name is None:
            assert r.code == code, (step, r.code, r.err)
        else:
            outputs[name] = (r.code, out, err)
    return outputs


@pytest.mark.parametrize("name, code", [(name, code) for name, _, code in STEPS if name])
def test_host_output_matches_its_golden_file(played, name, code):
    matches_golden(played, name, HERE, SUFFIX.get(name, "txt"), code=code)
