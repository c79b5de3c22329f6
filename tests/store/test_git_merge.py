"""Merges that never lose a die (G-MERGE-1..5), with real clones, merges and checkouts."""

from __future__ import annotations

import json

import shutil

import pytest

from narateer_cli.store.merge import bounds_for, counters_for, merge_texts
from tests.conftest import json_error, ok, run, sheet_dice, snapshot
from tests.store.test_git_trust import git, repo

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
LOG = "encounters/ambush.log.yaml"


def _two_clones(encounter_camp, tmp_path, setup=True):
    repo(encounter_camp)
    if setup:
        ok(encounter_camp, "git-setup")
    git(encounter_camp, "add", "-A")
    git(encounter_camp, "commit", "-qm", "setup", "--allow-empty")
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(encounter_camp), str(other))
    if setup:
        ok(other, "git-setup")
    return encounter_camp, other


def _play_apart(a, b, b_wounds="2"):
    """Each clone wounds selka (different counts: identical sheets would merge without any driver)."""
    ok(a, "wound", "selka")
    git(a, "add", "-A")
    git(a, "commit", "-qm", "a wounds selka")
    ok(b, "wound", "selka", b_wounds)
    git(b, "add", "-A")
    git(b, "commit", "-qm", "b wounds selka")


def test_two_clones_spending_dice_keep_both_spends(encounter_camp, tmp_path):
    a, b = _two_clones(encounter_camp, tmp_path)
    assert "merge=narateer" in (a / ".gitattributes").read_text()
    _play_apart(a, b)
    git(a, "pull", "-q", "--no-rebase", str(b), "main")
    assert sheet_dice(a, "selka") == {"ready": 2, "used": 0, "wounded": 3}
    assert run(a, "check").code == 0
    # the log forks: verify understands it
    assert ok(a, "verify")["ok"] is True
    # the next writer logs a merge entry first (G-MERGE-2), then its own
    ok(a, "refresh", "selka")
    entries = ok(a, "encounter", "log")["entries"]
    merge, last = entries[-2], entries[-1]
    assert merge["command"] == "merge" and last["parent"] == merge["id"]
    assert merge["dice"]["selka"]["after"] == {"ready": 2, "used": 0, "wounded": 3}
    assert len(merge["merges"]) == 1 and merge["parent"] == entries[-3]["id"]
    assert ok(a, "verify")["ok"] is True and run(a, "check").code == 0


def test_H_2_a_merge_that_lost_a_spend_is_reconciled_by_the_next_writer(encounter_camp, tmp_path):
    """Without the driver git keeps one spend in silence (identical text on both sides). The log keeps both:
    check and verify say the sheet is behind its log and name `reconcile`; the next writer sets the sheet to
    the log's sum and its merge entry records both values (H-2)."""
    a, b = _two_clones(encounter_camp, tmp_path, setup=False)
    _play_apart(a, b, b_wounds="1")
    git(a, "pull", "-q", "--no-rebase", str(b), "main")
    assert sheet_dice(a, "selka")["wounded"] == 1  # the same text on both sides: git kept one wound
    r = run(a, "--json", "check")
    assert r.code == 1
    assert any(p.startswith("characters/selka.yaml:") and "behind the log" in p and "narateer reconcile" in p
               for p in r.json["problems"])
    assert any("merge driver is not registered" in p for p in r.json["problems"])
    r = run(a, "--json", "verify")
    assert r.code == 1 and "behind its log" in r.json["problem"] and "narateer reconcile" in r.json["problem"]
    ok(a, "refresh", "selka")  # the next writer reconciles first, then refreshes
    assert sheet_dice(a, "selka")["wounded"] == 2
    entries = [json.loads(line[2:]) for line in (a / LOG).read_text().splitlines()]
    merge = next(e for e in entries if e["command"] == "merge")
    assert merge["dice"]["selka"]["after"]["wounded"] == 2 and merge["dice"]["selka"]["sheet"]["wounded"] == 1
    assert ok(a, "verify")["ok"] is True
    # a merge entry that records the lost spend is a verify problem
    log = a / LOG
    from narateer_cli.store import loglines

    entries = [loglines.parse_line(line) for line in log.read_text().splitlines()]
    bad = {"seq": 99, "id": "f" * 12, "parent": entries[-1]["id"], "command": "merge",
           "merges": [entries[-3]["id"]],
           "dice": {"selka": {"before": {"ready": 4, "used": 0, "wounded": 1}, "after": {"ready": 4, "used": 0, "wounded": 1}}}}
    log.write_text(log.read_text() + loglines.entry_line(bad))
    r = run(a, "--json", "verify")
    assert r.code == 1


