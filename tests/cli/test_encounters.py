"""Encounters through the CLI: activations, turn order, proactive uses,
resolve paths, conditions, wounds, the append-only log, undo, verify and git.

Rules cited: R-ACT-1, R-ACT-2, R-ACT-4, A-REFRESH, A-TURN, A-COND, A-WOUND,
The contract (encounter files, JSON shapes, exit statuses).

The `encounter_camp` fixture is the example campaign with encounter `ambush`
(selka, sentry, mira, bandit) current; `camp` has no current encounter.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest
from ruamel.yaml import YAML

from tests.conftest import ok, refused, run, sheet_dice, snapshot

LOG = "encounters/ambush.log.yaml"
STATE = "encounters/ambush.yaml"

CHECK_KEYS = ["actor", "skill", "target", "target_source", "boost", "roll_dice", "paid", "faces", "rerolled",
              "final_faces", "total", "margin", "success", "outcome", "dice_before", "dice_after"]


# ---- helpers ---------------------------------------------------------------------------





def set_dice(camp, cid, **counts):
    """Rewrite the action_dice block of a sheet by hand (as a Guide would)."""
    path = camp / "characters" / f"{cid}.yaml"
    text = path.read_text()
    block = "action_dice:\n" + "".join(f"  {k}: {v}\n" for k, v in counts.items())
    new, n = re.subn(r"action_dice:\n(  \w+: \d+\n)+", block, text)
    assert n == 1
    path.write_text(new)




def state(camp, enc="ambush"):
    return YAML(typ="safe").load((camp / "encounters" / f"{enc}.yaml").read_text())


def log_entries(camp, enc="ambush"):
    return YAML(typ="safe").load((camp / "encounters" / f"{enc}.log.yaml").read_text()) or []


def everyone_but_first_acts(camp, first, order):
    """`first` is acting; end its turn and let each of `order` act once, in order."""
    ok(camp, "turn", "end", "--next", order[0])
    for i, cid in enumerate(order):
        ok(camp, "turn", "start", cid)
        nxt = ["--next", order[i + 1]] if i + 1 < len(order) else []
        ok(camp, "turn", "end", *nxt)


# ---- R-ACT-4: the Melee uses source case -----------------------------------------------

def test_melee_uses_source_case_ready_4_2_1_uses_2_1_0(encounter_camp):
    # The sentry: Melee SL 1, four Ready AD -> two proactive Melee uses.
    assert sheet_dice(encounter_camp, "sentry") == {"ready": 4, "used": 0}
    start = ok(encounter_camp, "turn", "start", "sentry")
    assert start["uses"]["melee"] == 2
    assert start["dice_after"] == {"ready": 4, "used": 0}

    first = ok(encounter_camp, "roll", "sentry", "melee", "--dr", "2", "--boost", "1", "--faces", "1,0")
    assert first["paid"] == 2 and first["roll_dice"] == 2
    assert first["dice_after"] == {"ready": 2, "used": 2}
    assert state(encounter_camp)["uses"]["melee"] == 1

    second = ok(encounter_camp, "roll", "--force", "sentry", "melee", "--dr", "2", "--faces", "2")
    assert second["paid"] == 1
    assert second["dice_after"] == {"ready": 1, "used": 3}
    assert state(encounter_camp)["uses"]["melee"] == 0

    # One Ready die left does not replace a proactive use: refused, nothing written.
    err = refused(encounter_camp, 3, "roll", "sentry", "melee", "--dr", "2", "--faces", "2", rule="R-ACT-4")
    assert "melee" in err
    # an Exchange is a Melee action too
    refused(encounter_camp, 3, "exchange", "sentry", "bandit", "--response", "none", "--faces", "2",
            contains="no proactive melee use left")
    assert sheet_dice(encounter_camp, "sentry") == {"ready": 1, "used": 3}


def test_use_consumed_on_failure_too(encounter_camp):
    ok(encounter_camp, "turn", "start", "sentry")
    failed = ok(encounter_camp, "roll", "--force", "sentry", "melee", "--dr", "5", "--faces", "0")
    assert failed["success"] is False
    assert state(encounter_camp)["uses"]["melee"] == 1


def test_proactive_check_outside_own_activation_refused(encounter_camp):
    ok(encounter_camp, "turn", "start", "sentry")
    refused(encounter_camp, 3, "roll", "mira", "melee", "--dr", "2", "--faces", "2",
            contains="it is not mira's activation")


def test_no_use_limit_outside_any_encounter(camp):
    for _ in range(4):  # sentry has 2 uses inside an encounter; none apply here
        ok(camp, "roll", "--force", "sentry", "melee", "--dr", "2", "--faces", "1")
    assert sheet_dice(camp, "sentry") == {"ready": 0, "used": 4}


def test_reaction_with_no_uses_left_succeeds_and_uses_none(encounter_camp):
    ok(encounter_camp, "turn", "start", "sentry")
    ok(encounter_camp, "roll", "--force", "sentry", "melee", "--dr", "2", "--faces", "1")
    ok(encounter_camp, "roll", "--force", "sentry", "melee", "--dr", "2", "--faces", "1")
    assert state(encounter_camp)["uses"]["melee"] == 0
    refused(encounter_camp, 3, "roll", "sentry", "melee", "--dr", "2", "--faces", "2",
            contains="no proactive melee use left")
    react = ok(encounter_camp, "roll", "sentry", "melee", "--dr", "1", "--reaction", "--faces", "2")
    assert react["success"] is True and react["reaction"] is True
    assert react["paid"] == 1
    assert react["dice_after"] == {"ready": 1, "used": 3}
    assert state(encounter_camp)["uses"]["melee"] == 0
    # another creature's Reaction outside its own activation is fine and touches no uses
    other = ok(encounter_camp, "roll", "bandit", "observation", "--dr", "2", "--reaction", "--faces", "2,1",
               "--boost", "1")
    assert other["total"] == 3 and other["paid"] == 2
    assert state(encounter_camp)["uses"] == {"melee": 0, "observation": 3}


# ---- A-REFRESH -------------------------------------------------------------------------

def test_turn_start_refreshes_all_used_dice(encounter_camp):
    set_dice(encounter_camp, "selka", ready=2, used=3)
    before = (encounter_camp / "characters" / "selka.yaml").read_text()
    data = ok(encounter_camp, "turn", "start", "selka")
    assert data["refreshed"] == 3
    assert data["dice_before"] == {"ready": 2, "used": 3}
    assert data["dice_after"] == {"ready": 5, "used": 0}
    assert sheet_dice(encounter_camp, "selka") == {"ready": 5, "used": 0}
    # only the changed lines of the sheet change; comments and unknown keys stay
    after = (encounter_camp / "characters" / "selka.yaml").read_text()
    assert after == before.replace("  ready: 2\n  used: 3\n", "  ready: 5\n  used: 0\n")
    assert data["uses"] == {"athletics": 2, "melee": 2, "observation": 2, "stealth": 3}


def test_refresh_leaves_wounded_dice(encounter_camp):
    set_dice(encounter_camp, "selka", ready=1, used=2, wounded=2)
    data = ok(encounter_camp, "turn", "start", "selka")
    assert data["dice_after"] == {"ready": 3, "used": 0, "wounded": 2}


def test_refresh_amount_knob(encounter_camp):
    config = encounter_camp / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n  refresh: {amount: 1}\n")
    set_dice(encounter_camp, "selka", ready=2, used=3)
    data = ok(encounter_camp, "turn", "start", "selka")
    assert data["refreshed"] == 1
    assert data["dice_after"] == {"ready": 3, "used": 2}
    manual = ok(encounter_camp, "refresh", "selka")
    assert manual["moved"] == 1 and manual["dice_after"] == {"ready": 4, "used": 1}


def test_refresh_command_moves_all_used(encounter_camp):
    set_dice(encounter_camp, "mira", ready=1, used=5)
    data = ok(encounter_camp, "refresh", "mira")
    assert data["moved"] == 5 and data["dice_after"] == {"ready": 6, "used": 0}
    assert log_entries(encounter_camp)[-1]["command"] == "refresh"


# ---- A-TURN ----------------------------------------------------------------------------

def test_turn_start_refused_for_someone_not_named_next(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ended = ok(encounter_camp, "turn", "end", "--next", "mira")
    assert ended["next"] == "mira" and ended["new_round"] is False
    assert ended["waiting"] == ["sentry", "mira", "bandit"]
    err = refused(encounter_camp, 3, "turn", "start", "sentry", contains="mira was named to act next, not sentry")
    assert "mira" in err
    assert ok(encounter_camp, "turn", "start", "mira")["actor"] == "mira"


def test_turn_start_refused_for_someone_who_already_acted(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "turn", "end")
    refused(encounter_camp, 3, "turn", "start", "selka", contains="already acted")


def test_turn_start_refused_while_another_acts(encounter_camp):
    ok(encounter_camp, "turn", "start", "sentry")
    refused(encounter_camp, 3, "turn", "start", "bandit", contains="sentry")
    refused(encounter_camp, 3, "turn", "start", "sentry", contains="sentry is still acting")


def test_new_round_after_everyone_acted(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "turn", "end", "--next", "sentry")
    ok(encounter_camp, "turn", "start", "sentry")
    ok(encounter_camp, "turn", "end", "--next", "mira")
    ok(encounter_camp, "turn", "start", "mira")
    ok(encounter_camp, "turn", "end", "--next", "bandit")
    ok(encounter_camp, "turn", "start", "bandit")
    last = ok(encounter_camp, "turn", "end")
    assert last["new_round"] is True and last["round"] == 2 and last["waiting"] == ["selka", "sentry", "mira",
                                                                                    "bandit"]
    st = state(encounter_camp)
    assert st["round"] == 2 and st["acted"] == [] and st["actor"] is None
    start = ok(encounter_camp, "turn", "start", "selka")
    assert start["round"] == 2
    show = ok(encounter_camp, "encounter", "show")
    assert show["round"] == 2 and show["actor"] == "selka" and show["acted"] == []


def test_last_actor_of_a_round_may_name_the_first_of_the_next(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    everyone_but_first_acts(encounter_camp, "selka", ["sentry", "mira"])
    ok(encounter_camp, "turn", "start", "bandit")
    end = ok(encounter_camp, "turn", "end", "--next", "mira")
    assert end["round"] == 2 and end["next"] == "mira"
    refused(encounter_camp, 3, "turn", "start", "selka", contains="mira was named to act next, not selka")
    ok(encounter_camp, "turn", "start", "mira")


def test_turn_start_uses_and_movement_reset_between_activations(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "1")
    ok(encounter_camp, "move", "selka", "4")
    everyone_but_first_acts(encounter_camp, "selka", ["sentry", "mira", "bandit"])
    again = ok(encounter_camp, "turn", "start", "selka")
    assert again["uses"]["stealth"] == 3
    st = state(encounter_camp)
    assert st["mode"] is None and st["movement_left"] is None


# ---- resolve (R-ACT-1, R-ACT-2) --------------------------------------------------------

def test_resolve_auto_trivial_pays_nothing(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    data = ok(encounter_camp, "resolve", "selka", "--intent", "open the shutter", "--tier", "trivial", "--auto")
    assert data["path"] == "auto" and data["tier"] == "trivial"
    assert data["paid"] == 0 and data["check"] is None
    assert data["dice_after"] == {"ready": 5, "used": 0}
    entry = log_entries(encounter_camp)[-1]
    assert entry["command"] == "resolve"
    assert entry["declaration"]["intent"] == "open the shutter"


def test_resolve_auto_minor_pays_one(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    data = ok(encounter_camp, "resolve", "selka", "--intent", "drag the crate", "--method", "with a rope",
              "--tier", "minor", "--auto")
    assert data["paid"] == 1 and data["method"] == "with a rope"
    assert sheet_dice(encounter_camp, "selka") == {"ready": 4, "used": 1}
    # no Skill, so no proactive use is consumed
    assert state(encounter_camp)["uses"] == {"athletics": 2, "melee": 2, "observation": 2, "stealth": 3}


def test_resolve_auto_minor_slowed_pays_double(encounter_camp):
    ok(encounter_camp, "condition", "selka", "+slowed")
    ok(encounter_camp, "turn", "start", "selka")
    data = ok(encounter_camp, "resolve", "selka", "--intent", "drag the crate", "--tier", "minor", "--auto")
    assert data["paid"] == 2
    assert sheet_dice(encounter_camp, "selka") == {"ready": 3, "used": 2}
    trivial = ok(encounter_camp, "resolve", "selka", "--intent", "glance", "--tier", "trivial", "--auto")
    assert trivial["paid"] == 0  # 0 stays 0 (R-PAY-3)


def test_resolve_auto_unaffordable_refused(encounter_camp):
    set_dice(encounter_camp, "selka", ready=0, used=5)
    config = encounter_camp / "narateer.yaml"
    config.write_text(config.read_text() + "rules:\n  refresh: {timing: manual}\n")
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 3, "resolve", "selka", "--intent", "drag", "--tier", "minor", "--auto",
            contains="cannot pay 1 AD with 0 Ready")


def test_resolve_impossible_spends_and_writes_nothing(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    err = refused(encounter_camp, 3, "resolve", "selka", "--intent", "jump to the moon", "--impossible",
                  "the moon is too far", contains="impossible as declared: the moon is too far")
    assert "the moon is too far" in err


def test_resolve_check_consumes_a_use_and_logs_intent_and_method(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    data = ok(encounter_camp, "resolve", "selka", "--intent", "force the door", "--method", "shoulder first",
              "--check", "athletics", "--dr", "2", "--boost", "1", "--faces", "2,1")
    assert data["path"] == "check" and data["tier"] == "major"
    assert data["paid"] == 2
    check = data["check"]
    assert check["total"] == 3 and check["margin"] == 1 and check["success"] is True
    assert check["outcome"] == "Success"
    assert data["dice_after"] == {"ready": 3, "used": 2}
    assert state(encounter_camp)["uses"]["athletics"] == 1
    entry = log_entries(encounter_camp)[-1]
    assert entry["command"] == "resolve" and entry["actor"] == "selka"
    assert entry["declaration"]["intent"] == "force the door"
    assert entry["declaration"]["method"] == "shoulder first"
    assert entry["result"]["check"]["faces"] == [2, 1]
    assert entry["dice"]["selka"] == {"before": {"ready": 5, "used": 0}, "after": {"ready": 3, "used": 2}}


def test_resolve_outside_own_activation_refused(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 3, "resolve", "mira", "--intent", "drag", "--tier", "minor", "--auto",
            contains="it is not mira's activation")
    refused(encounter_camp, 3, "resolve", "mira", "--intent", "shove", "--check", "athletics", "--dr", "2",
            "--faces", "1", contains="it is not mira's activation")


def test_resolve_check_with_minor_tier_refused(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 3, "resolve", "selka", "--intent", "x", "--tier", "minor", "--check", "athletics",
            "--dr", "2", "--faces", "1", contains="a Skill Check makes this a Major action")


def test_resolve_needs_exactly_one_path(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 2, "resolve", "selka", "--intent", "x", contains="choose one resolution path")
    refused(encounter_camp, 2, "resolve", "selka", "--intent", "x", "--auto", "--impossible", "no",
            contains="choose one resolution path")


# ---- encounter new / show / log --------------------------------------------------------

def test_encounter_new_creates_files_and_makes_it_current(camp):
    data = ok(camp, "encounter", "new", "duel", "mira", "bandit")
    assert data["id"] == "duel" and data["participants"] == ["mira", "bandit"] and data["current"] is True
    assert "encounter: duel" in (camp / "narateer.yaml").read_text()
    st = state(camp, "duel")
    assert st["participants"] == ["mira", "bandit"] and st["round"] == 1 and st["actor"] is None
    entries = log_entries(camp, "duel")
    assert [e["command"] for e in entries] == ["encounter new"]
    # current: a turn without --in lands in duel
    ok(camp, "turn", "start", "mira")
    assert state(camp, "duel")["actor"] == "mira"


def test_encounter_new_bad_input(camp):
    refused(camp, 2, "encounter", "new", "duel", "mira", "nobody", contains="unknown character 'nobody'")
    refused(camp, 2, "encounter", "new", "duel", "mira", "mira", contains="a participant is named twice")
    refused(camp, 2, "encounter", "new", "ambush", "mira", contains="encounter ambush already exists")  # exists already
    refused(camp, 2, "encounter", "new", "../escape", "mira", contains="encounter id '../escape' is not valid")


def test_encounter_show_json_keys(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    show = ok(encounter_camp, "encounter", "show")
    for key in ("id", "round", "actor", "participants", "acted", "hidden"):
        assert key in show
    assert show["id"] == "ambush" and show["round"] == 1 and show["actor"] == "selka"
    assert show["participants"] == ["selka", "sentry", "mira", "bandit"]
    assert show["acted"] == [] and show["hidden"] == {}
    human = run(encounter_camp, "encounter", "show")
    assert human.code == 0 and "selka" in human.out and "round 1" in human.out


def test_encounter_show_other_by_id_and_in(encounter_camp):
    ok(encounter_camp, "encounter", "new", "duel", "mira", "bandit")  # now current
    assert ok(encounter_camp, "encounter", "show", "ambush")["id"] == "ambush"
    assert ok(encounter_camp, "encounter", "show", "--in", "ambush")["id"] == "ambush"
    assert ok(encounter_camp, "encounter", "show")["id"] == "duel"
    ok(encounter_camp, "turn", "start", "selka", "--in", "ambush")
    assert state(encounter_camp)["actor"] == "selka"
    assert state(encounter_camp, "duel")["actor"] is None


def test_encounter_log_json_and_last(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "roll", "--force", "selka", "stealth", "--dr", "3", "--faces", "2")
    log = ok(encounter_camp, "encounter", "log")
    assert log["id"] == "ambush"
    assert [e["command"] for e in log["entries"]] == ["turn start", "roll"]
    assert [e["seq"] for e in log["entries"]] == [1, 2]
    last = ok(encounter_camp, "encounter", "log", "--last", "1")
    assert [e["seq"] for e in last["entries"]] == [2]
    human = run(encounter_camp, "encounter", "log")
    assert human.code == 0 and "activation starts" in human.out and "Failure" in human.out


def test_log_entry_shape_and_stable_key_order(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "roll", "selka", "stealth", "--dr", "3", "--boost", "2", "--faces", "2,1,1")
    ok(encounter_camp, "roll", "--force", "selka", "athletics", "--dr", "2", "--faces", "0")
    entries = log_entries(encounter_camp)
    assert len(entries) == 3
    for entry in entries:
        assert list(entry) == ["seq", "id", "parent", "at", "command", "actor", "declaration", "result", "dice",
                               "changes"]
        assert re.fullmatch(r"[0-9a-f]{12}", entry["id"])
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", entry["at"])
    assert [e["parent"] for e in entries] == [None, entries[0]["id"], entries[1]["id"]]  # G-LOG-1
    roll1, roll2 = entries[1], entries[2]
    assert roll1["actor"] == "selka" and roll1["command"] == "roll"  # who, what
    assert roll1["declaration"]["skill"] == "stealth" and roll1["declaration"]["boost"] == 2  # the declaration
    assert roll1["declaration"]["target"]["kind"] == "dr" and roll1["declaration"]["target"]["value"] == 3
    assert roll1["result"]["faces"] == [2, 1, 1]  # the faces
    assert roll1["result"]["total"] == 4 and roll1["result"]["outcome"] == "Success"  # the result
    assert roll1["dice"] == {"selka": {"before": {"ready": 5, "used": 0}, "after": {"ready": 2, "used": 3}}}
    assert roll2["dice"]["selka"]["before"] == roll1["dice"]["selka"]["after"]
    # the check keys come in the documented order, the same in every entry
    keys1 = [k for k in roll1["result"] if k in CHECK_KEYS]
    keys2 = [k for k in roll2["result"] if k in CHECK_KEYS]
    assert keys1 == CHECK_KEYS and keys2 == CHECK_KEYS
    assert list(roll1["result"]) == list(roll2["result"])
    assert list(roll1["declaration"]) == list(roll2["declaration"])
    # the text: one JSON object per line, each opening with its seq (what keeps union merges whole)
    text = (encounter_camp / LOG).read_text()
    assert re.findall(r'^- \{"seq": (\d+), "id": ', text, re.M) == ["1", "2", "3"]
    assert [json.loads(line[2:]) for line in text.splitlines()] == entries
    assert len(text.splitlines()) == 3


# ---- conditions ------------------------------------------------------------------------

def test_condition_add_and_remove(encounter_camp):
    first = ok(encounter_camp, "condition", "selka", "+stunned")
    assert first["conditions"] == ["stunned"] and first["added"] == ["stunned"]
    data = ok(encounter_camp, "condition", "selka", "+slowed", "-stunned")
    assert data["conditions"] == ["slowed"]
    assert data["added"] == ["slowed"] and data["removed"] == ["stunned"]
    text = (encounter_camp / "characters" / "selka.yaml").read_text()
    assert YAML(typ="safe").load(text)["conditions"] == ["slowed"]
    assert "notes: Prefers rooftops to roads.   # unknown keys are kept as they are\n" in text
    assert text.startswith("# Selka, a scout of the border wardens\n")
    assert log_entries(encounter_camp)[-1]["command"] == "condition"


def test_slowed_doubles_a_check_payment_and_stunned_blocks_reactions(encounter_camp):
    ok(encounter_camp, "condition", "selka", "+slowed")
    ok(encounter_camp, "turn", "start", "selka")
    data = ok(encounter_camp, "roll", "selka", "stealth", "--dr", "2", "--boost", "1", "--faces", "1,1")
    assert data["paid"] == 4 and data["roll_dice"] == 2 and data["dice_after"] == {"ready": 1, "used": 4}
    ok(encounter_camp, "condition", "mira", "+stunned")
    refused(encounter_camp, 3, "roll", "mira", "observation", "--dr", "2", "--reaction", "--faces", "1",
            contains="stunned")


def test_unaware_switches_readiness_off_as_target(encounter_camp):
    ok(encounter_camp, "condition", "sentry", "+unaware")
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 3, "roll", "selka", "stealth", "--vs", "sentry:observation", "--faces", "2",
            contains="sentry is unaware, so its Readiness is not a target")


def test_condition_bad_input(encounter_camp):
    refused(encounter_camp, 2, "condition", "selka", "+sleepy", contains="unknown condition 'sleepy'")
    refused(encounter_camp, 2, "condition", "selka", contains="no change given")
    refused(encounter_camp, 2, "condition", "selka", "slowed", contains="'slowed' is not +NAME or -NAME")
    refused(encounter_camp, 2, "condition", "nobody", "+slowed", contains="unknown character 'nobody'")


# ---- wound / heal (A-WOUND) ------------------------------------------------------------

def test_wound_takes_ready_then_used_never_a_die_twice(encounter_camp):
    set_dice(encounter_camp, "bandit", ready=1, used=2)
    data = ok(encounter_camp, "wound", "bandit", "2")
    assert data["moved"] == 2
    assert data["dice_after"] == {"ready": 0, "used": 1, "wounded": 2}
    # more wounds than dice: only the dice there are move, each once
    more = ok(encounter_camp, "wound", "bandit", "5")
    assert more["moved"] == 1 and more["dice_after"] == {"ready": 0, "used": 0, "wounded": 3}
    assert sum(more["dice_after"].values()) == 3
    healed = ok(encounter_camp, "heal", "bandit", "2")
    assert healed["moved"] == 2 and healed["dice_after"] == {"ready": 0, "used": 2, "wounded": 1}
    healed = ok(encounter_camp, "heal", "bandit", "9")
    assert healed["moved"] == 1 and healed["dice_after"] == {"ready": 0, "used": 3, "wounded": 0}
    assert sheet_dice(encounter_camp, "bandit") == {"ready": 0, "used": 3, "wounded": 0}
    # wounded dice do not come back with a refresh
    ok(encounter_camp, "wound", "bandit")
    refreshed = ok(encounter_camp, "refresh", "bandit")
    assert refreshed["dice_after"] == {"ready": 2, "used": 0, "wounded": 1}
    for entry in log_entries(encounter_camp):
        move = entry["dice"]["bandit"]
        assert sum(move["before"].values()) == sum(move["after"].values()) == 3
    assert [e["command"] for e in log_entries(encounter_camp)] == ["wound", "wound", "heal", "heal", "wound", "refresh"]


def test_wound_negative_is_bad_input(encounter_camp):
    refused(encounter_camp, 2, "wound", "bandit", "--", "-1", contains="N -1 is negative")
    refused(encounter_camp, 2, "heal", "bandit", "--", "-2", contains="N -2 is negative")


# ---- undo ------------------------------------------------------------------------------

def test_undo_restores_every_file_and_appends_to_the_log(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    before = snapshot(encounter_camp)
    log_before = (encounter_camp / LOG).read_bytes()
    hide = ok(encounter_camp, "hide", "selka", "--from", "bandit", "--from", "sentry", "--searching", "sentry",
              "--boost", "1", "--faces", "2,1", "--observer-faces", "sentry=1")
    assert hide["hidden_from"] == ["bandit", "sentry"]
    middle = snapshot(encounter_camp)
    for rel in ("characters/selka.yaml", "characters/sentry.yaml", STATE):
        assert middle[rel] != before[rel]
    data = ok(encounter_camp, "undo")
    assert data["undone"] == 2
    assert set(data["files"]) == {"characters/selka.yaml", "characters/sentry.yaml", STATE}
    after = snapshot(encounter_camp)
    assert set(after) == set(before)
    for rel in before:
        if rel != LOG:
            assert after[rel] == before[rel], rel
    log_after = after[LOG]
    assert log_after.startswith(middle[LOG]) and middle[LOG].startswith(log_before)
    entries = log_entries(encounter_camp)
    last = entries[-1]
    assert last["command"] == "undo" and last["seq"] == 3
    assert last["declaration"] == {"undoes": entries[1]["id"], "resumes": entries[0]["id"]}  # G-MERGE-4
    assert last["dice"]["selka"] == {"before": {"ready": 3, "used": 2}, "after": {"ready": 5, "used": 0}}
    assert last["dice"]["sentry"] == {"before": {"ready": 3, "used": 1}, "after": {"ready": 4, "used": 0}}
    # the log still verifies after the undo
    assert ok(encounter_camp, "verify")["ok"] is True


def test_undo_twice_and_then_nothing_left(camp):
    before = snapshot(camp)
    ok(camp, "encounter", "new", "duel", "mira", "bandit")
    ok(camp, "turn", "start", "mira")
    ok(camp, "roll", "--force", "mira", "melee", "--dr", "2", "--faces", "2")
    ok(camp, "undo")
    assert sheet_dice(camp, "mira") == {"ready": 6, "used": 0}
    assert state(camp, "duel")["uses"]["melee"] == 3
    ok(camp, "undo")
    assert state(camp, "duel")["actor"] is None
    ok(camp, "undo")  # undoes `encounter new`: config back, state file gone
    now = snapshot(camp)
    for rel, data in before.items():
        assert now[rel] == data, rel
    assert "encounters/duel.yaml" not in now


def test_undo_after_undo_reads_the_logs_end_not_the_whole_log(encounter_camp, monkeypatch):
    """G-LOG-3: the entry a later undo takes back lies a few entries from the end; finding it (to name it
    in words) reads the log's end, never the whole log, which cost seconds at 100,000 entries."""
    from narateer_cli.store import loglines

    ok(encounter_camp, "turn", "start", "selka")
    for _ in range(6):
        ok(encounter_camp, "roll", "selka", "athletics", "--dr", "1", "--faces", "1", "--reaction")
        ok(encounter_camp, "refresh", "selka")

    def whole_log(*args):
        raise AssertionError("undo read the whole log")

    monkeypatch.setattr(loglines, "entries", whole_log)
    words = [ok(encounter_camp, "undo")["undid"] for _ in range(3)]
    assert [w.split(":")[0] for w in words] == ["refresh", "roll", "refresh"], words


