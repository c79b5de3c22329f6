"""A record's JSON is made and read in one place (narateer_cli.record): its fields in order, with the
renames, conversions, omissions, inlined records and computed keys it declares, and its secrecy on the
same keys."""

from __future__ import annotations

from fractions import Fraction

import pytest

from narateer_cli.record import ALL, Record, computed, field


class Roll(Record):
    faces: tuple
    total: int
    chance: Fraction = field(dump=str, load=Fraction, public=True)


class Act(Record):
    actor: str = field(public=True)
    roll: Roll = field(inline=True, load=Roll.from_json, public=Roll)
    source: str = field(key="from", public=True)
    cost: int = field(default=0, key=None)
    note: str | None = field(default=None, skip=lambda r: r.note is None)

    system = computed(lambda r: "toy", first=True, public=True)
    message = computed(lambda r: f"{r.actor} rolls {r.roll.total}")


class Free(Record, public=True):
    what: str


def act(note=None) -> Act:
    return Act("selka", Roll((3, 4), 7, Fraction(1, 3)), "mira", 2, note)


def test_the_json_follows_the_declaration_key_by_key():
    assert list(act().to_json().items()) == [
        ("system", "toy"), ("actor", "selka"), ("faces", [3, 4]), ("total", 7), ("chance", "1/3"), ("from", "mira"),
        ("message", "selka rolls 7")]
    assert act("quiet").to_json()["note"] == "quiet" and "note" not in act().to_json()


def test_json_order_puts_a_computed_key_between_fields():
    class Ordered(Record):
        a: int
        b: int
        mid = computed(lambda r: r.a + r.b)
        _json_order = ("a", "mid", "b")

    assert list(Ordered(1, 2).to_json()) == ["a", "mid", "b"]


def test_from_json_reads_back_what_to_json_wrote_save_what_it_leaves_out():
    back = Act.from_json({**act("quiet").to_json(), "cost": 99})
    assert back.roll == Roll([3, 4], 7, Fraction(1, 3)) and back.source == "mira" and back.note == "quiet"
    assert back.cost == 0  # not in its JSON: the default
    data = act().to_json()
    del data["from"]
    with pytest.raises(TypeError, match="missing field 'source'"):
        Act.from_json(data)
    with pytest.raises(TypeError, match="JSON object"):
        Act.from_json(["selka"])


def test_secrecy_is_declared_on_the_keys_and_a_nested_record_brings_its_own():
    assert Act.declared_paths() == {"system", "actor", "chance", "from"}
    assert act().public_paths() == {"system", "actor", "chance", "from"}
    assert Free("x").public_paths() == ALL and Roll((1,), 1, Fraction(1)).public_paths() == {"chance"}


def test_a_record_without_a_declaration_shows_nothing_and_nests_nothing():
    class Plain(Record):
        roll: Roll

    assert not Plain.declares_secrecy() and Plain.declared_paths() == frozenset()


def test_a_field_with_no_key_of_its_own_is_read_from_the_whole_object():
    class Pay(Record):
        actor: str
        paid: int

    class Check(Record):
        pay: Pay = field(key=None, load=lambda d: Pay(d["actor"], d["paid"]))
        total: int
        actor = computed(lambda r: r.pay.actor, first=True)
        paid = computed(lambda r: r.pay.paid)

    made = Check(Pay("selka", 2), 5)
    assert made.to_json() == {"actor": "selka", "total": 5, "paid": 2}
    assert Check.from_json(made.to_json()) == made
