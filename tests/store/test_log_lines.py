"""The log line (G-LOG-1..4): one JSON object per line, old logs still read,
streaming readers with a per-entry limit, a lost newline repaired, a broken line reported."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from narateer_cli.store import history, loglines
from tests.conftest import ok, run, snapshot

LOG = "encounters/ambush.log.yaml"


def _lines(camp):
    return (camp / LOG).read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("char", ["\x7f", "\x85", "\ufffe", "\uffff", "\x01", "\u2028", "\x9f"])
def test_a_character_yaml_forbids_raw_is_escaped(encounter_camp, char):
    """DEL, U+0085, U+FFFE... in --intent used to break the log for good (G-LOG-1)."""
    ok(encounter_camp, "turn", "start", "selka")
    intent = f"open{char}the door"
    ok(encounter_camp, "resolve", "selka", "--intent", intent, "--tier", "trivial", "--auto")
    ok(encounter_camp, "refresh", "selka")
    raw = (encounter_camp / LOG).read_bytes()
    assert char.encode("utf-8") not in raw
    as_yaml = YAML(typ="safe", pure=True).load(raw.decode("utf-8"))
    as_json = [json.loads(line[2:]) for line in _lines(encounter_camp)]
    assert as_yaml == as_json and as_json[1]["declaration"]["intent"] == intent
    assert ok(encounter_camp, "verify")["ok"] is True
    assert ok(encounter_camp, "encounter", "log")["entries"][1]["result"]["intent"] == intent


def test_entry_line_escapes_lone_surrogates_and_keeps_key_order():
    line = loglines.entry_line({"command": "x", "seq": 3, "extra": "a\ud800b", "id": "0" * 12})
    assert line.startswith('- {"seq": 3, "id": "000000000000", "parent": null, "at": null, "command": "x"')
    assert "\\ud800" in line and line.endswith("\n") and line.count("\n") == 1
    line.encode("utf-8")  # no lone surrogate survives raw


OLD_LOG = (
    "- {seq: 1, command: turn start, actor: selka, declaration: {}, result: {encounter: ambush}, "
    "dice: {selka: {before: {ready: 5, used: 0}, after: {ready: 5, used: 0}}}}\n"
    "- {seq: 2, command: refresh, actor: selka, declaration: {count: null}, result: {actor: selka}, "
    "dice: {selka: {before: {ready: 5, used: 0}, after: {ready: 5, used: 0}}}}\n"
)


def test_old_yaml_flow_logs_still_read_with_implicit_ids(encounter_camp):
    """G-LOG-2: an entry without an id is `seq-N`; the first new entry's parent is `seq-N`."""
    (encounter_camp / LOG).write_text(OLD_LOG)
    assert ok(encounter_camp, "verify") == {"encounter": "ambush", "entries": 2, "ok": True, "problem": None,
                                        "secret": [], "lost": []}
    ok(encounter_camp, "refresh", "selka")
    entries = ok(encounter_camp, "encounter", "log")["entries"]
    assert [e["seq"] for e in entries] == [1, 2, 3]
    assert entries[2]["parent"] == "seq-2"
    assert ok(encounter_camp, "verify")["ok"] is True
    assert run(encounter_camp, "check").code == 0


def test_old_block_style_entries_are_read(encounter_camp):
    (encounter_camp / LOG).write_text("- seq: 1\n  command: refresh\n  actor: selka\n  dice: {}\n- seq: 2\n  command: x\n")
    entries = ok(encounter_camp, "encounter", "log")["entries"]
    assert [e["seq"] for e in entries] == [1, 2]
    ok(encounter_camp, "refresh", "selka")
    assert ok(encounter_camp, "encounter", "log")["entries"][-1]["parent"] == "seq-2"


def test_a_lost_final_newline_is_repaired_before_the_next_append(encounter_camp):
    """G-LOG-4: the next entry used to be glued onto the last line."""
    ok(encounter_camp, "refresh", "selka")
    log = encounter_camp / LOG
    log.write_bytes(log.read_bytes().rstrip(b"\n"))
    ok(encounter_camp, "refresh", "selka")
    lines = _lines(encounter_camp)
    assert len(lines) == 2 and all(line.startswith('- {"seq": ') for line in lines)
    assert ok(encounter_camp, "verify")["entries"] == 2