def test_undo_with_nothing_to_undo_refused(encounter_camp):
    refused(encounter_camp, 3, "undo", contains="nothing to undo in encounter ambush")


def test_undo_refused_when_a_file_changed_afterwards(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "roll", "--force", "selka", "stealth", "--dr", "2", "--faces", "1")
    sheet = encounter_camp / "characters" / "selka.yaml"
    sheet.write_text(sheet.read_text().replace("Prefers rooftops", "Prefers alleys"))
    refused(encounter_camp, 3, "undo", contains="characters/selka.yaml changed after entry 2")


# ---- verify ----------------------------------------------------------------------------

def _busy_log(camp):
    ok(camp, "turn", "start", "selka")
    ok(camp, "roll", "selka", "stealth", "--dr", "3", "--boost", "2", "--faces", "2,1,1")
    ok(camp, "roll", "--force", "selka", "athletics", "--dr", "2", "--advantage", "--faces", "0", "--reroll-faces", "2")
    ok(camp, "resolve", "selka", "--intent", "climb", "--tier", "minor", "--auto")
    ok(camp, "turn", "end", "--next", "mira")
    ok(camp, "turn", "start", "mira")
    ok(camp, "exchange", "mira", "bandit", "--response", "clash", "--faces", "2", "--response-faces", "1")
    ok(camp, "wound", "bandit")