def test_two_different_changes_to_one_value_conflict_and_writers_refuse(encounter_camp, tmp_path):
    a, b = _two_clones(encounter_camp, tmp_path)
    for clone, name in ((a, "Selka the Bold"), (b, "Selka the Quiet")):
        sheet = clone / "characters" / "selka.yaml"
        sheet.write_text(sheet.read_text().replace("name: Selka", f"name: {name}"))
        git(clone, "commit", "-qam", name)
    done = __import__("subprocess").run(["git", "pull", "-q", "--no-rebase", str(b), "main"], cwd=a,
                                        capture_output=True, text=True)
    assert done.returncode != 0
    text = (a / "characters" / "selka.yaml").read_text()
    assert "<<<<<<<" in text and ">>>>>>>" in text
    before = snapshot(a)
    for argv in (("wound", "sentry"), ("undo",)):  # G-MERGE-3: undo used to run during a merge too
        r = run(a, *argv)
        assert r.code == 3 and "characters/selka.yaml" in r.err and "finish the merge first" in r.err
        assert snapshot(a) == before


def test_the_driver_as_git_runs_it_marks_a_conflict_and_exits_1(tmp_path):
    from narateer_cli.store.merge import run_driver

    files = {}
    for name, value in (("base", "Selka"), ("ours", "Selka the Bold"), ("theirs", "Selka the Quiet")):
        files[name] = tmp_path / name
        files[name].write_text(f"name: {value}\naction_dice: {{ready: 5, used: 0}}\n")
    assert run_driver(str(files["base"]), str(files["ours"]), str(files["theirs"]), "characters/selka.yaml") == 1
    text = files["ours"].read_text()
    assert text.startswith("<<<<<<< ours\n") and "=======\n" in text and text.endswith(">>>>>>> theirs\n")


def test_the_driver_keeps_comments_and_takes_one_sided_changes():
    base = "# hero\nname: Selka  # keep\naction_dice:\n  ready: 5\n  used: 0\nconditions: []\n"
    ours = base.replace("ready: 5\n  used: 0", "ready: 4\n  used: 1")
    theirs = base.replace("conditions: []", "conditions: [slowed]").replace("ready: 5\n  used: 0", "ready: 3\n  used: 2")
    merged, clean = merge_texts(base, ours, theirs, "characters/selka.yaml", counters_for("narateer"))
    assert clean
    assert "# hero" in merged and "# keep" in merged and "slowed" in merged
    assert "ready: 2" in merged and "used: 3" in merged


def test_undo_refuses_a_record_whose_entry_checkout_took_away(encounter_camp):
    """G-MERGE-4: after `git checkout -- .` the undo record's entry is gone from the log."""
    repo(encounter_camp)
    ok(encounter_camp, "wound", "selka")
    git(encounter_camp, "add", "-A")
    git(encounter_camp, "commit", "-qm", "one wound")
    ok(encounter_camp, "wound", "selka")
    git(encounter_camp, "checkout", "--", ".")
    ok(encounter_camp, "heal", "selka")  # the same files, a different history
    git(encounter_camp, "checkout", "--", ".")
    before = snapshot(encounter_camp)
    r = run(encounter_camp, "--json", "undo")
    assert r.code == 3 and json_error(r, 3)["rule"] == "G-MERGE-4"
    assert snapshot(encounter_camp) == before


