"""The host's schema nodes and its one name matcher, as d20-cards and Open Adventure use them (S-SYS-4,
S-SYS-5): each node's message names the key path and the closest known name."""

from __future__ import annotations

import re

import pytest
from ruamel.yaml import YAML

from narateer_cli.store.schema import Choice, Int, Map, Name, Num, Or, Seq, Text, problems
from narateer_cli.suggest import closest, did_you_mean, slips, unknown


def messages(doc, table, rules=None):
    return [(p.line, p.key, p.message, p.severity) for p in problems(doc, table, "f.yaml", rules)]


def rt(text):
    return YAML(typ="rt").load(text)


@pytest.mark.parametrize("word,meant", [("immobilised", ["immobilized"]), ("blind", ["blinded"]),
                                        ("nullifed", ["nullified"]), ("weakened", []), ("deaf", []),
                                        ("blinded", [])])
def test_slip_keeps_one_typing_slip_or_a_cut_short_name(word, meant):
    known = ["blinded", "deafened", "immobilized", "nullified"]
    assert closest(word, known, cutoff=0.75, slip=True) == meant


def test_slips_counts_a_swap_as_one():
    assert (slips("hiden", "hidden"), slips("fni", "fin"), slips("weakened", "deafened")) == (1, 1, 2)


def test_norm_compares_names_a_systems_own_way():
    assert closest("swan song", ["swan_song", "stealth"], norm=lambda n: n.lower().replace(" ", "").replace("_", "")) \
        == ["swan_song"]
    assert did_you_mean("stelth", ["stealth"]) == " (did you mean stealth?)" and did_you_mean("zz", ["stealth"]) == ""


def test_unknown_adds_another_way_out_and_never_invites_the_misspelt_name():
    err = unknown("DS tier", "moderat", ["easy", "moderate"], more=" (or give a whole number)", create="x new ID")
    assert err.message == "unknown DS tier 'moderat' (did you mean moderate?)"
    assert err.fix == "known: easy, moderate (or give a whole number)"


def test_a_strict_open_map_refuses_only_a_near_miss_and_not_the_key_it_stands_for():
    table = Map({"name": Text(), "cost": Int(0, 9)}, required=("name", "cost"), open="strict")
    assert messages(rt("name: X\ncots: 2\nflavour: red\n"), table) == [
        (2, "cots", "unknown key 'cots' (did you mean cost?)", "error")]
    assert messages(rt("name: X\n"), table) == [(1, "cost", "cost is missing", "error")]


def test_an_open_map_still_reports_the_missing_key_beside_a_near_miss_warning():
    table = Map({"cost": Int()}, required=("cost",), open=True)
    assert [m[3] for m in messages(rt("cots: 2\n"), table)] == ["error", "warning"]


def test_map_keys_are_checked_by_their_own_node():
    table = Map({"resources": Map(key=Name(("ap",), "resource", new=True), values=Int())})
    assert messages(rt("resources:\n  app: 2\n  focus: 1\n"), table) == [
        (2, "resources.app", "resources.app: unknown resource 'app' (did you mean ap?)", "error")]


def test_name_from_a_function_of_the_ruleset():
    table = Map({"conditions": Seq(Name(lambda rules: rules["known"], "condition", new=True), indexed=True)})
    found = messages({"conditions": ["hiden", "glowing"]}, table, {"known": ["hidden"]})
    assert found == [(1, "conditions[0]", "conditions[0]: unknown condition 'hiden' (did you mean hidden?)", "error")]


def test_or_reports_the_alternative_of_the_values_kind():
    table = Map({"range": Or(Num(0, 100), Choice("reach", "self"))})
    assert messages({"range": "rech"}, table)[0][2] == \
        "range must be one of reach, self, not 'rech' (did you mean reach?)"
    assert messages({"range": -1.5}, table)[0][2] == "range -1.5 is out of range (0 to 100)"
    assert messages({"range": 1.5}, table) == []
    assert messages({"range": True}, table)[0][2] == "range must be a number, not True"


def test_text_pattern_and_seq_length():
    dice = Text(pattern=re.compile(r"^\d+d\d+$"), want='dice such as "2d6"')
    table = Map({"amount": dice, "tags": Seq(Text(), max_items=2)})
    assert [m[2] for m in messages({"amount": "2x6", "tags": ["a", "b", "c"]}, table)] == [
        "amount must be dice such as \"2d6\", not '2x6'", "tags holds more than 2 items"]