def test_verify_passes_on_a_real_log(encounter_camp):
    _busy_log(encounter_camp)
    data = ok(encounter_camp, "verify")
    assert data["ok"] is True and data["problem"] is None and data["entries"] == 8
    human = run(encounter_camp, "verify")
    assert human.code == 0 and "8 entries" in human.out


def _as_json(flow: str) -> str:
    """`total: 4,` or `selka: {before: {ready: 2}}` as the log's JSON writes it."""
    return re.sub(r"([A-Za-z_]+): ", r'"\1": ', flow)


def edit_entry(camp, seq, old, new):
    """Hand-edit one log entry (one line): `old` must stand in it exactly once."""
    log = camp / LOG
    lines = log.read_text().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.startswith(f'- {{"seq": {seq},'))
    old, new = _as_json(old), _as_json(new)
    assert lines[index].count(old) == 1
    lines[index] = lines[index].replace(old, new)
    log.write_text("".join(lines))


@pytest.mark.parametrize("old,new,words", [
    ("total: 4,", "total: 5,", "total 5"),
    ("margin: 1,", "margin: 2,", "margin 2"),
    ("paid: 3,", "paid: 2,", "paid 2"),
])
def test_verify_catches_a_hand_edited_entry(encounter_camp, old, new, words):
    _busy_log(encounter_camp)
    # the second entry is the Stealth roll: total 4 vs DR 3, margin 1, paid 3
    edit_entry(encounter_camp, 2, old, new)
    before = snapshot(encounter_camp)
    r = run(encounter_camp, "--json", "verify")
    assert r.code == 1
    assert r.json["ok"] is False
    assert "entry 2" in r.json["problem"] and words in r.json["problem"]
    human = run(encounter_camp, "verify")
    assert human.code == 1 and "entry 2" in human.out
    assert snapshot(encounter_camp) == before


