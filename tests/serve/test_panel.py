"""T3-PANEL through the forms the Guide's screen is sent (`serve --act`'s /guide/forms): each verb's common
options first, in words; the rarely given ones (`--seed`, `--in`, `--commit`, `--exit-code`, discounts and
fees) folded under "more"; a required field, or one the verb's rules need, never folded. The same forms in
Chromium are in test_panel_browser.py."""

from __future__ import annotations

import click
import pytest

from narateer_cli.serve.act import RARE, forms
from tests.test_ids_resolve import ID

from . import scenes

# each game's main verbs: what a Guide runs at the table every few minutes
MAIN = {"narateer": ("roll", "hide", "search", "exchange", "react", "resolve"),
        "open-adventure": ("roll", "resolve"), "d20-cards": ("act",)}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """Each game's scene, and the Guide's forms over it, by verb."""
    out = {}
    for game in MAIN:
        camp = scenes.SCENES[game](tmp_path_factory.mktemp(game) / game)
        out[game] = (camp, {form["verb"]: form for form in forms(camp)})
    return out


def _fields(form) -> dict:
    return {f["name"]: f for f in form["fields"] if f["name"] != "dry_run"}  # odds: a button of its own


def test_T3_PANEL_every_label_is_words_and_no_form_shows_a_rule_id(made):
    for game, (_, by_verb) in made.items():
        for verb, form in by_verb.items():
            for f in form["fields"]:
                said = f["label"]
                assert said and said[0].isupper() and "--" not in said and "_" not in said, (game, verb, f)
                assert not ID.search(said) and not ID.search(f["help"]), (game, verb, f)
            assert not ID.search(form["help"]), (game, verb)


def test_T3_PANEL_the_rare_options_fold_and_a_required_field_never_does(made):
    for game, (_, by_verb) in made.items():
        for verb, form in by_verb.items():
            for f in form["fields"]:
                if f["required"] or f["role"] == "argument":
                    assert not f["more"], (game, verb, f["name"])
                elif f["name"] in RARE:
                    assert f["more"], (game, verb, f["name"])


def test_T3_PANEL_a_roll_shows_its_common_options_first_in_words_and_folds_the_rest(made):
    roll = _fields(made["narateer"][1]["roll"])
    shown = [name for name, f in roll.items() if not f["more"]]
    assert shown[:2] == ["char", "skill"] and len(shown) <= 12, shown
    assert {"dr", "vs", "boost", "advantage", "disadvantage", "faces", "secret"} <= set(shown)
    assert roll["dr"]["label"] == "Difficulty (DR)" and roll["char"]["label"] == "Character"
    for folded in ("discount_base", "discount_boost", "fee", "cost", "bonus_dice", "exit_code", "seed", "in_encounter",
                   "git_commit", "power_reroll", "other_faces"):
        assert roll[folded]["more"], folded
    order = [f["name"] for f in made["narateer"][1]["roll"]["fields"]]
    assert max(order.index(n) for n in shown) < min(order.index(n) for n, f in roll.items() if f["more"])


def test_T3_PANEL_hides_from_is_never_folded_though_the_command_line_lets_it_out(made):
    hide = _fields(made["narateer"][1]["hide"])
    assert hide["observers"]["required"] is False  # the command line accepts --searching alone
    assert hide["observers"]["needed"] and not hide["observers"]["more"] and hide["observers"]["label"] == "Hiding from"
    assert hide["observer_reroll_faces"]["more"]


def test_T3_PANEL_each_games_main_verbs_keep_their_required_and_common_fields_in_sight(made):
    for game, verbs in MAIN.items():
        by_verb = made[game][1]
        for verb in verbs:
            fields = _fields(by_verb[verb])
            shown = [n for n, f in fields.items() if not f["more"]]
            folded = [n for n, f in fields.items() if f["more"]]
            assert folded and set(RARE) & set(fields) <= set(folded), (game, verb, folded)
            assert len(shown) <= 14, (game, verb, shown)
            assert all(not fields[n]["more"] for n in fields if fields[n]["required"]), (game, verb)
    assert not _fields(made["narateer"][1]["search"])["hider"]["more"]  # --for: required
    assert not _fields(made["narateer"][1]["exchange"])["response"]["more"]
    assert not _fields(made["open-adventure"][1]["resolve"])["intent"]["more"]
    assert _fields(made["open-adventure"][1]["roll"])["ds"]["label"] == "Difficulty Score (DS)"
    assert not _fields(made["d20-cards"][1]["act"])["target"]["more"]


def test_T3_PANEL_a_verb_that_declares_nothing_folds_only_the_rare_options(made):
    new = _fields(made["narateer"][1]["new"])
    assert {n for n, f in new.items() if f["more"]} == set(RARE) & set(new)
    keep = _fields(made["narateer"][1]["encounter end"])["keep"]
    assert keep["label"] == "Keep conditions" and not keep["more"]  # --keep-conditions, in words


def test_T3_PANEL_a_players_form_is_laid_out_alike(made):
    camp, _ = made["narateer"]
    mine = {form["verb"]: form for form in forms(camp, "selka", {"selka", "sentry"})}
    assert mine and all(not f["more"] for form in mine.values() for f in form["fields"] if f["required"])
    assert all(f["label"] and "--" not in f["label"] for form in mine.values() for f in form["fields"])


def test_T3_PANEL_a_form_declaration_naming_no_parameter_stops_the_verb_being_built():
    from narateer_cli.commands.common import command

    def build(form):
        @command(form=form, help="A verb.")
        @click.argument("char")
        @click.option("--boost", type=int)
        def verb_cmd(s, char, boost):
            return None

        return verb_cmd

    assert build({"common": ("boost",), "labels": {"boost": "Boost", "elsewhere": "A shared word"}}).form == {
        "common": ("boost",), "needs": (), "labels": {"boost": "Boost", "elsewhere": "A shared word"}}
    with pytest.raises(ValueError, match="verb: form common names 'bost'"):
        build({"common": ("bost",)})
    with pytest.raises(ValueError, match="verb: form needs names 'from_'"):
        build({"needs": ("from_",)})
    with pytest.raises(ValueError, match="'usual'"):
        build({"usual": ("boost",)})
