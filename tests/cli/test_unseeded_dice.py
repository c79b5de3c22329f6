"""Unseeded dice (narateer_cli/dice.py `Unseeded`): each draw from the system's randomness, uniform by
rejection, answering `randint` and `choice` as `random.Random` does, and a roll without `--seed` imports
no `random` (start-up time). Checked exactly, by enumerating every byte the system could give."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections import Counter

import pytest

from narateer_cli import dice


def every_draw(n: int) -> Counter:
    """How often each value comes out of `_below(n)` over every possible byte string of one draw."""
    width = (n.bit_length() + 7) // 8
    out = Counter()
    for raw in itertools.product(range(256), repeat=width):
        given = iter([bytes(raw)])

        def urandom(k, given=given):
            try:
                return next(given)
            except StopIteration:
                raise LookupError from None  # a rejected draw: it would draw again

        saved = os.urandom
        os.urandom = urandom
        try:
            out[dice._below(n)] += 1
        except LookupError:
            pass
        finally:
            os.urandom = saved
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 7, 10, 20, 100, 256, 300])
def test_every_value_is_equally_likely(n):
    counts = every_draw(n)
    assert sorted(counts) == list(range(n))
    assert len(set(counts.values())) == 1


def test_randint_and_choice_answer_as_random_does():
    u = dice.Unseeded()
    assert {u.randint(1, 6) for _ in range(400)} == set(range(1, 7))
    assert u.randint(4, 4) == 4
    assert {u.choice("abc") for _ in range(200)} == set("abc")
    with pytest.raises(ValueError):
        u.randint(3, 1)
    with pytest.raises(IndexError):
        u.choice([])
    assert 0 <= u.random() < 1  # any other method of random.Random is SystemRandom's


def test_a_roll_without_a_seed_imports_no_random(tmp_path):
    camp = tmp_path / "camp"
    code = ("import sys\nfrom narateer_cli import run\n"
            f"sys.argv = ['narateer', 'init', {str(camp)!r}, '--example']\n"
            "try:\n    run()\nexcept SystemExit:\n    pass\n"
            f"sys.argv = ['narateer', '--campaign', {str(camp)!r}, 'roll', 'selka', 'stealth', '--dr', '2']\n"
            "try:\n    run()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
            "print('random' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "False"
