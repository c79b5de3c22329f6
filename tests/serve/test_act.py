"""`serve --act` over HTTP (B-1..B-4): the Guide's actions and the players' links go through the
one write path, and every attack listed in B-4 is refused with nothing written. The browser itself is in
test_act_browser.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import click
import pytest

from tests.conftest import ok, run

from .conftest import Server

pytest.importorskip("uvicorn", reason="the serve extra is not installed: pip install -e '.[test,serve]'")


def files(camp: Path) -> dict:
    """Every campaign file's bytes (the private folder and git's own left out)."""
    return {str(p.relative_to(camp)): p.read_bytes() for p in sorted(camp.rglob("*"))
            if p.is_file() and ".narateer" not in p.parts and ".git" not in p.parts}


def post(srv: Server, path: str, body, token: str | None, origin: str | None = "own", headers: dict | None = None,
         raw: bytes | None = None, content_type: str = "application/json"):
    """(status, JSON answer or text) of one POST, the way act.js sends it unless told otherwise."""
    sent = {"Content-Type": content_type}
    if token is not None:
        sent["X-Narateer-Token"] = token
    if origin is not None:
        sent["Origin"] = srv.url if origin == "own" else origin
    sent.update(headers or {})
    data = raw if raw is not None else json.dumps(body).encode()
    req = urllib.request.Request(srv.url + path, data=data, method="POST", headers=sent)
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            status, text = resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        status, text = exc.code, exc.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


_nonces = iter(range(10**9))


def act(srv, argv, token=None, path="/guide/act", **kw):
    return post(srv, path, {"argv": argv, "nonce": f"nonce-{next(_nonces):08d}-{os.getpid()}"},
                srv.token if token is None else token, **kw)


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """One acting server for every attack (each checks the files are as they were before it): (server, camp)."""
    from tests.conftest import example_campaign

    camp = example_campaign(tmp_path_factory.mktemp("attacked") / "camp")
    with open(camp / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write("party: [selka, mira]\n")
    ok(camp, "encounter", "new", "brawl", "selka", "mira", "sentry")
    ok(camp, "turn", "start", "selka")
    with Server(camp, "--act") as srv:
        yield srv, camp


def test_without_act_the_page_stays_read_only(party_camp):
    """B-1: no --act, no acting: POST is 405 everywhere, no player links, no forms."""
    with Server(party_camp) as srv:
        before = files(party_camp)
        assert act(srv, ["roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "2"])[0] == 405
        assert srv.players == {}
        assert srv.get("/guide/forms", headers={"X-Narateer-Token": srv.token})[0] == 404
        assert "act.js" not in srv.get(f"/guide?token={srv.token}")[2]
        assert files(party_camp) == before


def test_each_form_is_the_verbs_own_parameters(acting, party_camp):
    """B-1: the roll form lists exactly the click parameters of `narateer roll` (never a second list), the
    --json option aside; a group's verbs appear as `turn start`."""
    from narateer_cli.systems import load_system

    status, headers, body = acting.get("/guide/forms", headers={"X-Narateer-Token": acting.token})
    assert status == 200
    forms = {f["verb"]: f for f in json.loads(body)}
    roll = load_system("narateer").command("roll")
    assert {f["name"] for f in forms["roll"]["fields"]} == {p.name for p in roll.params} - {"as_json"}
    assert forms["roll"]["odds"] and forms["roll"]["rolls"]
    assert "turn start" in forms and "exchange" in forms
    boost = next(f for f in forms["roll"]["fields"] if f["name"] == "boost")
    assert boost["flag"] == "--boost" and boost["role"] == "option"
    assert isinstance(roll, click.Command)