def test_undo_refuses_after_a_merge(encounter_camp, tmp_path):
    a, b = _two_clones(encounter_camp, tmp_path)
    _play_apart(a, b)
    git(a, "pull", "-q", "--no-rebase", str(b), "main")
    r = run(a, "--json", "undo")
    assert r.code == 3 and json_error(r, 3)["rule"] == "G-MERGE-4"


def test_H2_SCALE_1_a_sum_below_zero_from_two_sides_that_are_not_is_zero_and_no_conflict():
    """Each side took the last Ready die: no pull of counters stops on it (a base git left behind its log,
    which two clones each set right, counts that correction twice just so). The sheet holds 0, a legal
    value; the log, which holds every change once, says whether it was a double spend (verify names it)."""
    counters = counters_for("narateer")
    base = "name: K\naction_dice: {ready: 1, used: 0}\n"
    ours = "name: K\naction_dice: {ready: 0, used: 1}\n"
    theirs = "name: K\naction_dice: {ready: 0, used: 1, wounded: 1}\n"
    text, clean = merge_texts(base, ours, theirs, "characters/k.yaml", counters)
    assert clean and "ready: 0" in text and "used: 2" in text and "wounded: 1" in text
    text, clean = merge_texts(base, ours, ours.replace("used: 1", "used: 2"), "characters/k.yaml", counters)
    assert clean and "ready: 0," in text and "used: 3" in text
    one = "name: K\naction_dice: {ready: 1, used: 1}\n"
    text, clean = merge_texts("name: K\naction_dice: {ready: 2, used: 0}\n", one, one, "characters/k.yaml", counters)
    assert clean and "ready: 0" in text and "used: 2" in text


@pytest.mark.parametrize("side", ["ours", "theirs"])
def test_G_MERGE_1_a_key_deleted_on_one_side_stays_deleted(side):
    """One side took a key away and the other left it as it was: the merge has no such key, on whichever
    side it went, and keeps everything else (a counter one side spent is still summed). Deleted on one side
    and changed on the other: a conflict, never one of the two in silence."""
    counters = counters_for("narateer")
    base = "name: K\nnotes: owes the ferryman\ntitle: null\naction_dice: {ready: 5, used: 0}\n"
    kept = base.replace("ready: 5, used: 0", "ready: 4, used: 1")
    gone = base.replace("notes: owes the ferryman\ntitle: null\n", "")  # a null value is a value too
    ours, theirs = (gone, kept) if side == "ours" else (kept, gone)
    text, clean = merge_texts(base, ours, theirs, "characters/k.yaml", counters)
    assert clean, text
    assert text == "name: K\naction_dice: {ready: 4, used: 1}\n"
    changed = base.replace("owes the ferryman", "paid the ferryman")
    ours, theirs = (gone, changed) if side == "ours" else (changed, gone)
    text, clean = merge_texts(base, ours, theirs, "characters/k.yaml", counters)
    assert not clean and text.startswith("<<<<<<< ours\n")


# The driver's rules on texts and files, in this process (the git merges above run it as git does, in a
# process of its own).

def _merge(base, ours, theirs, system="narateer", label="characters/k.yaml"):
    return merge_texts(base, ours, theirs, label, counters_for(system), bounds_for(system))


def test_G_MERGE_1_each_game_names_its_own_counters_and_an_unknown_game_none():
    """Narateer counts its action dice; d20-cards its hit points, action points and every charge (`*`
    matches any key); a game that is not installed counts nothing; no game named is the default game."""
    assert ("action_dice", "ready") in counters_for("narateer")
    assert counters_for(None) == counters_for("narateer")
    assert ("charges", "*") in counters_for("d20-cards") and ("hp", "current") in counters_for("d20-cards")
    assert counters_for("no_such_game") == []


