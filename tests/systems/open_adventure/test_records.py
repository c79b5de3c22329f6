"""Open Adventure's engine calls return a new state and a frozen result record (S-SYS-2); the
render layer alone gives each its JSON shape (`narateer_cli.render.plain`)."""

from __future__ import annotations

import pytest

from narateer_cli.errors import BadInput, Refused
from narateer_cli.record import Record
from narateer_cli.render import plain
from narateer_cli.systems.open_adventure import actions, chart, dice, pools, sheet, turns

from .helpers import cast, check, physical, rules


def hall(r):
    sheets = {cid: cast(cid, r) for cid in ("bloodwind", "warheart", "goblin")}
    return turns.new_encounter("hall", ("bloodwind", "warheart", "goblin"), {"bloodwind": 9, "warheart": 5},
                               sheets, r)


def test_a_check_and_its_parts_are_frozen_records_that_read_as_their_log():
    r = check("bloodwind", "strength", faces="4,7", mo=True, specializations=("axes",), vs=("goblin", "body"),
              stunt=True, targets=3, target="goblin")
    assert isinstance(r, Record) and isinstance(r.action_score, Record) and isinstance(r.stunt, Record)
    assert r.action_score.total == 7  # R-OA-AS-1: 4 + MO 2 + 1 Specialization
    assert r.ds.total == 8 and r.ds.extra == 3  # Goblin's Body Defense 5 + 3 targets (R-OA-STUNT-3)
    assert (r.stunt.before, r.stunt.after) == (12, 11)
    with pytest.raises(AttributeError):
        r.ds.total = 1
    shape = plain(r)
    assert shape["ds"] == {"total": 8, "base": 5, "base_source": "defense:goblin.body", "drawback": 0,
                           "familiarity": 0, "multi": 3}
    assert list(shape["action_score"]) == list(r.action_score._fields)


def test_encounter_and_turns_return_new_state_and_report():
    r = rules()
    state, made = hall(r)
    assert made.order == ("bloodwind", "goblin", "warheart")  # A-OA-TURN: Goblin's statblock Reaction 6
    assert plain(made)["message"] == "encounter hall: order bloodwind, goblin, warheart"
    state, report = turns.start_turn(state)
    assert state.actor == report.actor == "bloodwind" and report.major and report.minor
    assert "rounds_left" not in plain(report) and "expired" not in plain(report)
    ended, report = turns.end_turn(state)
    assert ended.actor is None and report.actor is None and state.actor == "bloodwind"  # the old state stays


def test_a_timed_condition_ends_at_the_start_of_its_owners_turn():
    r = rules()
    state, _ = hall(r)
    state, _ = turns.start_turn(state)
    timed, result = pools.condition_change(cast("warheart", r), state, ["+stunned"], 1)
    assert result.rounds_left == {"stunned": 1} and timed.durations == {"warheart": {"stunned": 2}}
    for _ in range(2):  # bloodwind ends; goblin; warheart (Round 1) ...
        timed, _ = turns.end_turn(timed)
        timed, report = turns.start_turn(timed)
    assert (timed.round, timed.actor, report.expired) == (1, "warheart", ())
    for _ in range(3):  # ... Round 2: bloodwind, goblin, warheart
        timed, _ = turns.end_turn(timed)
        timed, report = turns.start_turn(timed)
    assert (timed.round, timed.actor, report.expired) == (2, "warheart", ("stunned",))
    assert plain(report)["expired"] == ["stunned"] and timed.durations == {}


def test_rounds_need_an_encounter_and_an_added_condition():
    r = rules()
    with pytest.raises(BadInput, match="--rounds needs a \\+NAME and CHAR in the current encounter"):
        pools.condition_change(cast("amicus", r), None, ["+prone"], 2)
    state, _ = hall(r)
    with pytest.raises(BadInput, match="--rounds times the conditions added"):
        pools.condition_change(cast("warheart", r).replace(conditions=("prone",)), state, ["-prone"], 2)


def test_bare_dice_charts_and_ladder_are_records():
    r = rules()
    roll = dice.bare_roll(7, r, physical("6+2,5"))
    assert (roll.dice, roll.total, roll.exploded, roll.critical_failure) == (["d6", "d8"], 13, [0], False)
    assert chart.ds_table("moderate", r) == chart.DsTier(system="open-adventure", tier="moderate", ds=9)
    assert isinstance(chart.ds_table(None, r), chart.DsLadder)
    rows = chart.action_chart((6, 15), r).rows
    assert [(x.printed, x.extended) for x in rows] == [("2d6", False), ("3d6+d8", True)]
    with pytest.raises(Refused):
        dice.bare_roll(1, r, physical("1"))  # R-OA-AS-6


def test_resolve_paths():
    r = rules()
    state, _ = hall(r)
    with pytest.raises(BadInput, match="exactly one path"):
        actions.path_of(True, None, True, None)
    assert actions.path_of(False, "world", False, None) == "impossible"
    state, _ = turns.start_turn(state)
    held, result = actions.resolve_path("bloodwind", "hold the door", "maintain", None, state)
    assert held.major and not state.major and result.check is None  # R-OA-ACT-5: the Major Action is spent
    with pytest.raises(Refused):
        actions.resolve_path("bloodwind", "hold it again", "maintain", None, held)
    with pytest.raises(BadInput, match="across Turns of an encounter"):
        actions.resolve_path("bloodwind", "hold", "maintain", None, None)


def test_new_sheet_builds_the_document_and_reports_it():
    r = rules()
    doc, made, result = sheet.new_sheet("wolf", None, True, {"body": "4"}, r, reaction=5, actions={"bite": "6:2"})
    assert doc["actions"] == {"bite": {"as": 6, "group": "body", "effect": 2}} and made.actions["bite"].effect == 2
    assert plain(result)["message"] == "created characters/wolf.yaml"
    with pytest.raises(BadInput, match="for NPC statblocks"):
        sheet.new_sheet("kara", None, False, {}, r, actions=("bite=6",))
    shown = plain(sheet.view(made, r))
    assert shown["actions"] == [{"name": "bite", "as": 6, "dice": "2d6", "effect": 2, "group": "body", "stunt": False}]