def test_r2_spell_8_the_cast_form_offers_its_odds_and_they_write_nothing(acting, party_camp):
    """R2-SPELL-8: `cast` has the odds button (its --dry-run) on the Guide's page, and the odds write nothing."""
    status, headers, body = acting.get("/guide/forms", headers={"X-Narateer-Token": acting.token})
    forms = {f["verb"]: f for f in json.loads(body)}
    assert status == 200 and forms["cast"]["odds"] and forms["cast"]["rolls"]
    before = files(party_camp)
    status, odds = act(acting, ["cast", "wren", "veil", "--dry-run"])
    assert status == 200 and odds["ok"] and "dry run" in odds["words"], odds
    assert [o["paid_ad"] for o in odds["json"]["options"]] == [1, 2, 3]
    assert files(party_camp) == before


def test_the_guide_rolls_with_typed_faces_through_the_one_write_path(acting, party_camp, tmp_path):
    """B-1: the page's roll is the shell's: the same words, one log entry, verify clean, undoable, and the
    odds first write nothing."""
    before = files(party_camp)
    status, odds = act(acting, ["roll", "selka", "stealth", "--dr", "2", "--dry-run"])
    assert status == 200 and odds["ok"] and "dry run" in odds["words"]
    assert files(party_camp) == before
    status, answer = act(acting, ["roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "2"])
    assert status == 200 and answer["ok"], answer
    assert answer["words"].splitlines()[1] == "selka rolls Stealth vs DR 2"
    assert answer["json"]["faces"] == [2] and answer["json"]["dice_after"] == {"ready": 4, "used": 1}
    log = (party_camp / "encounters" / "brawl.log.yaml").read_text().splitlines()
    assert json.loads(log[-1][2:])["command"] == "roll"
    assert run(party_camp, "verify").code == 0 and run(party_camp, "check").code == 0
    # the shell's words for the same roll are the page's
    shell = run(party_camp, "roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "2")
    assert shell.out.splitlines()[1:4] == answer["words"].splitlines()[1:4]
    status, undone = act(acting, ["undo"])
    status, undone = act(acting, ["undo"])
    assert status == 200 and undone["ok"], undone
    assert files(party_camp)["characters/selka.yaml"] == before["characters/selka.yaml"]


def test_a_bad_action_shows_its_message_and_changes_nothing(acting, party_camp):
    before = files(party_camp)
    status, answer = act(acting, ["roll", "--force", "selka", "stelth", "--dr", "2", "--faces", "2"])
    assert status == 422 and not answer["ok"] and "stealth" in answer["error"] and answer["exit"] == 2
    assert files(party_camp) == before


def test_secret_roll_and_unveil_buttons(acting, party_camp):
    """B-1: unveil is a button (`unveil --all`): a secret roll from the page is sealed, then published."""
    status, answer = act(acting, ["roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "2", "--secret"])
    assert status == 200 and answer["ok"], answer
    status, shown = act(acting, ["unveil", "--all"])
    assert status == 200 and shown["ok"] and "stealth" in shown["words"].lower(), shown
    assert run(party_camp, "verify").code == 0


def test_a_player_acts_on_their_own_turn_and_only_for_themselves(acting, party_camp):
    """B-2: selka's link hides selka in her activation; mira's link is refused out of turn by the game's own
    rules (exit 3) and for another character by the page (403); a player's option is only the actor's own
    (the game's `player_verbs`): a target number, a bonus, another creature's faces are the Guide's; nothing
    is written by a refusal."""
    selka, mira = acting.players["selka"], acting.players["mira"]
    status, answer = act(acting, ["hide", "selka", "--from", "sentry", "--faces", "1", "--force"], token=selka,
                         path="/play/act")
    assert status == 200 and answer["ok"], answer
    assert answer["json"] is None and "selka" in answer["words"]  # the party's words, not the full result
    before = files(party_camp)
    status, answer = act(acting, ["hide", "mira", "--from", "sentry", "--faces", "1"], token=mira, path="/play/act")
    assert status == 422 and answer["exit"] == 3 and "activation" in answer["error"], answer
    status, answer = act(acting, ["hide", "selka", "--from", "sentry", "--faces", "1"], token=mira, path="/play/act")
    assert status == 403 and "mira only" in answer["error"]
    for argv in (["wound", "selka", "1"], ["undo"], ["turn", "end"], ["roll", "--force", "selka", "stealth", "--dr", "2"],
                 ["hide", "selka", "--from", "sentry", "--seed", "7"],
                 ["hide", "selka", "--from", "sentry", "--secret"],
                 ["hide", "selka", "--from", "sentry", "--advantage"],
                 ["hide", "selka", "--from", "sentry", "--observer-faces", "sentry=0"],
                 ["hide", "selka", "--from", "sentry", "--observer-boost=sentry=2"]):
        assert act(acting, argv, token=selka, path="/play/act")[0] == 403, argv
    assert files(party_camp) == before
    status, headers, body = acting.get("/play/forms", headers={"X-Narateer-Token": selka})
    verbs = {f["verb"]: f for f in json.loads(body)}
    assert set(verbs) == {"react", "hide", "search"}
    assert {f["name"] for f in verbs["hide"]["fields"]} == {"char", "observers", "boost", "faces", "reroll_faces", "force"}
    assert not any(form["odds"] for form in verbs.values())


@pytest.mark.parametrize("attack", ["cross-origin", "no-origin", "cross-site-fetch", "no-token", "player-token",
                                    "cookie-only", "form-post", "huge", "replay", "get", "not-a-verb", "admin"])
def test_every_attack_is_refused_and_writes_nothing(attacked, attack):
    """B-3, B-4: each of these is refused before anything runs; the files are byte for byte the same."""
    acting, party_camp = attacked
    before = files(party_camp)
    argv = ["roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "2"]
    body = {"argv": argv, "nonce": f"attack-{attack}-nonce"}
    if attack == "cross-origin":
        status = post(acting, "/guide/act", body, acting.token, origin="http://evil.example")[0]
    elif attack == "no-origin":
        status = post(acting, "/guide/act", body, acting.token, origin=None)[0]
    elif attack == "cross-site-fetch":
        status = post(acting, "/guide/act", body, acting.token, headers={"Sec-Fetch-Site": "cross-site"})[0]
    elif attack == "no-token":
        status = post(acting, "/guide/act", body, None)[0]
    elif attack == "player-token":
        status = post(acting, "/guide/act", body, acting.players["selka"])[0]
    elif attack == "cookie-only":
        status = post(acting, "/guide/act", body, None, headers={"Cookie": f"narateer_guide={acting.token}"})[0]
    elif attack == "form-post":  # what a cross-origin <form> can send
        status = post(acting, "/guide/act", None, acting.token, raw=b"argv=roll", content_type="application/x-www-form-urlencoded")[0]
    elif attack == "huge":
        status = post(acting, "/guide/act", None, acting.token, raw=b'{"argv": ["' + b"x" * 100_000 + b'"]}')[0]
    elif attack == "replay":
        assert post(acting, "/guide/act", body, acting.token)[0] == 200
        before = files(party_camp)
        status = post(acting, "/guide/act", body, acting.token)[0]
    elif attack == "get":
        status = acting.get("/guide/act?argv=roll", headers={"X-Narateer-Token": acting.token})[0]
    elif attack == "not-a-verb":
        status = act(acting, ["--campaign", "/tmp", "roll"])[0]
    else:
        status = act(acting, ["init", "/tmp/elsewhere"])[0]
    expected = {"cross-origin": 403, "no-origin": 403, "cross-site-fetch": 403, "no-token": 401,
                "player-token": 401, "cookie-only": 401, "form-post": 415, "huge": 413, "replay": 409,
                "get": 405, "not-a-verb": 400, "admin": 403}[attack]
    assert status == expected
    assert files(party_camp) == before


def test_fifty_writers_from_the_page_and_the_shell_lose_nothing(acting, party_camp):
    """B-3, B-4: 25 secret rolls posted at once from the page and 25 from shells, all at the same moment:
    each is logged exactly once and verify is clean."""
    log = party_camp / "encounters" / "brawl.log.yaml"
    start = len(log.read_text().splitlines())
    answers, errors = [], []

    def page(i):
        try:
            answers.append(act(acting, ["dice", "2", "--secret"]))
        except Exception as exc:  # noqa: BLE001 - a lost request is the failure this test looks for
            errors.append(exc)

    threads = [threading.Thread(target=page, args=(i,)) for i in range(25)]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    shells = [subprocess.Popen([sys.executable, "-m", "narateer_cli", "--campaign", str(party_camp), "dice", "2",
                                "--secret"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
              for _ in range(25)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    codes = [p.wait(timeout=300) for p in shells]
    assert not errors and codes == [0] * 25, (errors, [p.stderr.read() for p in shells])
    assert [s for s, _ in answers] == [200] * 25, answers
    entries = [json.loads(line[2:]) for line in log.read_text().splitlines()[start:]]
    assert len(entries) == 50 and all(e.get("commitment") for e in entries)
    assert len({e["id"] for e in entries}) == 50
    assert run(party_camp, "verify").code == 0 and run(party_camp, "check").code == 0


def test_a_player_sees_what_is_owed_to_them_alone_and_takes_it(acting, party_camp):
    """B-2: selka moves; mira's screen (and only hers, by her token) offers the Opportunity Attack the rules
    owe her, whose words run as they are; once answered it is gone. selka's own screen says it is her turn."""
    selka, mira = acting.players["selka"], acting.players["mira"]

    def choices(token):
        status, headers, body = acting.get("/play/choices", headers={"X-Narateer-Token": token})
        assert status == 200
        return json.loads(body)

    assert choices(mira)["choices"] == []
    assert act(acting, ["move", "selka", "2"], token=selka, path="/play/act")[0] == 403  # moving is no check
    ok(party_camp, "move", "selka", "2")
    mine = choices(mira)
    assert mine["now"] == "selka acts now." and len(mine["choices"]) == 1
    owed = mine["choices"][0]
    assert owed["argv"] == ["react", "mira", "opportunity", "--against", "selka"] and "selka" in owed["text"]
    assert choices(selka) == {"now": "It is your turn to act.", "choices": []}
    assert acting.get("/play/choices")[0] == 401
    status, answer = act(acting, [*owed["argv"], "--faces", "2", "--force"], token=mira, path="/play/act")
    assert status == 200 and answer["ok"], answer
    assert choices(mira)["choices"] == []
    assert run(party_camp, "verify").code == 0


def test_the_page_asks_for_each_die_the_verb_needs(acting, party_camp):
    """B-1, T2-FACES, T-ASK: `--faces ask` from the page names each die in turn (the Edge Phase's reroll
    once the first faces show a Miss); nothing is written until the last face, and a face the dice cannot
    show is named while the die waits."""
    argv = ["roll", "--force", "selka", "stealth", "--dr", "2", "--boost", "1", "--advantage", "--faces", "ask"]
    before = files(party_camp)
    wanted = []
    for asked in ([], ["0"], ["0", "2"]):
        status, answer = post(acting, "/guide/act", {"argv": argv, "asked": asked, "nonce": f"ask-{len(asked)}-xyz"},
                              acting.token)
        assert status == 422 and not answer["ok"], answer
        wanted.append((answer["ask"]["option"], answer["ask"]["number"], answer["ask"]["count"]))
        assert files(party_camp) == before
    assert wanted == [("--faces", 1, 2), ("--faces", 2, 2), ("--reroll-faces", 1, 1)]
    status, answer = post(acting, "/guide/act", {"argv": argv, "asked": ["0", "2", "7"], "nonce": "ask-bad-face"},
                          acting.token)
    assert status == 422 and "'7' is not a die face" in answer["error"] and files(party_camp) == before
    status, answer = post(acting, "/guide/act", {"argv": argv, "asked": ["0", "2", "1"], "nonce": "ask-done-xyz"},
                          acting.token)
    assert status == 200 and answer["ok"], answer
    assert answer["json"]["faces"] == [0, 2] and answer["json"]["final_faces"] == [1, 2]
    assert "Advantage rerolled" in answer["words"]
    assert run(party_camp, "verify").code == 0


def test_the_guide_declares_an_attack_and_the_defenders_player_answers_it(acting, party_camp):
    """B-2, R-ACT-5: the Guide declares sentry's attack on mira and leaves the Response to mira's link (the
    game's `answers`); only mira's screen shows it, her answer may give only the Response's own options, and
    the whole exchange runs once, as one log entry."""
    selka, mira = acting.players["selka"], acting.players["mira"]
    ok(party_camp, "turn", "end")
    ok(party_camp, "turn", "start", "sentry")
    log = party_camp / "encounters" / "brawl.log.yaml"
    before = files(party_camp)
    assert post(acting, "/guide/declare", {"argv": ["exchange", "sentry", "selka", "--response", "none"],
                                           "nonce": "declare-with-response"}, acting.token)[0] == 400
    assert post(acting, "/guide/declare", {"argv": ["exchange", "mira", "sentry"], "nonce": "declare-npc-defends",
                                           "role": "defender"}, acting.token)[0] == 400  # no link for the sentry
    status, answer = post(acting, "/guide/declare", {"argv": ["exchange", "sentry", "mira", "--faces", "1"],
                                                     "nonce": "declare-sentry-mira"}, acting.token)
    assert status == 200 and "waiting for mira" in answer["words"]
    assert files(party_camp) == before
    status, headers, body = acting.get("/play/choices", headers={"X-Narateer-Token": mira})
    waiting = json.loads(body)["choices"][0]["answer"]
    assert {f["name"] for f in waiting["fields"]} >= {"response", "response_faces"}
    response = next(f for f in waiting["fields"] if f["name"] == "response")
    assert response["choices"] == ["none", "guard", "clash"]
    status, headers, body = acting.get("/play/choices", headers={"X-Narateer-Token": selka})
    assert all("answer" not in c for c in json.loads(body)["choices"])
    assert post(acting, "/play/answer", {"id": waiting["id"], "argv": ["--response", "guard"], "nonce": "selka-answers"},
                selka)[0] == 409  # not hers
    assert post(acting, "/play/answer", {"id": waiting["id"], "argv": ["--response", "guard", "--boost", "3"],
                                         "nonce": "mira-boosts-sentry"}, mira)[0] == 403
    assert files(party_camp) == before
    status, answer = post(acting, "/play/answer", {"id": waiting["id"], "nonce": "mira-answers-guard",
                                                   "argv": ["--response", "guard", "--response-faces", "2"]}, mira)
    assert status == 200 and answer["ok"], answer
    entry = json.loads(log.read_text().splitlines()[-1][2:])
    assert entry["command"] == "exchange" and entry["declaration"]["response"] == "guard"
    assert post(acting, "/play/answer", {"id": waiting["id"], "argv": ["--response", "none"], "nonce": "mira-again"},
                mira)[0] == 409
    assert run(party_camp, "verify").code == 0 and run(party_camp, "check").code == 0


def test_a_hider_reads_her_own_hide_total_and_the_party_does_not(acting, party_camp):
    """A player who hides from their phone is told the total of their own Stealth roll (they rolled it); the
    party's page keeps it unknown, since a later Search must beat it."""
    from narateer_cli.serve import view

    status, answer = act(acting, ["hide", "selka", "--from", "sentry", "--faces", "2", "--force"],
                         token=acting.players["selka"], path="/play/act")
    assert status == 200 and answer["ok"], answer
    assert "selka: Hide 2" in answer["words"] and "Hide ?" not in answer["words"], answer["words"]
    assert answer["json"] is None
    party_words = view.snapshot(party_camp, guide=False)["log"][-1]["text"]
    assert "Hide ?" in party_words and "Hide 2" not in party_words, party_words
