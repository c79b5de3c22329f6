"""`serve --act` in real headless Chromium, in every game (B-4): the Guide types the faces rolled at the table
into the verb's own form, the party's page in a second browser session shows the action, and a player's
phone-width link acts on its own turn and is refused out of turn. Screenshots of the Guide's screen
mid-action and of the player's view are kept in tests/artifacts/ (act-<game>-guide.png, act-<game>-player.png)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ok, run

from .conftest import IN_BROWSER, Server, new_browser, poll, shot

pytestmark = IN_BROWSER

_DRIVERS: dict = {}  # role -> one Chromium, kept for the module: starting one costs about a second


def _browser(role: str, width: int = 1100, height: int = 900):
    """The module's Chromium for `role` (the party's, the Guide's, a player's phone), at this size, with no
    cookie left from an earlier test."""
    driver = _DRIVERS.get(role)
    if driver is None:
        driver = _DRIVERS[role] = new_browser(width, height)
    else:
        driver.delete_all_cookies()
        driver.set_window_size(width, height)
    return driver


@pytest.fixture(scope="module", autouse=True)
def _quit_browsers():
    yield
    for driver in _DRIVERS.values():
        driver.quit()
    _DRIVERS.clear()

# per game: the party, the encounter, the Guide's action (verb, fields typed, words expected), the player who
# acts first and their action, and a second player who is out of turn
GAMES = {
    "narateer": {
        "party": ["selka", "mira"], "encounter": ["brawl", "selka", "mira", "sentry"], "first": "selka",
        "guide": ("roll", {"char": "sentry", "skill": "observation", "dr": "1", "faces": "2", "reaction": True},
                  "sentry rolls Observation"),
        "player": ("run", "hide", {"observers": "sentry", "boost": "1", "faces": "1,1"}, "selka"),
        "out_of_turn": ("mira", {"observers": "sentry", "faces": "1"}),
    },
    "open-adventure": {
        "party": ["warheart", "amicus"], "encounter": ["gate", "warheart", "amicus", "orc", "--reaction", "warheart=9",
                                                        "--reaction", "amicus=7"], "first": "warheart",
        "guide": ("roll", {"char": "warheart", "use": "strength", "ds": "7", "faces": "7"}, "warheart: strength"),
        "between": ["turn", "end", "--next", "amicus"], "player_first": "amicus",
        # a check's Difficulty Score is the Guide's: the Guide declares it, the player types the dice
        "player": ("answer", ["roll", "amicus", "strength", "--ds", "5"], {"faces": "6"}, "amicus: strength"),
        "out_of_turn": ("warheart", ["roll", "warheart", "coordination", "--ds", "7"], {"faces": "3"}),
    },
    "d20-cards": {
        "party": ["mira", "tor"], "encounter": ["fight", "mira", "tor", "bandit"], "first": "mira",
        "guide": ("damage", {"char": "bandit", "n": "3"}, "bandit"),
        "player": ("run", "act", {"card": "strike", "target": "bandit", "faces": "15"}, "mira performs Strike"),
        "out_of_turn": ("tor", {"card": "quiet-knife", "target": "bandit", "faces": "15"}),
    },
}


def _player_acts(srv, driver, who: str, how: str, what, fields: dict) -> str:
    """`who`'s phone acts: `run` fills in verb `what` unprompted; `answer` answers the Guide's declaration of
    the words `what`. The answer the page shows."""
    from .test_act import post

    if how == "answer":
        status, answer = post(srv, "/guide/declare", {"argv": what, "nonce": f"declare-{who}-{len(what)}"}, srv.token)
        assert status == 200, answer
    driver.get(f"{srv.url}/play?token={srv.players[who]}")
    if how == "run":
        _fill(driver, what, fields)
        assert driver.find_element("css selector", "#act-form [data-name='char']").get_attribute("value") == who
        driver.find_element("id", "act-run").click()
    else:
        poll(lambda: driver.find_elements("css selector", "#act-answer [data-name]"), timeout=30)
        for name, value in fields.items():
            driver.find_element("css selector", f"#act-answer [data-name='{name}']").send_keys(value)
        driver.find_element("id", "act-answer-send").click()
    return _acted(driver, None)


def _campaign(tmp_path, game: str):
    spec = GAMES[game]
    camp = tmp_path / game
    assert run(None, "init", str(camp), "--system", game, "--example").code == 0
    with open(camp / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write(f"party: [{', '.join(spec['party'])}]\n")
    ok(camp, "encounter", "new", *spec["encounter"])
    ok(camp, "turn", "start", spec["first"])
    return camp


def _fill(driver, verb: str, fields: dict):
    """Pick the verb and type each field as a person would (a flag is a tick)."""
    from selenium.webdriver.support.ui import Select

    poll(lambda: driver.find_elements("id", "act-verb"), timeout=30)
    Select(driver.find_element("id", "act-verb")).select_by_visible_text(verb)
    poll(lambda: driver.find_elements("css selector", "#act-form [data-name]"), timeout=30)
    driver.execute_script("var d = document.querySelector('#act-form details'); if (d) { d.open = true; }")
    for name, value in fields.items():
        box = driver.find_element("css selector", f"#act-form [data-name='{name.replace('-', '_')}']")
        if value is True:
            box.click()
        else:
            box.clear()
            box.send_keys(value)


def _result(driver) -> str:
    return driver.execute_script("return document.getElementById('act-result').textContent")


def _acted(driver, since: str | None) -> str:
    """The answer shown once the page has heard back from its POST."""
    poll(lambda: driver.execute_script("return document.body.getAttribute('data-acted')") not in (None, since)
         and _result(driver) != "\u2026", timeout=30)
    return _result(driver)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_guide_and_player_act_from_the_browser(tmp_path, game):
    spec = GAMES[game]
    camp = _campaign(tmp_path, game)
    srv = Server(camp, "--act")
    guide = party = player = None
    try:
        party = _browser("party")
        party.get(srv.url + "/")
        poll(lambda: party.find_elements("css selector", "#main"), timeout=30)
        guide = _browser("guide", 1280, 1000)
        guide.get(f"{srv.url}/guide?token={srv.token}")
        verb, fields, words = spec["guide"]
        _fill(guide, verb, fields)
        shot(guide, f"act-{game}-guide")  # mid-action: the form filled in, not yet sent
        guide.find_element("id", "act-run").click()
        said = _acted(guide, None)
        assert words in said, said
        entry = json.loads((camp / "encounters" / f"{spec['encounter'][0]}.log.yaml").read_text().splitlines()[-1][2:])
        assert entry["command"] == verb and fields["char"] == entry["actor"]
        # the party's page, a second browser session, shows it without a reload
        poll(lambda: fields["char"] in party.execute_script("return document.getElementById('main').textContent"),
             timeout=30)
        # a player's phone: their own turn acts; the next player is refused by the game (exit 3)
        if spec.get("between"):
            ok(camp, *spec["between"])
        first = spec.get("player_first", spec["first"])
        player = _browser("phone", 400, 860)
        how, what, fields, words = spec["player"]
        said = _player_acts(srv, player, first, how, what, fields)
        assert words in said, said
        shot(player, f"act-{game}-player")
        other, *rest = spec["out_of_turn"]
        before = {p.name: p.read_bytes() for p in (camp / "characters").glob("*.yaml")}
        refused = _player_acts(srv, player, other, how, *((what, rest[0]) if how == "run" else rest))
        assert "turn" in refused.lower() or "activation" in refused.lower(), refused
        assert {p.name: p.read_bytes() for p in (camp / "characters").glob("*.yaml")} == before
        assert run(camp, "verify").code == 0 and run(camp, "check").code == 0
    finally:
        srv.stop()


def test_a_player_takes_the_reaction_owed_to_them_from_their_phone(tmp_path):
    """B-2 in Chromium: selka moves; mira's phone says whose turn it is and offers the Opportunity Attack owed
    to her; a tap fills in the verb's own form, she types her face and sends it."""
    camp = _campaign(tmp_path, "narateer")
    srv = Server(camp, "--act")
    phone = None
    try:
        phone = _browser("phone", 400, 860)
        phone.get(f"{srv.url}/play?token={srv.players['mira']}")
        poll(lambda: "selka acts now" in (phone.execute_script(
            "var n = document.getElementById('act-now'); return n ? n.textContent : ''") or ""), timeout=30)
        ok(camp, "move", "selka", "2")  # from the Guide's terminal: the live view refreshes, and the choice appears
        poll(lambda: phone.find_elements("css selector", "#act-now button.choice"), timeout=30)
        phone.find_element("css selector", "#act-now button.choice").click()
        assert phone.find_element("id", "act-verb").get_attribute("value") is not None
        assert phone.find_element("css selector", "#act-form [data-name='mover']").get_attribute("value") == "selka"
        phone.find_element("css selector", "#act-form [data-name='faces']").send_keys("2")
        shot(phone, "act-narateer-player-choice")
        phone.find_element("id", "act-run").click()
        # mira's one die (at most 2) cannot exceed selka's Melee Readiness 2: her phone asks first (T3-ZERO)
        question = poll(lambda: phone.execute_script(
            "var p = document.getElementById('act-ask-what'); return p ? p.textContent : ''"), timeout=30)
        assert question.startswith("No chance to succeed (0%): mira's melee check"), question
        phone.find_element("id", "act-ask-force").click()
        poll(lambda: "opportunity" in _result(phone).lower(), timeout=30)
        poll(lambda: not phone.find_elements("css selector", "#act-now button.choice"), timeout=30)
        assert run(camp, "verify").code == 0
    finally:
        srv.stop()