def test_verify_catches_broken_dice_continuity(encounter_camp):
    _busy_log(encounter_camp)
    # entry 3's dice before no longer continue from entry 2's after (2 ready, 3 used)
    edit_entry(encounter_camp, 3, "selka: {before: {ready: 2, used: 3}, after: {ready: 1, used: 4}}",
               "selka: {before: {ready: 3, used: 2}, after: {ready: 2, used: 3}}")
    r = run(encounter_camp, "--json", "verify")
    assert r.code == 1 and "entry 3" in r.json["problem"]


def test_verify_catches_a_dice_block_that_disagrees_with_the_payment(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "roll", "selka", "stealth", "--dr", "3", "--boost", "2", "--faces", "2,1,1")  # paid 3
    ok(encounter_camp, "move", "selka", "2")
    log = encounter_camp / LOG
    text = log.read_text()
    old = _as_json("selka: {before: {ready: 5, used: 0}, after: {ready: 2, used: 3}}")
    assert text.count(old) == 1
    log.write_text(text.replace(old, old.replace(_as_json("after: {ready: 2, used: 3}"), _as_json("after: {ready: 4, used: 1}"))))
    r = run(encounter_camp, "--json", "verify")
    assert r.code == 1 and "entry 2" in r.json["problem"]


# ---- git -------------------------------------------------------------------------------

