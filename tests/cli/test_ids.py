"""G-PRIV-5: an id fully matches [A-Za-z0-9_-]{1,64}; a trailing newline is not an id.

`$` in a pattern also matches before a final newline, so `new $'zed\\n'` used to write
`characters/zed\\n.yaml`, a file no command can name. Each game's `new`, `encounter new`
and d20-cards' card ids are refused, exit 2, in one line, with nothing written.
"""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import refused, run

GAMES = ("narateer", "open-adventure", "d20-cards")
BAD_IDS = ("zed\n", "zed\n\n", "\nzed", "z" * 65, "zed\r", "zéd")


def _campaign(tmp_path, system):
    root = tmp_path / system
    assert run(None, "init", str(root), "--system", system, "--example").code == 0
    return root


def _two_ids(root):
    return sorted(p.stem for p in (root / "characters").glob("*.yaml"))[:2]


@pytest.mark.parametrize("system", GAMES)
@pytest.mark.parametrize("bad", BAD_IDS)
def test_new_refuses_an_id_that_is_not_a_full_match(tmp_path, system, bad):
    root = _campaign(tmp_path, system)
    err = refused(root, 2, "new", bad, contains="id")
    assert "not valid" in err and "64 letters" in err


@pytest.mark.parametrize("system", GAMES)
def test_encounter_new_refuses_an_id_with_a_trailing_newline(tmp_path, system):
    root = _campaign(tmp_path, system)
    err = refused(root, 2, "encounter", "new", "fight\n", *_two_ids(root),
                  contains="encounter id 'fight\\n' is not valid")
    assert "encounter id" in err


@pytest.mark.parametrize("system", GAMES)
def test_copying_refuses_a_new_id_with_a_trailing_newline(tmp_path, system):
    root = _campaign(tmp_path, system)
    refused(root, 2, "new", "zed\n", "--from", _two_ids(root)[0], contains="character id 'zed\\n' is not valid")


def test_the_longest_id_is_still_an_id(tmp_path):
    root = _campaign(tmp_path, "narateer")
    assert run(root, "new", "z" * 64).code == 0
    assert (root / "characters" / f"{'z' * 64}.yaml").is_file()


def test_check_reports_a_sheet_file_named_with_a_newline(tmp_path):
    root = _campaign(tmp_path, "narateer")
    shutil.copy(root / "characters" / "selka.yaml", root / "characters" / "zed\n.yaml")
    r = run(root, "check")
    assert r.code == 1
    assert "not a valid character id" in r.out + r.err


def test_a_card_file_named_with_a_newline_is_not_a_card(tmp_path):
    """A d20-cards card id is an id too: `actions/strike\\n.yaml` is reported, and acting with it is exit 2."""
    root = _campaign(tmp_path, "d20-cards")
    shutil.copy(root / "actions" / "strike.yaml", root / "actions" / "strike\n.yaml")
    r = run(root, "check")
    assert r.code == 1 and "card id 'strike\\n'" in r.out + r.err
    refused(root, 2, "act", "mira", "strike\n", "--target", "bandit", "--faces", "15", contains="card id")


def test_an_inline_card_key_with_a_newline_is_reported(tmp_path):
    root = _campaign(tmp_path, "d20-cards")
    sheet = root / "characters" / "mira.yaml"
    sheet.write_text(sheet.read_text() + 'cards:\n  "jab\\n": {name: Jab, cost: {ap: 1}, tier: 1, source: x, '
                     'atk: phy, range: reach, damage: {amount: 1, type: physical}}\n')
    r = run(root, "check")
    assert r.code == 1 and "1 to 64 letters" in r.out + r.err
