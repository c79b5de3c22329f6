"""G-LOG-3: verify keeps, per entry, only 8 bytes of its id; parent links, dice snapshots and d20-cards sheet
values are kept for the newest entries only. Duplicate ids and unknown parents are still found however far
back, and a fork whose base has left the kept window is checked less, never reported wrongly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from narateer_cli.store import history, loglines

IDS = st.one_of(st.integers(0, 2**48 - 1).map(lambda n: f"{n:012x}"), st.sampled_from(["seq-1", "seq-2", "ABCDEF012345"]),
                st.text(alphabet="0123456789abcdefx", min_size=11, max_size=13))


@settings(max_examples=60, deadline=None)
@given(added=st.lists(IDS, max_size=60), probes=st.lists(IDS, max_size=20))
def test_ids_remember_exactly_what_was_added(added, probes):
    history.Ids.RUN = 4  # small runs, so that they merge often
    try:
        ids = history.Ids()
        for eid in added:
            ids.add(eid)
        assert all(eid in ids for eid in added)
        assert all((eid in ids) == (eid in set(added)) for eid in probes)
        assert all(len(a) > len(b) for a, b in zip(ids.runs, ids.runs[1:]))
    finally:
        history.Ids.RUN = 4096


def _entry(seq, eid, parent, before, after):
    return {"seq": seq, "id": eid, "parent": parent, "at": "2026-01-01T00:00:00Z", "command": "roll",
            "dice": {"selka": {"before": {"ready": before}, "after": {"ready": after}}}}


def _log(tmp_path, entries):
    path = tmp_path / "x.log.yaml"
    path.write_text("".join(loglines.entry_line(e) for e in entries))
    return path


def _chain(count):
    """`count` entries in one line; selka had 7 ready before the first, 5 after each."""
    return [_entry(n, f"{n:012x}", f"{n - 1:012x}" if n > 1 else None, 7 if n == 1 else 5, 5)
            for n in range(1, count + 1)]


def test_what_verify_keeps_per_entry_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(history, "SNAPSHOTS", 16)
    monkeypatch.setattr(history.Ids, "RUN", 16)
    hist = history.read(_log(tmp_path, _chain(1000)), "x")
    assert hist.problem is None and hist.count == 1000
    assert len(hist.parents) == len(hist.snapshots) == 16
    assert sum(map(len, hist.ids.runs)) + len(hist.ids.recent) == 1000


def test_an_old_duplicate_id_and_an_unknown_parent_are_still_found(tmp_path, monkeypatch):
    monkeypatch.setattr(history, "SNAPSHOTS", 16)
    monkeypatch.setattr(history.Ids, "RUN", 16)
    again = _entry(501, f"{3:012x}", f"{500:012x}", 5, 5)
    hist = history.read(_log(tmp_path, _chain(500) + [again]), "x")
    assert hist.problem and f"id {3:012x} appears twice" in hist.problem.message
    stray = _entry(501, "f" * 12, "e" * 12, 5, 5)
    hist = history.read(_log(tmp_path, _chain(500) + [stray]), "x")
    assert hist.problem and "is not an earlier entry" in hist.problem.message


def test_a_fork_from_beyond_the_kept_window_is_not_reported_wrongly(tmp_path, monkeypatch):
    """A branch that continues from entry 3 of 500: its base's snapshot and parent links are gone, so the
    merge is not checked against it (a walk that stopped at the kept links must not read as "no common
    base", which would take the base as empty and make the merge look like it lost a change)."""
    monkeypatch.setattr(history, "SNAPSHOTS", 16)
    entries = _chain(500)
    entries.append(_entry(501, "b" * 12, f"{3:012x}", 5, 4))
    entries.append({"seq": 502, "id": "c" * 12, "parent": f"{500:012x}", "at": "2026-01-01T00:00:00Z", "command": "merge", "merges": ["b" * 12],
                    "dice": {"selka": {"before": {"ready": 5}, "after": {"ready": 4}}}})
    hist = history.read(_log(tmp_path, entries), "x")
    assert hist.problem is None, hist.problem
    monkeypatch.setattr(history, "SNAPSHOTS", 4096)  # with the base kept, the same merge is checked and holds
    assert history.read(_log(tmp_path, entries), "x").problem is None


def test_d20_cards_keeps_sheet_values_for_the_newest_entries_only(monkeypatch):
    from narateer_cli.systems.d20_cards import SYSTEM, verify
    from narateer_cli.systems.d20_cards.ruleset import build_ruleset

    monkeypatch.setattr(verify, "AFTER_KEPT", 8)
    check = verify.log_checker(build_ruleset(SYSTEM.rules_data(), None, "narateer.yaml"))
    for n in range(1, 200):
        ap = {"before": {"resources": {"ap": {"current": 3}}}, "after": {"resources": {"ap": {"current": 3}}}}
        entry = {"seq": n, "id": f"{n:012x}", "parent": f"{n - 1:012x}" if n > 1 else None, "command": "refresh",
                 "result": {}, "state": {"mira": ap}}
        assert check(entry) is None
    assert len(check.after) == 8
    # a branch from an entry whose values are gone continues from nothing known: no false problem
    fork = {"seq": 200, "id": "b" * 12, "parent": f"{5:012x}", "command": "refresh", "result": {},
            "state": {"mira": {"before": {"resources": {"ap": {"current": 1}}},
                               "after": {"resources": {"ap": {"current": 3}}}}}}
    assert check(fork) is None
    wrong = {**fork, "id": "c" * 12, "parent": f"{199:012x}"}  # from a kept entry: AP 3, not 1
    assert "does not continue" in check(wrong)
