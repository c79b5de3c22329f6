"""Edges of the luck record and of verify that a mutation run found unguarded (P-LUCK-1, P-LUCK-2,
S-SYS-6, R-PAY-2): each test here fails on a small change of the code that the rest of the suite let
through."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ok, run

LOG = ("encounters", "campaign.log.yaml")


def _log_lines(camp):
    return camp.joinpath(*LOG).read_text(encoding="utf-8").splitlines(keepends=True)


def _edit_entries(camp, edit):
    """Rewrite each one-line entry of the campaign log through `edit(number, entry)`."""
    lines = _log_lines(camp)
    for i, line in enumerate(lines):
        if line.startswith("- {"):
            entry = json.loads(line[2:])
            edit(i, entry)
            lines[i] = "- " + json.dumps(entry, ensure_ascii=False) + "\n"
    camp.joinpath(*LOG).write_text("".join(lines), encoding="utf-8")


def test_P_LUCK_2_an_undone_successful_check_counts_for_nothing(camp, tmp_path):
    """The undo takes back the success, the chance, the dice and the crits of the check it undoes: the record
    is the one of a campaign where only the first check was rolled."""
    from tests.conftest import example_campaign

    ok(camp, "roll", "selka", "stealth", "--dr", "1", "--faces", "2")
    ok(camp, "roll", "selka", "stealth", "--dr", "2", "--boost", "1", "--faces", "2,1")  # a success, undone
    ok(camp, "undo")
    once = example_campaign(tmp_path / "once")
    ok(once, "roll", "selka", "stealth", "--dr", "1", "--faces", "2")
    row = ok(camp, "stats")["actors"]
    assert row == ok(once, "stats")["actors"]
    assert row[0]["checks"] == 1 and row[0]["successes"] == 1 and row[0]["expected_exact"] == "1/3"
    assert row[0]["dice_spent"] == 1 and row[0]["crits"] == 1


def test_S_SYS_6_verify_replays_a_logged_power_reroll(camp):
    """A power reroll is part of the check verify runs again: its faces are used, and a changed one is named."""
    ok(camp, "roll", "kaelen", "finesse", "--dr", "2", "--boost", "1", "--advantage", "--faces", "0,1",
       "--reroll-faces", "0", "--power-reroll", "0", "--power-faces", "2")
    assert ok(camp, "verify", "campaign")["ok"] is True

    def weaker(_, entry):
        entry["result"]["power_faces"] = [0]  # the rerolled die came up Miss: total 1, no success against DR 2
    _edit_entries(camp, weaker)
    r = run(camp, "--json", "verify", "campaign")
    assert r.code == 1 and "encounters/campaign.log.yaml:1: entry 1 (roll)" in r.json["problem"], r.out


@pytest.mark.parametrize("roll_dice,rolled", [("base_cost", 2), ("paid_base", 1)])
def test_R_PAY_2_a_discount_larger_than_the_cost_pays_nothing_for_it(camp, roll_dice, rolled):
    """Each discount takes its part down to 0, never below: only the fee is paid; verify agrees. The dice
    rolled: the base cost undiscounted plus the Boost (base_cost), or the base discounted to 0 plus the
    Boost (paid_base)."""
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + f"rules:\n  roll_dice: {roll_dice}\n")
    data = ok(camp, "roll", "selka", "stealth", "--dr", "1", "--cost", "1", "--discount-base", "3", "--boost", "1",
              "--discount-boost", "4", "--fee", "1", "--faces", ",".join(["2"] * rolled))
    assert data["paid"] == 1 and data["roll_dice"] == rolled
    assert data["dice_after"] == {"ready": 4, "used": 1}
    assert ok(camp, "verify", "campaign")["ok"] is True


def test_P_LUCK_1_a_logged_chance_over_zero_is_a_problem_not_a_crash(camp):
    """"1/0" is no chance: verify names it as a problem, stats reckons the chance from the declaration."""
    ok(camp, "roll", "selka", "stealth", "--dr", "1", "--faces", "2")

    def over_zero(_, entry):
        entry["result"]["chance"] = "1/0"
    _edit_entries(camp, over_zero)
    r = run(camp, "--json", "verify", "campaign")
    assert r.code == 1 and "Traceback" not in r.err, r.err
    assert r.json["problem"] == ("encounters/campaign.log.yaml:1: entry 1 (roll): logged chance 1/0 is not "
                                 "the check's chance 1/3")
    row = ok(camp, "stats")["actors"][0]
    assert row["checks"] == 1 and row["expected_exact"] == "1/3" and row["successes"] == 1


def test_P_LUCK_2_since_counts_an_entry_logged_at_that_very_moment(camp):
    """`stats --since T` counts the entries logged at or after T: one logged at T itself counts, one a
    second before does not."""
    for faces in ("2", "0", "1"):
        ok(camp, "roll", "selka", "stealth", "--dr", "1", "--faces", faces)
    moments = iter(["2026-11-01T10:00:00Z", "2026-11-02T09:59:59Z", "2026-11-02T10:00:00Z"])

    def at(_, entry):
        entry["at"] = next(moments)
    _edit_entries(camp, at)
    counted = {since: ok(camp, "stats", "--since", since)["actors"] for since in
               ("2026-11-02T10:00:00Z", "2026-11-02T09:59:59Z", "2026-11-02T10:00:01Z", "2026-11-02")}
    assert [row["checks"] for row in counted["2026-11-02T10:00:00Z"]] == [1]  # the third, logged at T
    assert counted["2026-11-02T10:00:00Z"][0]["successes"] == 0  # faces "1" against DR 1: no success
    assert [row["checks"] for row in counted["2026-11-02T09:59:59Z"]] == [2]
    assert counted["2026-11-02T10:00:01Z"] == []
    assert [row["checks"] for row in counted["2026-11-02"]] == [2]  # a date: from its first moment on


# The luck record as pure functions over log entries, with a small game of its own: a check is a mapping
# with an actor and a yes/no success, its chance is `ways / of` of the check, the dice it paid are `paid`.

from fractions import Fraction  # noqa: E402

from narateer_cli import luck  # noqa: E402


class Game:
    """A game's hooks as `luck` asks for them: `hook(name)` is the hook or None."""

    def __init__(self, **hooks):
        self.hooks = hooks

    def hook(self, name):
        return self.hooks.get(name)


