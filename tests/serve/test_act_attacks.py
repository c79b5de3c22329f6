"""`serve --act` attacked a second time (B-2, B-3, V-2): what a player's link and odd requests could still do.

Each test is one finding of the review in branch t24r; the ones not fixed there fail until the page refuses
what it describes."""

from __future__ import annotations

import json
import os
import pty
import sys
import threading
import time
import urllib.request

import pytest

from tests.conftest import ok, run

from .conftest import IN_BROWSER, Server
from .test_act import act, files, post

pytest.importorskip("uvicorn", reason="the serve extra is not installed: pip install -e '.[test,serve]'")


def _entries(camp) -> list:
    return [json.loads(line[2:]) for line in (camp / "encounters" / "brawl.log.yaml").read_text().splitlines()]


@pytest.mark.parametrize("argv", [
    # selka attacks mira and chooses mira's Response, spends her dice on its Boost and types her faces
    ["exchange", "selka", "mira", "--response", "clash", "--response-boost", "1", "--faces", "0",
     "--response-faces", "0,0"],
    # a contested check that spends the other side's dice, with faces the player typed for them
    ["roll", "selka", "athletics", "--contested", "mira:athletics", "--other-boost", "1", "--other-faces", "0,0",
     "--faces", "1"],
    # the sentry searches (3 of its dice) with the faces selka chose for it
    ["hide", "selka", "--from", "sentry", "--searching", "sentry", "--observer-boost", "sentry=1",
     "--observer-faces", "sentry=0,0", "--faces", "1"],
])
def test_a_players_link_never_chooses_for_another_participant(acting, party_camp, argv):
    """B-2: 'never another character's': what another participant rolls, pays or chooses is not the player's."""
    before = files(party_camp)
    status, answer = act(acting, argv, token=acting.players["selka"], path="/play/act")
    assert status == 403, answer
    assert files(party_camp) == before


@pytest.mark.parametrize("extra", [["--bonus-dice", "8", "--cost", "0", "--faces", "1,1,1,1,1,1,1,1"],
                                   ["--discount-base", "1", "--faces", "1"]])
def test_a_player_grants_themselves_no_rulings_of_the_guide(acting, party_camp, extra):
    """B-2: free dice, a cost of 0 or a discount are the Guide's rulings, not the player's."""
    before = files(party_camp)
    status, answer = act(acting, ["roll", "selka", "athletics", "--dr", "5", *extra], token=acting.players["selka"], path="/play/act")
    assert status == 403, answer
    assert files(party_camp) == before


def test_a_player_rolls_no_reaction_that_is_not_owed(acting, party_camp):
    """B-2: out of turn only 'a reaction they are owed': mira is owed nothing now, and the Boost on a Reaction
    is the Guide's to allow (A-REACTBOOST)."""
    before = files(party_camp)
    status, answer = act(acting, ["roll", "--force", "mira", "melee", "--dr", "2", "--reaction", "--allow-boost", "--boost", "2",
                                  "--faces", "2,2,2"], token=acting.players["mira"], path="/play/act")
    assert status in (403, 422), answer
    assert files(party_camp) == before


