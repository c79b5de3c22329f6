"""`check`'s per-file problem cache (store/checked.py; G-PRIV-2): a warm `check` says
exactly what a cold one says after any change (a sheet's or card's bytes, narateer.yaml, the rules, an
encounter, a log), a record that is not exactly a list of problems is not used, an edit of the code that
finds the problems is a new key, and a check of an unchanged campaign parses no YAML at all."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from narateer_cli.store import checked, private
from tests.cli.test_startup import probe
from tests.conftest import ok, run


def cold(camp):
    """check as it runs with no cache at all (the cache it leaves is thrown away too)."""
    folder = private.location(camp) / checked.KIND
    shutil.rmtree(folder, ignore_errors=True)
    try:
        return _check(camp)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _check(camp):
    r = run(camp, "--json", "check")
    return r.code, r.out, r.err


def same_warm_and_cold(camp):
    """check twice (the first fills the cache, the second reads it), each equal to a check with no cache."""
    expected = cold(camp)
    assert _check(camp) == expected
    assert _check(camp) == expected
    return json.loads(expected[1])


def test_a_sheet_edit_is_seen_though_its_size_and_mtime_are_kept(camp):
    assert same_warm_and_cold(camp)["ok"] is True
    sheet = camp / "characters" / "selka.yaml"
    st = os.stat(sheet)
    text = sheet.read_text()
    assert "ready: 5" in text
    sheet.write_text(text.replace("ready: 5", "ready: x", 1))  # the same length
    os.utime(sheet, ns=(st.st_atime_ns, st.st_mtime_ns))
    found = same_warm_and_cold(camp)
    assert any(p.startswith("characters/selka.yaml:") for p in found["problems"]), found
    sheet.write_text(text)
    assert same_warm_and_cold(camp)["ok"] is True


def test_narateer_yaml_the_rules_and_the_encounters_are_part_of_the_key(encounter_camp):
    camp = encounter_camp
    same_warm_and_cold(camp)
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "sytem: narateer\n")  # a near miss of a host key
    assert same_warm_and_cold(camp)["problems"]
    config.write_text(config.read_text().replace("encounter: ambush", "encounter: nowhere"))
    assert any("nowhere" in p for p in same_warm_and_cold(camp)["problems"])
    (camp / "encounters" / "nowhere.yaml").write_text((camp / "encounters" / "ambush.yaml").read_text())
    assert not any("has no encounters/nowhere.yaml" in p for p in same_warm_and_cold(camp)["problems"])
    config.write_text(config.read_text() + "rules:\n  readiness_divisor: 0\n")
    same_warm_and_cold(camp)


def test_a_log_change_is_seen(encounter_camp):
    camp = encounter_camp
    ok(camp, "turn", "start", "selka")
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "3", "--seed", "1")
    assert same_warm_and_cold(camp)["ok"] is True
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "3", "--seed", "2")
    assert same_warm_and_cold(camp)["ok"] is True
    log = camp / "encounters" / "ambush.log.yaml"
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:-1]) + lines[-1].replace('"total": ', '"total": 9'))
    assert same_warm_and_cold(camp)["problems"]
    (camp / "characters" / "selka.yaml").write_text(
        (camp / "characters" / "selka.yaml").read_text().replace("ready:", "ready: 1 #", 1))
    same_warm_and_cold(camp)


def test_open_adventure_and_d20_cards_files(tmp_path):
    for game, edit in (("open-adventure", ("characters", "Goblin", "Gobblin")),
                       ("d20-cards", ("actions", "cost:", "cots:"))):
        root = tmp_path / game
        assert run(None, "init", str(root), "--system", game, "--example").code == 0
        assert same_warm_and_cold(root)["ok"] is True
        folder, old, new = edit
        path = next(p for p in sorted((root / folder).glob("*.yaml")) if old in p.read_text())
        path.write_text(path.read_text().replace(old, new, 1))
        same_warm_and_cold(root)
    sheet = tmp_path / "d20-cards" / "characters" / "mira.yaml"
    sheet.write_text(sheet.read_text() + "companions: [nobody]\n")  # a reference to no character
    assert any("nobody" in p for p in same_warm_and_cold(tmp_path / "d20-cards")["problems"])


def _near_miss(camp):
    """A sheet whose one problem is a warning (a near-miss key): only the sheet check names it, so a cached
    list of problems is what check prints (a forged empty one, sealed here, would hide it)."""
    sheet = camp / "characters" / "selka.yaml"
    sheet.write_text(sheet.read_text() + "skils: {}\n")
    expected = cold(camp)
    assert "did you mean skills" in expected[1]
    return expected


def test_the_cache_is_what_a_warm_check_prints(camp):
    _near_miss(camp)
    _check(camp)
    path = private.location(camp) / checked.KIND / "characters.json"
    record = json.loads(path.read_text())
    record.pop("mac")
    record["data"]["files"]["characters/selka.yaml"][1] = []
    path.write_text(private.sealed(camp, "cache", "checks/characters", record))
    assert json.loads(_check(camp)[1])["ok"] is True  # this machine's own record is believed (G-PRIV-2)


@pytest.mark.parametrize("held", [[["x", 1]], "text", [[1, 2, 3, 4, 5, 6]], [["f", True, "", "m", "", "error"]],
                                  [["f", 1, "", "m", "", "fatal"]], {"a": 1}])
def test_a_sealed_record_that_is_not_a_list_of_problems_is_not_used(camp, held):
    expected = _near_miss(camp)
    _check(camp)
    path = private.location(camp) / checked.KIND / "characters.json"
    record = json.loads(path.read_text())
    record.pop("mac")
    record["data"]["files"]["characters/selka.yaml"][1] = held
    path.write_text(private.sealed(camp, "cache", "checks/characters", record))
    assert _check(camp) == expected


def test_a_record_sealed_elsewhere_is_not_used(camp):
    expected = _near_miss(camp)
    _check(camp)
    path = private.location(camp) / checked.KIND / "characters.json"
    record = json.loads(path.read_text())
    record["data"]["files"]["characters/selka.yaml"][1] = []  # no problems, under a mac that no longer fits
    path.write_text(json.dumps(record))
    assert _check(camp) == expected


def test_the_code_that_finds_problems_is_part_of_the_key(tmp_path, monkeypatch):
    package = tmp_path / "pkg" / "somegame"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "rules.py").write_text("A = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path / "pkg"))
    __import__("somegame")
    first = checked.code_stamp("somegame")
    monkeypatch.setattr(checked, "_STAMPS", {})
    assert checked.code_stamp("somegame") == first
    (package / "sub" / "rules.py").write_text("A = 22\n")
    monkeypatch.setattr(checked, "_STAMPS", {})
    assert checked.code_stamp("somegame") != first
    assert checked.code_stamp(None) != checked.code_stamp("somegame")


@pytest.mark.parametrize("game", ["narateer", "open-adventure", "d20-cards"])
def test_a_check_of_an_unchanged_campaign_parses_no_yaml(tmp_path, game):
    root = tmp_path / game
    assert run(None, "init", str(root), "--system", game, "--example").code == 0
    assert run(root, "check").code == 0  # fills the caches
    got = probe(["--campaign", str(root), "check"], ["ruamel.yaml"], tmp_path)
    assert got["code"] == 0 and got["loaded"] == []


def test_stream_key_is_the_file_key_of_the_whole_file(tmp_path):
    from narateer_cli.store import yamlio

    path = tmp_path / "big.log.yaml"
    path.write_bytes(os.urandom(3 * (1 << 20) + 17))
    assert checked.stream_key(path) == yamlio.file_key(os.stat(path), path.read_bytes())
    os.symlink(path, tmp_path / "link.log.yaml")
    assert checked.stream_key(tmp_path / "link.log.yaml") is None
    assert checked.stream_key(tmp_path / "missing") is None
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
        assert checked.stream_key(tmp_path / "fifo") is None


def test_check_reads_a_clean_sheet_from_the_parse_a_write_kept(encounter_camp):
    """After a roll, `check` finds the rolled sheet clean on the parse the roll kept of exactly its bytes
    (no round-trip parse), and names a problem of a sheet from the round-trip parse, at its line."""
    ok(encounter_camp, "roll", "--force", "selka", "stealth", "--dr", "3", "--reaction", "--seed", "1")
    from narateer_cli.store import cache, yamlio
    from narateer_cli.store.campaign import Campaign

    sheet = encounter_camp / "characters" / "selka.yaml"
    text, key = yamlio.read_text(sheet, "characters/selka.yaml", with_key=True)
    assert checked.kept_sheet(encounter_camp, "selka", key) is not None
    assert json.loads(_check(encounter_camp)[1])["ok"]
    sheet.write_text(text.replace("agility:", "agilty:", 1), encoding="utf-8")  # a near miss, kept as a parse
    text, key = yamlio.read_text(sheet, "characters/selka.yaml", with_key=True)
    camp = Campaign(encounter_camp)
    doc = yamlio.to_plain(yamlio.load_rt(text, "selka"))
    cache.put(encounter_camp, "sheets", "selka", {"doc": doc, "dice": None, "rules": camp.rules_key, "exact": True}, key)
    cache.flush()
    found = json.loads(_check(encounter_camp)[1])
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "agilty" in row)
    assert any(p.startswith(f"characters/selka.yaml:{line}:") and "agilty" in p for p in found["problems"]), found


def test_a_kept_parse_json_cannot_give_back_is_not_read(tmp_path):
    """A sheet whose mappings have a number, true or null key is kept without `exact`: JSON would turn those
    keys into text, and a schema that wants an id key would pass it. `check` parses such a sheet itself."""
    root = tmp_path / "camp"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    card = sorted((root / "actions").glob("*.yaml"))[0]
    shutil.copy(card, root / "actions" / "5.yaml")
    sheet = root / "characters" / "tor.yaml"
    sheet.write_text(sheet.read_text(encoding="utf-8").replace("cards:", "charges: {5: 1}\ncards:", 1), encoding="utf-8")
    from narateer_cli.store import cache, yamlio
    from narateer_cli.store.campaign import Campaign, _text_keys

    assert _text_keys({"a": [{"b": 1}]}) and not _text_keys({"a": {5: 1}}) and not _text_keys([{True: None}])
    text, key = yamlio.read_text(sheet, "characters/tor.yaml", with_key=True)
    camp = Campaign(root)
    doc = yamlio.to_plain(yamlio.load_rt(text, "tor"))
    cache.put(root, "sheets", "tor", {"doc": doc, "dice": None, "rules": camp.rules_key}, key)  # as before `exact`
    cache.flush()
    assert checked.kept_sheet(root, "tor", key) is None
    found = json.loads(_check(root)[1])
    assert any(p.startswith("characters/tor.yaml:") and "charges" in p for p in found["problems"]), found
