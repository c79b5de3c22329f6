"""T3-ZERO on the page (`serve --act`): a check with no chance to succeed is not rolled from a page either; the
answer carries the question (`confirm`) that act.js asks before it sends the same words again with `--force`.
Nothing is written until then."""

from __future__ import annotations

import pytest

from tests.conftest import run

from .test_act import act, files

pytest.importorskip("uvicorn", reason="the serve extra is not installed: pip install -e '.[test,serve]'")


def test_T3_ZERO_the_guides_page_asks_then_rolls_with_force(acting, party_camp):
    argv = ["roll", "selka", "stealth", "--dr", "30", "--faces", "2"]
    before = files(party_camp)
    status, answer = act(acting, argv)
    assert status == 422 and not answer["ok"] and answer["exit"] == 3, answer
    assert answer["confirm"] == ("No chance to succeed (0%): selka's stealth check against DR 30 (1 die shows at "
                                 "most 2, and the total must exceed 30). Roll anyway?")
    assert answer["ask"] is None and files(party_camp) == before
    status, answer = act(acting, [*argv, "--force"])  # what the page sends once the question is answered yes
    assert status == 200 and answer["ok"], answer
    assert answer["json"]["faces"] == [2] and answer["json"]["success"] is False
    assert run(party_camp, "verify").code == 0


def test_T3_ZERO_a_check_with_a_chance_is_not_questioned_on_the_page(acting, party_camp):
    status, answer = act(acting, ["roll", "selka", "stealth", "--dr", "1", "--faces", "2"])
    assert status == 200 and answer["ok"] and answer["json"]["success"] is True, answer


def test_T3_ZERO_a_players_page_asks_too_and_the_player_may_force(acting, party_camp):
    selka = acting.players["selka"]
    argv = ["hide", "selka", "--from", "sentry", "--faces", "1"]  # 1 die against sentry's Observation Readiness
    before = files(party_camp)
    status, answer = act(acting, argv, token=selka, path="/play/act")
    assert status == 422 and answer["exit"] == 3 and answer["confirm"].startswith("No chance to succeed (0%)"), answer
    assert files(party_camp) == before
    status, answer = act(acting, [*argv, "--force"], token=selka, path="/play/act")
    assert status == 200 and answer["ok"], answer
