"""T2-WORDS: `unveil`, `report` and `encounter log` say an unveiled roll in words, as an open roll is said;
the sealed entry says it is a secret roll, never a bare command name."""

from __future__ import annotations

from tests.conftest import ok, run


def text(camp, *args) -> str:
    r = run(camp, *args)
    assert r.code == 0, r.err
    return r.out


def test_T2_WORDS_an_unveiled_random_dr_in_words(camp):
    ok(camp, "dr", "hard", "--random", "--faces", "2,2,0", "--secret")
    unveiled = text(camp, "unveil", "--all")
    assert unveiled.startswith("unveiled ") and "random DR was 12" in unveiled
    log = text(camp, "encounter", "log", "campaign")
    assert "secret dr roll, sealed until unveiled" in log
    assert "random DR was 12 (hard: base 8 + 4)" in log
    rows = [line.split()[-1] for line in log.splitlines()[2:]]
    assert "dr" not in rows and "unveil" not in rows
    report = text(camp, "report", "campaign")
    assert "random DR was 12" in report and "| dr |" not in report and "| unveil |" not in report


def test_T2_WORDS_an_unveiled_hide_names_whom_it_is_not_hidden_from(encounter_camp):
    camp = encounter_camp
    ok(camp, "turn", "start", "selka")
    ok(camp, "hide", "--force", "selka", "--from", "sentry", "--from", "bandit", "--faces", "0", "--secret")
    unveiled = text(camp, "unveil", "--all")
    assert "selka: Hide 0, hidden from nobody; not hidden from sentry, bandit" in unveiled
    log = text(camp, "encounter", "log", "--last", "2")
    assert "selka: secret hide roll, sealed until unveiled" in log
    assert "not hidden from sentry, bandit" in log and "selka unveil" not in log
    assert "not hidden from sentry, bandit" in text(camp, "report")
    assert ok(camp, "verify")["ok"] is True
