"""T-SHELL, second round: the shell greets with a banner, reads `help [VERB]` and `clear` itself, and a
misspelt verb (in the shell or on the command line) gets "did you mean"."""

from __future__ import annotations

from tests.conftest import refused


def shell_lines(camp, *lines):
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from narateer_cli import shell

    class Screen(DummyOutput):
        cleared = 0

        def erase_screen(self):
            Screen.cleared += 1

    with create_pipe_input() as pipe:
        for line in lines:
            pipe.send_text(line + "\r")
        pipe.send_text("\x04")
        code = shell.run(camp, ["--campaign", str(camp), "--color", "never"], input=pipe, output=Screen())
    return code, Screen.cleared


def test_the_shell_greets_with_its_campaign_game_and_the_way_around(camp, capsys):
    code, _ = shell_lines(camp)
    out, _ = capsys.readouterr()
    first, second = out.splitlines()[:2]
    assert code == 0 and first == f"narateer shell in {camp.name} (narateer)"
    assert "`help`" in second and "Tab completes" in second and "Ctrl-D" in second


def test_help_lists_the_commands_and_help_verb_explains_one(camp, capsys):
    shell_lines(camp, "help", "help encounter log")
    out, err = capsys.readouterr()
    assert "Usage: narateer [OPTIONS] COMMAND" in out and "In the shell:" in out
    assert "Usage: narateer encounter log" in out and err == ""


def test_clear_clears_the_screen_and_runs_no_command(camp, capsys):
    _, cleared = shell_lines(camp, "clear")
    out, err = capsys.readouterr()
    assert cleared == 1 and err == ""


def test_a_misspelt_verb_in_the_shell_gets_did_you_mean(camp, capsys):
    shell_lines(camp, "rol selka stealth --dr 3", "hlep")
    _, err = capsys.readouterr()
    lines = err.splitlines()
    assert "No such command 'rol' (did you mean roll" in lines[0]
    assert "No such command 'hlep' (did you mean help?)" in lines[1]


def test_a_misspelt_verb_on_the_command_line_gets_did_you_mean(camp):
    refused(camp, 2, "enconter", "log", contains="did you mean encounter?")
    refused(camp, 2, "xyzzy", contains="No such command 'xyzzy'")


def test_the_shells_own_words_are_not_offered_outside_it(camp, capsys):
    shell_lines(camp)
    err = refused(camp, 2, "hlep", contains="No such command 'hlep'")
    assert "did you mean help" not in err