def git(root, *args):
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=True).stdout


def git_init(root):
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Test Guide")
    git(root, "config", "user.email", "guide@example.invalid")
    git(root, "config", "commit.gpgsign", "false")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "campaign")


needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


@needs_git
def test_commit_flag_commits_with_a_message_for_the_table(camp):
    git_init(camp)
    ok(camp, "roll", "selka", "stealth", "--dr", "3", "--boost", "2", "--faces", "2,1,1", "--commit")
    assert git(camp, "log", "-1", "--format=%s").strip() == "selka: Stealth ●● ● ● = 4 vs DR 3, Success (paid 3 AD)"
    # outside an encounter the change is logged in the campaign log (G-LOG-5)
    assert git(camp, "show", "--name-only", "--format=", "HEAD").split() == ["characters/selka.yaml",
                                                                             "encounters/campaign.log.yaml"]
    assert git(camp, "status", "--porcelain") == ""
    # without --commit (and autocommit false) nothing is committed
    ok(camp, "roll", "--force", "selka", "stealth", "--dr", "3", "--faces", "1")
    assert git(camp, "log", "-1", "--format=%s").strip() == "selka: Stealth ●● ● ● = 4 vs DR 3, Success (paid 3 AD)"
    assert git(camp, "status", "--porcelain").split() == ["M", "characters/selka.yaml", "M",
                                                         "encounters/campaign.log.yaml"]