def test_G_MERGE_1_a_counter_inside_a_wildcard_is_summed_and_a_count_of_true_is_no_counter():
    """d20-cards' `charges.*`: each side used one charge of a wand that had 3: 1 left. `hp.current` given
    as yes/no on one side is no number: the side that changed it wins."""
    base = "name: K\nhp: {current: 10}\ncharges: {wand: 3, staff: 2}\n"
    ours = base.replace("wand: 3", "wand: 2")
    theirs = base.replace("wand: 3", "wand: 2").replace("staff: 2", "staff: 1")
    text, clean = _merge(base, ours, theirs, "d20-cards")
    assert clean and "wand: 1" in text and "staff: 1" in text
    text, clean = _merge(base, base.replace("current: 10", "current: true"), base, "d20-cards")
    assert clean and "current: true" in text


def test_G_MERGE_1_a_counter_created_on_both_sides_adds_both_and_one_already_below_zero_is_summed():
    """A counter neither the base nor a side had counts from 0: each side's 2 wounded dice are 4. A side
    already below zero is no 'spent what was there once': the sum stands, negative as it is."""
    base = "name: K\naction_dice: {ready: 5, used: 0}\n"
    ours = base.replace("used: 0}", "used: 0, wounded: 2}")
    text, clean = _merge(base, ours, ours)
    assert clean and "wounded: 4" in text
    text, clean = _merge(base, base.replace("ready: 5", "ready: -1"), base.replace("ready: 5", "ready: 2"))
    assert clean and "ready: -4" in text


def test_G_MERGE_1_equal_changes_on_both_sides_are_taken_once_and_a_type_change_is_a_change():
    """Both sides set the same title: it is taken, no conflict. One side turned 1 into `true` (equal in
    Python, not in the file): that side's change wins, written as it wrote it."""
    base = "name: K\ntitle: none\nflag: 1\n"
    text, clean = _merge(base, base.replace("none", "Bold"), base.replace("none", "Bold"))
    assert clean and "title: Bold" in text
    text, clean = _merge(base, base, base.replace("flag: 1", "flag: true"))
    assert clean and "flag: true" in text
    text, clean = _merge(base, base.replace("flag: 1", "flag: true"), base)
    assert clean and "flag: true" in text


def test_G_MERGE_1_a_mapping_changed_on_both_sides_merges_key_by_key_and_new_keys_follow_ours():
    """`notes` changed on both sides in different keys: both changes stand; a key only theirs added comes
    after ours' keys; a key both added with different values is a conflict."""
    base = "name: K\nnotes: {a: 1, b: 1}\n"
    ours = "name: K\nnotes: {a: 2, b: 1}\nmine: x\n"
    theirs = "name: K\nnotes: {a: 1, b: 2}\ntheirs: y\n"
    text, clean = _merge(base, ours, theirs)
    assert clean and text == "name: K\nnotes: {a: 2, b: 2}\nmine: x\ntheirs: y\n"
    text, clean = _merge(base, base + "new: 1\n", base + "new: 2\n")
    assert not clean and text == f"<<<<<<< ours\n{base}new: 1\n=======\n{base}new: 2\n>>>>>>> theirs\n"


def test_G_MERGE_1_a_mapping_over_a_value_on_both_sides_merges_from_nothing():
    """The base had `notes` as text, both sides made it a mapping with different keys: merged key by key
    as if the base had none."""
    text, clean = _merge("name: K\nnotes: old\n", "name: K\nnotes: {a: 1}\n", "name: K\nnotes: {b: 2}\n")
    assert clean and text == "name: K\nnotes: {a: 1, b: 2}\n"


