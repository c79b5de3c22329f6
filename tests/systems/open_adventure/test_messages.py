"""Open Adventure's bad-input messages: one line naming the problem and the fix, the closest known name
when a name is misspelt (S-SYS-5), the file and line of a bad sheet or setting, and no byte written."""

from __future__ import annotations

import pytest

from tests.conftest import ok, refused


def hall(oa):
    ok(oa, "encounter", "new", "hall", "bloodwind", "goblin", "--reaction", "bloodwind=9")


@pytest.mark.parametrize("args", [("encounter", "show", "hal"),
                                  ("roll", "bloodwind", "strength", "--ds", "9", "--in", "hal"),
                                  ("turn", "start", "--in", "hal"),
                                  ("condition", "bloodwind", "+hurt", "--in", "hal")])
def test_a_misspelt_encounter_names_the_closest_and_never_offers_to_create_it_S_SYS_5(oa, args):
    hall(oa)
    err = refused(oa, 2, *args, contains="unknown encounter 'hal'")
    assert "did you mean hall?" in err and "encounter new" not in err


def test_an_unknown_encounter_far_from_any_shows_the_known_and_the_pattern_to_create_one(oa):
    hall(oa)
    err = refused(oa, 2, "encounter", "show", "zzz")
    assert "known: hall" in err and "`narateer encounter new ID CHAR...`" in err and "new zzz" not in err
