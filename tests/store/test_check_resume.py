"""`check` right after a write reads only what was appended since the last kept check (SP4-1): it says exactly
what a check with no cache says, it finds a problem in an appended entry, and anything that is not a pure
append (a rewrite of an earlier line, a cut, other rules) is a full check. Costs are counted in log lines
parsed, never in wall time."""

from __future__ import annotations

import json
import shutil

import pytest

from narateer_cli.store import loglines, private, resume
from tests.biglogs import LOG, PLAYS, BigLog
from tests.conftest import ok, run

GAMES = list(PLAYS)


class Parsed:
    """How many log lines the commands run while counting parse (every reader of a log parses through one
    function)."""

    def __init__(self, monkeypatch):
        self.count = 0
        real = loglines._parse_raw

        def counted(raw):
            self.count += 1
            return real(raw)

        monkeypatch.setattr(loglines, "_parse_raw", counted)

    def check(self, camp):
        """(exit status, stdout, stderr) of `check --json`, and the lines it parsed."""
        before = self.count
        r = run(camp, "--json", "check")
        return (r.code, r.out, r.err), self.count - before


def cold(camp):
    """`check` with no kept state at all (as in a fresh clone); what it keeps is thrown away too."""
    folder = private.location(camp) / resume.KIND
    saved = folder.with_name("checks-aside")
    shutil.rmtree(saved, ignore_errors=True)
    if folder.exists():
        folder.rename(saved)
    try:
        r = run(camp, "--json", "check")
        return r.code, r.out, r.err
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        if saved.exists():
            saved.rename(folder)


def played(tmp_path, game: str, entries: int) -> BigLog:
    """The game's played log grown to at least `entries`, whole cycles only (the sheets stand where it ends)."""
    log = BigLog(tmp_path / f"{game}-{entries}", game)
    head = len(log.lines) - log.size
    log.grow(head + -(-(entries - head) // log.size) * log.size)
    return log


def write(log: BigLog):
    """One real command of the game's cycle: it appends to the log (and may change a sheet)."""
    _, _, cycle = PLAYS[[g for g in PLAYS if log.root.name.startswith(g)][0]]
    ok(log.root, *cycle[0])


@pytest.mark.parametrize("game", GAMES)
def test_a_check_after_a_write_parses_only_what_was_appended(tmp_path, monkeypatch, game):
    """At 1x and 4x the entries, the check right after a write parses the same few lines; a first check
    parses the whole log."""
    parsed = Parsed(monkeypatch)
    after = {}
    for entries in (150, 600):
        log = played(tmp_path, game, entries)
        first, full = parsed.check(log.root)
        assert first[0] == 0 and json.loads(first[1])["ok"] is True, first
        assert full >= entries
        lines = len(log.path.read_text().splitlines())
        write(log)
        added = len(log.path.read_text().splitlines()) - lines
        assert added >= 1
        got, after[entries] = parsed.check(log.root)
        assert got == cold(log.root)
        assert after[entries] <= added
    assert after[150] == after[600]


@pytest.mark.parametrize("game", GAMES)
def test_a_problem_in_an_appended_entry_is_found(tmp_path, monkeypatch, game):
    """Appended by hand: an entry whose seq does not continue its parent's, then (in another log) one that
    repeats an early entry's id, which only the ids the kept state holds can tell."""
    parsed = Parsed(monkeypatch)
    for n, wrong in enumerate(("seq", "id")):
        log = played(tmp_path / str(n), game, 300)
        assert parsed.check(log.root)[0][0] == 0
        lines = log.path.read_text().splitlines()
        last, early = json.loads(lines[-1][2:]), json.loads(lines[2][2:])
        copy = {**last, "seq": last["seq"] + 1, "id": "f" * 12, "parent": last["id"]}
        if wrong == "seq":
            copy["seq"] += 1
        else:
            copy["id"] = early["id"]
        with open(log.path, "a", encoding="utf-8") as fh:
            fh.write(loglines.entry_line(copy))
        got, count = parsed.check(log.root)
        assert count == 1  # resumed: only the appended line
        assert got[0] == 1 and f"{LOG}:{len(lines) + 1}:" in got[1], got
        assert got == cold(log.root)


def _rewrite(log: BigLog):
    """An earlier line edited in place (its time, the length kept), then a real write appends."""
    lines = log.path.read_text().splitlines(keepends=True)
    entry = json.loads(lines[5][2:])
    entry["at"] = "2020-01-01T00:00:00Z"
    lines[5] = loglines.entry_line(entry)
    log.path.write_text("".join(lines))
    write(log)


def _cut(log: BigLog):
    """The log cut back by its last entry."""
    lines = log.path.read_text().splitlines(keepends=True)
    log.path.write_text("".join(lines[:-1]))


def _rules(log: BigLog):
    """Other settings: a change of narateer.yaml that leaves the game as it was."""
    config = log.root / "narateer.yaml"
    config.write_text(config.read_text() + "# settings changed\n")
    write(log)


@pytest.mark.parametrize("change", [_rewrite, _cut, _rules])
@pytest.mark.parametrize("game", GAMES)
def test_anything_but_an_append_is_a_full_check(tmp_path, monkeypatch, game, change):
    parsed = Parsed(monkeypatch)
    log = played(tmp_path, game, 300)
    assert parsed.check(log.root)[0][0] == 0
    change(log)
    got, count = parsed.check(log.root)
    assert count >= len(log.path.read_text().splitlines())  # every line of the log as it is now
    assert got == cold(log.root)


@pytest.mark.parametrize("game", ["narateer"])
def test_a_rewrite_that_breaks_an_earlier_entry_is_found(tmp_path, monkeypatch, game):
    """A hand edit of an early entry followed by a real write: the kept state no longer covers the log's start,
    so the check reads it all and names the edited line."""
    parsed = Parsed(monkeypatch)
    log = played(tmp_path, game, 300)
    assert parsed.check(log.root)[0][0] == 0
    lines = log.path.read_text().splitlines(keepends=True)
    entry = json.loads(lines[20][2:])
    entry["seq"] += 5
    lines[20] = loglines.entry_line(entry)
    log.path.write_text("".join(lines))
    ok(log.root, "turn", "end")
    got, count = parsed.check(log.root)
    assert count >= 21 and got[0] == 1 and f"{LOG}:21:" in got[1], got
    assert got == cold(log.root)


def test_a_kept_record_sealed_elsewhere_is_not_used(tmp_path, monkeypatch):
    parsed = Parsed(monkeypatch)
    log = played(tmp_path, "narateer", 200)
    assert parsed.check(log.root)[0][0] == 0
    path = private.location(log.root) / resume.KIND / "log-fight.log.yaml.json"
    record = json.loads(path.read_text())
    record["mac"] = "0" * len(record["mac"])
    path.write_text(json.dumps(record))
    write(log)
    got, count = parsed.check(log.root)
    assert count >= 200 and got == cold(log.root)
