"""`card show` in the chapter's card layout, each part said in words (`card show` was hard to read).

The chapter lays a card out as name, cost, tier and source, ATK/DC, range, cooldown, properties, details.
`card show` keeps that order and says each part as a sentence fragment: what is rolled against what (or who
saves, with what), how far and how many targets, the cooldown and charges, the damage on a hit or a failed
save and what a resisted save still takes, a Reaction's trigger and an Evolutionary card's outcomes.
With `--for CHAR` the character's own numbers are beside the words. `--json` is the card's data as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ok, run

ORNAMENT = "─── ⋅ ∙ ∘ ☽ ◯ ☾ ∘ ⋅ ⋅ ───"


@pytest.fixture
def d20(tmp_path) -> Path:
    root = tmp_path / "d20"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    return root


def shown(root, *args) -> list[str]:
    r = run(root, "card", "show", *args)
    assert r.code == 0 and r.err == "", r.err
    return r.out.splitlines()


def test_an_attack_card_in_words(d20):
    assert shown(d20, "strike") == [
        "Strike",
        "Cost: 2 AP",
        "✦ . ⁺ Tier 1 – Blade Discipline . ⁺ ✦",
        "ATK/DC: attack roll, d20 + FIN ATK against each target's Physical AC",
        "Range: Reach, one target within reach",
        "Cooldown: none",
        "Properties: Mobility",
        "On a hit: 12 [+2] physical damage (Overkill: +2 for each point above the AC)",
        "A committed blade stroke that leaves no guard behind.",
        ORNAMENT]


def test_a_card_for_a_character_gives_its_numbers_beside_the_words(d20):
    lines = shown(d20, "strike", "--for", "mira")
    assert lines[3] == "ATK/DC: attack roll, d20 + FIN ATK (+4 for mira) against each target's Physical AC"
    assert lines[4] == "Range: Reach, one target within reach (1 m for mira)"
    assert lines[-2:] == ["For mira: ready", ORNAMENT]
    assert shown(d20, "stun-word", "--for", "mira")[3] == (
        "ATK/DC: Mental DC (11 for mira), Mind + Concentration; "
        "each target saves with d20 + the better of its KNO and WIL bonuses")  # W-6: 6 + 5


def test_a_dc_card_says_who_saves_and_what_a_resisted_save_takes(d20):
    lines = shown(d20, "shock-grip")
    assert lines[3] == ("ATK/DC: Physical DC, Body + Concentration; "
                        "each target saves with d20 + the better of its FIN and PHY bonuses")
    assert "On a failed save: 2d6 lightning damage; on a resisted save: half, rounded down" in lines
    assert "Properties: Touch, Arcane" in lines
    stun = shown(d20, "stun-word")
    assert "Range: Vocal, one target at any distance that can hear the performer" in stun
    assert "Cooldown: 2 charges, refilled by a Proper Rest" in stun
    assert "On a failed save: 6 psychic damage; on a resisted save: nothing" in stun


def test_the_campaign_s_rules_change_the_words(d20):
    """A-CARD-SAVE and A-CARD-ATTR are read, not assumed: `card_only` saves with a bare d20, and an attribute
    moved to the other group meets the other AC."""
    config = d20 / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n  save_bonus: card_only\n"
                      "  attributes: {mind: [kno, wil, fin], body: [phy]}\n")
    assert shown(d20, "stun-word")[3] == "ATK/DC: Mental DC, Mind + Concentration; each target saves with a d20 alone"
    assert shown(d20, "strike")[3] == "ATK/DC: attack roll, d20 + FIN ATK against each target's Mental AC"


def test_self_area_concentration_reaction_and_evolutionary_cards_in_words(d20):
    hymn = shown(d20, "rally-hymn")
    assert hymn[3:7] == [
        "ATK/DC: none: no roll, it lands on every legal target",
        "Range: Self and every creature within 5 m (the area moves along)",
        "Cooldown: 1 hour before it can be performed again, counted from when Concentration drops",
        "Properties: Concentration (up to 10 minutes)"]
    assert "Trigger: a melee attack is declared against you" in shown(d20, "parry")
    surge = shown(d20, "wild-surge", "--for", "mira")
    assert surge[4] == "Range: 15 m, one target up to 15 m away"
    start = surge.index("Evolutionary: d20 against the Augmentor (12 for mira)")
    assert surge[start + 1:start + 3] == ["  on a success: the surge obeys and strikes true",
                                          "  on a failure: the surge fizzles into sparks, and no target is resolved"]
    assert "Range: Sight, one target at any distance that the performer can see" in shown(d20, "long-shot")
    assert "Range: Reach, one target within reach +1 m (2 m for tor)" in shown(d20, "peck", "--for", "tor")


def test_every_example_card_reads_in_the_chapter_s_order_and_json_keeps_its_data(d20):
    order = ["Cost: ", "✦ ", "ATK/DC: ", "Range: ", "Cooldown: "]
    for path in sorted((d20 / "actions").glob("*.yaml")):
        lines = shown(d20, path.stem)
        assert [line[:len(head)] for line, head in zip(lines[1:6], order)] == order, lines
        assert lines[-1] == ORNAMENT and not any(line in ("None", "ATK/DC", "Range", "Cooldown") for line in lines)
        data = ok(d20, "card", "show", path.stem)
        assert data["layout"].splitlines() == lines and data["id"] == path.stem
        assert set(data) >= {"summary", "status", "blocked_by", "for", "kind", "damage", "overkill", "on_save"}
    assert ok(d20, "card", "show", "strike")["summary"] == {"cost": "2 AP", "atk_dc": "FIN ATK vs Physical AC",
                                                             "range": "Reach", "cooldown": "None"}
    assert json.loads(run(d20, "--json", "card", "show", "stun-word").out)["on_save"] == "none"


def test_the_game_s_readme_shows_what_card_show_prints(d20):
    readme = (Path(__file__).resolve().parents[3] / "narateer_cli" / "systems" / "d20_cards" / "README.md").read_text()
    block = readme.split("`narateer card show strike --for mira` lays it out", 1)[1].split("```text\n", 1)[1]
    assert block.split("```", 1)[0].splitlines() == shown(d20, "strike", "--for", "mira")