def test_a_broken_line_is_reported_with_its_place_and_stops_writers(encounter_camp):
    ok(encounter_camp, "refresh", "selka")
    ok(encounter_camp, "refresh", "selka")
    log = encounter_camp / LOG
    lines = log.read_text().splitlines(keepends=True)
    log.write_text(lines[0][:40] + "\n" + lines[1])
    r = run(encounter_camp, "--json", "verify")
    assert r.code == 1 and r.json["problem"].startswith(f"{LOG}:1: ")
    check = run(encounter_camp, "--json", "check")
    assert check.code == 1 and any(p.startswith(f"{LOG}:1: ") for p in check.json["problems"])
    # a broken last line: writers refuse (exit 2) and write nothing
    log.write_text(lines[0] + lines[1][:30] + "\n")
    before = snapshot(encounter_camp)
    r = run(encounter_camp, "refresh", "selka")
    assert r.code == 2 and f"{LOG}:2:" in r.err and "G-LOG-4" not in r.out
    assert snapshot(encounter_camp) == before


def test_an_entry_over_the_limit_is_a_problem_of_that_entry_only(encounter_camp, monkeypatch):
    monkeypatch.setattr(loglines, "ENTRY_LIMIT", 2000)
    ok(encounter_camp, "refresh", "selka")
    log = encounter_camp / LOG
    big = json.dumps({"seq": 2, "id": "a" * 12, "parent": None, "pad": "x" * 5000})
    log.write_text(log.read_text() + "- " + big + "\n")
    got = list(loglines.iter_lines(log, LOG))
    assert got[0][1]["seq"] == 1 and got[1][1] is None and "longer than" in got[1][2]


def test_a_fifo_as_log_does_not_hang(encounter_camp):
    os.mkfifo(encounter_camp / LOG)
    r = run(encounter_camp, "--json", "verify")
    assert r.code == 2 and "not a regular file" in r.err
    r = run(encounter_camp, "refresh", "selka")
    assert r.code == 2 and "encounters/ambush.log.yaml: not a regular file" in r.err, r.err


def test_history_finds_forks_and_joins_branches(tmp_path):
    """Two branches from one base: joined, each character holds the base plus both changes."""
    def e(seq, eid, parent, before, after, command="roll"):
        return {"seq": seq, "id": eid, "parent": parent, "at": "2026-01-01T00:00:00Z", "command": command,
                "dice": {"selka": {"before": before, "after": after}}}

    base = e(1, "a" * 12, None, {"ready": 5}, {"ready": 5})
    left = e(2, "b" * 12, "a" * 12, {"ready": 5}, {"ready": 4, "used": 1})
    right = e(2, "c" * 12, "a" * 12, {"ready": 5}, {"ready": 3, "used": 2})
    log = tmp_path / "x.log.yaml"
    log.write_text("".join(loglines.entry_line(x) for x in (base, left, right)))
    hist = history.read(log, "x")
    assert hist.problem is None and sorted(hist.tips) == ["b" * 12, "c" * 12]
    assert hist.final_dice()["selka"] == {"ready": 2, "used": 3}
    lost = {"seq": 3, "id": "d" * 12, "parent": "c" * 12, "at": "2026-01-01T00:00:00Z", "command": "merge",
            "merges": ["b" * 12],
            "dice": {"selka": {"after": {"ready": 3, "used": 2}}}}
    log.write_text(log.read_text() + loglines.entry_line(lost))
    hist = history.read(log, "x")
    assert hist.problem and "lost a change" in hist.problem.message
    assert (hist.problem.file, hist.problem.line, hist.problem.key) == ("x", 4, "d" * 12)


