"""Sealed secrets by declaration (P2-SEAL-1..4), tried with a plug-in game whose secret rolls have effects.

The omen game (tests/systems/seal/) is registered as an installed distribution would be. Its `fortune` leaves
an omen in the encounter's state and its `mark` a face on the roller's own sheet; each is declared
(`seals=`), and each has an undeclared twin (`fortune-loose`, `mark-loose`). A player's machine is a real
`git clone` of the Guide's campaign: it has every shared file and none of the Guide's private records.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from narateer_cli import systems
from narateer_cli.store import secrets
from tests.conftest import git_config, ok, refused, run, snapshot

SEAL = Path(__file__).resolve().parent / "seal"


def git(cwd, *args) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout


@pytest.fixture
def omen(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(SEAL))
    monkeypatch.setenv("PYTHONPATH", str(SEAL))  # git's merge driver, should a pull need one
    git_config(tmp_path, monkeypatch)
    importlib.invalidate_caches()
    yield
    systems._LOADED.pop("omen", None)
    for name in [m for m in sys.modules if m.split(".")[0] == "omen_system"]:
        del sys.modules[name]


@pytest.fixture
def table(omen, tmp_path):
    """(the Guide's campaign, a player's clone): encounter `e` (ana, bo) current in both."""
    bare, guide, player = tmp_path / "table.git", tmp_path / "guide", tmp_path / "player"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    assert run(None, "init", str(guide), "--system", "omen", "--example", "--git").code == 0
    ok(guide, "encounter", "new", "e", "ana", "bo", "--commit")
    git(guide, "remote", "add", "origin", str(bare))
    git(guide, "push", "-q", "-u", "origin", "HEAD")
    git(tmp_path, "clone", "-q", str(bare), str(player))
    assert run(player, "git-setup").code == 0
    return guide, player


def shared(root: Path) -> dict:
    """Every file a clone carries (the private folder lives inside .git)."""
    return {k: v for k, v in snapshot(root).items() if not k.startswith(".git" + "/")}


def entries(root: Path, log: str = "e") -> list:
    path = root / "encounters" / f"{log}.log.yaml"
    return [json.loads(line[2:]) for line in path.read_text().splitlines() if line.startswith("- {")]


def state(root: Path, enc: str = "e") -> dict:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load((root / "encounters" / f"{enc}.yaml").read_text())


def pushed(guide: Path, player: Path, message: str = "play"):
    git(guide, "add", "-A")
    git(guide, "commit", "-qm", message)
    git(guide, "push", "-q")
    git(player, "pull", "-q")


# ---- P2-SEAL-4: a secret outcome's undeclared effect is refused ---------------------------------------------

def test_P2_SEAL_4_a_secret_omen_in_the_state_that_its_verb_does_not_declare_is_refused(table):
    guide, _ = table
    err = refused(guide, 3, "fortune-loose", "ana", "--faces", "2", "--secret", rule="P2-SEAL-4",
                  contains="omen_system.commands.fortune_loose_cmd makes a secret fortune-loose change state.omen")
    assert "declares neither shown nor sealed" in err
    assert ok(guide, "fortune-loose", "ana", "--faces", "2")["omen"] == "wind"  # openly, it is written as it is
    assert state(guide)["omen"] == "wind"


def test_P2_SEAL_4_a_secret_key_on_the_rollers_own_sheet_that_its_verb_does_not_declare_is_refused(table):
    guide, _ = table
    refused(guide, 3, "mark-loose", "ana", "--faces", "3", "--secret", rule="P2-SEAL-4",
            contains="omen_system.commands.mark_loose_cmd makes a secret mark-loose change sheet.mark")


def test_P2_SEAL_4_a_declaration_names_a_path_of_the_state_or_the_sheet():
    from narateer_cli.declare import Secrecy

    with pytest.raises(ValueError, match="rolls.omen_cmd: seals='omen' is not a key path"):
        Secrecy(seals=("omen",), where="rolls.omen_cmd")
    declared = Secrecy(shows=("state.hidden",), seals=("state.hidden.*.*", "sheet.mark"))
    assert declared.covers(("state", "hidden", "selka", "bandit")) == "seals"  # both cover it: sealed
    assert declared.covers(("state", "hidden", "selka")) == "shows"
    assert declared.covers(("sheet", "mark")) == "seals" and declared.covers(("state", "omen")) is None
    assert declared.sealed_at(("state", "hidden", "selka", "bandit", "x")) == ("state", "hidden", "selka", "bandit")


# ---- P2-SEAL-1: a declared hidden effect is sealed, and the Guide's machine reads it -----------------------

def test_P2_SEAL_1_a_secret_omen_declared_hidden_is_a_commitment_in_the_shared_files(table):
    guide, _ = table
    shown = ok(guide, "fortune", "ana", "--faces", "2", "--secret")
    assert shown["omen"] == "wind"  # the Guide's screen
    entry = entries(guide)[-1]
    commit = entry["seals"]["state.omen"]
    assert state(guide)["omen"] == f"sealed:{entry['id']}:{commit}" and state(guide)["asked"] == "ana"
    assert not any(b"wind" in text for text in shared(guide).values())
    record = secrets.read_record(guide, entry["id"])
    kept = record["sealed"][commit]
    assert kept["value"] == "wind"
    assert hashlib.sha256(bytes.fromhex(kept["salt"]) + b'"wind"').hexdigest() == commit
    # the machine that holds the record reads the campaign with it applied
    assert ok(guide, "encounter", "show")["omen"] == "wind"
    read = ok(guide, "read", "bo")
    assert read == {"actor": "bo", "omen": "wind", "good": False}
    assert entries(guide)[-1]["commitment"] and entries(guide)[-1]["result"] == {"actor": "bo"}  # as secret


def test_P2_SEAL_1_a_secret_mark_declared_hidden_is_sealed_on_the_rollers_sheet(table):
    guide, _ = table
    ok(guide, "mark", "ana", "--faces", "3", "--secret")
    entry = entries(guide)[-1]
    text = (guide / "characters" / "ana.yaml").read_text()
    assert f"mark: sealed:{entry['id']}:{entry['seals']['sheet.mark']}\n" in text
    assert ok(guide, "show", "ana")["mark"] == 3
    assert ok(guide, "check")["ok"] is True


def test_P2_SEAL_1_an_open_action_that_carries_a_sealed_value_along_keeps_it_sealed(table):
    guide, _ = table
    ok(guide, "fortune", "ana", "--faces", "6", "--secret")
    before = state(guide)["omen"]
    assert ok(guide, "tally", "bo")["round"] == 2  # the game rewrote the state with the omen it read
    assert state(guide)["omen"] == before and state(guide)["round"] == 2


# ---- P2-SEAL-3: a player's clone ---------------------------------------------------------------------------

def test_P2_SEAL_3_on_a_players_clone_what_depends_on_the_omen_refuses_and_the_rest_works(table):
    guide, player = table
    ok(guide, "fortune", "ana", "--faces", "5", "--secret")
    ok(guide, "mark", "ana", "--faces", "4", "--secret")
    pushed(guide, player)
    assert snapshot(player).keys() >= {"encounters/e.yaml", "characters/ana.yaml"}
    refused(player, 3, "read", "bo", contains="the Guide holds a secret that decides this", rule="P2-SEAL-3")
    assert ok(player, "encounter", "show")["omen"].startswith("sealed:")
    assert ok(player, "show", "ana")["mark"].startswith("sealed:")
    assert "mark sealed" in run(player, "show", "ana").out  # in words: sealed, no commitment to read
    before = state(player)["omen"]
    ok(player, "tally", "bo")  # it carries the omen along: written back as the file held it
    assert state(player)["omen"] == before
    assert ok(player, "check")["ok"] is True
    data = ok(player, "verify")
    assert data["ok"] is True and len(data["lost"]) == 2


# ---- unveil, undo, verify ----------------------------------------------------------------------------------

def test_P2_SEAL_1_unveil_publishes_each_sealed_value_and_verify_checks_it_in_both_clones(table):
    guide, player = table
    ok(guide, "fortune", "ana", "--faces", "3", "--secret")
    fortune = entries(guide)[-1]
    ok(guide, "mark", "ana", "--faces", "1", "--secret")
    mark = entries(guide)[-1]
    pushed(guide, player)
    out = ok(guide, "unveil", "--all")
    assert [u["entry"] for u in out["unveiled"]] == [fortune["id"], mark["id"]]
    unveil = entries(guide)[-2]
    commit = fortune["seals"]["state.omen"]
    assert unveil["unveils"] == fortune["id"] and unveil["sealed"][commit]["value"] == "rain"
    assert state(guide)["omen"] == "rain"  # published: in clear where it stood
    assert "mark: 1\n" in (guide / "characters" / "ana.yaml").read_text()
    assert ok(guide, "verify")["ok"] is True
    pushed(guide, player, "unveiled")
    assert ok(player, "verify") == {**ok(player, "verify"), "ok": True, "secret": [], "lost": []}
    assert ok(player, "read", "bo")["omen"] == "rain"  # nothing sealed is left to decide it


def test_P2_SEAL_1_verify_fails_an_unveil_whose_published_value_is_not_the_sealed_one(table):
    guide, _ = table
    ok(guide, "fortune", "ana", "--faces", "3", "--secret")
    ok(guide, "unveil", "--all")
    path = guide / "encounters" / "e.log.yaml"
    path.write_text(path.read_text().replace('"value": "rain"', '"value": "gold"'))
    r = run(guide, "--json", "verify")
    assert r.code == 1 and "published for state.omen do not hash to its commitment" in r.json["problem"]


def test_P2_SEAL_4_undo_of_a_secret_action_removes_its_record_and_unveil_publishes_nothing(table):
    guide, _ = table
    ok(guide, "fortune", "ana", "--faces", "4", "--secret")
    entry = entries(guide)[-1]
    assert secrets.read_record(guide, entry["id"]) is not None
    ok(guide, "undo")
    assert secrets.read_record(guide, entry["id"]) is None and "omen" not in state(guide)
    refused(guide, 3, "unveil", entry["id"], contains="was undone", rule="P2-SEAL-4")
    assert ok(guide, "unveil", "--all") == {"unveiled": [], "lost": []}


def test_P2_SEAL_4_unveil_of_an_undone_secret_hide_publishes_nothing(encounter_camp):
    """Even with its private record left behind (undone before undo removed records), an undone Hide stays
    unpublished."""
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "hide", "selka", "--from", "bandit", "--boost", "1", "--faces", "2,1", "--secret")
    hide = json.loads((encounter_camp / "encounters" / "ambush.log.yaml").read_text().splitlines()[-1][2:])
    record = encounter_camp / ".narateer" / "secrets" / f"{hide['id']}.json"
    kept = record.read_bytes()
    ok(encounter_camp, "undo")
    assert not record.exists()
    record.write_bytes(kept)
    refused(encounter_camp, 3, "unveil", hide["id"], contains="was undone", rule="P2-SEAL-4")
    assert ok(encounter_camp, "unveil", "--all")["unveiled"] == []


# ---- P2-SEAL-2: outcome independence -----------------------------------------------------------------------

MOVING = re.compile(rb"[0-9a-f]{64}|[0-9a-f]{12}|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")  # commitments, ids, times


def same_but_moving(one: dict, other: dict):
    """The same files (or page data) with the same keys and sizes, equal once commitments, ids and times are
    blanked."""
    assert one.keys() == other.keys()
    for name in one:
        assert len(one[name]) == len(other[name]), name
        assert MOVING.sub(b"#", one[name]) == MOVING.sub(b"#", other[name]), name


def party_page(root: Path) -> dict:
    """The party's page as the server serves it from the files: the `/data` body, the page's HTML (`/part`),
    and what `/events` sends (one `change` whose data is the digest of that `/data` body, nothing else)."""
    from narateer_cli.serve import page
    from narateer_cli.serve.app import Models

    model, body, digest = Models(root).built(False)
    assert digest == hashlib.sha256(body).hexdigest()[:16]  # the stream tells no more than `/data` shows
    return {"data": body, "part": page.encounter(model).encode()}


def narateer_hide(tmp_path, name, faces):
    from tests.conftest import example_campaign

    root = example_campaign(tmp_path / name)
    (root / "narateer.yaml").write_text((root / "narateer.yaml").read_text() + "encounter: ambush\n")
    ok(root, "turn", "start", "selka")
    shown = ok(root, "hide", "selka", "--from", "bandit", "--from", "mira", "--boost", "1", "--faces", faces,
               "--secret")
    return root, (shown["total"], shown["hidden_from"])


def d20_act(tmp_path, name, faces):
    from tests.systems.d20_cards.conftest import fight
    from tests.systems.d20_cards.test_secret_rolls import feint

    root = fight(tmp_path / name, "mira", "bandit", "tor")
    feint(root)
    shown = ok(root, "act", "mira", "feint", "--target", "bandit", "--faces", faces, "--secret")
    return root, (shown["targets"][0]["attack"]["total"], shown["targets"][0]["lands"])


def oa_roll(tmp_path, name, faces):
    from tests.systems.open_adventure.test_secret_rolls import encounter

    root = tmp_path / name / "oa"
    assert run(None, "init", str(root), "--system", "open-adventure", "--example").code == 0
    encounter(root)
    shown = ok(root, "roll", "goblin", "spear", "--vs", "bloodwind:body", "--faces", faces, "--secret")
    return root, (shown["total"], None)


def omen_fortune(tmp_path, name, faces):
    root = tmp_path / name / "omen"
    assert run(None, "init", str(root), "--system", "omen", "--example").code == 0
    ok(root, "encounter", "new", "e", "ana", "bo")
    shown = ok(root, "fortune", "ana", "--faces", faces, "--secret")
    return root, (shown["omen"], None)


@pytest.mark.parametrize("play, faces", [
    (narateer_hide, ("2,1", "2,2")),  # a Hide of total 3 and one of 4, each beating both observers (Readiness 2)
    (d20_act, ("11", "12")),  # an attack of 15 and one of 16 by a card that deals no damage
    (oa_roll, ("1,1", "5,4")),  # a critical failure and a success
    (omen_fortune, ("1", "2")),  # storm and wind: an omen of five letters and one of four
], ids=["narateer-hide", "d20-act", "oa-roll", "plug-in-fortune"])
def test_P2_SEAL_2_two_secret_actions_that_differ_only_in_their_numbers_leave_the_same_shared_files(
        omen, tmp_path, play, faces):
    one, said = play(tmp_path, "one", faces[0])
    other, said_too = play(tmp_path, "other", faces[1])
    assert said[0] != said_too[0] and said[1] == said_too[1]  # the Guide saw different numbers, the same effects
    same_but_moving(snapshot(one), snapshot(other))
    same_but_moving(party_page(one), party_page(other))


def test_P2_SEAL_4_a_secret_d20_act_writes_in_clear_only_the_concentration_and_cooldown_it_declares(tmp_path):
    from tests.systems.d20_cards.conftest import fight

    root = fight(tmp_path, "mira", "bandit")
    ok(root, "act", "mira", "ward", "--secret")
    text = (root / "characters" / "mira.yaml").read_text()
    assert "concentrating: {card: ward, rounds: 2}" in text  # perceptible: the table sees the card played
    from narateer_cli.declare import Secrecy

    with pytest.raises(ValueError, match="a setting in narateer.yaml is never sealed"):
        Secrecy(seals=("config.clock",), where="act_cmd")


def test_P2_SEAL_1_the_guides_page_reads_a_secret_hides_total_and_the_partys_page_holds_none(tmp_path):
    from narateer_cli.serve.view import snapshot as page

    root, _ = narateer_hide(tmp_path, "camp", "2,2")
    selka = next(row for row in page(root, guide=True)["order"] if row["id"] == "selka")
    assert selka["hidden_from"] == {"bandit": 4, "mira": 4}
    party = json.dumps(page(root))
    assert "sealed:" not in party and '"bandit": 4' not in party