def _ratio(check, rules):
    return check["ways"], check["of"]


def _chance(check, rules):
    return Fraction(check["ways"], check["of"])


def _check(actor, success, ways=1, of=3, **more):
    return {"actor": actor, "success": success, "ways": ways, "of": of, **more}


def _entry(seq, *checks, at="2026-11-02T10:00:00Z", **more):
    return {"seq": seq, "id": f"e{seq}", "at": at, "command": "roll", "result": {"checks": list(checks)}, **more}


def _rows(entries, game=None, **scope):
    game = game or Game(chance=_chance)
    return {r["actor"]: r for r in luck.stats_record(entries, game, None, **scope)["actors"]}


def test_P_LUCK_2_the_host_default_counts_what_a_check_paid_and_nothing_that_is_not_a_count():
    """A game without its own `luck` hook: the actor, the success and the dice paid, where paid is a whole
    number; paid given as yes/no or as text, or not given, is no dice spent."""
    assert luck.plain_luck({"actor": "selka", "success": True, "paid": 2}, None) == \
        {"actor": "selka", "success": True, "spent": 2}
    for paid in (True, "2", None):
        assert luck.plain_luck({"actor": "kaelen", "success": False, "paid": paid}, None)["spent"] == 0
    assert luck.plain_luck({"actor": "kaelen", "success": False}, None)["spent"] == 0


def test_P_LUCK_2_the_host_default_checks_are_the_mappings_with_an_actor_and_a_yes_no_success():
    """Every mapping inside a result, however deep (lists of lists too), that names an actor as text and
    has a yes/no success; a mapping with only one of the two is no check."""
    a, b = {"actor": "selka", "success": True}, {"actor": "kaelen", "success": False}
    result = {"rounds": [[a, {"actor": "mira"}], [[b]]], "success": True, "inner": {"success": "yes",
                                                                                   "actor": "x"}}
    assert list(luck.any_checks(result)) == [a, b]
    assert luck.mappings([[{"k": 1}, [{"k": 2}]]]) == [{"k": 1}, {"k": 2}]


def test_P_LUCK_1_a_logged_chance_is_read_as_a_fraction_and_anything_else_is_none():
    """"2/6" is the chance 1/3; text without a slash, a zero denominator or a signed number is none."""
    assert luck.parse_fraction("2/6") == Fraction(1, 3)
    for text in ("x", "1/0", "-1/3", None, "1/3/"):
        assert luck.parse_fraction(text) is None


