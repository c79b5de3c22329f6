"""A log entry's result reads back as the record it was logged from (`Record.from_json`), in every game.

Each game's golden scene is played with the host's `apply` watched: every record a command hands the host to
log is written to JSON and read back. What comes back writes the same JSON, reads back the same again, and
equals what was logged field by field (a list and a tuple alike: JSON keeps no difference). Narateer's
Skill Check is the one record whose JSON leaves something out: the payment it reads back holds no Skill
Level, no dice streams and only the declaration's logged fields, which planned the roll and decide nothing
that the log claims; an automatic `resolve` keeps its stated cost in the entry's declaration.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings, strategies as st

from narateer_cli.record import Record
from tests.conftest import example_campaign, run

# what a check's JSON does not hold of its payment (any check, nested anywhere), and an automatic resolve's cost
PLANNED = re.compile(r"(^|\.)payment\.(level|streams|decl)(\.|$)")


def unlogged(path: str, kind: str) -> bool:
    return bool(PLANNED.search(path)) or (kind == "ResolvedAuto" and path == "cost")


def _scene(system: str):
    from tests.golden.test_golden_text import STEPS as NARATEER
    from tests.systems.d20_cards.test_golden_text import STEPS as D20
    from tests.systems.open_adventure.test_golden import STEPS as OA

    return {"narateer": NARATEER, "d20-cards": D20, "open-adventure": OA}[system]


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """{(game, command, record type): [records]} for every record result the golden scenes log."""
    import narateer_cli.commands.apply as apply

    found: dict = {}
    real = apply.apply

    def watched(session, outcome):
        if isinstance(outcome.result, Record):
            key = (session.campaign.system.name, outcome.command, type(outcome.result).__name__)
            found.setdefault(key, []).append(outcome.result)
        return real(session, outcome)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(apply, "apply", watched)
        for system in ("narateer", "d20-cards", "open-adventure"):
            root = tmp_path_factory.mktemp(system) / "camp"
            if system == "narateer":
                example_campaign(root)
            else:
                assert run(None, "init", str(root), "--system", system, "--example").code == 0
            for _, argv in _scene(system):
                run(root, *argv)
    return found


def differences(a, b, path: str = ""):
    """Where two values differ, field by field (a list and a tuple of equal items are equal)."""
    if isinstance(a, Record) and type(a) is type(b):
        for name in a._fields:
            yield from differences(getattr(a, name), getattr(b, name), f"{path}.{name}".lstrip("."))
    elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        for n, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, path)
    elif isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        for key in a:
            yield from differences(a[key], b[key], path)
    elif a != b:
        yield path


def read_back(record: Record) -> Record:
    return type(record).from_json(json.loads(json.dumps(record.to_json(), ensure_ascii=False)))


def test_every_logged_record_of_every_game_reads_back_from_its_json(logged):
    games = {game for game, _, _ in logged}
    assert games == {"narateer", "d20-cards", "open-adventure"}
    assert len(logged) >= 35, sorted(logged)  # the scenes log a result of every kind they play
    for key, records in logged.items():
        for record in records:
            back = read_back(record)
            assert back.to_json() == record.to_json(), key
            assert read_back(back) == back, key
            wrong = [p for p in differences(record, back) if not unlogged(p, key[2])]
            assert wrong == [], (key, wrong)


def test_the_game_s_results_table_names_the_type_each_command_logs(logged):
    from narateer_cli.systems import load_system

    for system in ("narateer", "d20-cards", "open-adventure"):
        table = load_system(system).get("results")
        for (game, command, kind), _ in logged.items():
            if game == system and command in table:
                assert table[command].__name__ == kind, (system, command)


# -- Narateer's Skill Check, over many declarations and rolls -------------------------------------------------

def _check(boost, cost, bonus, discount_base, discount_boost, fee, advantage, disadvantage, target, seed):
    from narateer_cli.store.campaign import default_rules
    from narateer_cli.systems import load_system
    from narateer_cli.systems.narateer.engine.character import Sheet, Skill
    from narateer_cli.systems.narateer.engine.check import Declaration, Target, plan, roll
    from narateer_cli.systems.narateer.engine.dice import DiceSource
    from narateer_cli.systems.narateer.engine.ruleset import build_ruleset

    rules = build_ruleset(default_rules(load_system("narateer")))
    sheet = Sheet(id="selka", name="Selka", vitals={"agility": 3}, skills={"stealth": Skill("stealth", 5, "agility")},
                  dice={"ready": 40, "used": 1}, conditions=())
    decl = Declaration("stealth", boost=boost, cost=cost, bonus_dice=bonus, discount_base=discount_base,
                       discount_boost=discount_boost, fee=fee, advantage=advantage, disadvantage=disadvantage)
    payment = plan(sheet, decl, rules, check_afford=False)
    dice = DiceSource(random.Random(seed), {}, rules.faces)
    return roll(payment, Target(target, "dr" if target is not None else None, f"DR {target}"), rules, dice), rules


@settings(max_examples=60, deadline=None)
@given(boost=st.integers(0, 5), cost=st.integers(0, 4), bonus=st.integers(0, 3), discount_base=st.integers(0, 5),
       discount_boost=st.integers(0, 5), fee=st.integers(0, 3), advantage=st.booleans(), disadvantage=st.booleans(),
       target=st.one_of(st.none(), st.integers(0, 12)), seed=st.integers(0, 2**32))
def test_a_skill_check_reads_back_whole_from_its_json_and_replays_to_the_same_claims(**drawn):
    from narateer_cli.systems.narateer.engine.check import CheckResult, replay

    check, rules = _check(**drawn)
    back = read_back(check)
    assert back.to_json() == check.to_json() and read_back(back) == back
    assert back.claims == check.claims
    assert [p for p in differences(check, back) if not unlogged(p, "CheckResult")] == []
    assert (back.payment.decl.cost, back.payment.decl.boost, back.payment.decl.fee) == (drawn["cost"], drawn["boost"], drawn["fee"])
    assert replay(back, rules).claims == check.claims  # verify's replay, from the record read back
    assert isinstance(back, CheckResult)


# -- an entry whose result does not read back: the host's words and one warning, never a crash ----------------

def _edit_log(path, edit):
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith("- {"):
            entry = json.loads(line[2:])
            edit(entry)
            lines[i] = "- " + json.dumps(entry, ensure_ascii=False) + "\n"
    path.write_text("".join(lines), encoding="utf-8")


def test_an_entry_whose_result_does_not_read_back_is_worded_by_the_host_and_named(tmp_path):
    root = example_campaign(tmp_path / "camp")
    for argv in (("encounter", "new", "fight", "selka", "sentry"), ("turn", "start", "selka"),
                 ("roll", "selka", "stealth", "--dr", "3", "--faces", "2", "--force")):
        assert run(root, *argv).code == 0
    shown = run(root, "encounter", "log")
    assert "selka: activation starts, round 1" in shown.out and "selka: Stealth" in shown.out, shown.out

    def older(entry):  # a turn start without its round, a roll without its margin: as no version wrote them
        entry["result"].pop({"turn start": "round", "roll": "margin"}.get(entry["command"], "-"), None)

    _edit_log(root / "encounters" / "fight.log.yaml", older)
    shown = run(root, "encounter", "log")
    assert shown.code == 0, shown.err
    assert "activation starts" not in shown.out and "selka turn start" in shown.out, shown.out  # the host's words
    assert "entry 2 (turn start): its result does not read back as TurnStarted (TypeError: TurnStarted: missing " \
           "field 'round')" in shown.err, shown.err
    assert "entry 3 (roll): its result does not read back as CheckOutcome" in shown.err, shown.err
    assert shown.err.count("entry 2 (turn start)") == 1  # once, though the log is read twice to lay out its rows
    assert run(root, "report").code == 0
    verified = run(root, "--json", "verify")
    assert verified.code == 1, verified.out
    assert "entry 3 (roll): selka's stealth check: the check does not read back as a check" in verified.json["problem"]
