"""T-COMPLETE, T-SHELL and `report` (T-LOG) through the command line and a pseudo-terminal."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time

import pytest

from tests.conftest import ok, refused, run


def completions(camp, line: str, env=None) -> list[str]:
    """What bash completion offers for `line` (the word being typed is its last, possibly empty, word)."""
    words = line.split(" ")
    environ = {**os.environ, "_NARATEER_COMPLETE": "bash_complete", "COMP_WORDS": line,
               "COMP_CWORD": str(len(words) - 1), "NARATEER_CAMPAIGN": str(camp), **(env or {})}
    out = subprocess.run([sys.executable, "-m", "narateer_cli"], capture_output=True, text=True, env=environ,
                         timeout=60).stdout
    return [row.split(",", 1)[1] for row in out.splitlines() if "," in row]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_script(camp, shell):
    r = run(camp, "completion", shell)
    assert r.code == 0 and "_NARATEER_COMPLETE" in r.out and f"{shell}_complete" in r.out


def test_completion_of_an_unknown_shell_is_bad_input(camp):
    refused(camp, 2, "completion", "tcsh", contains="'tcsh' is not one of")


def test_completes_from_the_campaign_on_disk(camp):
    assert "roll" in completions(camp, "narateer ro")
    assert "selka" in completions(camp, "narateer roll sel") and "sentry" not in completions(camp, "narateer roll sel")
    # selka's own skills first, then those she may roll untrained (SL 0)
    assert completions(camp, "narateer roll selka ")[:4] == ["athletics", "melee", "observation", "stealth"]
    assert "alchemy" in completions(camp, "narateer roll selka ")
    assert completions(camp, "narateer roll selka stealth --dr ") == ["routine", "challenging", "hard", "heroic", "mythic"]
    assert "--boost" in completions(camp, "narateer roll selka stealth --b")
    assert completions(camp, "narateer exchange mira bandit --weapon ") == ["greataxe", "sword"]
    assert completions(camp, "narateer condition selka +s") == ["+slowed", "+stunned"]
    assert completions(camp, "narateer roll selka stealth --vs sentry:")[:2] == ["sentry:melee", "sentry:observation"]
    assert completions(camp, "narateer encounter show ") == ["ambush"]
    ok(camp, "encounter", "new", "brawl", "selka", "bandit")
    assert completions(camp, "narateer report ") == ["ambush", "brawl"]
    assert completions(camp, "narateer turn start ")[:2] == ["bandit", "beast"]


def test_completion_does_not_load_at_ordinary_start_up(camp):
    code = ("import sys; from narateer_cli.cli import main; main(['--campaign', sys.argv[1], 'show', 'selka']); "
            "bad = [m for m in ('narateer_cli.complete', 'prompt_toolkit', 'click.shell_completion', "
            "'narateer_cli.aliases') if m in sys.modules]; print('LOADED', bad)")
    out = subprocess.run([sys.executable, "-c", code, str(camp)], capture_output=True, text=True, timeout=60).stdout
    assert "LOADED []" in out


def play_encounter(camp):
    ok(camp, "encounter", "new", "brawl", "mira", "bandit")
    ok(camp, "turn", "start", "mira")
    ok(camp, "roll", "mira", "athletics", "--dr", "2", "--boost", "1", "--faces", "2,1")
    ok(camp, "exchange", "mira", "bandit", "--weapon", "sword", "--response", "none", "--boost", "1", "--faces", "2,2")
    ok(camp, "turn", "end", "--next", "bandit")
    ok(camp, "turn", "start", "bandit")
    ok(camp, "condition", "bandit", "+slowed")


def test_report_markdown_has_rounds_words_faces_outcomes(camp):
    play_encounter(camp)
    r = run(camp, "report")
    assert r.code == 0, r.err
    md = r.out
    assert md.startswith("# Session report\n") and "## Encounter brawl" in md
    assert "### Before the first round" in md and "### Round 1" in md
    assert "| # | time | who | what happened | faces | chance | outcome |" in md
    row = next(line for line in md.splitlines() if "Athletics" in line)
    assert "Crit Hit" in row and "| Success |" in row
    assert any("mira lands" in line and "Crit" in line for line in md.splitlines())
    assert "+slowed" in md and "None" not in md
    for line in md.splitlines():
        if line.startswith("|"):
            assert line.count(" | ") == 6 or line.startswith("|---"), line


def test_report_shows_a_logged_chance(camp):
    import json

    play_encounter(camp)
    log = camp / "encounters" / "brawl.log.yaml"
    lines = log.read_text().splitlines()
    entry = json.loads(lines[2][2:])
    entry["result"]["chance"] = "1/4"
    lines[2] = "- " + json.dumps(entry)
    log.write_text("\n".join(lines) + "\n")
    row = next(line for line in run(camp, "report").out.splitlines() if "Athletics" in line)
    assert "25.0%" in row


def test_report_html_is_one_page_without_network(camp):
    play_encounter(camp)
    r = run(camp, "report", "brawl", "--format", "html")
    assert r.code == 0 and r.out.startswith("<!DOCTYPE html>")
    for remote in ("http://", "https://", "<script", "<link", "@import", "src="):
        assert remote not in r.out
    assert "<h3>Round 1</h3>" in r.out and "mira lands" in r.out


def test_report_all_and_bad_input(camp):
    play_encounter(camp)
    ok(camp, "condition", "selka", "+slowed", "--in", "ambush")
    r = run(camp, "report", "--all")
    assert "## Encounter brawl" in r.out and "## Encounter ambush" in r.out
    refused(camp, 2, "report", "brawl", "--all", contains="give an encounter or --all, not both")
    refused(camp, 2, "report", "--format", "pdf", contains="'pdf' is not one of")
    refused(camp, 2, "report", "nosuch", contains="unknown encounter 'nosuch'")


# -- the shell ------------------------------------------------------------------------------------

def test_shell_runs_commands_in_process_with_prompt_toolkit_pipe_input(encounter_camp, capsys):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from narateer_cli import shell

    with create_pipe_input() as pipe:
        pipe.send_text("turn start selka\r")
        pipe.send_text("roll selka stealth --dr 3 --boost 2 --faces 2,1,1\r")
        pipe.send_text("half typed line\x03")  # Ctrl-C clears the line: it never runs
        pipe.send_text("nosuch verb\r")
        pipe.send_text("narateer encounter log\r")
        pipe.send_text("\x04")
        code = shell.run(encounter_camp, ["--campaign", str(encounter_camp), "--color", "never"], input=pipe,
                         output=DummyOutput())
    out, err = capsys.readouterr()
    assert code == 0
    assert "Success\nselka rolls Stealth vs DR 3" in out
    assert err.count("\n") == 1 and "No such command 'nosuch'" in err
    assert "half" not in out + err
    history = (encounter_camp / ".narateer" / "history").read_text()
    assert "+roll selka stealth --dr 3 --boost 2 --faces 2,1,1" in history
    from narateer_cli.store.txn import Lock

    with Lock(encounter_camp, wait=False):  # the shell let go of the campaign lock: Busy here if it had not
        pass


LEFT: dict = {}  # fd -> what was read past the last marker


def read_until(fd, marker: bytes, timeout=30.0) -> bytes:
    """Terminal output up to and including `marker` (or to its end); what follows is kept for the next call."""
    got = LEFT.pop(fd, b"")
    end = time.monotonic() + timeout
    while marker not in got:
        left = end - time.monotonic()
        assert left > 0, got.decode(errors="replace")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
    cut = got.find(marker)
    if cut >= 0:
        LEFT[fd] = got[cut + len(marker):]
        return got[:cut + len(marker)]
    return got


def test_shell_on_a_pseudo_terminal(encounter_camp):
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: a real narateer shell on a terminal
        os.execvpe(sys.executable, [sys.executable, "-m", "narateer_cli", "--campaign", str(encounter_camp),
                                    "--color", "always", "shell"], {**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"})
    try:
        read_until(fd, b"narateer>")
        os.write(fd, b"turn start selka\r")
        read_until(fd, b"uses:")
        os.write(fd, b"roll selka stealth --dr 3 --boost 2 --faces 2,1,1\r")
        out = read_until(fd, b"dice   ready")
        assert b"\x1b[32m" in out and b"Success" in out  # coloured on a terminal
        os.write(fd, b"roll sel\t")
        out = read_until(fd, b"selka")
        os.write(fd, b"\x03")  # Ctrl-C: the line is cleared, the prompt returns
        read_until(fd, b"narateer>")
        os.write(fd, b"roll nobody stealth --dr 3\r")
        read_until(fd, b"unknown character")
        read_until(fd, b"narateer>")
        os.write(fd, b"\x04")  # Ctrl-D leaves
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == 0
    finally:
        LEFT.pop(fd, None)
        os.close(fd)
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
    assert (encounter_camp / ".narateer" / "history").exists()
    log = run(encounter_camp, "--json", "encounter", "log").json["entries"]
    assert [e["command"] for e in log] == ["turn start", "roll"]
