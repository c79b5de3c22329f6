"""The Python API in two threads at once: each call gets exactly its own results and notes, and every action
is in the log. A call's output goes to a sink of its own (narateer_cli/sink.py), never to swapped
process-wide state; the campaign's lock orders the writes of two calls on one campaign.

No test here sleeps: the threads meet at barriers and events, and one call is held, before it emits its
result, until the other thread has finished whole calls of its own."""

from __future__ import annotations

import re
import shutil
import threading

import pytest

from narateer_cli.api import open_campaign
from narateer_cli.commands import common

SECRET = re.compile(r"^narateer: secret roll: the log holds only its commitment \(entry ([0-9a-f]+)\); "
                    r"publish it with `narateer unveil \1`$")
WAIT = 60  # seconds an event may take before the test fails instead of hanging


def _encounter(camp) -> None:
    api = open_campaign(camp)
    api.run("encounter", "new", "e1", "selka", "bandit")
    api.run("turn", "start", "selka")


def _campaigns(camp, tmp_path, shared: bool):
    _encounter(camp)
    if shared:
        return camp, camp
    other = tmp_path / "other"
    shutil.copytree(camp, other)
    return camp, other


def _secret_roll(api):
    """A reaction roll as a secret: its face is 2, and its note names the log entry of its commitment."""
    return api.roll("selka", "stealth", dr=3, faces="2", cost=0, bonus_dice=1, reaction=True, secret=True,
                    force=True)


def _open_roll(api):
    """A reaction roll in the open: its face is 1, and it notes nothing."""
    return api.roll("selka", "stealth", dr=3, faces="1", cost=0, bonus_dice=1, reaction=True, force=True)


def _mine(result, secret: bool) -> str | None:
    """The entry id a secret roll's note names (None for an open roll), once the result is checked to be the
    caller's own: its kind, its face, and exactly its own notes."""
    assert result is not None and result.kind == "roll"
    assert result.to_json()["faces"] == ([2] if secret else [1])
    if not secret:
        assert result.notes == ()
        return None
    assert len(result.notes) == 1, result.notes
    found = SECRET.match(result.notes[0])
    assert found, result.notes
    return found.group(1)


def _log(camp) -> list:
    return open_campaign(camp).run("encounter", "log", "e1").value["entries"]


def _rolls(camp) -> tuple[set, int]:
    """(ids of the secret rolls the log holds, the number of open rolls)."""
    rolls = [e for e in _log(camp) if e["command"] == "roll"]
    return {e["id"] for e in rolls if "commitment" in e}, sum("commitment" not in e for e in rolls)


@pytest.mark.parametrize("shared", [False, True], ids=["two-campaigns", "one-campaign"])
def test_a_call_held_open_while_another_thread_runs_whole_calls_keeps_its_own_output(camp, tmp_path,
                                                                                    monkeypatch, shared):
    """The first thread's secret roll is written and noted, then held before its result is emitted until the
    second thread has run three open rolls from start to end: each thread gets only its own results and
    notes, and the log holds all four rolls."""
    first_camp, second_camp = _campaigns(camp, tmp_path, shared)
    held, released = threading.Event(), threading.Event()
    emit = common.emit

    def held_emit(app, kind, data):
        if threading.current_thread().name == "held":
            held.set()
            assert released.wait(WAIT), "the other thread never finished"
        emit(app, kind, data)

    monkeypatch.setattr(common, "emit", held_emit)
    got: dict = {}

    def first():
        got["held"] = _secret_roll(open_campaign(first_camp))

    def second():
        try:
            assert held.wait(WAIT), "the held call never reached its result"
            got["other"] = [_open_roll(open_campaign(second_camp)) for _ in range(3)]
        finally:
            released.set()

    threads = [threading.Thread(target=first, name="held"), threading.Thread(target=second, name="other")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert set(got) == {"held", "other"}, got  # a thread that failed left its result out
    secret_id = _mine(got["held"], secret=True)
    assert [_mine(r, secret=False) for r in got["other"]] == [None] * 3
    assert _rolls(first_camp)[0] == {secret_id}
    assert _rolls(second_camp)[1] == 3


@pytest.mark.parametrize("shared", [False, True], ids=["two-campaigns", "one-campaign"])
def test_two_threads_calling_at_once_each_get_their_own_results_and_nothing_is_lost(camp, tmp_path, shared):
    """Two threads start together (a barrier) and each makes ten rolls, one thread secret, one open: every
    result is its caller's, every note names one of that caller's own entries, and the logs hold all twenty
    rolls, each secret one under the id its note gave."""
    first_camp, second_camp = _campaigns(camp, tmp_path, shared)
    start = threading.Barrier(2, timeout=WAIT)
    got: dict = {"secret": [], "open": []}

    def player(name, camp_dir, roll):
        api = open_campaign(camp_dir)
        start.wait()
        for _ in range(10):
            got[name].append(roll(api))

    threads = [threading.Thread(target=player, args=("secret", first_camp, _secret_roll)),
               threading.Thread(target=player, args=("open", second_camp, _open_roll))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert [len(got["secret"]), len(got["open"])] == [10, 10]
    secret_ids = {_mine(r, secret=True) for r in got["secret"]}
    assert len(secret_ids) == 10
    assert [_mine(r, secret=False) for r in got["open"]] == [None] * 10
    logged, _ = _rolls(first_camp)
    assert logged == secret_ids
    assert _rolls(second_camp)[1] == 10