def test_G_MERGE_1_a_side_that_is_not_a_mapping_or_not_yaml_is_a_whole_file_conflict():
    """A side that is a list, or no YAML at all, cannot be merged key by key: the whole file is marked,
    ours then theirs, each ending its line. A side left empty is an empty mapping."""
    base = "name: K\n"
    for broken in ("- a\n- b\n", "name: [unclosed\n"):
        text, clean = _merge(base, base, broken)
        assert not clean and text == f"<<<<<<< ours\n{base}=======\n{broken}>>>>>>> theirs\n"
    text, clean = _merge(base, "name: K", "- a")
    assert not clean and text == "<<<<<<< ours\nname: K\n=======\n- a\n>>>>>>> theirs\n"
    text, clean = _merge(base, base, "")
    assert clean and text.strip() in ("", "{}")


def test_G_MERGE_1_an_unchanged_result_is_our_text_byte_for_byte():
    """Theirs changed nothing: the result is ours exactly as it was written, spacing and all."""
    ours = "name:   K   # odd spacing\naction_dice: {ready: 4,   used: 1}\n"
    assert _merge("name: K\naction_dice: {ready: 4, used: 1}\n", ours, "name: K\naction_dice: {ready: 4, "
                  "used: 1}\n") == (ours, True)


def _files(tmp_path, base, ours, theirs):
    paths = []
    for name, text in (("base", base), ("ours", ours), ("theirs", theirs)):
        paths.append(tmp_path / name)
        if text is not None:
            paths[-1].write_text(text)
    return [str(p) for p in paths]


def test_G_MERGE_1_the_driver_sums_counters_in_sheets_only(tmp_path):
    """Two spends of a die in a sheet (named as a sheet, or not named at all) are summed; the same numbers
    in an encounter's state are no counters: two different changes, a conflict."""
    from narateer_cli.store.merge import run_driver

    sides = ["name: K\naction_dice: {ready: %d, used: %d}\n" % n for n in ((5, 0), (4, 1), (3, 2))]
    for i, label in enumerate(("characters/k.yaml", "")):
        (tmp_path / str(i)).mkdir()
        paths = _files(tmp_path / str(i), *sides)
        assert run_driver(*paths, label) == 0
        assert open(paths[1]).read() == "name: K\naction_dice: {ready: 2, used: 3}\n"
    paths = _files(tmp_path, *sides)
    assert run_driver(*paths, "encounters/ambush.state.yaml") == 1
    assert open(paths[1]).read().startswith("<<<<<<< ours\n")


def test_G_MERGE_1_the_driver_reads_the_counters_of_the_sheets_game(tmp_path):
    """d20-cards' hit points are a counter: two hits from 10 leave 10 - 3 - 2 = 5. Narateer has no `hp`
    counter: the same change in a Narateer sheet is two different changes, a conflict."""
    from narateer_cli.store.merge import run_driver

    sides = ["name: K\nhp: {current: %d}\n" % n for n in (10, 7, 8)]
    paths = _files(tmp_path, *sides)
    assert run_driver(*paths, "characters/k.yaml", "d20-cards") == 0
    assert open(paths[1]).read() == "name: K\nhp: {current: 5}\n"
    paths = _files(tmp_path, *sides)
    assert run_driver(*paths, "characters/k.yaml", "narateer") == 1


def test_H_2_a_sheet_created_on_both_sides_differently_is_a_conflict_and_identically_is_kept(tmp_path, capfd):
    """No base: two different new sheets are marked as a conflict with one stderr line naming the file; two
    identical ones are simply that sheet. A base git does not give at all is an empty one."""
    from narateer_cli.store.merge import run_driver

    ours, theirs = "name: K\naction_dice: {ready: 5, used: 0}\n", "name: K\naction_dice: {ready: 4, used: 1}\n"
    paths = _files(tmp_path, "", ours, theirs)
    assert run_driver(*paths, "characters/k.yaml") == 1
    assert open(paths[1]).read() == f"<<<<<<< ours\n{ours}=======\n{theirs}>>>>>>> theirs\n"
    err = capfd.readouterr().err
    assert len(err.splitlines()) == 1 and "characters/k.yaml was created on both sides" in err
    paths = _files(tmp_path, None, ours, ours)
    (tmp_path / "base").unlink()
    assert run_driver(*paths, "characters/k.yaml") == 0 and open(paths[1]).read() == ours
    paths = _files(tmp_path, None, ours, theirs)
    assert run_driver(*paths, "") == 1 and capfd.readouterr().err.count(paths[1]) == 1


