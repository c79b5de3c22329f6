"""T2-README: the README is a first page for all three games. Its first screen starts each game in three lines
that run; its command tables hold every verb of every game; its tables render (no row of raw pipes); its
other shell blocks run as written, and so does the "Share a campaign" recipe, with a real git."""

from __future__ import annotations

import importlib
import os
import re
import shlex
import shutil
import subprocess
import sys

import click
import pytest

from narateer_cli import systems
from tests.conftest import REPO, run

TEXT = (REPO / "README.md").read_text()
GAMES = {"Narateer": "narateer", "Open Adventure": "open-adventure", "d20 action cards": "d20-cards"}


def section(start: str, end: str = "\n## ") -> str:
    """From the heading line `start` to the next heading of the same level (or `end`)."""
    begin = TEXT.index("\n" + start + "\n")
    stop = TEXT.find(end, begin + len(start) + 2)
    return TEXT[begin:stop if stop != -1 else len(TEXT)]


def sh_blocks(text: str) -> list[list[str]]:
    """The ```sh blocks of `text`, each as its command lines (continuations joined)."""
    return [[line for line in body.replace("\\\n", " ").splitlines() if line.strip()]
            for body in re.findall(r"```sh\n(.*?)```", text, re.S)]


def words(line: str) -> list[str]:
    """A shell line's words, its comment dropped."""
    return shlex.split(line, comments=True)


