"""Git-friendly rewrites of people's files (STYLE "Rewrite, don't regenerate").

A command changes only the lines whose values changed: comments, blank lines,
key order, flow collections, quotes, unknown keys, line endings and the
file's permission bits survive; writes go through a temporary file under
`.narateer/`, never beside the sheet.
"""

from __future__ import annotations

import difflib
import os
import stat

import pytest

from tests.conftest import run

RICH = """\
# Round-trip sheet: only the dice lines may change
name: "Rook Tester"   # quoted on purpose
title: 'the Quiet'

vitals: {agility: 3, cognition: 2}   # a flow mapping
skills:
  stealth: 2
  observation: {level: 1, vital: cognition}

# dice below
action_dice:
  ready: 5    # ready comment
  used: 0

conditions: []
gear:
    - 'rope'
    - "lamp"
custom_key: {a: 1, b: [x, y]}
notes: |
  multi line
  text here
zeta: 1
alpha: 2
"""


def diff(before: str, after: str) -> tuple[list[str], list[str]]:
    """(removed lines, added lines), as `git diff` would show them."""
    removed, added = [], []
    for line in difflib.ndiff(before.splitlines(keepends=True), after.splitlines(keepends=True)):
        if line.startswith("- "):
            removed.append(line[2:])
        elif line.startswith("+ "):
            added.append(line[2:])
    return removed, added


@pytest.fixture
def rook(camp):
    path = camp / "characters" / "rook.yaml"
    path.write_text(RICH)
    os.chmod(path, 0o640)
    return path


def ok(camp, *args):
    r = run(camp, *args)
    assert r.code == 0, r.err
    return r


def test_roll_changes_only_the_dice_lines(camp, rook):
    ok(camp, "roll", "rook", "stealth", "--dr", "2", "--boost", "1", "--faces", "1,1")
    after = rook.read_text()
    assert after == RICH.replace("  ready: 5    # ready comment\n  used: 0\n", "  ready: 3    # ready comment\n  used: 2\n")
    assert diff(RICH, after) == (["  ready: 5    # ready comment\n", "  used: 0\n"],
                                 ["  ready: 3    # ready comment\n", "  used: 2\n"])
    assert stat.S_IMODE(rook.stat().st_mode) == 0o640


def test_roll_keeps_a_flow_mapping_of_dice(camp):
    path = camp / "characters" / "flow.yaml"
    text = "name: Flow\nskills: {stealth: 2}\naction_dice: {ready: 10, used: 0}   # flow\nconditions: [stunned]\n"
    path.write_text(text)
    ok(camp, "roll", "--force", "flow", "stealth", "--dr", "2", "--faces", "1")
    assert path.read_text() == text.replace("{ready: 10, used: 0}", "{ready: 9, used: 1}")


def test_wound_adds_one_line_and_changes_one(camp, rook):
    ok(camp, "wound", "rook")
    after = rook.read_text()
    removed, added = diff(RICH, after)
    assert removed == ["  ready: 5    # ready comment\n"]
    assert sorted(added) == sorted(["  ready: 4    # ready comment\n", "  wounded: 1\n"])
    assert stat.S_IMODE(rook.stat().st_mode) == 0o640


def test_condition_slowed_changes_only_the_conditions_line(camp, rook):
    ok(camp, "condition", "rook", "+slowed")
    after = rook.read_text()
    assert after == RICH.replace("conditions: []\n", "conditions: [slowed]\n")
    assert stat.S_IMODE(rook.stat().st_mode) == 0o640
    ok(camp, "condition", "rook", "-slowed")
    assert rook.read_text() == RICH


def test_condition_on_a_block_list(camp):
    path = camp / "characters" / "block.yaml"
    text = "name: Block\nskills:\n  stealth: 2\naction_dice:\n  ready: 5\n  used: 0\nconditions:\n  - stunned\n"
    path.write_text(text)
    ok(camp, "condition", "block", "+slowed")
    assert path.read_text() == text + "  - slowed\n"


def test_condition_keeps_a_trailing_comment(camp):
    path = camp / "characters" / "noted.yaml"
    path.write_text("name: Noted\nskills:\n  stealth: 2\naction_dice:\n  ready: 5\n  used: 0\n"
                    "conditions: []   # none yet\nnotes: kept\n")
    ok(camp, "condition", "noted", "+slowed")
    lines = path.read_text().splitlines()
    assert lines[:6] == ["name: Noted", "skills:", "  stealth: 2", "action_dice:", "  ready: 5", "  used: 0"]
    assert lines[6].startswith("conditions: [slowed]") and lines[6].endswith("# none yet")
    assert lines[7:] == ["notes: kept"]


def test_readiness_write_only_adds_the_readiness_block(camp, rook):
    ok(camp, "readiness", "rook", "--write")
    after = rook.read_text()
    assert after == RICH + "readiness:\n  observation: 2\n  stealth: 3\n"
    assert stat.S_IMODE(rook.stat().st_mode) == 0o640
    # writing the same scores again changes nothing
    ok(camp, "readiness", "rook", "--write")
    assert rook.read_text() == after


