"""T3-SMALL in Open Adventure: `show` prints the Defenses, the `new` options' errors give an example that works,
and `check` warns of a PC with no point pools or no Defenses."""

from __future__ import annotations

import re
import shlex

import pytest

from tests.conftest import ok, refused, run


def test_T3_SMALL_show_prints_the_defenses_and_an_npcs_reaction(oa):
    pc = run(oa, "show", "amicus")
    assert pc.code == 0 and "  Defenses: body 6, mind 5, spirit 5\n" in pc.out, pc.out
    npc = run(oa, "show", "goblin")
    assert "  Defenses: body 5; Reaction 6\n" in npc.out, npc.out
    ok(oa, "new", "kara", "--points", "body=5")
    bare = run(oa, "show", "kara")
    assert "Defenses: none (add `defenses: {body: N, mind: N, spirit: N}`" in bare.out, bare.out
    ok(oa, "new", "wolf", "--npc", "--defense", "body=4", "--reaction", "5")
    assert "  Defenses: body 4; Reaction 5\n" in run(oa, "show", "wolf").out


@pytest.mark.parametrize("given", [
    ("--mo", "Warrior"), ("--mo", "=2"), ("--mo", "Warrior=x"), ("--mo", "Warrior=2000000"),
    ("--defense", "body=x"), ("--points", "mind=x"), ("--attribute", "strength=x"),
    ("--npc", "--action", "bite=x"), ("--npc", "--action", "bite=6:x"), ("--npc", "--points", "challenge=x"),
])
def test_T3_SMALL_a_new_options_error_gives_an_example_that_works(oa, given):
    """The fix's `for example ...` is a value `new` takes: run as written, it creates the sheet."""
    err = refused(oa, 2, "new", "kara", *given, contains="for example")
    example = re.search(r"for example (.*)$", err.strip()).group(1)
    npc = ("--npc",) if "--npc" in given else ()
    ok(oa, "new", "kara", *npc, *shlex.split(example))


def test_T3_SMALL_check_warns_of_a_pc_with_no_points_or_defenses(oa):
    assert run(oa, "check").code == 0
    ok(oa, "new", "kara", "--points", "body=5")  # pools, no Defenses
    ok(oa, "new", "lune", "--defense", "body=5")  # Defenses, no pools
    ok(oa, "new", "rat", "--npc", "--attribute", "body=2")  # an NPC needs neither
    r = run(oa, "check")
    assert r.code == 1, r.out
    lines = r.out.strip().splitlines()
    assert len(lines) == 2, r.out
    assert lines[0].startswith("characters/kara.yaml:1: a PC with no Defenses") and "add `defenses:" in lines[0]
    assert lines[1].startswith("characters/lune.yaml:1: a PC with no point pools") and "add `points:" in lines[1]
    data = run(oa, "check", "--json").json
    assert data["ok"] is False and len(data["problems"]) == 2
    kara = oa / "characters" / "kara.yaml"
    kara.write_text(kara.read_text() + "defenses: {}\n")  # empty counts as none, on its own line
    line = kara.read_text().splitlines().index("defenses: {}") + 1
    assert f"characters/kara.yaml:{line}: a PC with no Defenses" in run(oa, "check").out
    kara.write_text(kara.read_text().replace("defenses: {}\n", "defenses: {body: 4}\n"))
    assert "kara.yaml" not in run(oa, "check").out
    # a warning never stops a command
    assert run(oa, "show", "kara").code == 0
