"""T3-SMALL: docs/json.md is the `--json` shape of every command; each of its rows is played here, in order, in
a fresh example campaign of its game, and its output must hold every key the row lists (so the page cannot
drift from the commands)."""

from __future__ import annotations

import re
import shlex

import pytest

from tests.conftest import REPO, run

DOC = REPO / "docs" / "json.md"
GAMES = {"Narateer": "narateer", "Open Adventure": "open-adventure", "d20 action cards": "d20-cards"}
EVERY, REFUSED = "Every game", "A refused command (every game)"
ROW = re.compile(r"^\| `(?P<command>[^`]+)` \| (?P<keys>.+) \|$")


def sections() -> dict[str, list[tuple[str, list[str]]]]:
    """Each `## ` section's rows: (the command as written, the keys listed)."""
    found: dict[str, list] = {}
    title = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            title = line[3:].strip()
            found[title] = []
            continue
        row = ROW.match(line)
        if row and title is not None:
            found[title].append((row["command"], re.findall(r"`([^`]+)`", row["keys"])))
    return found


def values(data, path: str) -> list:
    """The values at `path` (`a.b`, `a[].b`): one per item of each list on the way; AssertionError naming the
    path when a key is missing or a list is empty."""
    found = [data]
    for part in re.findall(r"[^.\[\]]+|\[\]", path):
        step = []
        for value in found:
            if part == "[]":
                assert isinstance(value, list) and value, f"{path}: {value!r} is no list with items"
                step += value
            else:
                assert isinstance(value, dict) and part in value, f"{path}: no key {part!r} in {value!r}"[:300]
                step.append(value[part])
        found = step
    return found


def play(root, command: str, keys: list[str], codes=(0,)):
    r = run(root, "--json", *shlex.split(command))
    assert r.code in codes, (command, r.code, r.err)
    assert r.out.count("\n") == 1, (command, r.out[:300])
    data = r.json
    for key in keys:
        try:
            values(data, key)
        except AssertionError as missing:
            raise AssertionError(f"docs/json.md: `{command}` lists `{key}`, which its output lacks ({missing})")
    return data


def test_the_doc_has_a_table_for_every_game_and_names_every_verb():
    found = sections()
    assert set(GAMES) | {EVERY, REFUSED} <= set(found)
    for title in (*GAMES, EVERY, REFUSED):
        assert found[title], title
    from narateer_cli import systems

    for title, game in GAMES.items():  # every verb of the game, or a host verb the game shares, has a row
        verbs = set(systems.load_system(game).verbs) - {"completion", "shell", "serve", "merge-driver"}
        documented = {shlex.split(command)[0] for command, _ in found[title] + found[EVERY]}
        assert verbs <= documented, (game, sorted(verbs - documented))


@pytest.mark.parametrize("title", list(GAMES))
def test_T3_SMALL_every_documented_key_is_in_the_output(tmp_path, monkeypatch, title):
    game = GAMES[title]
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "camp"
    assert run(None, "init", str(root), "--system", game, "--example").code == 0
    found = sections()
    for command, keys in found[title] + found[EVERY]:
        play(root, command, keys)
    for command, keys in found[REFUSED]:
        assert play(root, command, keys, codes=(2, 3))["exit"] in (2, 3)
