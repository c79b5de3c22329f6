"""A player's link in a game that gives a player nothing to start alone (Open Adventure: the Guide declares,
the player answers) shows a sentence that says so, in real Chromium, never an empty list of verbs; a game
that does give them verbs (d20 cards: a card) shows the list and not that sentence."""

from __future__ import annotations

from tests.conftest import run

from .conftest import IN_BROWSER, Server, new_browser, poll

pytestmark = IN_BROWSER


def _phone_of(tmp_path, system: str, who: str):
    root = tmp_path / system
    assert run(None, "init", str(root), "--system", system, "--example").code == 0
    return root, who


def test_a_player_with_nothing_to_start_is_told_the_guide_declares(tmp_path):
    for system, who, idle in (("open-adventure", "amicus", True), ("d20-cards", "mira", False)):
        root, who = _phone_of(tmp_path, system, who)
        with Server(root, "--act") as srv:
            phone = new_browser(390, 844)
            try:
                phone.get(f"{srv.url}/play?token={srv.players[who]}")
                poll(lambda: phone.find_elements("id", "act-verb"), timeout=30)
                pick = phone.find_element("id", "act-verb")
                assert pick.is_displayed() is not idle, system
                notes = phone.find_elements("id", "act-none")
                assert bool(notes) is idle, system
                if idle:
                    assert notes[0].is_displayed() and "Your Guide declares your actions" in notes[0].text
            finally:
                phone.quit()