def cells(row: str) -> list[str]:
    """A markdown table row's cells: split on pipes that are not escaped (`\\|`), as GitHub does."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip())[1:-1]]


def outside_code(text: str) -> list[str]:
    lines, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def tables(text: str) -> list[list[str]]:
    """Every run of consecutive lines that start with `|`, outside code blocks."""
    found, current = [], []
    for line in outside_code(text) + [""]:
        if line.startswith("|"):
            current.append(line)
        elif current:
            found.append(current)
            current = []
    return found


def test_every_markdown_table_row_has_its_headers_cells():
    assert len(tables(TEXT)) >= 8
    for table in tables(TEXT):
        assert len(table) >= 3, f"a row with no header renders as raw pipes: {table[0]}"
        assert re.fullmatch(r"\|( *:?-{3,}:? *\|)+", table[1]), f"no delimiter row under {table[0]}"
        width = len(cells(table[0]))
        for row in table[2:]:
            assert len(cells(row)) == width, f"{len(cells(row))} cells, the header has {width}: {row}"


def test_a_row_of_raw_pipes_is_caught():
    """The check above finds what broke the README before (rows after a paragraph, an unescaped pipe)."""
    stray = "Some prose.\n| `unveil --all` | `narateer unveil --all` |\n\nMore prose.\n"
    assert len(tables(stray)[0]) < 3
    assert len(cells("| `dr N|TIER` | x |")) == 3 and len(cells("| `dr N\\|TIER` | x |")) == 2


def first_screen() -> str:
    return "\n".join(TEXT.splitlines()[:40])


def test_the_first_screen_names_all_three_games_and_starts_each_in_three_lines(tmp_path):
    screen = first_screen()
    for name in ("Narateer", "Open Adventure", "d20"):
        assert name in screen
    assert "about 3 minutes" in screen and "make test" in screen and "[serve]" not in TEXT
    starts = sh_blocks(screen)
    assert [words(block[0])[4] for block in starts] == ["narateer", "open-adventure", "d20-cards"]
    for number, (init, cd, play) in enumerate(map(lambda block: [words(line) for line in block], starts)):
        assert cd == ["cd", init[2]] and init[-1] == "--example"
        root = tmp_path / f"{number}-{init[2]}"
        assert run(None, "init", str(root), *init[3:]).code == 0
        r = run(root, *play[1:])
        assert r.code == 0 and r.out.strip(), (play, r.err)


def reference_commands(text: str) -> set[str]:
    """The first one and two words of each code span in the first cell of every table row of `text`."""
    found = set()
    for table in tables(text):
        for row in table[2:]:
            for span in re.findall(r"`([^`]+)`", cells(row)[0]):
                words = span.split()
                found.update({words[0], " ".join(words[:2])})
    return found


def verbs_with_subcommands(command, verb: str) -> set[str]:
    out = {verb}
    if isinstance(command, click.Group):
        out.update(f"{verb} {sub}" for sub in command.commands)
    return out


def test_every_verb_of_every_game_is_in_the_command_tables():
    reference = section("## Command reference")
    shared = reference_commands(section("### Every game", "\n### "))
    for verb, module in systems.HOST_VERBS.items():
        command = getattr(importlib.import_module(module), verb.replace("-", "_") + "_cmd")
        missing = verbs_with_subcommands(command, verb) - shared
        assert not missing, f"host commands missing from the README's 'Every game' table: {sorted(missing)}"
    for heading, name in GAMES.items():
        own = reference_commands(reference[reference.index(f"\n### {heading}\n"):].split("\n### ", 2)[1])
        system = systems.load_system(name)
        for verb in system.verbs:
            missing = verbs_with_subcommands(system.command(verb), verb) - own - shared
            assert not missing, f"{name} commands missing from the README's tables: {sorted(missing)}"


def test_the_verb_check_sees_a_missing_subcommand():
    assert "encounter end" in reference_commands(section("### Every game", "\n### "))
    assert "encounter end" not in reference_commands("| command | x |\n| --- | --- |\n| `encounter new ID` | y |\n")


def other_blocks() -> list[list[str]]:
    """The README's shell blocks that play (not the first screen's, not "Share a campaign"'s nor the
    completion lines of "At the table", which other tests run)."""
    text = TEXT.split("\n", 40)[40]
    text = text.replace(section("## Share a campaign"), "").replace(section("### At the table", "\n### "), "")
    return [[words(line) for line in block] for block in sh_blocks(text)
            if any(line.startswith("narateer ") for line in block)]


def test_every_other_shell_block_runs_as_written(tmp_path):
    """An `init` block makes its campaign; any other block plays in a fresh Narateer example campaign."""
    blocks = other_blocks()
    assert len(blocks) >= 4
    for number, block in enumerate(blocks):
        root = tmp_path / f"block{number}"
        if block[0][:2] != ["narateer", "init"]:
            assert run(None, "init", str(root), "--example").code == 0
        for line in block:
            if line[0] == "cd":
                continue
            argv = line[1:]
            r = run(None, "init", str(root), *argv[2:]) if argv[0] == "init" else run(root, *argv)
            assert r.code == 0 and "Traceback" not in r.err, (line, r.err)


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_share_a_campaign_recipe_runs_with_git(tmp_path):
    """The section's blocks, as written, by two people and a bare repository standing for URL."""
    start, clone, session, reconcile = sh_blocks(section("## Share a campaign"))
    bare = tmp_path / "shared.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    env = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}
    env.pop("NARATEER_CAMPAIGN", None)
    places = {"guide": tmp_path / "guide", "player": tmp_path / "player"}
    for place in places.values():
        place.mkdir()
    for block, cwd in ((start, places["guide"]), (clone, places["player"]), (session, places["player"] / "table"),
                       (reconcile, places["player"] / "table")):
        script = "set -e\n" + "\n".join(line.replace("URL", shlex.quote(str(bare))) for line in block)
        done = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (block, done.stderr)
    player = places["player"] / "table"
    log = subprocess.run(["git", "log", "--format=%s"], cwd=bare, capture_output=True, text=True).stdout
    assert len(log.splitlines()) == 2 and "selka" in log.splitlines()[0]
    assert subprocess.run(["git", "config", "merge.narateer.driver"], cwd=player, capture_output=True).returncode == 0
    assert subprocess.run(["git", "status", "--porcelain"], cwd=player, capture_output=True, text=True).stdout == ""
    assert run(player, "check").out.strip() == "campaign ok"


def test_the_first_screen_says_where_the_command_is_and_how_the_table_starts():
    """A new Guide who reads only the first screen learns where `make demo` put the command and how the
    players' phones join (the Guide's page with each link's QR code), with options `serve` has."""
    screen = " ".join(first_screen().split())
    assert ".venv/bin/narateer" in screen
    assert "narateer serve --act --lan" in screen and "QR code" in screen
    help_text = run(None, "serve", "--help").out
    assert "--act" in help_text and "--lan" in help_text
