"""T3-PANEL in real headless Chromium: on the Guide's screen each game's main verbs show their common fields
and whatever they need, the rest sit inside a closed "More options", no form of any verb shows a rule id, and
a form filled in only through the fields in sight still runs the action.

With NARATEER_SCREENSHOTS=1 it also writes each game's Guide's screen, party's page and a player's page to
tests/artifacts/ (guide-GAME.png and party-GAME.png at a desktop's width, guide-GAME-phone.png and
player-GAME.png at a phone's), the pictures kept with the project: `make screenshots` regenerates them."""

from __future__ import annotations

import json
import os

import pytest

from tests.conftest import ok, run
from tests.test_ids_resolve import ID

from . import scenes
from .conftest import IN_BROWSER, Server, new_browser, poll, shot
from .test_panel import MAIN

pytestmark = IN_BROWSER

# per game: the party, the encounter, whose activation it is, and one action typed only into the fields in
# sight (verb, {field: value}, words its answer says)
GAMES = {
    "narateer": (["selka", "mira"], ["brawl", "selka", "mira", "sentry"], "selka",
                 [("roll", {"char": "selka", "skill": "stealth", "dr": "1", "faces": "2"}, "selka rolls Stealth"),
                  ("hide", {"char": "selka", "observers": "sentry", "boost": "1", "faces": "2,2"}, "hides")]),
    "open-adventure": (["warheart", "amicus"], ["gate", "warheart", "amicus", "orc", "--reaction", "warheart=9",
                                                "--reaction", "amicus=7"], "warheart",
                       [("roll", {"char": "warheart", "use": "strength", "ds": "7", "faces": "7"}, "warheart: strength")]),
    "d20-cards": (["mira", "tor"], ["fight", "mira", "tor", "bandit"], "mira",
                  [("act", {"char": "mira", "card": "strike", "target": "bandit", "faces": "15"}, "mira performs Strike")]),
}


def _campaign(tmp_path, game: str):
    party, encounter, first, _ = GAMES[game]
    camp = scenes.new_campaign(tmp_path / game, game, party)
    ok(camp, "encounter", "new", *encounter)
    ok(camp, "turn", "start", first)
    return camp


def _pick(driver, verb: str):
    from selenium.webdriver.support.ui import Select

    poll(lambda: driver.find_elements("id", "act-verb"), timeout=30)
    Select(driver.find_element("id", "act-verb")).select_by_visible_text(verb)
    poll(lambda: driver.find_elements("css selector", f"#form-{verb.replace(' ', '-')} [data-name]"), timeout=30)


def _laid_out(driver) -> dict:
    """name -> (shown, inside the "more"), for every field of the form drawn."""
    return {name: (shown, folded) for name, shown, folded in driver.execute_script("""
        return [...document.querySelectorAll('#act-form [data-name]')].map(i => [i.getAttribute('data-name'),
            i.checkVisibility(), !!i.closest('details.more-options')])""")}


def _result(driver) -> str:
    return driver.execute_script("return document.getElementById('act-result').textContent")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_T3_PANEL_the_main_verbs_show_their_common_fields_and_fold_the_rest_and_still_act(tmp_path, game):
    camp = _campaign(tmp_path, game)
    srv = Server(camp, "--act")
    driver = None
    try:
        status, _, body = srv.get("/guide/forms", headers={"X-Narateer-Token": srv.token})
        assert status == 200
        sent = {form["verb"]: form for form in json.loads(body)}
        driver = new_browser(1280, 1000)
        driver.get(f"{srv.url}/guide?token={srv.token}")
        for verb in MAIN[game]:
            _pick(driver, verb)
            drawn = _laid_out(driver)
            fields = [f for f in sent[verb]["fields"] if f["name"] != "dry_run"]
            assert set(drawn) == {f["name"] for f in fields}, verb
            assert driver.execute_script("var d = document.querySelector('#act-form details.more-options');"
                                         "return d !== null && !d.open"), verb  # there, and closed
            for f in fields:
                shown, folded = drawn[f["name"]]
                assert (shown, folded) == (not f["more"], f["more"]), (verb, f["name"], f["more"])
                if f["required"] or f.get("needed"):
                    assert shown, (verb, f["name"])
            labels = driver.execute_script(
                "return [...document.querySelectorAll('#act-form .field .label')].map(s => s.textContent)")
            assert all(label and not label.startswith("-") for label in labels), labels
        # every verb's form, as drawn: no rule id in any word of it
        said = driver.execute_script("""var pick = document.getElementById('act-verb'), out = [];
            for (var i = 0; i < pick.options.length; i++) {
              pick.value = String(i); pick.dispatchEvent(new Event('change'));
              out.push(document.getElementById('act-form').textContent); }
            return out""")
        assert len(said) == len(sent) and not [t for t in said if ID.search(t)]
        # filled in through the fields in sight only, the form runs the action
        for verb, typed, words in GAMES[game][3]:
            driver.get(f"{srv.url}/guide")
            _pick(driver, verb)
            for name, value in typed.items():
                box = driver.find_element("css selector", f"#act-form [data-name='{name}']")
                assert box.is_displayed(), (verb, name)
                box.clear()
                box.send_keys(value)
            driver.find_element("id", "act-run").click()
            poll(lambda: driver.execute_script("return document.body.getAttribute('data-acted')")
                 and _result(driver) != "\u2026", timeout=30)
            assert words in _result(driver), _result(driver)
            log = next((camp / "encounters").glob("*.log.yaml"))
            assert json.loads(log.read_text().splitlines()[-1][2:])["command"] == verb
        assert run(camp, "verify").code == 0 and run(camp, "check").code == 0
        blocked = [e for e in driver.get_log("browser") if "Content Security Policy" in e.get("message", "")]
        assert not blocked, blocked
    finally:
        if driver is not None:
            driver.quit()
        srv.stop()


def _full_page(driver, width: int):
    """The window as wide as `width` and as tall as the page, for one picture of all of it."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
    tall = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": max(600, tall), "deviceScaleFactor": 1, "mobile": width < 600})


@pytest.mark.skipif(not os.environ.get("NARATEER_SCREENSHOTS"), reason="pictures only when asked: NARATEER_SCREENSHOTS=1")
@pytest.mark.parametrize("game", sorted(scenes.SCENES))
def test_T3_PANEL_screenshots_of_each_games_guides_screen_party_and_player(tmp_path, game):
    camp = scenes.SCENES[game](tmp_path / game)
    srv = Server(camp, "--act")
    driver = None
    try:
        driver = new_browser(1280, 900)
        for name, url, width, ready in (
                (f"guide-{game}", f"{srv.url}/guide?token={srv.token}", 1280, "#act-form [data-name]"),
                (f"guide-{game}-phone", f"{srv.url}/guide", 400, "#act-form [data-name]"),
                (f"party-{game}", srv.url + "/", 1280, "#legend"),
                (f"player-{game}", f"{srv.url}/play?token={next(iter(srv.players.values()))}", 400,
                 "#act-now p.now")):  # whose turn it is (an Open Adventure player answers the Guide's checks)
            _full_page(driver, width)
            driver.get(url)
            poll(lambda: driver.find_elements("css selector", ready), timeout=30)
            poll(lambda: driver.find_elements("css selector", "#legend"), timeout=30)
            _full_page(driver, width)
            assert shot(driver, name).stat().st_size > 0
    finally:
        if driver is not None:
            driver.quit()
        srv.stop()