@needs_git
def test_autocommit_in_config_commits_encounter_files(encounter_camp):
    config = encounter_camp / "narateer.yaml"
    config.write_text(config.read_text().replace("autocommit: false", "autocommit: true"))
    git_init(encounter_camp)
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "roll", "selka", "stealth", "--dr", "3", "--boost", "2", "--faces", "2,1,1")
    assert git(encounter_camp, "log", "-1", "--format=%s").strip() == "selka: Stealth ●● ● ● = 4 vs DR 3, Success (paid 3 AD)"
    files = set(git(encounter_camp, "show", "--name-only", "--format=", "HEAD").split())
    assert files == {"characters/selka.yaml", STATE, LOG}
    assert git(encounter_camp, "status", "--porcelain") == ""
    assert len(git(encounter_camp, "log", "--format=%s").splitlines()) == 3  # campaign, turn start, roll


def test_init_writes_union_gitattributes(tmp_path):
    root = tmp_path / "fresh"
    assert run(None, "init", str(root)).code == 0
    text = (root / ".gitattributes").read_text()
    assert "encounters/*.log.yaml merge=union" in text.splitlines()
    assert ".narateer/" in (root / ".gitignore").read_text().splitlines()


def log_entries_text(text):
    return YAML(typ="safe").load(text)