def test_the_guide_types_each_die_as_the_table_rolls_it(tmp_path):
    """B-1, T2-FACES in Chromium: "Type faces die by die" asks for the two dice of a Boost 1 check, then, as
    Advantage rerolls the Miss, for the Edge Phase's die; only then is the roll written."""
    camp = _campaign(tmp_path, "narateer")
    srv = Server(camp, "--act")
    guide = None
    try:
        guide = _browser("guide", 1280, 1000)
        guide.get(f"{srv.url}/guide?token={srv.token}")
        _fill(guide, "roll", {"char": "selka", "skill": "stealth", "dr": "2", "boost": "1", "advantage": True})
        log = camp / "encounters" / "brawl.log.yaml"
        lines = len(log.read_text().splitlines())
        guide.find_element("id", "act-ask-start").click()
        for face, what in (("0", "die 1 of 2"), ("2", "die 2 of 2"), ("1", "Edge Phase")):
            poll(lambda: what in (guide.execute_script(
                "var p = document.getElementById('act-ask-what'); return p ? p.textContent : ''") or ""), timeout=30)
            if what == "Edge Phase":
                shot(guide, "act-narateer-guide-asks")
            assert len(log.read_text().splitlines()) == lines  # nothing written while a die is awaited
            box = guide.find_element("id", "act-ask-face")
            box.send_keys(face)
            guide.find_element("id", "act-ask-next").click()
        poll(lambda: "Advantage rerolled" in _result(guide), timeout=30)
        assert len(log.read_text().splitlines()) == lines + 1
        assert run(camp, "verify").code == 0
        # the buttons: a secret roll from the form taken back by "Undo"; another published by "Unveil"
        for button, said in (("act-undo", "undid"), ("act-unveil", "unveiled")):
            guide.get(f"{srv.url}/guide")  # a fresh form (the cookie carries the token)
            _fill(guide, "roll", {"char": "selka", "skill": "stealth", "dr": "1", "faces": "1", "secret": True})
            guide.find_element("id", "act-run").click()
            poll(lambda: "commitment" in _result(guide), timeout=30)
            guide.find_element("id", button).click()
            guide.switch_to.alert.accept()  # each asks first: an undo or a published secret cannot be taken back
            poll(lambda: _result(guide).startswith(said), timeout=30)
        assert [json.loads(line[2:])["command"] for line in log.read_text().splitlines()[-3:]] == \
            ["undo", "roll", "unveil"]
        assert run(camp, "verify").code == 0 and run(camp, "check").code == 0
    finally:
        srv.stop()


