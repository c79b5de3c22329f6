"""T3-LINKS in real headless Chromium: the Guide's screen shows each player's link with its QR code and a copy
button that works under the page's Content-Security-Policy (not one violation reported), and a player's phone, a
second browser session, opens the link at the machine's LAN address (skipped when the machine has none). The
Guide's screen is kept as tests/artifacts/links-guide.png."""

from __future__ import annotations

from narateer_cli.serve import links

from .conftest import IN_BROWSER, Server, new_browser, poll, shot

pytestmark = IN_BROWSER

# set before any script of the page runs (DevTools adds it, outside the page's policy): every violation reported
WATCH_CSP = ("window.__csp = []; document.addEventListener('securitypolicyviolation', function (e) {"
             " window.__csp.push(e.violatedDirective + ' ' + e.blockedURI); });")


def test_t3_links_the_guide_hands_out_a_link_a_phone_opens_at_the_lan_address(party_camp):
    lan = links.lan_address()
    with Server(party_camp, "--act", *(("--lan",) if lan else ())) as srv:
        guide = new_browser()
        try:
            guide.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_CSP})
            guide.get(f"{srv.url}/guide?token={srv.token}")
            poll(lambda: guide.find_elements("css selector", "#links .link-qr svg"), timeout=30)
            codes = guide.find_elements("css selector", "#links .link-qr svg")
            assert len(codes) == len(srv.players)
            assert all(code.size["width"] >= 100 and code.size["height"] == code.size["width"] for code in codes)
            item = guide.find_element("css selector", "#links li[data-player='selka']")
            link = f"{srv.url}/play?token={srv.players['selka']}"
            assert item.find_element("css selector", ".link-url").get_attribute("value") == link
            button = item.find_element("css selector", ".link-copy")
            assert button.is_displayed() and button.text == "Copy link"
            button.click()
            said = poll(lambda: item.find_element("css selector", ".link-copied").text, timeout=10)
            assert said == "Copied", said
            guide.execute_script("document.getElementById('links').scrollIntoView()")
            shot(guide, "links-guide")
            # what the button copied is the link: paste it into a field of the page's own
            from selenium.webdriver.common.keys import Keys

            guide.execute_script("var t = document.createElement('textarea'); t.id = 'pasted';"
                                 " document.body.appendChild(t); t.focus();")
            guide.find_element("id", "pasted").send_keys(Keys.CONTROL, "v")
            pasted = guide.find_element("id", "pasted").get_attribute("value")
            assert pasted == link
            assert guide.execute_script("return window.__csp") == []
        finally:
            guide.quit()
        if not lan:
            import pytest

            pytest.skip("this machine has no address on a local network: the phone part needs one")
        assert srv.url.startswith(f"http://{lan}:")
        phone = new_browser(390, 844)
        try:
            phone.get(link)
            poll(lambda: phone.find_elements("css selector", "#act h2"), timeout=30)
            assert phone.find_element("css selector", "#act h2").text == "Act as selka"
            phone.get(f"{srv.url}/play?token=an-old-link")
            assert "Ask your Guide for a new link" in phone.find_element("tag name", "main").text
            shot(phone, "links-old-link")
        finally:
            phone.quit()
