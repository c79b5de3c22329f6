"""A verb's declaration as data (`kit.Declared`): one table of fields gives the verb's options, the API's
keywords, the declaration its entry logs and what a replay reads back, so each field is written once."""

from __future__ import annotations

import click
import pytest

from narateer_cli.api import open_campaign, words_for
from narateer_cli.kit import Declared, Option, declared
from narateer_cli.store import encounters
from tests.conftest import run

TABLE = Declared(
    Option(field="boost", names=("--boost",), type=int, default=0, result="boosted", help="Extra dice."),
    Option(field="faces", names=("--faces",), metavar="F", logged=False),
    Option(field="froms", names=("--from",), multiple=True, log_as="from", keyword="from_"),
    Option(field="loud", names=("--loud",), flag=True),
)


def _command():
    @click.command()
    @click.argument("char")
    @declared(TABLE, "given")
    def cmd(char, given):
        return given

    return cmd


def test_the_table_makes_the_options_in_order_and_hands_one_read_only_value():
    cmd = _command()
    assert [p.opts for p in cmd.params[1:]] == [["--boost"], ["--faces"], ["--from"], ["--loud"]]
    given = cmd.main(["selka", "--from", "a", "--from", "b", "--loud"], standalone_mode=False)
    assert dict(given) == {"boost": 0, "faces": None, "froms": ("a", "b"), "loud": True}
    assert given.boost == 0
    with pytest.raises(AttributeError, match="read-only"):
        given.boost = 3


def test_an_options_help_reads_as_the_same_option_written_by_hand():
    table = Declared(
        Option(field="boost", names=("--boost",), type=int, default=0, show_default=True, help="Extra dice."),
        Option(field="tier", names=("--tier",), choices=("minor", "major"), help="The tier."),
        Option(field="froms", names=("--from",), multiple=True, metavar="OBS", required=True),
        Option(field="loud", names=("--loud",), flag=True, help="Shout."),
        Option(field="quiet", names=("--quiet",), hidden=True),
    )

    @click.command()
    @declared(table)
    def by_table(declared):
        pass

    @click.command()
    @click.option("--boost", "boost", type=int, default=0, show_default=True, help="Extra dice.")
    @click.option("--tier", "tier", type=click.Choice(["minor", "major"]), help="The tier.")
    @click.option("--from", "froms", multiple=True, metavar="OBS", required=True)
    @click.option("--loud", "loud", is_flag=True, help="Shout.")
    @click.option("--quiet", "quiet", hidden=True)
    def by_hand(**given):
        pass

    def help_of(cmd):
        return cmd.get_help(click.Context(cmd, info_name="x"))

    assert help_of(by_table) == help_of(by_hand)
    assert [p.name for p in by_table.params] == [p.name for p in by_hand.params]


def test_the_logged_declaration_holds_the_logged_fields_under_their_keys_in_order():
    given = TABLE.given({"boost": 2, "faces": "1,2", "froms": ("a",), "loud": False})
    assert list(TABLE.logged(given).items()) == [("boost", 2), ("from", ["a"]), ("loud", False)]


def test_a_replay_reads_back_only_what_the_result_holds():
    assert TABLE.replayed({"boosted": 3, "boost": 9}) == {"boost": 3}
    assert TABLE.replayed({}) == {}


def test_a_field_is_written_once():
    with pytest.raises(ValueError, match="boost is repeated"):
        Declared(*TABLE, Option(field="boost", names=("--more-boost",)))


def test_a_field_may_not_hide_a_method_of_the_value_the_command_reads():
    with pytest.raises(ValueError, match="'items'"):
        Declared(Option(field="items", names=("--items",)))


def test_the_apis_keyword_is_the_tables():
    cmd = _command()
    assert words_for(cmd, "x", ("selka",), {"from_": ["a", "b"], "boost": 1}) == \
        ["selka", "--from", "a", "--from", "b", "--boost", "1"]


def test_narateers_resolve_takes_check_as_its_keyword(camp):
    api = open_campaign(camp)
    by_keyword = words_for(api.command(("resolve",)), "resolve", ("tarin",),
                           {"intent": "force it", "check": "athletics", "dr": 3})
    assert by_keyword == ["tarin", "--intent", "force it", "--check", "athletics", "--dr", "3"]


def test_a_rolls_logged_declaration_is_its_tables(camp):
    from narateer_cli.systems.narateer.declarations import CHECK

    r = run(camp, "roll", "selka", "stealth", "--dr", "3", "--boost", "1", "--faces", "2,1", "--power", "shadow")
    assert r.code == 0, r.err
    entry = encounters.read_log(camp, encounters.CAMPAIGN)[-1]
    logged = [o.log_key for o in CHECK if o.logged]
    assert list(entry["declaration"]) == ["skill", *logged, "target"]
    assert entry["declaration"]["boost"] == 1 and "power" not in entry["declaration"]


def test_open_adventures_logged_declaration_is_its_tables_logged_fields():
    from narateer_cli.systems.open_adventure.check import Declaration
    from narateer_cli.systems.open_adventure.declarations import CHECK

    assert set(Declaration._fields) - {"use"} == {o.record_field for o in CHECK if o.logged}


@pytest.mark.parametrize("verb, keywords, words", [
    ("exchange", {"response": "guard", "apply": True}, ["--response", "guard", "--apply"]),
    ("react", {"against": "selka", "apply": True}, ["--against", "selka", "--apply"]),
    ("hide", {"from_": ["sentry"], "searching": ["bandit"]}, ["--from", "sentry", "--searching", "bandit"]),
    ("search", {"for_": "selka", "changed": "a torch"}, ["--for", "selka", "--changed", "a torch"]),
])
def test_each_narateer_action_takes_its_tables_keywords(camp, verb, keywords, words):
    api = open_campaign(camp)
    assert words_for(api.command((verb,)), verb, (), keywords) == words


def test_a_hides_logged_declaration_is_every_observer_then_its_tables(encounter_camp):
    assert run(encounter_camp, "turn", "start", "selka").code == 0
    r = run(encounter_camp, "hide", "selka", "--from", "sentry", "--searching", "bandit", "--faces", "2",
            "--observer-faces", "bandit=0")
    assert r.code == 0, r.err
    entry = [e for e in encounters.read_log(encounter_camp, "ambush") if e.get("command") == "hide"][-1]
    assert entry["declaration"] == {"from": ["sentry", "bandit"], "searching": ["bandit"], "boost": 0}