def _two_branches_appending(camp):
    """main: selka's turn started; branch a: selka rolls; branch b: mira gets a condition."""
    git_init(camp)
    ok(camp, "turn", "start", "selka")
    git(camp, "add", "-A")
    git(camp, "commit", "-q", "-m", "turn")
    base = (camp / LOG).read_text()
    git(camp, "checkout", "-q", "-b", "a")
    ok(camp, "roll", "selka", "stealth", "--dr", "3", "--boost", "1", "--faces", "2,2")
    git(camp, "commit", "-q", "-am", "a")
    a_text = (camp / LOG).read_text()
    git(camp, "checkout", "-q", "main")
    git(camp, "checkout", "-q", "-b", "b")
    ok(camp, "condition", "mira", "+stunned")
    git(camp, "commit", "-q", "-am", "b")
    b_text = (camp / LOG).read_text()
    merged = subprocess.run(["git", "merge", "-q", "--no-edit", "a"], cwd=camp, capture_output=True, text=True)
    return base, a_text, b_text, merged


@needs_git
def test_git_merge_of_two_appended_logs_has_no_conflict(encounter_camp):
    base, a_text, b_text, merged = _two_branches_appending(encounter_camp)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    text = (encounter_camp / LOG).read_text()
    assert "<<<<<<<" not in text and ">>>>>>>" not in text
    assert text.startswith(base)
    assert git(encounter_camp, "status", "--porcelain") == ""


