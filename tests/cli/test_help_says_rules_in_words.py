"""K-6: `--help` and the players' page show no rule id; they say the rule in words. The ids stay in
`--json`, in test names and in docs/rules and docs/design.md.

Every command's `--help` is read as a person reads it: outside a campaign (every game's verbs) and inside
each game's example campaign, following every group down to its subcommands as `--help` lists them, so a
verb added tomorrow is read too.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import run
from tests.test_ids_resolve import ID

GAMES = ("narateer", "open-adventure", "d20-cards")
HEADING = re.compile(r"^\S.*[Cc]ommands.*:$")  # "Commands:", "Shared commands:", "Open Adventure commands (...):"


def listed(help_text: str) -> list[str]:
    """The command names a `--help` lists under its command headings."""
    names, inside = [], False
    for line in help_text.splitlines():
        if HEADING.match(line):
            inside = True
        elif inside and (m := re.match(r"  (\S+)", line)):
            names.append(m.group(1))
        elif line and not line.startswith(" "):
            inside = False
    return names


def every_help(camp) -> dict[str, str]:
    """'words' -> what `narateer [words] --help` prints, for the top and every command and subcommand."""
    seen, todo = {}, [()]
    while todo:
        words = todo.pop()
        r = run(camp, *words, "--help")
        assert r.code == 0 and r.err == "", (words, r.err)
        seen[" ".join(words) or "narateer"] = r.out
        todo += [(*words, name) for name in listed(r.out) if (*words, name) not in map(tuple, todo)]
    return seen


def ids_shown(texts: dict[str, str]) -> list[str]:
    return [f"{where}: {line.strip()}" for where, text in texts.items()
            for line in text.splitlines() if ID.search(line)]


@pytest.mark.parametrize("game", [None, *GAMES], ids=lambda g: g or "outside-a-campaign")
def test_no_help_shows_a_rule_id(game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    camp = None
    if game:
        camp = tmp_path / game
        assert run(None, "init", str(camp), "--system", game, "--example").code == 0
    helps = every_help(camp)
    assert len(helps) > 20, sorted(helps)  # the walk found the commands, not only the top
    assert not ids_shown(helps), "\n".join(ids_shown(helps))


def test_the_walk_would_see_an_id():
    """The check itself: an id in a help line is found, and a listing's names are followed."""
    text = "Usage: x\n\nShared commands:\n  roll   Make one check (R-CHK-10).\n  turn   Turns.\n\nOptions:\n  -h\n"
    assert listed(text) == ["roll", "turn"]
    assert ids_shown({"roll": text}) == ["roll: roll   Make one check (R-CHK-10)."]


@pytest.mark.parametrize("game", GAMES)
def test_the_page_and_the_guides_forms_show_no_rule_id(game, tmp_path):
    pytest.importorskip("starlette", reason="the serve extra is not installed: pip install -e '.[test,serve]'")
    from narateer_cli.serve import act, page, view
    from tests.serve import scenes

    camp = scenes.SCENES[game](tmp_path / game)
    shown = {"party page": page.encounter(view.snapshot(camp)),
             "guide page": page.encounter(view.snapshot(camp, guide=True)),
             "guide's forms": json.dumps(act.forms(camp), ensure_ascii=False)}
    assert "<section" in shown["party page"] and '"verb"' in shown["guide\'s forms"]
    assert not ids_shown(shown), "\n".join(ids_shown(shown))
