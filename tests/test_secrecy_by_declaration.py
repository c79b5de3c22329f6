"""S-SYS-8: secrecy by declaration. A secret entry shows what its result type declares public and nothing
else; a --secret action with a visible effect is refused before anything is written."""

from __future__ import annotations

import json

import pytest

from narateer_cli.errors import Refused
from narateer_cli.outcome import Outcome
from narateer_cli.record import Record, field
from narateer_cli.store.secrets import ALL, hides, public_paths, shown
from tests.conftest import ok, refused, snapshot


class Target(Record):
    id: str = field(public=True)
    hit: bool


class Inner(Record):
    paid: int = field(public=True)
    faces: list


class Outer(Record):
    actor: str = field(public=True)
    total: int
    check: Inner
    targets: list = field(public=Target)
    note: str | None


class Bare(Record):
    faces: list
    total: int


def test_a_record_declares_its_public_paths_and_its_fields_records_add_their_own():
    result = Outer("selka", 9, Inner(2, [3, 4]), [{"id": "a", "hit": True}], None)
    assert public_paths(result) == {"actor", "targets.id", "check.paid"}
    data = {"actor": "selka", "total": 9, "check": {"paid": 2, "faces": [3, 4]},
            "targets": [{"id": "a", "hit": True}, {"id": "b", "hit": False}], "note": None}
    assert shown(data, public_paths(result)) == {"actor": "selka", "check": {"paid": 2},
                                                 "targets": [{"id": "a"}, {"id": "b"}]}


def test_nothing_declared_is_nothing_shown():
    assert public_paths(Bare([1], 1)) == frozenset() and public_paths({"faces": [1]}) == frozenset()
    assert shown({"faces": [1], "total": 1}, frozenset()) == {}
    assert hides({"faces": [1]}, frozenset())


def test_a_command_declares_a_plain_result_and_all_means_no_roll():
    assert public_paths({"move": "charm", "band": "miss"}, ("move",)) == {"move"}
    assert shown({"move": "charm", "band": "miss"}, {"move"}) == {"move": "charm"}
    assert public_paths(Bare([1], 1), "*") == ALL and not hides({"faces": [1]}, ALL)


def test_a_path_declared_through_a_value_shows_no_number_behind_it():
    assert shown({"check": 7}, {"check.paid"}) == {"check": None}
    assert not hides({"check": None}, {"actor"})  # an empty part held back hides nothing


def log_entries(camp, log):
    path = camp / "encounters" / f"{log}.log.yaml"
    return [json.loads(line[2:]) for line in path.read_text().splitlines() if line.startswith("- {")]


def test_S_SYS_8_a_secret_check_logs_exactly_its_declared_part(camp):
    from narateer_cli.systems.narateer.engine.actions import CheckOutcome

    shown_to_guide = ok(camp, "roll", "selka", "stealth", "--dr", "3", "--boost", "1", "--faces", "2,1", "--secret")
    entry = log_entries(camp, "campaign")[-1]
    logged = dict(entry["result"])
    assert logged["chance"] == "1/9"  # the log adds each check's exact chance (P-LUCK-1)
    assert shown_to_guide["chance"] == "1/9"  # and --json shows it, as logged (T3-SMALL)
    assert logged == shown(shown_to_guide, CheckOutcome.declared_paths())
    assert set(entry["result"]) <= {path.split(".")[0] for path in CheckOutcome.declared_paths()}
    assert {"faces", "total", "success", "outcome", "margin"} & set(shown_to_guide)  # the Guide's screen has them
    assert not {"faces", "total", "success", "outcome", "margin"} & set(entry["result"])


def test_S_SYS_8_a_secret_exchange_that_would_wound_is_refused_and_writes_nothing(encounter_camp):
    ok(encounter_camp, "turn", "start", "mira")
    refused(encounter_camp, 3, "exchange", "mira", "bandit", "--response", "none", "--weapon", "sword", "--apply",
            "--faces", "2", "--secret", rule="S-SYS-8")


def test_S_SYS_8_the_host_refuses_a_secret_edit_of_another_sheet():
    from narateer_cli.commands.apply import _refuse_visible

    _refuse_visible(Outcome("roll", "mira", {}, {}, dice={"mira": {"ready": 1}, "bandit": {"ready": 2}}))  # costs
    with pytest.raises(Refused) as exc:
        _refuse_visible(Outcome("act", "mira", {}, {}, sheets={"bandit": {"hp.current": 3}}))
    assert exc.value.exit_code == 3 and "bandit's sheet" in exc.value.message


def test_S_SYS_8_secret_on_a_command_that_rolls_nothing_is_bad_input(camp):
    before = snapshot(camp)
    refused(camp, 2, "condition", "selka", "+slowed", "--secret", contains="rolls nothing")
    assert snapshot(camp) == before
