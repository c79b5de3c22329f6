"""A secret action end to end in every game and in a plug-in, between a Guide's campaign and a player's real
`git clone` of one bare repository (P2-SEAL-1, P2-SEAL-3, P2-SEAL-4).

Each case: the Guide acts in secret and reads the sealed number on the Guide's own machine; the player pulls
and finds no number there (a command that depends on it refuses, `check` and `verify` are clean); both
clones then write to the same log, so the Guide's next pull is a true merge of two histories; the Guide
unveils after that merge, and both clones verify the published value against its commitment.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ok, refused, run, snapshot
from tests.systems.test_sealed_secrets import git, omen  # noqa: F401  (the plug-in game's fixture)


def entries(root: Path, log: str) -> list:
    path = root / "encounters" / f"{log}.log.yaml"
    return [json.loads(line[2:]) for line in path.read_text().splitlines() if line.startswith("- {")]


def shared_text(root: Path) -> str:
    """Every file a clone carries, as one text (the private folder lives inside .git)."""
    return "\n".join(v.decode(errors="replace") for k, v in snapshot(root).items() if not k.startswith(".git/"))


class Game:
    """One game's secret action and what reads it."""

    log: str
    number: str  # how the sealed number reads in the Guide's words

    def campaign(self, root: Path):
        raise NotImplementedError

    def act(self, root: Path):
        raise NotImplementedError

    def depends(self, root: Path) -> tuple | None:
        """A command whose result the sealed value decides, or None where nothing does."""
        return None

    player_acts: tuple  # an open action of the player's clone in the same log
    guide_acts: tuple  # and one of the Guide's: the Guide's next pull merges two histories of that log


class NarateerHide(Game):
    log, number = "ambush", "selka: Hide 3"
    player_acts = ("roll", "selka", "athletics", "--dr", "1", "--faces", "1")
    guide_acts = ("condition", "bandit", "+slowed")

    def campaign(self, root):
        assert run(None, "init", str(root), "--example").code == 0
        (root / "narateer.yaml").write_text((root / "narateer.yaml").read_text() + "encounter: ambush\n")
        ok(root, "turn", "start", "selka")

    def act(self, root):
        ok(root, "hide", "selka", "--from", "bandit", "--boost", "1", "--faces", "2,1", "--secret")
        assert ok(root, "encounter", "show")["hidden"] == {"selka": {"bandit": 3}}  # the Guide reads the total

    def depends(self, root):
        return ("encounter", "join", "beast")  # a newcomer is compared with the hider's sealed total


class D20Act(Game):
    log, number = "fight", "d20 11 FIN +4 = 15"
    player_acts = ("act", "mira", "strike", "--target", "bandit", "--faces", "2")
    guide_acts = ("condition", "tor", "+prone")

    def campaign(self, root):
        assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
        (root / "actions" / "feint.yaml").write_text("name: Feint\ncost: {ap: 1}\natk: fin\nrange: reach\n")
        sheet = root / "characters" / "mira.yaml"
        sheet.write_text(sheet.read_text().replace("actions: [strike,", "actions: [feint, strike,"))
        ok(root, "encounter", "new", "fight", "mira", "bandit", "tor")
        ok(root, "turn", "start", "mira")

    def act(self, root):
        ok(root, "act", "mira", "feint", "--target", "bandit", "--faces", "11", "--secret")


class OpenAdventureRoll(Game):
    log, number = "hall", "faces 1,1 = 2"
    player_acts = ("points", "bloodwind", "body", "-1")
    guide_acts = ("condition", "orc", "+prone")

    def campaign(self, root):
        assert run(None, "init", str(root), "--system", "open-adventure", "--example").code == 0
        ok(root, "encounter", "new", "hall", "bloodwind", "warheart", "goblin", "orc",
           "--reaction", "bloodwind=9", "--reaction", "warheart=5")
        ok(root, "turn", "start")
        ok(root, "turn", "end")
        ok(root, "turn", "start")

    def act(self, root):
        ok(root, "roll", "goblin", "spear", "--vs", "bloodwind:body", "--faces", "1,1", "--secret")


