"""A short scene of each game, played through the CLI with faces given as if rolled at the table, for the
players' page tests (V-7, V-8): each has a party, an exchange or opposed roll, damage, a timed condition,
a secret roll and an undo, so every drawing and every kind of log line is on the page."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import run


def play(camp: Path, *steps: list[str]):
    for argv in steps:
        r = run(camp, *argv)
        assert r.code == 0, (argv, r.err)


def new_campaign(root: Path, system: str, party: list[str]) -> Path:
    r = run(None, "init", str(root), "--system", system, "--example")
    assert r.code == 0, r.err
    config = root / "narateer.yaml"
    text = "\n".join(line for line in config.read_text().splitlines() if not line.startswith("encounter:"))
    config.write_text(text + f"\nparty: [{', '.join(party)}]\n")
    return root


def narateer(root: Path) -> Path:
    """selka, mira and veyra against a sentry and a bandit; a thief hides from the whole party."""
    camp = new_campaign(root, "narateer", ["selka", "mira", "veyra"])
    play(camp, ["encounter", "new", "brawl", "veyra", "mira", "selka", "sentry", "bandit", "thief"],
         ["turn", "start", "thief"],
         ["hide", "thief", "--from", "selka", "--from", "mira", "--from", "veyra", "--boost", "1", "--faces", "2,2"],
         ["turn", "end", "--next", "veyra"],
         ["turn", "start", "veyra"],
         ["exchange", "veyra", "sentry", "--skill", "ranged", "--response", "guard", "--faces", "2",
          "--response-faces", "1"],
         ["move", "veyra", "2"],
         ["react", "sentry", "opportunity", "--against", "veyra", "--weapon", "spear", "--allow-boost", "--boost", "1",
          "--apply", "--faces", "2,2"],
         ["turn", "end", "--next", "mira"],
         ["turn", "start", "mira"],
         ["roll", "mira", "observation", "--dr", "3", "--faces", "2,1", "--boost", "1", "--secret"],
         ["undo"],
         ["condition", "bandit", "+stunned", "--rounds", "2"],
         ["exchange", "mira", "bandit", "--weapon", "sword", "--response", "clash", "--response-weapon", "club",
          "--faces", "0", "--response-faces", "2", "--apply"],
         ["roll", "mira", "observation", "--dr", "3", "--faces", "2", "--secret", "--force"])
    return camp


def d20_cards(root: Path) -> Path:
    """mira and tor against a bandit and a hexer: a hit, a Concentration check, damage past 20 HP."""
    camp = new_campaign(root, "d20-cards", ["mira", "tor"])
    play(camp, ["encounter", "new", "fight", "mira", "tor", "bandit", "hexer"],
         ["turn", "start", "mira"],
         ["act", "mira", "ward"],
         ["act", "mira", "strike", "--target", "bandit", "--faces", "11"],
         ["turn", "start", "hexer"],
         ["act", "hexer", "hex-bolt", "--target", "mira", "--faces", "14", "--concentration-faces", "mira=3"],
         ["condition", "bandit", "+immobilized", "--rounds", "2"])
    return camp


def open_adventure(root: Path) -> Path:
    """bloodwind and warheart against a goblin and an orc: a Stunt, Wounds, an opposed roll."""
    camp = new_campaign(root, "open-adventure", ["bloodwind", "warheart"])
    play(camp, ["encounter", "new", "hall", "bloodwind", "warheart", "goblin", "orc", "--reaction", "bloodwind=9",
                "--reaction", "warheart=5"],
         ["turn", "start"],
         ["roll", "bloodwind", "strength", "--mo", "--specialization", "axes", "--vs", "goblin:body", "--stunt",
          "--targets", "3", "--faces", "4,7"],
         ["wound", "bloodwind", "2"],
         ["condition", "orc", "+stunned", "--rounds", "2"],
         ["turn", "end"],
         ["turn", "start"],
         ["turn", "end"],
         ["turn", "start"],
         ["roll", "warheart", "strength", "--mo", "--opposed", "orc:strength", "--faces", "3,4", "--other-faces", "2,5"])
    return camp


SCENES = {"narateer": narateer, "d20-cards": d20_cards, "open-adventure": open_adventure}
