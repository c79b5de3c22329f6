"""Open Adventure's everyday commands read the host's private caches (SPEC Part 9, "Speed, third round"):
each cache is used while its file is unchanged, and a changed file is parsed again."""

from __future__ import annotations

from pathlib import Path

from narateer_cli.store import cache, private
from narateer_cli.store.campaign import Campaign
from tests.conftest import ok


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
