"""`narateer serve` in a real headless Chromium (V-5): the page loads, a roll made from the command
line appears within 2 s, the creature hidden from the whole party is not in the party page's DOM
while the Guide's page shows it; a screenshot of each view is kept in tests/artifacts/."""

from __future__ import annotations

import time

from tests.conftest import ok, sh

from .conftest import poll, shot


def _text(driver) -> str:
    return driver.execute_script("return document.documentElement.outerHTML")


def _js(driver, selector: str) -> str:
    """An element's text read in one script call (never stale while the page swaps its <main>)."""
    return driver.execute_script("var e = document.querySelector(arguments[0]); return e ? e.textContent : '';",
                                 selector)


def test_party_page_loads_without_the_hidden_creature(server, browser):
    browser.get(server.url + "/")
    poll(lambda: browser.find_elements("css selector", "#p-selka"), timeout=30)
    dom = _text(browser)
    assert "Selka" in dom and "Mira" in dom
    assert "thief" not in dom.lower() and "cutpurse" not in dom.lower()
    assert browser.execute_script("return document.querySelectorAll('#p-selka .dot.ready').length") == 5
    # every response the page fetched (its assets, the event stream, fresh parts) is from this server only
    fetched = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert fetched and all(name.startswith(server.url) for name in fetched)
    shot(browser, "party-view")


def test_a_roll_from_the_command_line_appears_within_two_seconds(server, browser, hidden_camp):
    browser.get(server.url + "/")
    poll(lambda: browser.find_elements("css selector", "#p-selka"), timeout=30)
    ok(hidden_camp, "turn", "end", "--next", "selka")
    ok(hidden_camp, "turn", "start", "selka")
    poll(lambda: browser.find_elements("css selector", "#p-selka.acting"), timeout=10)
    # from another terminal: a separate process, as a player's or the Guide's shell would run it
    rolled = sh(hidden_camp, "roll", "selka", "athletics", "--dr", "2", "--faces", "2")
    done = time.monotonic()
    assert rolled.code == 0, rolled.err
    poll(lambda: "athletics" in _js(browser, "#last-check").lower(), timeout=10, every=0.02)
    assert time.monotonic() - done < 2.0
    assert "thief" not in _text(browser).lower()
    shot(browser, "party-view-after-roll")


def test_guide_page_shows_the_hidden_creature(server, browser):
    browser.get(server.url + "/guide")
    assert "401" in _js(browser, "body")
    browser.get(f"{server.url}/guide?token={server.token}")
    poll(lambda: browser.find_elements("css selector", "#p-thief"), timeout=30)
    assert "Cutpurse" in _js(browser, "#p-thief")
    browser.get(server.url + "/guide")  # the cookie carries the token from now on
    poll(lambda: browser.find_elements("css selector", "#p-thief"), timeout=30)
    shot(browser, "guide-view")


def test_stats_page_draws_svg(server, browser):
    browser.get(server.url + "/stats")
    poll(lambda: browser.find_elements("css selector", "h1"), timeout=30)
    assert "Luck" in browser.title
    shot(browser, "stats-view")
