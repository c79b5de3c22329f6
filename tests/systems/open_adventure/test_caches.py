"""Open Adventure's everyday commands read the host's private caches:
each cache is used while its file is unchanged, and a changed file is parsed again."""

from __future__ import annotations

from pathlib import Path

from narateer_cli.store import cache, private
from narateer_cli.store.campaign import Campaign
from tests.conftest import ok, refused


def test_a_sealed_record_with_numbers_as_keys_opens(oa):
    """The chart's rows are keyed by numbers; JSON gives them back as text. The seal is made over what
    `opened` reads back, so the config cache (the ruleset's defaults) is used and not rebuilt each time."""
    private.forget()
    text = private.sealed(oa, "cache", "config/x", {"rows": {1: [6], 2: [8], 10: [6, 6, 6]}})
    assert private.opened(oa, "cache", "config/x", text, quiet=True) == {"rows": {"1": [6], "2": [8], "10": [6, 6, 6]}}


def test_the_config_cache_is_used(oa):
    ok(oa, "odds", "7", "--ds", "9")
    private.forget()
    camp = Campaign(oa)
    key = camp._cache_key()
    data = cache.get(oa, "config", "narateer", key)
    assert data is not None and data["default"]["chart"]["rows"]["2"] == [6]
    assert ok(oa, "odds", "7", "--ds", "9") == ok(oa, "odds", "7", "--ds", "9")


def test_sheets_are_read_through_the_host_cache_and_a_changed_file_is_read_again(oa):
    """`show` and `roll` read a sheet's cached parse while the file is unchanged; a cached parse shows and
    rolls exactly as a fresh one, and an edit by hand (or by a command) is seen at once."""
    fresh = ok(oa, "show", "bloodwind")
    cached = oa / ".narateer" / "sheets" / "bloodwind.json"
    assert cached.is_file()
    assert ok(oa, "show", "bloodwind") == fresh
    assert ok(oa, "roll", "bloodwind", "strength", "--ds", "9", "--seed", "3", "--dry-run") == \
        (cached.unlink() or ok(oa, "roll", "bloodwind", "strength", "--ds", "9", "--seed", "3", "--dry-run"))
    sheet = oa / "characters" / "bloodwind.yaml"
    sheet.write_text(sheet.read_text().replace("strength: 4", "strength: 5"))
    assert ok(oa, "show", "bloodwind") != fresh
    ok(oa, "points", "bloodwind", "body", "-2")
    assert "points: {body: 10, mind: 8, spirit: 9}" in sheet.read_text()
    assert '"body": 10' in cached.read_text()  # the parse of the text just written
    sheet.write_text(sheet.read_text().replace("strength: 5", "strength: 4"))
    assert ok(oa, "show", "bloodwind") != fresh  # the pool moved; the score is back
    sheet.write_text(sheet.read_text().replace("body: 10,", "body: 12,"))
    assert ok(oa, "show", "bloodwind") == fresh


def test_a_broken_sheet_is_said_at_its_line_cached_or_not(oa):
    ok(oa, "show", "bloodwind")
    sheet = oa / "characters" / "bloodwind.yaml"
    sheet.write_text(sheet.read_text().replace("wounds: 0", "wounds: many"))
    err = refused(oa, 2, "show", "bloodwind", contains="wounds must be a whole number, not 'many'")
    assert "characters/bloodwind.yaml:14" in err, err


def _checked_under(oa) -> tuple:
    """(the settings key a sheet's cached parse was checked under, the campaign's settings key now)."""
    from narateer_cli.store import yamlio

    private.forget()
    _, key = yamlio.read_text(oa / "characters" / "bloodwind.yaml", "bloodwind", with_key=True)
    record = cache.get(oa, "sheets", "bloodwind", key)
    return record["rules"], Campaign(oa)._cache_key()


def test_a_sheet_checked_under_changed_settings_is_recorded_as_checked(oa):
    """A cached parse records the settings its schema check passed under. When narateer.yaml changes (as
    `encounter:` does) the next command that reads the sheet checks it again and records that, so the
    commands after it read the parse without checking it once more; what they show is the same."""
    shown = ok(oa, "show", "bloodwind")
    was, now = _checked_under(oa)
    assert was == now
    config = oa / "narateer.yaml"
    config.write_text(config.read_text() + "# the settings file changed\n")
    was, now = _checked_under(oa)
    assert was != now
    assert ok(oa, "show", "bloodwind") == shown
    was, now = _checked_under(oa)
    assert was == now
    assert ok(oa, "show", "bloodwind") == shown
