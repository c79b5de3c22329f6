"""T-LOG: `encounter log` prints entry ids as the text they are (they are typed back into unveil and undo)."""

from __future__ import annotations

from narateer_cli.render import encounter_log


def test_ids_that_look_like_numbers_stay_as_written():
    entries = [{"seq": 1, "id": "8449e687bb61", "at": "2026-11-30T10:00:00Z", "actor": "selka", "command": "x"},
               {"seq": 2, "id": "0123e45ffff0", "at": "2026-11-30T10:01:00Z", "actor": "mira", "command": "x"},
               {"seq": 3, "id": "0012345abcde", "at": "2026-11-30T10:02:00Z", "actor": "mira", "command": "x"}]
    rows = encounter_log({"id": "ambush", "entries": entries}).splitlines()[2:]
    assert [row.split()[1] for row in rows] == ["8449e68", "0123e45", "0012345"]
