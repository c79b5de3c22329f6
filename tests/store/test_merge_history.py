"""H-2, G-MERGE-2: how a history adds up branches that earlier merge entries already joined, and merge lines
git's union merge kept twice. Each entry's change counts once, however many tips and merge entries hold it."""

from __future__ import annotations

from narateer_cli.store import encounters, history, loglines

A, B, C, K = "a" * 12, "b" * 12, "c" * 12, "d" * 12
AT = "2026-01-01T00:00:01Z"


def roll(seq, eid, parent, before, after):
    """An entry that moves selka's dice from `before` to `after` ready."""
    return {"seq": seq, "id": eid, "parent": parent, "at": AT, "command": "roll",
            "dice": {"selka": {"before": {"ready": before, "used": 9 - before},
                               "after": {"ready": after, "used": 9 - after}}}}


def merge(seq, parent, merges, before, after, eid=None):
    entry = {"seq": seq, "id": None, "parent": parent, "at": AT, "command": "merge", "actor": None,
             "merges": merges, "dice": {"selka": {"before": {"ready": before, "used": 9 - before},
                                                  "after": {"ready": after, "used": 9 - after}}}}
    entry["id"] = eid or history.content_id(entry)
    return entry


def read(tmp_path, entries):
    path = tmp_path / "encounters" / "x.log.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text("".join(loglines.entry_line(e) for e in entries))
    return history.read(path, "x")


def forks():
    """From 9 ready: three branches spend 1, 2 and 3; p4 joins the first two, p3 all three."""
    base = roll(1, A, None, 9, 9)
    one, two, three = roll(2, B, A, 9, 8), roll(2, C, A, 9, 7), roll(2, K, A, 9, 6)
    m4 = merge(3, B, [C], 8, 6)
    m3 = merge(3, K, [B, C], 6, 3)
    return [base, one, two, three, m3, m4]


def test_a_merge_of_merges_that_share_branches_counts_each_change_once(tmp_path):
    entries = forks()
    m3, m4 = entries[-2:]
    hist = read(tmp_path, entries)
    assert hist.problem is None and sorted(hist.tips) == sorted([m3["id"], m4["id"]])
    assert hist.final_dice()["selka"] == {"ready": 3, "used": 6}  # 9 - 1 - 2 - 3, not 9 - 1 - 2 - 2 - 3 - 1
    assert hist.merge_moves([m4["id"], m3["id"]]) == {"selka": {"before": {"ready": 6, "used": 3},
                                                                "after": {"ready": 3, "used": 6}}}
    right = merge(4, m4["id"], [m3["id"]], 6, 3)
    assert read(tmp_path, entries + [right]).problem is None
    twice = merge(4, m4["id"], [m3["id"]], 6, 0)  # the old sum: two bases, each branch added again
    hist = read(tmp_path, entries + [twice])
    assert hist.problem and "lost a change" in hist.problem.message


def test_a_merge_line_kept_twice_is_one_entry(tmp_path):
    entries = forks()
    m4 = entries[-1]
    after = roll(4, "e" * 12, m4["id"], 6, 5)
    hist = read(tmp_path, entries + [after, m4])
    assert hist.problem is None and hist.copies == 1
    assert sorted(hist.tips) == sorted([entries[-2]["id"], after["id"]])
    assert hist.final_dice()["selka"] == {"ready": 2, "used": 7}


def test_a_merge_line_kept_twice_by_its_old_id_is_one_entry_and_anything_else_twice_is_a_problem(tmp_path):
    entries = forks()
    old = merge(3, B, [C], 8, 6, eid="f" * 12)  # an id from before ids were hashes of the entry
    assert read(tmp_path, entries + [old, roll(4, "e" * 12, old["id"], 6, 6), old]).problem is None
    other = {**old, "at": "2026-01-01T00:00:00Z"}
    hist = read(tmp_path, entries + [old, other])
    assert hist.problem and "appears twice" in hist.problem.message
    hist = read(tmp_path, entries + [roll(3, "e" * 12, B, 8, 8)] * 2)
    assert hist.problem and "appears twice" in hist.problem.message


def test_a_writer_after_a_merge_line_kept_twice_continues_from_the_real_tip(tmp_path):
    """The last line is a copy of an earlier merge entry (its parent is not the line before it): the next entry
    continues from the log's one tip, never from the copy, which would fork off the entries after it."""
    base, one, two = roll(1, A, None, 9, 9), roll(2, B, A, 9, 8), roll(2, C, A, 9, 7)
    joined = merge(3, B, [C], 8, 6)
    after = roll(4, "e" * 12, joined["id"], 6, 5)
    read(tmp_path, [base, one, two, joined, after, joined])
    path = tmp_path / "encounters" / "x.log.yaml"
    text, entry = encounters.new_entry(path, {"command": "roll"})
    assert entry["parent"] == after["id"] and entry["resumes"] == after["id"]
    assert text.count("\n") == 1 and '"command": "merge"' not in text


def test_H2_SCALE_1_an_entry_after_a_merge_line_kept_twice_continues_its_parents_seq(tmp_path):
    """After a copy of an earlier merge entry the next entry's seq continues its parent's (the log's tip), not the
    copy's: git's union merge may later place another clone's lines between the copy and it, and the history
    still reads. The same holds for a merge entry written there."""
    base, one, two = roll(1, A, None, 9, 9), roll(2, B, A, 9, 8), roll(2, C, A, 9, 7)
    joined = merge(3, B, [C], 8, 6)
    after = roll(4, "e" * 12, joined["id"], 6, 5)
    entries = [base, one, two, joined, after, joined]
    read(tmp_path, entries)
    path = tmp_path / "encounters" / "x.log.yaml"
    text, entry = encounters.new_entry(path, {"command": "roll"})
    assert entry["seq"] == after["seq"] + 1
    mine = {k: v for k, v in entry.items() if k != "resumes"}
    theirs = roll(5, "9" * 12, after["id"], 5, 4)  # another clone's entry, which the union places first
    assert read(tmp_path, entries + [theirs, mine]).problem is None
    side = roll(4, "8" * 12, joined["id"], 6, 6)  # a fork beside `after`, then the copy: the writer joins it first
    read(tmp_path, entries[:-1] + [side, joined])
    text, entry = encounters.new_entry(path, {"command": "roll"})
    joining = loglines.parse_line(text.splitlines()[0])
    assert joining["command"] == "merge" and joining["seq"] == 5 and entry["seq"] == 6, text