def test_P_LUCK_1_chance_of_prefers_the_logged_chance_then_the_declaration():
    """A check's chance is the one its entry logged; an entry from before chances were logged gets the one
    the game computes; a check the game cannot read has none."""
    game = Game(chance=_chance)
    assert luck.chance_of(game, None, _check("selka", True, 1, 3, chance="1/2")) == Fraction(1, 2)
    assert luck.chance_of(game, None, _check("selka", True, 2, 6)) == Fraction(1, 3)
    assert luck.chance_of(game, None, {"actor": "selka"}) is None
    assert luck.chance_of(Game(), None, _check("selka", True)) is None


def test_P_LUCK_1_annotate_writes_the_chance_in_lowest_terms_from_either_hook():
    """Each check of a result gets its exact chance as "a/b" in lowest terms, whether the game gives it as
    a fraction or as whole numbers; a check that already has one keeps it; a game without a `checks` hook
    opts out."""
    for hooks in ({"chance": _chance}, {"chance": _chance, "chance_ratio": _ratio}):
        result = {"checks": [_check("selka", True, 2, 6), _check("kaelen", False, 1, 2, chance="9/10")]}
        luck.annotate(Game(checks=lambda r: r["checks"], **hooks), None, result)
        assert [c["chance"] for c in result["checks"]] == ["1/3", "9/10"]
    result = {"checks": [_check("selka", True, 2, 6)]}
    luck.annotate(Game(chance=_chance), None, result)
    assert "chance" not in result["checks"][0]


def test_P_LUCK_2_the_exact_distribution_of_successes():
    """Two checks at 1/2 and 1/3: no success 2/6, one 3/6, both 1/6."""
    assert luck.weights([Fraction(1, 2), Fraction(1, 3)]) == ([2, 3, 1], 6)
    assert luck.distribution([Fraction(1, 2), Fraction(1, 3)]) == [Fraction(1, 3), Fraction(1, 2), Fraction(1, 6)]


def test_P_LUCK_2_a_record_counts_expected_successes_to_three_places():
    """One check at 1/3 that succeeded: expected 0.333 (1/3 exactly), one success, the percentile of a
    session luckier than 1/3 of them plus half the rest: (2/3 + 1/3 / 2) = 83.3%."""
    row = _rows([("campaign", _entry(1, _check("selka", True)))])["selka"]
    assert (row["checks"], row["expected"], row["expected_exact"], row["successes"], row["percentile"]) == \
        (1, 0.333, "1/3", 1, 83.3)


def test_P_LUCK_2_an_actor_whose_checks_have_no_chance_has_no_percentile():
    """A check the game gives no success for (sealed, or no target of its own) counts its dice but no
    check: the actor's row has no percentile, not the 50% of an empty session."""
    game = Game(chance=_chance, luck=lambda check, rules: {"actor": check["actor"], "success": None,
                                                            "spent": 2})
    row = _rows([("campaign", _entry(1, _check("selka", True)))], game)["selka"]
    assert (row["checks"], row["dice_spent"], row["percentile"]) == (0, 2, None)


def test_P_LUCK_2_a_luck_hook_that_names_no_dice_spent_spent_none():
    """`spent` and `crits` left out of what the game's `luck` hook gives are nothing spent, nothing rolled."""
    game = Game(chance=_chance, luck=lambda check, rules: {"actor": check["actor"], "success": True})
    row = _rows([("campaign", _entry(1, _check("selka", True)))], game)["selka"]
    assert (row["checks"], row["dice_spent"], row["crits"]) == (1, 0, 0)


def test_P_LUCK_2_checks_without_an_actor_or_of_another_actor_are_left_out():
    """Only checks with an actor count, and with `actor` only that actor's, wherever they stand in the
    result: a check of another actor before one of the named actor does not hide it."""
    game = Game(chance=_chance, checks=lambda result: result["checks"],
                luck=lambda check, rules: {"actor": check.get("who"), "success": True})
    entry = _entry(1, {"who": "kaelen", "ways": 1, "of": 2}, {"ways": 1, "of": 2}, {"who": "selka", "ways": 1,
                                                                                   "of": 3})
    assert sorted(_rows([("campaign", entry)], game)) == ["kaelen", "selka"]
    assert list(_rows([("campaign", entry)], game, actor="selka")) == ["selka"]
    assert _rows([("campaign", entry)], game, actor="selka")["selka"]["expected_exact"] == "1/3"