def test_a_players_search_is_never_told_the_recorded_hide_total(camp):
    """V-2: recorded Hide totals are never served, and a creature hidden from the whole party is absent from
    every response the page fetches: neither a player's own forms nor their search's answer name them."""
    with open(camp / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write("party: [selka, mira]\n")
    ok(camp, "encounter", "new", "alley", "selka", "mira", "thief")
    ok(camp, "turn", "start", "thief")
    ok(camp, "hide", "thief", "--from", "selka", "--from", "mira", "--boost", "1", "--faces", "2,2")
    ok(camp, "turn", "end", "--next", "selka")
    ok(camp, "turn", "start", "selka")
    with Server(camp, "--act") as srv:
        selka = srv.players["selka"]
        status, headers, body = srv.get("/play/forms", headers={"X-Narateer-Token": selka})
        assert status == 200 and "thief" not in body
        status, answer = act(srv, ["search", "selka", "--for", "thief", "--faces", "0"], token=selka, path="/play/act")
        assert "Stealth 4" not in json.dumps(answer) and "'total': 4" not in json.dumps(answer), answer


def test_a_secret_declared_action_shows_its_answering_player_no_result(acting, party_camp):
    """P-SECRET, V-2: the Guide declares a secret attack on selka and leaves her the Response; her answer runs it,
    and her link is told no more than the party's log says (no attack faces, no margin, no entry id)."""
    ok(party_camp, "turn", "end", "--next", "sentry")
    ok(party_camp, "turn", "start", "sentry")
    assert post(acting, "/guide/declare", {"argv": ["exchange", "sentry", "selka", "--secret", "--faces", "2"],
                                           "nonce": "declare-secret-01"}, acting.token)[0] == 200
    status, answer = post(acting, "/play/answer", {"id": "declare-secret-01", "nonce": "answer-secret-01",
                                                   "argv": ["--response", "guard", "--response-faces", "1"]},
                          acting.players["selka"])
    assert status == 200 and answer["ok"], answer
    sealed = _entries(party_camp)[-1]
    assert sealed.get("commitment")
    said = json.dumps(answer)
    assert answer.get("json") is None and "margin" not in said and "Hit Margin" not in said, answer
    assert sealed["id"][:12] not in said


def test_two_answers_at_once_run_the_declared_action_once(acting, party_camp):
    """B-3 (a replayed request): the defender's phone sends its answer twice at once (a double tap, a retry):
    the declared exchange runs once, whatever nonces the two requests carry."""
    ok(party_camp, "turn", "end", "--next", "sentry")
    ok(party_camp, "turn", "start", "sentry")
    assert post(acting, "/guide/declare", {"argv": ["exchange", "sentry", "mira", "--skill", "observation",
                                                    "--boost", "1", "--faces", "0,0"], "nonce": "declare-twice-01"}, acting.token)[0] == 200
    start = len(_entries(party_camp))
    answers = []

    def answer(i):
        answers.append(post(acting, "/play/answer", {"id": "declare-twice-01", "nonce": f"answer-twice-{i:04d}",
                                                     "argv": ["--response", "none"]}, acting.players["mira"]))

    threads = [threading.Thread(target=answer, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert sum(1 for status, a in answers if status == 200 and a["ok"]) == 1, answers
    assert len(_entries(party_camp)) == start + 1
    assert run(party_camp, "verify").code == 0


def test_a_deeply_nested_body_is_refused_not_a_server_error(acting, party_camp):
    """B-3: a body within the size limit but nested past Python's recursion limit is a 400 like any other bad
    body, never a 500 with a traceback in the server's log."""
    status, answer = post(acting, "/guide/act", None, acting.token, raw=b'{"argv":' + b"[" * 5000 + b"]" * 5000 + b"}")
    assert status == 400, answer


def test_encounter_log_from_the_guides_screen_shows_its_words(acting, party_camp):
    """B-1: 'the result is shown in the same words as the CLI': `encounter log` printed its table on the
    server's terminal and the page showed nothing."""
    status, answer = act(acting, ["encounter", "log"])
    assert status == 200 and "activation starts" in answer["words"], answer


def test_a_terminal_waiting_for_faces_does_not_freeze_the_party_view(acting, party_camp):
    """B-3, V-1: the Guide's terminal holds the campaign lock while it asks for a face (T-ASK); players keep
    pressing Roll meanwhile. The page's actions wait or are refused, but the party's view keeps answering."""
    pid, fd = pty.fork()
    if pid == 0:  # the Guide's terminal: a roll that asks for its face and is not answered yet
        os.chdir(party_camp)
        os.execv(sys.executable, [sys.executable, "-m", "narateer_cli", "roll", "mira", "melee", "--dr", "1",
                                  "--reaction", "--faces", "ask"])
    try:
        deadline = time.monotonic() + 30
        seen = b""
        while b"die 1 of 1" not in seen and time.monotonic() < deadline:
            seen += os.read(fd, 1000)
        pressed = [threading.Thread(target=lambda: act(acting, ["roll", "selka", "stealth", "--dr", "1"],
                                                       token=acting.players["selka"], path="/play/act"), daemon=True)
                   for _ in range(45)]
        for t in pressed:
            t.start()
        time.sleep(3)
        with urllib.request.urlopen(acting.url + "/data", timeout=15) as resp:  # TimeoutError: the view froze
            assert resp.status == 200
    finally:
        os.write(fd, b"1\n")
        os.waitpid(pid, 0)
        os.close(fd)


@IN_BROWSER
def test_an_open_phone_shows_the_guides_declaration(acting, party_camp):
    """B-2 in Chromium: mira's phone is already open on her link when the Guide declares sentry's attack on her
    (nothing in the files changes, so no `change` event fires): her answer form still appears."""
    from .conftest import new_browser, poll

    ok(party_camp, "turn", "end", "--next", "sentry")
    ok(party_camp, "turn", "start", "sentry")
    phone = new_browser(400, 860)
    try:
        phone.get(f"{acting.url}/play?token={acting.players['mira']}")
        poll(lambda: "sentry acts now" in phone.execute_script(
            "var n = document.getElementById('act-now'); return n ? n.textContent : ''"), timeout=30)
        assert post(acting, "/guide/declare", {"argv": ["exchange", "sentry", "mira", "--faces", "1"],
                                               "nonce": "declare-open-phone"}, acting.token)[0] == 200
        poll(lambda: phone.find_elements("css selector", "#act-answer [data-name='response']"), timeout=30)
    finally:
        phone.quit()
