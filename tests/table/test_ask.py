"""T-ASK: faces asked at a terminal, one die at a time, the Edge rerolls after the dice are known;
without a terminal a missing face stays bad input."""

from __future__ import annotations

import os
import sys

from tests.conftest import ok, refused
from tests.table.test_complete_shell_report import LEFT, read_until


def on_terminal(camp, argv, answers, env=None):
    """Run narateer on a pseudo-terminal, answering each prompt in turn; returns (status, all output)."""
    import pty

    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(sys.executable, [sys.executable, "-m", "narateer_cli", "--campaign", str(camp), *argv],
                   {**os.environ, **(env or {})})
    seen = b""
    try:
        for prompt, answer in answers:
            seen += read_until(fd, prompt.encode())
            os.write(fd, answer.encode() + b"\r")
        seen += read_until(fd, b"\0never printed\0", timeout=60)  # the rest, up to the end of the output
        _, status = os.waitpid(pid, 0)
    finally:
        LEFT.pop(fd, None)
        os.close(fd)
    return os.WEXITSTATUS(status), seen.decode(errors="replace")


def test_faces_ask_prompts_for_each_die_then_for_the_edge_rerolls(camp):
    code, out = on_terminal(camp, ["roll", "kai", "stealth", "--dr", "2", "--boost", "2", "--advantage",
                                   "--faces", "ask"],
                            [("die 1 of 3", "miss"), ("die 2 of 3", "1"), ("die 3 of 3", "crit"),
                             ("rerolls dice 1", "crit")])
    assert code == 0, out
    assert "Edge Phase (advantage rerolls dice 1)" in out
    assert "Strong Success" in out and "#0: Miss -> Crit" in out
    logged = ok(camp, "encounter", "log", "campaign")["entries"][-1]["result"]
    assert logged["faces"] == [0, 1, 2] and logged["reroll_faces"] == [2]


def test_a_bad_face_is_asked_again(camp):
    code, out = on_terminal(camp, ["roll", "selka", "athletics", "--dr", "1", "--faces", "ask"],
                            [("die 1 of 1", "7"), ("die 1 of 1", "2")])
    assert code == 0 and "Success" in out


def test_ask_faces_in_the_campaign_asks_only_the_missing_rerolls(camp):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "ask_faces: true\n")
    code, out = on_terminal(camp, ["roll", "kai", "stealth", "--dr", "2", "--boost", "2", "--advantage",
                                   "--faces", "0,0,1"],
                            [("rerolls dice 1,2", "hit"), ("die 2 of 2", "crit")])
    assert code == 0, out
    assert "die 1 of 3" not in out


def test_without_a_terminal_a_missing_face_stays_bad_input(camp):
    refused(camp, 2, "roll", "selka", "athletics", "--dr", "1", "--faces", "ask", contains="needs a terminal")
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "ask_faces: true\n")
    refused(camp, 2, "roll", "kai", "stealth", "--dr", "2", "--boost", "2", "--advantage", "--faces", "0,0,1",
            contains="--reroll-faces")


def test_T2_FACES_faces_left_out_are_asked_on_a_terminal_without_ask_faces(camp):
    """Once faces are given, the other side's die is the table's too: asked, never rolled by the tool."""
    code, out = on_terminal(camp, ["roll", "kai", "stealth", "--contested", "selka:observation", "--faces", "1"],
                            [("die 1 of 1 (--other-faces)", "2")])
    assert code == 0, out
    logged = ok(camp, "encounter", "log", "campaign")["entries"][-1]["result"]
    assert logged["faces"] == [1] and logged["opponent"]["faces"] == [2]


def test_T2_FACES_ask_faces_false_keeps_a_missing_face_exit_2_on_a_terminal(camp):
    config = camp / "narateer.yaml"
    config.write_text(config.read_text() + "ask_faces: false\n")
    code, out = on_terminal(camp, ["roll", "kai", "stealth", "--contested", "selka:observation", "--faces", "1"], [])
    assert code == 2 and "--other-faces" in out