def test_the_guide_declares_an_attack_and_the_defender_answers_from_their_phone(tmp_path):
    """B-2 in Chromium: the Guide fills in sentry's attack on mira and leaves the Response to her; mira's
    phone shows the answer's own fields (the Response as a choice, its faces), she answers, and the
    exchange runs once."""
    from selenium.webdriver.support.ui import Select

    camp = _campaign(tmp_path, "narateer")
    ok(camp, "turn", "end")
    ok(camp, "turn", "start", "sentry")
    srv = Server(camp, "--act")
    guide = phone = None
    try:
        guide = _browser("guide", 1280, 1000)
        guide.get(f"{srv.url}/guide?token={srv.token}")
        _fill(guide, "exchange", {"attacker": "sentry", "defender": "mira", "faces": "1"})
        guide.find_element("id", "act-declare-defender").click()
        assert "waiting for mira" in _acted(guide, None)
        phone = _browser("phone", 400, 860)
        phone.get(f"{srv.url}/play?token={srv.players['mira']}")
        poll(lambda: phone.find_elements("css selector", "#act-answer [data-name='response']"), timeout=30)
        Select(phone.find_element("css selector", "#act-answer [data-name='response']")).select_by_visible_text("guard")
        phone.find_element("css selector", "#act-answer [data-name='response_faces']").send_keys("2")
        shot(phone, "act-narateer-player-answer")
        phone.find_element("id", "act-answer-send").click()
        said = _acted(phone, None)
        assert "sentry vs mira (guard)" in said, said  # what the party's log says of it
        entry = json.loads((camp / "encounters" / "brawl.log.yaml").read_text().splitlines()[-1][2:])
        assert entry["command"] == "exchange" and entry["declaration"]["response"] == "guard"
        assert run(camp, "verify").code == 0
    finally:
        srv.stop()


