"""Luck you can see (P-LUCK-1, P-LUCK-2): exact chances logged, stats against the exact
Poisson-binomial distribution. The expected numbers here are computed independently: every face
combination enumerated, and the distribution of successes summed over every outcome of every check."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

from narateer_cli.luck import stats_record
from narateer_cli.systems import load_system
from tests.conftest import ok, refused, run

DIE = [0, 0, 1, 1, 2, 2]  # the shipped die (A-FACES): two Miss, two Hit, two Crit faces


def exact_chance(dice: int, dr: int) -> Fraction:
    """P(total > DR), every combination of faces counted."""
    combos = list(itertools.product(DIE, repeat=dice))
    return Fraction(sum(1 for c in combos if sum(c) > dr), len(combos))


def percentile_by_enumeration(chances, successes) -> Fraction:
    """P(S < k) + P(S = k)/2, summing the probability of every success/failure pattern."""
    below = at = Fraction(0)
    for pattern in itertools.product([True, False], repeat=len(chances)):
        p = Fraction(1)
        for hit, chance in zip(pattern, chances):
            p *= chance if hit else 1 - chance
        k = sum(pattern)
        below += p if k < successes else 0
        at += p if k == successes else 0
    return (below + at / 2) * 100


# (boost, DR, faces): selka's Stealth checks; each costs 1 + boost
CHECKS = [(0, 1, "2"), (1, 3, "2,1"), (1, 2, "0,1"), (2, 3, "2,2,0")]


def play(camp):
    for boost, dr, faces in CHECKS:
        ok(camp, "roll", "selka", "stealth", "--dr", str(dr), "--boost", str(boost), "--faces", faces)
        ok(camp, "refresh", "selka")


def test_each_logged_check_records_its_exact_chance(camp):
    play(camp)
    lines = (camp / "encounters" / "campaign.log.yaml").read_text().splitlines()
    rolls = [json.loads(line[2:]) for line in lines if '"command": "roll"' in line]
    assert [r["result"]["chance"] for r in rolls] == [
        f"{c.numerator}/{c.denominator}" for c in (exact_chance(1 + b, dr) for b, dr, _ in CHECKS)]


def test_verify_catches_an_edited_chance(camp):
    """P-LUCK-1: stats trusts the logged chance, so verify re-derives it from the check."""
    play(camp)
    log = camp / "encounters" / "campaign.log.yaml"
    lines = log.read_text().splitlines(keepends=True)
    number, line = next((n, l) for n, l in enumerate(lines, 1) if '"command": "roll"' in l)
    logged = json.loads(line[2:])["result"]["chance"]
    lines[number - 1] = line.replace(f'"chance": "{logged}"', '"chance": "1/1"')
    log.write_text("".join(lines))
    r = run(camp, "verify", "campaign")
    assert r.code == 1
    assert f"campaign.log.yaml:{number}: entry {number} (roll): logged chance 1/1 is not the check's chance {logged}" \
        in r.out + r.err


def test_stats_against_an_independent_poisson_binomial(camp):
    play(camp)
    chances = [exact_chance(1 + b, dr) for b, dr, _ in CHECKS]
    successes = [sum(map(int, f.split(","))) > dr for _, dr, f in CHECKS]
    data = ok(camp, "stats")
    [row] = data["actors"]
    expected = sum(chances)
    assert row["actor"] == "selka" and row["checks"] == 4 and row["successes"] == sum(successes) == 2
    assert row["expected_exact"] == f"{expected.numerator}/{expected.denominator}"
    assert row["percentile"] == round(float(percentile_by_enumeration(chances, 2)), 1)
    assert row["dice_spent"] == sum(1 + b for b, _, _ in CHECKS)
    all_faces = [int(x) for _, _, f in CHECKS for x in f.split(",")]
    assert row["crits"] == all_faces.count(2) and row["crits_expected"] == round(len(all_faces) / 3, 3)


def test_old_entries_get_their_chance_by_recomputation(camp):
    play(camp)
    path = camp / "encounters" / "campaign.log.yaml"
    text = path.read_text()
    import re

    path.write_text(re.sub(r', "chance": "\d+/\d+"', "", text))
    assert '"chance"' not in path.read_text()
    chances = [exact_chance(1 + b, dr) for b, dr, _ in CHECKS]
    row = ok(camp, "stats")["actors"][0]
    assert row["expected_exact"] == f"{sum(chances).numerator}/{sum(chances).denominator}"


def test_stats_is_a_pure_function_of_entries(camp):
    """What the web page calls: (log id, entry) pairs in, the stats record out."""
    from narateer_cli.store.campaign import Campaign

    play(camp)
    lines = (camp / "encounters" / "campaign.log.yaml").read_text().splitlines()
    entries = [("campaign", json.loads(line[2:])) for line in lines if line.startswith("- {")]
    system = load_system("narateer")
    rules = Campaign(camp).rules
    record = stats_record(entries, system, rules, actor="selka")
    assert record == ok(camp, "stats", "--actor", "selka")
    assert stats_record(entries, system, rules, since="2999-01-01")["actors"] == []


def test_secret_rolls_count_once_unveiled(camp):
    ok(camp, "roll", "selka", "stealth", "--dr", "1", "--faces", "2", "--secret")
    data = ok(camp, "stats")
    assert data["scope"]["sealed"] == 1 and data["actors"][0]["checks"] == 0
    assert data["actors"][0]["dice_spent"] == 1
    ok(camp, "unveil", "--all")
    row = ok(camp, "stats")["actors"][0]
    assert row["checks"] == 1 and row["successes"] == 1 and row["dice_spent"] == 1 and row["crits"] == 1


def test_filters_and_text_chart(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "roll", "selka", "stealth", "--dr", "1", "--faces", "2")
    assert ok(encounter_camp, "stats", "--encounter", "campaign")["actors"] == []
    assert ok(encounter_camp, "stats", "--encounter", "ambush")["actors"][0]["checks"] == 1
    text = run(encounter_camp, "stats").out
    assert "selka" in text and "|" in text and "%" in text
    refused(encounter_camp, 2, "stats", "--actor", "selkaa", contains="selka")
    refused(encounter_camp, 2, "stats", "--since", "yesterday", contains="YYYY-MM-DD")
    refused(encounter_camp, 2, "stats", "--encounter", "ambsh", contains="ambush")


def test_percentile_of_mixed_chances_against_enumeration():
    from narateer_cli.luck import percentile

    chances = [Fraction(1, 3), Fraction(1, 3), Fraction(5, 9), Fraction(0), Fraction(1), Fraction(7, 27)]
    for k in range(len(chances) + 1):
        assert percentile(chances, k) == percentile_by_enumeration(chances, k)


def test_an_undone_check_does_not_count(camp):
    ok(camp, "roll", "selka", "stealth", "--dr", "1", "--faces", "2")
    ok(camp, "roll", "selka", "stealth", "--dr", "1", "--faces", "0")
    ok(camp, "undo")
    row = ok(camp, "stats")["actors"][0]
    assert row["checks"] == 1 and row["successes"] == 1 and row["dice_spent"] == 1 and row["crits"] == 1


def test_a_logged_chance_in_other_digits_is_a_problem_not_a_crash(camp):
    """A hand-edited chance written with digits that are not ASCII ("²/3") is not a chance: verify names it,
    stats reckons the chance from the declaration, and neither crashes."""
    play(camp)
    log = camp / "encounters" / "campaign.log.yaml"
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if '"chance": "' in line)
    entry = json.loads(lines[at][2:])
    entry["result"]["chance"] = "\u00b2/3"
    lines[at] = "- " + json.dumps(entry, ensure_ascii=False) + "\n"
    log.write_text("".join(lines), encoding="utf-8")
    r = run(camp, "--json", "verify", "campaign")
    assert r.code == 1 and "chance" in r.out + r.err, r.out + r.err
    assert run(camp, "--json", "stats").code == 0