def test_G_MERGE_1_changes_of_kind_and_lists_are_changes():
    """A list changed on one side ([slowed] to [prone]) takes that side; 1.0 turned into `true` is a change;
    a value changed on both sides, to a mapping on one and to text on the other, is a conflict."""
    base = "name: K\nconditions: [slowed]\nflag: 1.0\nnotes: old\n"
    text, clean = _merge(base, base, base.replace("[slowed]", "[prone]"))
    assert clean and "conditions: [prone]" in text
    text, clean = _merge(base, base.replace("flag: 1.0", "flag: true"), base)
    assert clean and "flag: true" in text
    text, clean = _merge(base, base.replace("notes: old", "notes: {a: 1}"), base.replace("notes: old", "notes: new"))
    assert not clean and text.startswith("<<<<<<< ours\n")


def test_G_MERGE_1_counters_inside_a_mapping_new_or_gone_on_one_side():
    """Action dice neither the base had, added on both sides (2 and 3 ready), count from nothing: 5. The
    action dice deleted on one side and spent from on the other is a conflict, not one of the two."""
    base = "name: K\n"
    text, clean = _merge(base, base + "action_dice: {ready: 2}\n", base + "action_dice: {ready: 3}\n")
    assert clean and text == base + "action_dice: {ready: 5}\n"
    dice = base + "action_dice: {ready: 5, used: 0}\n"
    text, clean = _merge(dice, base, dice.replace("ready: 5, used: 0", "ready: 4, used: 1"))
    assert not clean and text.startswith("<<<<<<< ours\n")


def test_G_MERGE_1_a_wildcard_first_in_a_counter_path_matches_any_key():
    """With the counter `*.hp` every creature's hp is a counter: each side took 2 from a goblin's 5, equal
    sides, two hits: 1 left (not the 3 of one side)."""
    base, hit = "goblin: {hp: 5}\n", "goblin: {hp: 3}\n"
    assert merge_texts(base, hit, hit, "characters/k.yaml", [("*", "hp")]) == ("goblin: {hp: 1}\n", True)


def test_G_MERGE_1_a_side_emptied_stays_empty():
    """Ours deleted everything and theirs changed nothing: the result is ours, the empty file."""
    assert _merge("name: K\n", "", "name: K\n") == ("", True)


def test_G_MERGE_1_the_driver_with_no_label_treats_the_file_as_a_sheet(tmp_path):
    """git may call the driver without a path: the file is taken as a sheet, so its dice are counters."""
    from narateer_cli.store.merge import run_driver

    paths = _files(tmp_path, *("name: K\naction_dice: {ready: %d, used: %d}\n" % n for n in ((5, 0), (4, 1), (3, 2))))
    assert run_driver(*paths) == 0
    assert open(paths[1]).read() == "name: K\naction_dice: {ready: 2, used: 3}\n"


def test_G_PRIV_6_an_endless_side_is_judged_by_its_first_bytes(tmp_path, monkeypatch, capfd):
    """A side is read no further than one byte past the limit: a side that never ends (a device, a pipe)
    is a conflict at once, ours left as it was."""
    import io

    from narateer_cli.store import merge

    class Endless(io.RawIOBase):
        def readable(self):
            return True

        def read(self, size=-1):
            if size is None or size < 0:
                raise MemoryError("read to the end of an endless side")
            return b"x" * size

    real = open
    monkeypatch.setattr(merge, "open", lambda path, mode="r", *a, **k: Endless() if str(path).endswith("theirs")
                        else real(path, mode, *a, **k), raising=False)
    paths = _files(tmp_path, "name: K\n", "name: K\n", None)
    assert merge.run_driver(*paths, "characters/k.yaml") == 1
    assert open(paths[1]).read() == "name: K\n"
    assert "characters/k.yaml (theirs) is larger than 256 KiB" in capfd.readouterr().err