ATTACK_PAGE = """<!doctype html><html><body>
<form id="f" method="POST" action="{url}/guide/act" enctype="text/plain">
<input name='{{"argv": ["wound", "selka", "3"], "nonce": "cross-site-form-01", "x": "' value='"}}'></form>
<script>
fetch("{url}/guide/act", {{method: "POST", credentials: "include", mode: "no-cors",
  headers: {{"Content-Type": "text/plain"}},
  body: JSON.stringify({{argv: ["wound", "selka", "3"], nonce: "cross-site-fetch-01"}})}})
  .finally(function () {{ document.title = "fetched"; document.getElementById("f").submit(); }});
</script></body></html>"""


def test_a_page_on_another_origin_cannot_act_with_the_guides_cookie(tmp_path):
    """B-3, B-4 in Chromium: the Guide's browser holds the Guide's cookie; a page from another origin posts a
    form (text/plain, JSON-shaped) and a no-cors fetch to /guide/act: both are refused and nothing is
    written, because an action needs the token in a header, JSON, and this page's own origin."""
    import http.server
    import threading

    camp = _campaign(tmp_path, "narateer")
    srv = Server(camp, "--act")
    page = ATTACK_PAGE.format(url=srv.url).encode()

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args):
            pass

    evil = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=evil.serve_forever, daemon=True).start()
    browser = None
    try:
        before = {p.name: p.read_bytes() for p in (camp / "characters").glob("*.yaml")}
        logs = {p.name: p.read_bytes() for p in (camp / "encounters").glob("*")}
        browser = _browser("party")
        browser.get(f"{srv.url}/guide?token={srv.token}")  # the cookie is set
        poll(lambda: browser.find_elements("id", "act-verb"), timeout=30)
        # another port on the same address: another origin but the same site, so SameSite keeps no cookie back
        browser.get(f"http://127.0.0.1:{evil.server_address[1]}/")
        poll(lambda: "/guide/act" in browser.current_url, timeout=30)  # the form was sent, after the fetch
        assert "X-Narateer-Token" in browser.page_source  # what the server answered the form: 401, no token
        assert {p.name: p.read_bytes() for p in (camp / "characters").glob("*.yaml")} == before
        assert {p.name: p.read_bytes() for p in (camp / "encounters").glob("*")} == logs
    finally:
        evil.shutdown()
        srv.stop()


