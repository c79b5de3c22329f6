"""Acting from the page without a lock around whole actions: the page's `Actions.run` lets a second action run while the
first is still running (the campaign's own lock orders their writes, as from the shell), and each answer is
its own. No sleeps: the first action is held, before its result is emitted, by an event the second sets."""

from __future__ import annotations

import threading

from narateer_cli.commands import common
from narateer_cli.serve.act import Actions

WAIT = 60  # seconds an event may take before the test fails instead of hanging


def test_a_second_action_runs_while_the_first_is_held(party_camp, monkeypatch):
    actions = Actions(party_camp, {})
    held, released = threading.Event(), threading.Event()
    emit = common.emit

    def held_emit(app, kind, data):
        if threading.current_thread().name == "held":
            held.set()
            assert released.wait(WAIT), "the second action never finished"
        emit(app, kind, data)

    monkeypatch.setattr(common, "emit", held_emit)
    answers: dict = {}

    def first():
        answers["held"] = actions.run(["roll", "--force", "selka", "stealth", "--dr", "3", "--faces", "2", "--secret"],
                                      "first-nonce")

    def second():
        try:
            assert held.wait(WAIT), "the first action never reached its result"
            answers["other"] = actions.run(["odds", "4", "--dr", "3"], "second-nonce")
        finally:
            released.set()

    threads = [threading.Thread(target=first, name="held"), threading.Thread(target=second, name="other")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert set(answers) == {"held", "other"}, answers
    held_answer, other = answers["held"], answers["other"]
    assert held_answer["ok"] and held_answer["result"] == "roll" and held_answer["json"]["faces"] == [2]
    assert len(held_answer["stderr"]) == 1 and held_answer["stderr"][0].startswith("narateer: secret roll:")
    assert other["ok"] and other["result"] == "odds" and other["stderr"] == []
    assert other["json"]["dice"] == 4 and other["words"].startswith("4 dice vs DR 3: "), other