@needs_git
def test_git_merge_of_two_appended_logs_keeps_both_entries_intact(encounter_camp):
    base, a_text, b_text, merged = _two_branches_appending(encounter_camp)
    assert merged.returncode == 0
    entries = log_entries(encounter_camp)  # must parse
    ours = log_entries_text(b_text)[-1]
    theirs = log_entries_text(a_text)[-1]
    assert ours in entries and theirs in entries
    assert len(entries) == 3
    # verify accepts the joined branches: each continues from the common ancestor
    assert run(encounter_camp, "verify").code == 0



# ---- bad input -------------------------------------------------------------------------

def test_missing_encounter_file(encounter_camp):
    (encounter_camp / STATE).unlink()
    err = refused(encounter_camp, 2, "turn", "start", "selka", contains="unknown encounter 'ambush'")
    assert "ambush" in err
    refused(encounter_camp, 2, "encounter", "show", "ghost", contains="unknown encounter 'ghost'")
    refused(encounter_camp, 2, "turn", "start", "selka", "--in", "ghost", contains="unknown encounter 'ghost'")


def test_no_current_encounter(camp):
    refused(camp, 2, "turn", "start", "selka", contains="no current encounter")
    refused(camp, 2, "encounter", "show", contains="no current encounter")
    err = refused(camp, 3, "undo", contains="nothing to undo in encounter campaign")  # G-LOG-5: the campaign log
    assert "`narateer undo ID` undoes the last action of encounter ID" in err


@pytest.mark.parametrize("body", ["id: [broken\n", "- just\n- a list\n", "round: 1\n", "\x00\x01binary"])
def test_corrupt_encounter_file(encounter_camp, body):
    (encounter_camp / STATE).write_text(body)
    err = refused(encounter_camp, 2, "turn", "start", "selka", contains="encounters/ambush.yaml")
    assert "restore" in err and "from git" in err  # every way the file breaks names the fix
    err = refused(encounter_camp, 2, "encounter", "show", contains="encounters/ambush.yaml")
    assert "restore" in err and "from git" in err


def test_unknown_participant(encounter_camp):
    err = refused(encounter_camp, 2, "turn", "start", "kai",
                  contains="kai is not in encounter ambush")  # a character, not in the encounter
    assert "kai" in err
    refused(encounter_camp, 2, "turn", "start", "nobody",
            contains="unknown character 'nobody'")  # no such character at all
    ok(encounter_camp, "turn", "start", "selka")
    refused(encounter_camp, 2, "turn", "end", "--next", "kai", contains="kai is not in encounter ambush")
    refused(encounter_camp, 2, "roll", "selka", "stealth", "--vs", "nobody:observation", "--faces", "1",
            contains="unknown character 'nobody'")


def test_turn_end_with_nobody_acting(encounter_camp):
    err = refused(encounter_camp, 3, "turn", "end", contains="nobody is acting")
    assert "nobody is acting" in err


def test_turn_end_next_naming_someone_who_already_acted(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "turn", "end", "--next", "mira")
    ok(encounter_camp, "turn", "start", "mira")
    refused(encounter_camp, 3, "turn", "end", "--next", "selka", contains="already acted")
    refused(encounter_camp, 3, "turn", "end", "--next", "mira", contains="mira has already acted this round")


@pytest.mark.parametrize("args", [
    ["roll", "mira", "melee", "--dr", "2", "--faces", "2,2"],  # 1 die rolled, 2 faces given
    ["resolve", "mira", "--intent", "shove", "--check", "athletics", "--dr", "2", "--faces", "1,1"],
    ["exchange", "mira", "bandit", "--response", "none", "--faces", "2,2"],
    ["hide", "mira", "--from", "bandit", "--faces", "2,2"],
])
def test_bad_input_is_reported_before_a_rules_refusal(encounter_camp, args):
    # Nobody is acting, so each of these is also refused (exit 3); the faces that do not fit come first (exit 2).
    err = refused(encounter_camp, 2, *args, contains="give exactly 1 face(s)")
    assert "face" in err