def test_P2_ASK_1_a_players_phone_is_asked_only_for_their_own_dice(tmp_path):
    """In Chromium: the hexer holds its Ward; mira's phone strikes it with "Type faces die by die" and
    is asked for her attack d20, never the hexer's Concentration d20: the server rolls that one, and the
    answer shows the check made."""
    camp = tmp_path / "d20"
    assert run(None, "init", str(camp), "--system", "d20-cards", "--example").code == 0
    with open(camp / "narateer.yaml", "a", encoding="utf-8") as fh:
        fh.write("party: [mira, tor]\n")
    ok(camp, "encounter", "new", "fight", "mira", "tor", "hexer")
    ok(camp, "turn", "start", "hexer")
    ok(camp, "act", "hexer", "ward")
    ok(camp, "turn", "end", "--next", "mira")
    ok(camp, "turn", "start", "mira")
    srv = Server(camp, "--act")
    try:
        phone = _browser("player", 420, 900)
        phone.get(f"{srv.url}/play?token={srv.players['mira']}")
        _fill(phone, "act", {"card": "strike", "target": "hexer"})
        phone.find_element("id", "act-ask-start").click()
        asked = []

        def asking() -> str:
            return phone.execute_script("var p = document.getElementById('act-ask-what'); return p ? p.textContent : ''") or ""

        for _ in range(6):  # each die the page asks for, typed as the table rolled it, until the action runs
            poll(lambda: asking() not in ("", *asked[-1:]) or "Concentration" in _result(phone), timeout=30)
            if "Concentration" in _result(phone) or not asking():
                break
            asked.append(asking())
            phone.find_element("id", "act-ask-face").send_keys("20")
            phone.find_element("id", "act-ask-next").click()
        assert asked and "attack" in asked[0], asked
        assert not any("Concentration" in what for what in asked), asked
        said = _result(phone)
        assert "Concentration" in said and "mira performs Strike" in said, said
        assert run(camp, "verify").code == 0
    finally:
        srv.stop()


def test_T3_ZERO_the_guides_page_asks_before_a_check_with_no_chance_rolls(tmp_path):
    """In Chromium: a DR no die can beat shows the question, nothing written; "Roll anyway" rolls it."""
    camp = _campaign(tmp_path, "narateer")
    srv = Server(camp, "--act")
    try:
        guide = _browser("guide", 1280, 1000)
        guide.get(f"{srv.url}/guide?token={srv.token}")
        _fill(guide, "roll", {"char": "selka", "skill": "stealth", "dr": "30", "faces": "2"})
        log = camp / "encounters" / "brawl.log.yaml"
        lines = len(log.read_text().splitlines())
        guide.find_element("id", "act-run").click()
        question = poll(lambda: guide.execute_script(
            "var p = document.getElementById('act-ask-what'); return p ? p.textContent : ''"), timeout=30)
        assert question.startswith("No chance to succeed (0%): selka's stealth check against DR 30")
        assert len(log.read_text().splitlines()) == lines  # nothing written while the question waits
        guide.find_element("id", "act-ask-force").click()
        poll(lambda: "vs DR 30" in _result(guide), timeout=30)
        assert len(log.read_text().splitlines()) == lines + 1
        assert run(camp, "verify").code == 0
    finally:
        srv.stop()
