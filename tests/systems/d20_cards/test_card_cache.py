"""d20-cards keeps each card's parse in the private cache: used while
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
    err = refused(d20, 2, "odds", "mira", "strike", "--target", "bandit",
                  contains="range must be one of reach, sight, vocal, self, not 'rech'")
    assert "actions/strike.yaml:6:" in err, err


def test_a_sheet_edit_from_the_cached_parse_writes_what_the_key_by_key_edit_writes(d20):
    """A d20 sheet's changed numbers are replaced where the cached parse says they stand (no round trip);
    the text is the one store/edit.py writes from the document, numbers later on the same line included."""
    from narateer_cli.store import private, yamlio
    from narateer_cli.store.campaign import Campaign
    from narateer_cli.store.edit import edit

    ok(d20, "show", "mira")  # the parse is cached
    cases = [{("hp",): {"current": 5, "max": 30}},
             {("hp",): {"current": 123456, "max": 7}, ("resources",): {"ap": {"current": 0, "max": 3}}},
             {("hp", "max"): 31, ("concentration",): 12},
             {("resources",): {"ap": {"current": 1, "max": 10}}},
             {("hp",): {"current": 5}}]  # a key left out: the key-by-key edit removes it
    for edits in cases:
        private.forget()
        sf = Campaign(d20).load("mira")
        assert sf._doc is None  # from the cache
        label = "characters/mira.yaml"
        null = Campaign(d20).system.explicit_null
        expected, _ = edit(sf.text, yamlio.load_rt(sf.text, label), edits, label, null)
        assert sf.edit(edits, null) == expected, edits
        assert sf.plain == yamlio.to_plain(yamlio.load_rt(expected, label))
        follow = {("hp", "max"): 1000, ("resources",): {"ap": {"current": 2, "max": 3}}}  # from the kept parse
        again, _ = edit(expected, yamlio.load_rt(expected, label), follow, label, null)
        assert sf.edit(follow, null) == again, edits