class PluginFortune(Game):
    log, number = "e", "storm"
    player_acts = ("tally", "bo")
    guide_acts = ("mark", "bo", "--faces", "3")

    def campaign(self, root):
        assert run(None, "init", str(root), "--system", "omen", "--example").code == 0
        ok(root, "encounter", "new", "e", "ana", "bo")

    def act(self, root):
        ok(root, "fortune", "ana", "--faces", "1", "--secret")
        assert ok(root, "read", "bo")["omen"] == "storm"  # the Guide's machine reads the sealed omen

    def depends(self, root):
        return ("read", "bo")


@pytest.fixture
def clones(omen, tmp_path):  # noqa: F811
    def make(game: Game):
        bare, guide, player = tmp_path / "table.git", tmp_path / "guide", tmp_path / "player"
        git(tmp_path, "init", "-q", "--bare", str(bare))
        game.campaign(guide)
        git(guide, "init", "-q")
        assert run(guide, "git-setup").code == 0
        git(guide, "add", "-A")
        git(guide, "commit", "-qm", "the campaign")
        git(guide, "remote", "add", "origin", str(bare))
        git(guide, "push", "-q", "-u", "origin", "HEAD")
        git(tmp_path, "clone", "-q", str(bare), str(player))
        assert run(player, "git-setup").code == 0
        return guide, player
    return make


def commit_push(root: Path, message: str):
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)
    git(root, "push", "-q")


@pytest.mark.parametrize("game", [NarateerHide(), D20Act(), OpenAdventureRoll(), PluginFortune()],
                         ids=["narateer-hide", "d20-act", "oa-roll", "plug-in-fortune"])
def test_a_secret_is_sealed_read_by_the_guide_refused_to_the_player_and_unveiled_after_a_merge(clones, game):
    guide, player = clones(game)
    game.act(guide)
    secret = next(e for e in entries(guide, game.log) if e.get("commitment"))
    assert game.number in run(guide, "encounter", "log", game.log).out  # the Guide's machine reads the roll
    commit_push(guide, "a secret")

    git(player, "pull", "-q")
    assert game.number not in run(player, "encounter", "log", game.log).out
    assert "sealed until unveiled" in run(player, "encounter", "log", game.log).out
    assert game.number not in shared_text(player)
    if game.depends(player) is not None:
        refused(player, 3, *game.depends(player), contains="the Guide holds a secret that decides this",
                rule="P2-SEAL-3")
    assert ok(player, "check")["ok"] is True
    assert ok(player, "verify")["ok"] is True

    ok(player, *game.player_acts)  # both clones write the same log: the Guide's pull merges two histories
    commit_push(player, "the player acts")
    ok(guide, *game.guide_acts)
    git(guide, "add", "-A")
    git(guide, "commit", "-qm", "the Guide rolls")
    git(guide, "pull", "-q")
    assert len(git(guide, "log", "--merges", "--format=%H").split()) == 1  # a true merge, not a fast-forward
    sealed = [e["id"] for e in entries(guide, game.log) if e.get("commitment")]  # the plug-in's `read` of the
    assert sealed[0] == secret["id"]  # sealed omen is sealed in turn, on the Guide's machine
    unveiled = ok(guide, "unveil", "--all")["unveiled"]
    assert [u["entry"] for u in unveiled] == sealed
    assert ok(guide, "verify")["ok"] is True
    commit_push(guide, "unveiled")

    git(player, "pull", "-q")
    verified = ok(player, "verify")
    assert verified["ok"] is True and verified["lost"] == [] and verified["secret"] == []
    assert ok(player, "check")["ok"] is True
    assert game.number in run(player, "encounter", "log", game.log).out or game.number in shared_text(player)
    if game.depends(player) is not None:
        assert run(player, *game.depends(player)).code == 0  # published: nothing sealed decides it now
