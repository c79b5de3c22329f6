"""`init --git` (T2-README): one step from nothing to a campaign ready to share by git: `git init`,
.gitattributes, the merge driver (G-MERGE-1) and a first commit. Real git."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import git_config, run

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


def _two_clones(tmp_path, monkeypatch):
    """A bare repository, the Guide's campaign pushed to it and a player's clone set up as the README says,
    under a git configuration that sets nothing but who commits (current git's defaults)."""
    git_config(tmp_path, monkeypatch)
    bare, guide, player = tmp_path / "table.git", tmp_path / "guide", tmp_path / "player"
    git(tmp_path, "init", "-q", "--bare", str(bare))
    assert run(None, "init", str(guide), "--example", "--git").code == 0
    git(guide, "remote", "add", "origin", str(bare))
    git(guide, "push", "-q", "-u", "origin", "HEAD")
    git(tmp_path, "clone", "-q", str(bare), str(player))
    r = run(player, "git-setup")
    assert r.code == 0 and "a plain `git pull` merges" in r.out, r.out
    return guide, player


@pytest.mark.parametrize("how", [(), ("--rebase",)], ids=["plain", "rebase"])
def test_T3_GIT_the_readmes_sharing_recipe_pulls_and_merges_exactly_on_current_git(tmp_path, monkeypatch, how):
    """T3-GIT: after the README's steps, two clones that both spent dice pull with a plain `git pull` (current
    git stops a pull of divergent branches until `pull.rebase` is set) or with `--rebase`; either way every
    spend is kept and the history verifies."""
    guide, player = _two_clones(tmp_path, monkeypatch)
    assert git(guide, "config", "pull.rebase").strip() == "false"  # init --git set up the first clone too
    ready = run(guide, "--json", "show", "selka").json["dice"]["ready"]
    assert run(guide, "roll", "selka", "stealth", "--dr", "3", "--boost", "1", "--faces", "2,1", "--commit").code == 0
    git(guide, "push", "-q")
    assert run(player, "roll", "selka", "stealth", "--dr", "2", "--boost", "2", "--faces", "2,2,1", "--commit").code == 0
    git(player, "pull", "-q", *how)
    assert run(player, "--json", "show", "selka").json["dice"]["ready"] == ready - 5  # 2 + 3 dice, both spends
    assert run(player, "verify").code == 0 and run(player, "check").out.strip() == "campaign ok"
    git(player, "push", "-q")
    git(guide, "pull", "-q")
    assert run(guide, "--json", "show", "selka").json["dice"]["ready"] == ready - 5


def test_T3_GIT_a_pull_setting_the_user_chose_is_kept(tmp_path, monkeypatch):
    git_config(tmp_path, monkeypatch, "[pull]\n\trebase = true\n")
    root = tmp_path / "camp"
    r = run(None, "init", str(root), "--git")
    assert r.code == 0, r.err
    r = run(root, "--json", "git-setup")
    assert r.json["pull"] == "rebase"
    assert subprocess.run(["git", "config", "--local", "--get", "pull.rebase"], cwd=root).returncode == 1  # none set here