def test_G_MERGE_1_the_driver_says_how_to_mend_what_it_cannot_merge(tmp_path, capfd):
    """The one stderr line of a conflict the driver cannot mark key by key tells the player what to do."""
    from narateer_cli.store.merge import SIZE_LIMIT, run_driver

    paths = _files(tmp_path, "", "name: K\n", "name: L\n")
    run_driver(*paths, "characters/k.yaml")
    assert capfd.readouterr().err == ("narateer: merge-driver: characters/k.yaml was created on both sides, "
                                      "differently (no common version to merge from): keep one (git checkout "
                                      "--ours or --theirs), or give one of them another id\n")
    paths = _files(tmp_path, "name: K\n", "name: K\n", "x: " + "y" * SIZE_LIMIT + "\n")
    run_driver(*paths, "characters/k.yaml")
    assert capfd.readouterr().err.endswith("not merged; keep one side (git checkout --ours or --theirs) and "
                                           "mend it\n")


def test_G_MERGE_1_a_mapping_changed_on_one_side_is_taken_as_that_side_wrote_it():
    """A mapping with no counter inside, changed on one side only, is that side's mapping: its layout and its
    comments come with it. One with a counter inside is merged key by key into ours (ours' layout)."""
    base = "name: K\nnotes: {a: 1}\n"
    theirs = "name: K\nnotes:\n  a: 2  # raised\n"
    assert _merge(base, base, theirs) == (theirs, True)
    deep, deeper = "notes:\n  a: {b: 1}\n", "notes:\n  a:\n    b: 2  # raised\n"
    assert merge_texts(deep, deep, deeper, "characters/k.yaml", [("notes", "a")]) == (deeper, True)
    assert merge_texts(base, base, theirs, "characters/k.yaml", [("notes", "a")]) == \
        ("name: K\nnotes: {a: 2}\n", True)


def test_H2_INV_1_a_sum_past_the_range_a_game_declares_is_kept_at_its_bound():
    """d20-cards declares HP at most `hp.max` and no floor, AP from 0 to `resources.ap.max`: two heals of the
    one missing hit point stay at the maximum, two hits below 0 HP add up, two spends of the last AP stay at 0.
    A side already past a bound is no crossing: its sum stands."""
    base = "name: K\nhp: {current: 29, max: 30}\nresources: {ap: {current: 1, max: 3}}\nconditions: []\n"
    ours = base.replace("current: 29", "current: 30")
    theirs = ours.replace("conditions: []", "conditions: [prone]")  # other bytes: git runs the driver
    text, clean = _merge(base, ours, theirs, "d20-cards")
    assert clean and "current: 30, max: 30" in text and "[prone]" in text
    low = base.replace("current: 29", "current: 1")
    text, clean = _merge(low, low.replace("current: 1,", "current: 0,"), low.replace("current: 1,", "current: 0,")
                         .replace("[]", "[prone]"), "d20-cards")
    assert clean and "hp: {current: -1, max: 30}" in text
    spent = base.replace("ap: {current: 1", "ap: {current: 0")
    text, clean = _merge(base, spent, spent.replace("[]", "[prone]"), "d20-cards")
    assert clean and "ap: {current: 0, max: 3}" in text
    over = base.replace("current: 29", "current: 31")
    text, clean = _merge(base, over, ours.replace("[]", "[prone]"), "d20-cards")
    assert clean and "current: 32, max: 30" in text
