"""T3-SMALL, the smaller items of the third round at the table, in every game where each applies."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ok, run

GAMES = ("narateer", "open-adventure", "d20-cards")
# one check of each game's example that rolls and is logged: (command..., its actor)
CHECK = {"narateer": ("roll", "selka", "stealth", "--dr", "1"),
         "open-adventure": ("roll", "amicus", "strength", "--ds", "9"),
         "d20-cards": ("act", "mira", "strike", "--target", "bandit")}


def example(tmp_path: Path, game: str) -> Path:
    root = tmp_path / game
    r = run(None, "init", str(root), "--system", game, "--example")
    assert r.code == 0, r.err
    return root


@pytest.mark.parametrize("game", GAMES)
def test_T3_SMALL_stats_shows_the_games_own_columns(tmp_path, game):
    """Each game's `stats` table has the host's columns and its own: no other game's."""
    root = example(tmp_path, game)
    for seed in ("1", "2", "3"):
        assert run(root, "--seed", seed, *CHECK[game]).code in (0, 1)
    head = run(root, "stats").out.splitlines()[0].split("  ")
    head = [cell.strip() for cell in head if cell.strip()]
    own = {"narateer": ["dice spent", "crits / expected"], "open-adventure": ["top faces / expected"],
           "d20-cards": ["20s / expected"]}[game]
    assert head == ["actor", "checks", "successes", "expected", "luck", *own]
    row = ok(root, "stats")["actors"][0]  # --json keeps every key in every game
    assert {"dice_spent", "crits", "crits_expected"} <= set(row) and row["checks"] == 3