def test_readiness_write_updates_only_a_changed_score(camp, rook):
    rook.write_text(RICH + "readiness:\n  observation: 2   # by hand\n  stealth: 9\n")
    ok(camp, "readiness", "rook", "--write")
    assert rook.read_text() == RICH + "readiness:\n  observation: 2   # by hand\n  stealth: 3\n"


def test_four_space_indentation_survives_a_rewrite(camp):
    path = camp / "characters" / "wide.yaml"
    text = "name: Wide\nvitals:\n    agility: 3\nskills:\n    stealth: 2\naction_dice:\n    ready: 5\n    used: 0\nconditions: []\n"
    path.write_text(text)
    ok(camp, "condition", "wide", "+slowed")
    assert path.read_text() == text.replace("conditions: []", "conditions: [slowed]")
    ok(camp, "wound", "wide")
    assert path.read_text() == text.replace("conditions: []", "conditions: [slowed]").replace(
        "    ready: 5\n    used: 0\n", "    ready: 4\n    used: 0\n    wounded: 1\n")


def test_crlf_line_endings_survive(camp):
    path = camp / "characters" / "dos.yaml"
    text = "name: Dos\r\nskills:\r\n  stealth: 2\r\naction_dice:\r\n  ready: 5\r\n  used: 0\r\nconditions: []\r\n"
    path.write_bytes(text.encode())
    ok(camp, "roll", "--force", "dos", "stealth", "--dr", "2", "--faces", "1")
    assert path.read_bytes() == text.replace("ready: 5\r\n  used: 0", "ready: 4\r\n  used: 1").encode()
    ok(camp, "condition", "dos", "+slowed")
    ok(camp, "wound", "dos")
    assert path.read_bytes() == (
        "name: Dos\r\nskills:\r\n  stealth: 2\r\naction_dice:\r\n  ready: 3\r\n  used: 1\r\n  wounded: 1\r\n"
        "conditions: [slowed]\r\n").encode()


def test_document_start_marker_survives(camp):
    path = camp / "characters" / "marked.yaml"
    text = "---\nname: Marked\nskills:\n  stealth: 2\naction_dice:\n  ready: 10   # ten\n  used: 0\nconditions: []\n"
    path.write_text(text)
    ok(camp, "wound", "marked")
    # the comment keeps its column
    assert path.read_text() == text.replace("  ready: 10   # ten\n  used: 0\n", "  ready: 9    # ten\n  used: 0\n  wounded: 1\n")


def test_example_sheet_roll_changes_two_lines(camp):
    path = camp / "characters" / "selka.yaml"
    before = path.read_text()
    ok(camp, "roll", "selka", "stealth", "--dr", "2", "--boost", "2", "--faces", "1,1,1")
    assert diff(before, path.read_text()) == (["  ready: 5\n", "  used: 0\n"], ["  ready: 2\n", "  used: 3\n"])


def test_writes_go_through_a_temp_file_under_narateer(camp, rook, monkeypatch):
    replaced = []
    real_replace = os.replace

    def spy(src, dst, *args, **kwargs):
        folder = kwargs.get("dst_dir_fd")  # the target's folder, opened without following links (G-PRIV-2)
        where = os.readlink(f"/proc/self/fd/{folder}") if folder is not None else os.getcwd()
        replaced.append((os.path.abspath(src), os.path.join(where, dst)))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", spy)
    listing = sorted(p.name for p in (camp / "characters").iterdir())
    ok(camp, "roll", "--force", "rook", "stealth", "--dr", "2", "--faces", "1")
    ok(camp, "condition", "rook", "+slowed")
    ok(camp, "wound", "rook")
    ok(camp, "readiness", "rook", "--write")
    private = str((camp / ".narateer").resolve())
    to_sheet = [(src, dst) for src, dst in replaced if dst == str(rook.resolve())]
    assert len(to_sheet) == 4
    for src, _ in replaced:
        assert os.path.dirname(src) == private, src
    # nothing left beside the sheet, no temp file left in the private folder
    assert sorted(p.name for p in (camp / "characters").iterdir()) == listing
    assert not [p.name for p in (camp / ".narateer").iterdir() if p.name.endswith(".tmp")]
    assert stat.S_IMODE(rook.stat().st_mode) == 0o640


def test_a_refused_roll_leaves_the_sheet_bytes_and_mode(camp, rook):
    os.chmod(rook, 0o600)
    r = run(camp, "roll", "rook", "stealth", "--dr", "2", "--boost", "3")
    assert r.code == 3 and "rook cannot Boost 3" in r.err, r.err
    assert rook.read_text() == RICH
    assert stat.S_IMODE(rook.stat().st_mode) == 0o600


def test_explicit_null_is_a_flag_of_the_host_dump_and_leaves_other_dumps_alone():
    from narateer_cli.store import yamlio

    doc = yamlio.load_rt("name: Mira  # hero\nconcentrating: null\n", "t")
    doc["owner"] = None
    assert yamlio.dump_rt(doc, "name: Mira\n", explicit_null=True) == \
        "name: Mira  # hero\nconcentrating: null\nowner: null\n"
    assert yamlio.dump_rt(doc, "name: Mira\n") == "name: Mira  # hero\nconcentrating:\nowner:\n"
