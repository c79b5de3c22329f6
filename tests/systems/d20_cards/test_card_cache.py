"""d20-cards keeps each card's parse in the private cache (SPEC Part 9, "Speed, third round"): used while
the card file is unchanged, read again when it changes, and never used for a card that is broken."""

from __future__ import annotations

from tests.conftest import ok, refused


def test_a_card_is_cached_and_a_cached_card_acts_the_same(d20):
    fresh = ok(d20, "odds", "mira", "strike", "--target", "bandit")
    cached = d20 / ".narateer" / "cards" / "strike.json"
    assert cached.is_file()
    assert ok(d20, "odds", "mira", "strike", "--target", "bandit") == fresh
    assert ok(d20, "show", "mira") == (cached.unlink() or ok(d20, "show", "mira"))


def test_a_changed_card_is_read_again(d20):
    fresh = ok(d20, "odds", "mira", "strike", "--target", "bandit")
    card = d20 / "actions" / "strike.yaml"
    text = card.read_text()
    card.write_text(text.replace("amount: 12", "amount: 13"))  # same size: the checksums tell
    changed = ok(d20, "odds", "mira", "strike", "--target", "bandit")
    assert changed != fresh
    card.write_text(text)
    assert ok(d20, "odds", "mira", "strike", "--target", "bandit") == fresh


def test_a_broken_card_is_said_at_its_line_after_a_cached_read(d20):
    ok(d20, "odds", "mira", "strike", "--target", "bandit")
    card = d20 / "actions" / "strike.yaml"
    card.write_text(card.read_text().replace("range: reach", "range: rech"))
    err = refused(d20, 2, "odds", "mira", "strike", "--target", "bandit")
    assert "actions/strike.yaml:6:" in err, err
