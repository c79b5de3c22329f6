"""T-LOG rows and the input they take: entry ids printed as the text they are (typed back into unveil and
undo), --since only for dates and times that exist, ids within their stated limit."""

from __future__ import annotations

from narateer_cli.render import encounter_log


def test_ids_that_look_like_numbers_stay_as_written():
    entries = [{"seq": 1, "id": "8449e687bb61", "at": "2026-11-30T10:00:00Z", "actor": "selka", "command": "x"},
               {"seq": 2, "id": "0123e45ffff0", "at": "2026-11-30T10:01:00Z", "actor": "mira", "command": "x"},
               {"seq": 3, "id": "0012345abcde", "at": "2026-11-30T10:02:00Z", "actor": "mira", "command": "x"}]
    rows = encounter_log({"id": "ambush", "entries": entries}).splitlines()[2:]
    assert [row.split()[1] for row in rows] == ["8449e68", "0123e45", "0012345"]


def test_impossible_dates_and_times_are_bad_input(encounter_camp):
    from tests.conftest import refused

    for since in ("2026-13-01", "2026-02-30"):
        refused(encounter_camp, 2, "stats", "--since", since, contains="is not a date")
    for since in ("99:99", "2026-13-45T99:99", "25:00"):
        refused(encounter_camp, 2, "encounter", "log", "--since", since, contains="neither a seq number nor a time")


def test_an_id_too_long_names_the_limit(camp):
    from tests.conftest import refused

    refused(camp, 2, "new", "x" * 65, contains="use 1 to 64 letters, digits, - and _")
