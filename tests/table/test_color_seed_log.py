"""T-COLOR, T-SEED, T-LOG (encounter log) and T-ROOT through the command line."""

from __future__ import annotations

import re

from tests.conftest import REPO, ok, refused, run

ESC = "\x1b["


def test_outcome_is_the_first_line_and_coloured_only_when_asked(camp):
    r = run(camp, "--color", "always", "roll", "selka", "stealth", "--dr", "3", "--boost", "2", "--faces", "2,1,1")
    first = r.out.splitlines()[0]
    assert r.code == 0 and first.startswith(ESC) and "Success" in first
    assert "\x1b[32m" in first  # green for a success
    fail = run(camp, "--color", "always", "roll", "--force", "selka", "stealth", "--dr", "3", "--faces", "0")
    assert "\x1b[31m" in fail.out.splitlines()[0] and "Failure" in fail.out.splitlines()[0]
    plain = run(camp, "--color", "never", "roll", "selka", "athletics", "--dr", "1", "--faces", "2")
    assert plain.out.splitlines()[0] == "Success" and ESC not in plain.out


def test_auto_colour_needs_a_terminal_and_no_NO_COLOR(camp):
    # the test's stdout is not a terminal: auto means no colour
    r = run(camp, "roll", "selka", "athletics", "--dr", "1", "--faces", "2")
    assert ESC not in r.out and r.out.splitlines()[0] == "Success"


def test_auto_colour_on_a_terminal_and_NO_COLOR_turns_it_off(camp, monkeypatch):
    import os
    import pty
    import subprocess
    import sys

    def on_tty(env):
        master, slave = pty.openpty()
        argv = [sys.executable, "-m", "narateer_cli", "--campaign", str(camp), "roll", "selka", "athletics",
                "--dr", "1", "--faces", "2"]
        proc = subprocess.run(argv, stdout=slave, stderr=subprocess.PIPE, env={**os.environ, **env}, timeout=60)
        os.close(slave)
        out = os.read(master, 65536).decode()
        os.close(master)
        assert proc.returncode == 0, proc.stderr
        return out

    monkeypatch.delenv("NO_COLOR", raising=False)  # this test's own environment only, restored afterwards
    assert ESC in on_tty({})
    assert ESC not in on_tty({"NO_COLOR": "1"})


def test_json_is_never_coloured(camp):
    r = run(camp, "--color", "always", "--json", "roll", "selka", "athletics", "--dr", "1", "--faces", "2")
    assert ESC not in r.out and r.json["outcome"] == "Success"


def test_exchange_headline_names_who_lands(encounter_camp):
    ok(encounter_camp, "turn", "start", "bandit")
    r = run(encounter_camp, "exchange", "bandit", "selka", "--response", "none", "--boost", "1", "--faces", "2,2")
    assert r.out.splitlines()[0] == "bandit lands: Success, Hit Margin 2"


def test_seeded_text_says_so_and_unseeded_does_not(camp):
    r = run(camp, "--seed", "7", "dice", "3")
    assert r.out.rstrip().endswith("(seeded 7)")
    r = run(camp, "dice", "3", env={"NARATEER_SEED": "12"})
    assert r.out.rstrip().endswith("(seeded 12)")
    r = run(camp, "roll", "selka", "athletics", "--dr", "1", "--seed", "3")
    assert "(seeded 3)" in r.out
    assert "seeded" not in run(camp, "dice", "3").out
    assert "seeded" not in run(camp, "--json", "--seed", "7", "dice", "3").out


def play_encounter(camp):
    ok(camp, "encounter", "new", "brawl", "selka", "bandit")
    ok(camp, "turn", "start", "selka")
    ok(camp, "roll", "selka", "stealth", "--dr", "3", "--boost", "1", "--faces", "2,1")
    ok(camp, "condition", "selka", "+slowed")
    ok(camp, "wound", "bandit", "1")
    ok(camp, "refresh", "bandit")
    ok(camp, "turn", "end", "--next", "bandit")
    ok(camp, "turn", "start", "bandit")
    ok(camp, "exchange", "--force", "bandit", "selka", "--response", "none", "--faces", "2")
    ok(camp, "undo")


def test_log_rows_have_seq_id_time_actor_and_words_for_every_command(camp):
    play_encounter(camp)
    r = run(camp, "encounter", "log")
    rows = r.out.splitlines()[2:]
    assert len(rows) == 10
    for row in rows:
        cells = re.split(r"\s{2,}", row.strip())
        assert len(cells) == 5, row
        seq, short, clock, actor, words = cells
        assert seq.isdigit() and re.fullmatch(r"[0-9a-f]{7}", short) and re.fullmatch(r"\d\d:\d\d:\d\d", clock)
        assert words and "None" not in words.split()
    assert "Stealth ●● ● = 3 vs DR 3, Failure" in rows[2]
    assert "+slowed" in rows[3]
    assert "activation ends" in rows[6]
    assert rows[-1].split()[3] == "-" and "undid entry 9: exchange" in rows[-1]


def test_log_filters_actor_since_last(camp):
    play_encounter(camp)
    by = run(camp, "encounter", "log", "--actor", "bandit").out.splitlines()[2:]
    assert by and all("bandit" == re.split(r"\s{2,}", row.strip())[3] for row in by)
    since = run(camp, "encounter", "log", "--since", "8").out.splitlines()[2:]
    assert [int(row.split()[0]) for row in since] == [8, 9, 10]
    last = run(camp, "encounter", "log", "--actor", "selka", "--last", "1").out.splitlines()[2:]
    assert len(last) == 1 and "activation ends" in last[0]
    clock = run(camp, "encounter", "log", "--since", "00:00").out.splitlines()[2:]
    assert len(clock) == 10
    assert run(camp, "encounter", "log", "--since", "2999-01-01").out.strip() == "encounter brawl: no entries yet"
    refused(camp, 2, "encounter", "log", "--since", "yesterday", contains="--since")


def test_repository_root_campaign_has_no_current_encounter():
    config = (REPO / "narateer.yaml").read_text()
    assert not re.search(r"(?m)^encounter:", config)


def test_readme_first_session_runs_from_the_root_copy(tmp_path):
    import shutil

    for name in ("narateer.yaml", "characters", "encounters"):
        src = REPO / name
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp_path / name)
    for argv in (["show", "selka"], ["roll", "selka", "stealth", "--dr", "3", "--boost", "2", "--dry-run"],
                 ["roll", "selka", "stealth", "--dr", "3", "--boost", "2", "--seed", "1"]):
        r = run(tmp_path, *argv)
        assert r.code == 0, (argv, r.err)
