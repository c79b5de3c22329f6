"""T2-UNMERGED: read commands on a file git left unmerged say what writers say (G-MERGE-3): the file is
unmerged, finish the merge first, exit 3; `check` lists it as a problem line. Real git, real merges."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from narateer_cli.store.gitops import has_conflict_markers
from tests.conftest import ok, refused, run, snapshot
from tests.store.test_git_trust import git, repo

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
SAYS = "is unmerged; finish the merge first"


def _campaign(tmp_path, system="narateer", encounter=None):
    root = tmp_path / "camp"
    assert run(None, "init", str(root), "--system", system, "--example").code == 0
    repo(root)
    ok(root, "git-setup")
    if encounter:
        ok(root, "encounter", "new", *encounter)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "setup", "--allow-empty")
    return root


def _conflict(root, change_main, change_other):
    """Two branches change the same value differently; merging them (driver registered) conflicts."""
    git(root, "checkout", "-qb", "other")
    change_other()
    git(root, "commit", "-qam", "other")
    git(root, "checkout", "-q", "main")
    change_main()
    git(root, "commit", "-qam", "main")
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", "merge", "-q", "other"],
                          cwd=root, capture_output=True, text=True)
    assert done.returncode != 0, done.stdout


def _rename(root, cid, name):
    def change():
        sheet = root / "characters" / f"{cid}.yaml"
        text = sheet.read_text()
        old = next(line for line in text.splitlines() if line.startswith("name: "))
        sheet.write_text(text.replace(old, f"name: {name}"))
    return change


def _readers_refuse(root, name, commands):
    for argv in commands:
        err = refused(root, 3, *argv, contains=SAYS)
        assert name in err and "document start" not in err and "YAML" not in err, (argv, err)
    r = run(root, "check")
    assert r.code == 1 and f"{name}:1: unmerged: finish the merge first" in r.out.splitlines()[0], r.out
    assert r.out.count(f"{name}:1:") == 1, r.out  # named once, though two readers met it


def test_readers_on_an_unmerged_sheet_say_finish_the_merge(tmp_path):
    root = _campaign(tmp_path, encounter=("fight", "selka", "sentry"))
    _conflict(root, _rename(root, "selka", "Selka the Bold"), _rename(root, "selka", "Selka the Quiet"))
    assert "<<<<<<<" in (root / "characters" / "selka.yaml").read_text()
    _readers_refuse(root, "characters/selka.yaml", [
        ("show", "selka"), ("readiness", "selka"), ("encounter", "show"), ("--json", "show", "selka"),
        ("roll", "selka", "stealth", "--dr", "2", "--dry-run")])


def test_readers_on_an_unmerged_encounter_state_say_finish_the_merge(tmp_path):
    root = _campaign(tmp_path, encounter=("fight", "selka", "sentry"))
    _conflict(root, lambda: ok(root, "turn", "start", "selka"), lambda: ok(root, "turn", "start", "sentry"))
    assert "<<<<<<<" in (root / "encounters" / "fight.yaml").read_text()
    _readers_refuse(root, "encounters/fight.yaml", [
        ("encounter", "show"), ("encounter", "log"), ("encounter", "show", "fight"), ("verify",),
        ("report",), ("show", "selka")])
    # the log merged cleanly (union): what reads only the logs still works during the merge
    assert run(root, "stats").code == 0


@pytest.mark.parametrize("system,cid,show", [("open-adventure", "bloodwind", ("show", "bloodwind")),
                                             ("d20-cards", "mira", ("card", "show", "strike", "--for", "mira"))])
def test_every_game_reads_an_unmerged_sheet_the_same_way(tmp_path, system, cid, show):
    root = _campaign(tmp_path, system)
    _conflict(root, _rename(root, cid, "One"), _rename(root, cid, "Two"))
    _readers_refuse(root, f"characters/{cid}.yaml", [("show", cid), show])


def test_check_names_a_file_git_still_reports_unmerged_after_its_markers_went(tmp_path):
    root = _campaign(tmp_path)
    _conflict(root, _rename(root, "selka", "Selka the Bold"), _rename(root, "selka", "Selka the Quiet"))
    git(root, "checkout", "--ours", "characters/selka.yaml")  # markers gone, but not `git add`ed
    assert run(root, "show", "selka").code == 0  # a reader may read the resolved text
    before = snapshot(root)
    r = run(root, "check")
    assert r.code == 1 and "characters/selka.yaml:1: unmerged: finish the merge first" in r.out, r.out
    assert snapshot(root) == before
    refused(root, 3, "wound", "selka", contains=SAYS)  # writers refuse until the merge is committed
    git(root, "add", "characters/selka.yaml")
    git(root, "commit", "-qm", "merged")
    assert run(root, "check").out.strip() == "campaign ok"


def test_conflict_markers_count_only_at_line_starts():
    assert has_conflict_markers("<<<<<<< ours\nname: A\n=======\nname: B\n>>>>>>> theirs\n")
    assert has_conflict_markers("a: 1\n<<<<<<<\nb: 2\n>>>>>>>\n")
    assert not has_conflict_markers("notes: 'x <<<<<<< y >>>>>>> z'\n")
    assert not has_conflict_markers("<<<<<<< only the start\n")
    assert not has_conflict_markers("<<<<<<<<< nine\n>>>>>>>>> nine\n")