def test_P_LUCK_2_a_checks_hook_given_the_declaration_gets_it_and_one_without_does_not():
    """A `checks` hook with two parameters gets the entry's declaration; one with a single parameter, or a
    callable object that is not a function, gets the result alone."""
    def by_declaration(result, declaration):
        return [c for c in result["checks"] if c["actor"] == declaration["who"]]

    class Plain:
        def __call__(self, result):
            return result["checks"]

    entry = _entry(1, _check("selka", True), _check("kaelen", False), declaration={"who": "kaelen"})
    assert list(_rows([("campaign", entry)], Game(chance=_chance, checks=by_declaration))) == ["kaelen"]
    assert sorted(_rows([("campaign", entry)], Game(chance=_chance, checks=lambda r: r["checks"]))) == \
        ["kaelen", "selka"]
    assert sorted(_rows([("campaign", entry)], Game(chance=_chance, checks=Plain()))) == ["kaelen", "selka"]


def test_P_LUCK_2_scope_filters_by_log_and_by_time_and_says_so():
    """`encounter` counts that log's entries only, and every one of them whatever other logs come between;
    `since` leaves out an entry logged earlier and one with no time; the record's scope names the three
    filters and the sealed rolls."""
    entries = [("fight", _entry(1, _check("selka", True))), ("campaign", _entry(1, _check("kaelen", True))),
               ("fight", _entry(2, _check("mira", False))),
               ("fight", _entry(3, _check("ash", False), at="2026-11-01T10:00:00Z")),
               ("fight", {**_entry(4, _check("bran", False)), "at": None})]
    record = luck.stats_record(entries, Game(chance=_chance), None, encounter="fight",
                               since="2026-11-02T00:00:00Z")
    assert [r["actor"] for r in record["actors"]] == ["mira", "selka"]
    assert record["scope"] == {"actor": None, "encounter": "fight", "since": "2026-11-02T00:00:00Z", "sealed": 0}
    record = luck.stats_record(entries, Game(chance=_chance), None, actor="selka")
    assert record["scope"] == {"actor": "selka", "encounter": None, "since": None, "sealed": 0}
    assert [r["actor"] for r in record["actors"]] == ["selka"]


def test_P_LUCK_2_sealed_rolls_wait_until_unveiled_or_undone():
    """Each sealed roll is one the record waits for; unveiling it or undoing it ends the wait; a check in
    the unveiling entry counts its success but no dice (they were paid when it was sealed)."""
    sealed = [("campaign", {**_entry(i), "commitment": f"c{i}"}) for i in (1, 2, 3)]
    unveil = ("campaign", {**_entry(4, _check("selka", True, paid=2)), "unveils": "e1"})
    undo = ("campaign", {"seq": 5, "id": "e5", "command": "undo", "declaration": {"undoes": "e2"}})
    assert luck.stats_record(sealed, Game(chance=_chance), None)["scope"]["sealed"] == 3
    record = luck.stats_record([*sealed, unveil, undo], Game(chance=_chance, luck=_paid), None)
    assert record["scope"]["sealed"] == 1
    assert (record["actors"][0]["checks"], record["actors"][0]["dice_spent"]) == (1, 0)


def _paid(check, rules):
    return {"actor": check["actor"], "success": check["success"], "spent": check.get("paid", 0)}


def test_P_LUCK_2_an_undo_takes_back_its_own_logs_entry_and_one_that_counted_nothing_is_harmless():
    """Entries of two logs may share an id: an undo takes back the entry of its own log. Undoing an entry
    that counted nothing takes nothing back."""
    tally = luck.Tally()
    tally.fold([("count", "fight", "e1", [("selka", 1, 0, (0, 1), (1, 3), True)]),
                ("count", "campaign", "e1", [("kaelen", 1, 0, (0, 1), (1, 3), True)]),
                ("undo", "fight", "e1"), ("undo", "fight", "e9")])
    rows = {r["actor"]: r for r in tally.record()["actors"]}
    assert (rows["selka"]["checks"], rows["kaelen"]["checks"]) == (0, 1)


def test_P_LUCK_2_an_undo_reaches_back_over_the_last_RECENT_entries_that_counted():
    """The record keeps what the last RECENT counting entries added: the oldest of them can still be
    undone, and so can the newest once older ones have been let go."""
    one = [("selka", 0, 0, (0, 1), (1, 2), True)]
    tally = luck.Tally()
    tally.fold(("count", "campaign", f"e{i}", one) for i in range(luck.RECENT))
    tally.fold([("undo", "campaign", "e0")])
    assert tally.record()["actors"][0]["checks"] == luck.RECENT - 1
    tally.fold([("count", "campaign", "new1", one), ("count", "campaign", "new2", one),
                ("undo", "campaign", "new2")])
    assert tally.record()["actors"][0]["checks"] == luck.RECENT
