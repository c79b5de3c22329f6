"""`init --git` (T2-README): one step from nothing to a campaign ready to share by git: `git init`,
.gitattributes, the merge driver (G-MERGE-1) and a first commit. Real git."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import run

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
WHO = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
       "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"}


def git(cwd, *args) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, (args, done.stderr)
    return done.stdout


@pytest.mark.parametrize("system", ["narateer", "open-adventure", "d20-cards"])
def test_init_git_gives_one_clean_commit_with_the_driver_registered(tmp_path, system):
    root = tmp_path / "camp"
    r = run(None, "--json", "init", str(root), "--system", system, "--example", "--git", env=WHO)
    assert r.code == 0, r.err
    made = r.json["git"]
    assert made["initialized"] is True and made["driver"] is True
    assert (root / ".git").is_dir()
    assert git(root, "rev-list", "--count", "HEAD").strip() == "1"
    assert git(root, "rev-parse", "--short", "HEAD").strip() == made["commit"]
    assert git(root, "status", "--porcelain", "--untracked-files=all") == ""
    assert "merge-driver" in git(root, "config", "merge.narateer.driver")
    committed = git(root, "ls-files").split()
    assert {"narateer.yaml", ".gitattributes", ".gitignore"} <= set(committed)
    assert not any(name.startswith(".narateer") for name in committed)
    assert "Start a" in git(root, "log", "-1", "--format=%s")
    assert run(root, "check").out.strip() == "campaign ok"


def test_init_git_says_what_it_did_and_how_to_share(tmp_path):
    r = run(None, "init", str(tmp_path / "camp"), "--git", env=WHO)
    assert r.code == 0, r.err
    assert "git: a new repository, merge driver registered, first commit" in r.out
    assert "narateer git-setup` once in every clone" in r.out


def test_init_git_inside_a_work_tree_commits_only_the_campaign(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / "notes.txt").write_text("staged, not part of the campaign\n")
    git(tmp_path, "add", "notes.txt")
    r = run(None, "--json", "init", str(tmp_path / "camp"), "--example", "--git", env=WHO)
    assert r.code == 0, r.err
    assert r.json["git"]["initialized"] is False and not (tmp_path / "camp" / ".git").exists()
    committed = git(tmp_path, "show", "--name-only", "--format=", "HEAD").split()
    assert "camp/narateer.yaml" in committed and "notes.txt" not in committed
    assert git(tmp_path, "status", "--porcelain") == "A  notes.txt\n"  # still staged, as the user left it


def test_a_failed_first_commit_is_exit_2_in_one_line_and_the_campaign_still_plays(tmp_path):
    git(tmp_path, "init", "-q")
    hook = tmp_path / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho 'no commits today' >&2\nexit 1\n")
    hook.chmod(0o755)
    root = tmp_path / "camp"
    r = run(None, "init", str(root), "--example", "--git", env=WHO)
    assert r.code == 2 and r.out == "" and len(r.err.strip().splitlines()) == 1, r.err
    assert "campaign is ready" in r.err and "git commit failed (no commits today)" in r.err
    assert "git commit" in r.err.split(";", 1)[1]  # the fix: commit by hand
    assert run(root, "check").out.strip() == "campaign ok"
    assert run(root, "show", "selka").code == 0


def test_init_git_without_git_is_bad_input_and_makes_nothing(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    r = run(None, "init", str(tmp_path / "camp"), "--git", env={"PATH": str(empty)})
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1
    assert "git is not installed" in r.err and "without --git" in r.err
    assert not (tmp_path / "camp").exists()