def test_a_long_log_verifies_checks_and_lists(encounter_camp):
    """Logs past ~2,200 entries used to be refused by verify, check and encounter log (G-LOG-3)."""
    ok(encounter_camp, "turn", "start", "sentry")
    ok(encounter_camp, "refresh", "sentry")
    log = encounter_camp / LOG
    lines = log.read_text().splitlines()
    refresh = json.loads(lines[1][2:])
    parent = refresh["id"]
    with open(log, "a", encoding="utf-8") as fh:
        for seq in range(3, 5003):
            entry = {**refresh, "seq": seq, "id": f"{seq:012x}", "parent": parent}
            fh.write(loglines.entry_line(entry))
            parent = entry["id"]
    assert ok(encounter_camp, "verify")["entries"] == 5002
    assert run(encounter_camp, "check").code == 0
    assert [e["seq"] for e in ok(encounter_camp, "encounter", "log", "--last", "2")["entries"]] == [5001, 5002]
    ok(encounter_camp, "refresh", "sentry")
    assert ok(encounter_camp, "encounter", "log", "--last", "1")["entries"][0]["parent"] == f"{5002:012x}"


NUMBER = 2 ** 53  # entries hold numbers within it (store/entry.py)
JSON_TEXT = st.recursive(st.none() | st.booleans() | st.integers()
                         | st.floats(allow_nan=False, allow_infinity=False, min_value=-NUMBER, max_value=NUMBER)
                         | st.text(max_size=8),
                         lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                                    max_size=3), max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=5), JSON_TEXT, max_size=4), st.text(" \t\r\n}{],x\"", max_size=4),
       st.integers(0, 40))
def test_a_log_body_parses_exactly_as_json_loads_does(obj, tail, cut):
    """loglines reads a line's JSON with the C scanner itself (speed): the same value as json.loads, and a
    ValueError exactly where json.loads raises one (extra data, a cut line, trailing whitespace allowed), and
    one for any number past the size limit, which json.loads would read as inf."""
    text = json.dumps(obj)
    for body in (text + tail, text[:cut] + tail):
        if not body.startswith("{"):
            continue
        line = "- " + body + "\n"
        try:
            expected = json.loads(body)
        except ValueError:
            with pytest.raises(ValueError):
                loglines._json_object(body)
            with pytest.raises(ValueError):
                loglines._json_object(line, 2)
        else:
            assert loglines._json_object(body) == expected == loglines._json_object(line, 2)


@pytest.mark.parametrize("number", ["1e999", "-1e999", "NaN", "Infinity", "-Infinity", "1e300"])
def test_a_number_past_the_limit_is_no_entry(number):
    with pytest.raises(ValueError, match="not finite|in size"):
        loglines._json_object('{"seq": 1, "x": %s}' % number)


def test_marks_pass_over_the_whole_one_line_entries_that_hold_none(tmp_path):
    """`stats` reads with `marks` (luck.stats_marks): a whole JSON entry line that holds none of them is passed
    over unparsed; an old YAML flow line, a cut or damaged line, an old block entry, a marked line and a stray
    line read as without marks (a broken one is named)."""
    path = tmp_path / "fight.log.yaml"
    path.write_text('- {"seq": 1, "command": "roll", "result": {"roll_dice": 2}}\n'
                    '- {"seq": 2, "command": "turn start"}\n'
                    '# a comment that says "roll_dice"\n'
                    '- seq: 3\n'
                    '  command: turn end\n'
                    '- {"seq": 4, "command": "roll", "result": {"roll_\n'
                    '- {"seq": 5, "command": "undo", ]}\n'
                    'stray\n'
                    '- {seq: 6, command: roll, result: {roll_dice: 1}}\n'
                    '- {"seq": 7, "command": "note", "note": "s\u00e9lka"}\n', encoding="utf-8")
    marks = (b'"roll_dice"', b'"undo"')
    every = list(loglines.iter_lines(path, "fight"))
    with loglines.Snapshot(path, "fight") as log:
        marked = list(log.lines(marks))
    assert [n for n, _, _ in every] == [1, 2, 4, 6, 7, 8, 9, 10]
    assert marked == [item for item in every if item[0] != 2]
    assert [entry["seq"] for _, entry, _ in marked if entry] == [1, 3, 6, 7]
    assert [n for n, _, problem in marked if problem] == [6, 7, 8]
