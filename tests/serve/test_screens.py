"""Screenshots of each game's players' page in real headless Chromium (V-5, V-7, V-8): the party's view and
the Guide's, light and dark colour scheme, 1280 and 400 px wide, written to tests/artifacts/ as
`screen-GAME-VIEW-SCHEME-WIDTH.png`, the whole page tall. Each shot also checks what it shows: words in
the log, a legend, the secret marks, HP bars, and that the dark scheme is dark."""

from __future__ import annotations

import pytest

from . import scenes
from .conftest import IN_BROWSER, Server, poll, shot

pytestmark = IN_BROWSER

WIDTHS = (1280, 400)
SCHEMES = ("light", "dark")


def _frame(driver, width: int, height: int, scheme: str):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def _js(driver, script: str, *args):
    return driver.execute_script(script, *args)


def _check_page(driver, game: str, guide: bool):
    log = _js(driver, "return document.getElementById('log').textContent")
    for raw in ("{", "}", "False", "None", "'kind'"):
        assert raw not in log, (game, raw, log)
    assert _js(driver, "return document.querySelectorAll('#legend li').length") > 0
    secret_rows = _js(driver, "return document.querySelectorAll('#log li.secret').length")
    if game == "narateer":
        assert secret_rows == 2
        if not guide:
            assert "observation" not in _js(driver, "return document.body.textContent").lower()
            assert _js(driver, "return document.querySelectorAll('#last-check .roll').length") == 2
    if game == "d20-cards":
        creatures = _js(driver, "return document.querySelectorAll('.who').length")
        meters = _js(driver, "return document.querySelectorAll('.who .meter[role=meter]').length")
        bands = _js(driver, "return [...document.querySelectorAll('.who')].filter(w => w.querySelector('.pool.band')).length")
        # the party sees its own HP as bars, the others' as bands (T3-NPC); the Guide sees every bar
        assert (meters, bands) == ((creatures, 0) if guide else (2, creatures - 2)), (meters, bands, creatures)


@pytest.mark.parametrize("game", sorted(scenes.SCENES))
def test_V8_each_games_page_party_and_guide_light_and_dark_wide_and_narrow(game, browser, tmp_path):
    camp = scenes.SCENES[game](tmp_path / game)
    server = Server(camp)
    try:
        backgrounds = {}
        for guide in (False, True):
            url = f"{server.url}/guide?token={server.token}" if guide else server.url + "/"
            for scheme in SCHEMES:
                for width in WIDTHS:
                    _frame(browser, width, 900, scheme)
                    browser.get(url)
                    poll(lambda: browser.find_elements("css selector", "#legend"), timeout=30)
                    _check_page(browser, game, guide)
                    tall = _js(browser, "return document.documentElement.scrollHeight")
                    _frame(browser, width, max(600, tall), scheme)
                    backgrounds[scheme] = _js(browser, "return getComputedStyle(document.body).backgroundColor")
                    path = shot(browser, f"screen-{game}-{'guide' if guide else 'party'}-{scheme}-{width}")
                    assert path.stat().st_size > 0
        assert backgrounds["light"] != backgrounds["dark"]
        _frame(browser, WIDTHS[0], 900, SCHEMES[0])
        browser.get(server.url + "/stats")  # the luck page: a legend, and `1 check`, never `1 checks`
        poll(lambda: browser.find_elements("css selector", "#legend"), timeout=30)
        assert " 1 checks" not in _js(browser, "return document.body.textContent")
        assert _js(browser, "return document.querySelectorAll('svg.luck:not(.key)').length") > 0
        shot(browser, f"screen-{game}-stats-light-1280")
    finally:
        server.stop()


def test_T3_BARS_a_d20_hp_bar_is_filled_as_far_as_the_hp_go_under_the_pages_own_csp(browser, tmp_path):
    """T3-BARS: the page draws each HP bar's fill without an inline style (its own CSP refuses one), so a
    bar at 13/30 is 43% full, one at 0 and one below 0 are empty, and one at full HP is full; the console
    logs no CSP violation."""
    from tests.conftest import run

    camp = scenes.d20_cards(tmp_path / "bars")
    with (camp / "narateer.yaml").open("a") as config:
        config.write("party_sees: {npc_hp: exact}\n")  # every creature's HP as a bar on the party's page
    hp = {c: run(camp, "--json", "show", c).json["hp"] for c in ("mira", "bandit", "hexer")}
    scenes.play(camp, ["damage", "mira", str(hp["mira"]["current"] - 13), "--concentration-faces", "20"],
                ["damage", "bandit", str(hp["bandit"]["current"])], ["damage", "hexer", str(hp["hexer"]["current"] + 1)])
    server = Server(camp)
    try:
        browser.get(server.url + "/")
        poll(lambda: browser.find_elements("css selector", ".who .meter .fill"), timeout=30)
        bars = _js(browser, """return [...document.querySelectorAll('.who .meter')].map(m => [
            m.getAttribute('aria-label'), m.querySelector('.fill').getBoundingClientRect().width / m.clientWidth])""")
        fills = {label.split()[-1]: fill for label, fill in bars}
        assert abs(fills["13/30"] - 13 / 30) < 0.015, bars
        assert fills[f"0/{hp['bandit']['max']}"] == 0, bars
        assert fills[f"-1/{hp['hexer']['max']}"] == 0, bars
        assert any(label.endswith(f"/{top}") and label.split()[-1] == f"{top}/{top}" and fill > 0.99
                   for label, fill in bars for top in [label.split("/")[-1]]), bars  # tor, unhurt
        blocked = [e for e in browser.get_log("browser") if "Content Security Policy" in e.get("message", "")]
        assert not blocked, blocked
    finally:
        server.stop()
