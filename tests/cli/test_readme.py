"""The README's command reference is a script: every example runs, in order, in a fresh
`init --example` campaign, and succeeds. A README example that breaks fails here."""

from __future__ import annotations

import re
import shlex

from tests.conftest import REPO, ok, refused, run


def readme_examples() -> list[list[str]]:
    text = (REPO / "README.md").read_text()
    start = text.index("## Command reference")
    end = text.index("### Exit status")
    commands = []
    for row in text[start:end].splitlines():
        if not row.startswith("| `"):
            continue
        example = row.rsplit("|", 2)[1]
        for snippet in re.findall(r"`(narateer [^`]+)`", example):
            commands.append(shlex.split(snippet)[1:])
    return commands


def test_every_readme_example_runs_in_order(tmp_path):
    """Each `init` example makes a fresh campaign (of the game it names); the examples after it run there."""
    examples = readme_examples()
    assert len(examples) >= 80
    assert examples[0][0] == "init"
    inits = 0
    for argv in examples:
        if argv[0] == "init":
            inits += 1
            root = tmp_path / f"camp{inits}"
            r = run(None, "init", str(root), *argv[2:])
        else:
            r = run(root, *argv)
        assert r.code == 0, (argv, r.err)
        assert "Traceback" not in r.err
    assert inits == 4  # every game's table, and the one all games share


def test_commit_outside_git_is_bad_input_and_writes_nothing(camp):
    err = refused(camp, 2, "roll", "selka", "melee", "--dr", "2", "--faces", "1", "--commit",
                  contains="--commit (or autocommit: true) needs the campaign to be in a git repository")
    assert "git" in err


def test_one_opportunity_attack_per_reactor_per_move(encounter_camp):
    ok(encounter_camp, "turn", "start", "selka")
    ok(encounter_camp, "move", "selka", "2")
    ok(encounter_camp, "react", "--force", "sentry", "opportunity", "--against", "selka", "--faces", "2")
    refused(encounter_camp, 3, "react", "sentry", "opportunity", "--against", "selka", "--faces", "2",
            contains="sentry already made an Opportunity Attack on this move")
    ok(encounter_camp, "react", "--force", "bandit", "opportunity", "--against", "selka", "--faces", "1")


def test_negative_counts_are_bad_input_not_unknown_options(camp):
    for argv in (("dice", "-1"), ("wound", "selka", "-1"), ("heal", "selka", "-2"), ("odds", "-1", "--dr", "2")):
        err = refused(camp, 2, *argv, contains="is negative; give")
        assert "negative" in err, err


def test_a_refused_command_writes_nothing_even_private_caches(camp):
    def everything():
        # every file but the (empty) lock file, which any writing command opens
        return {str(p.relative_to(camp)): p.read_bytes() for p in sorted(camp.rglob("*"))
                if p.is_file() and p.name != "lock"}

    before = everything()
    refused(camp, 3, "roll", "kai", "stealth", "--dr", "2", "--boost", "9", contains="kai cannot Boost 9")
    refused(camp, 2, "roll", "kai", "stealth", "--dr", "2", "--faces", "1,1", contains="give exactly 1 face(s)")
    assert everything() == before
    ok(camp, "show", "kai")  # a command that succeeds keeps its parse for the next one
    assert any(name.startswith(".narateer/sheets/") for name in everything())


def d20_readme_examples() -> list[list[str]]:
    """The commands of the README's d20-cards section, in order (`cd` lines are where they run)."""
    text = (REPO / "README.md").read_text()
    start = text.index("\n## d20 action cards")
    block = text[start:].split("```sh\n", 1)[1].split("```", 1)[0]
    return [shlex.split(line)[1:] for line in block.splitlines() if line.startswith("narateer ")]


def test_the_d20_cards_readme_section_runs_as_written(tmp_path):
    root = tmp_path / "fight"
    examples = d20_readme_examples()
    assert examples[0] == ["init", "fight", "--system", "d20-cards", "--example"] and len(examples) >= 15
    outputs = {}
    for argv in examples:
        r = run(None, "init", str(root), *argv[2:]) if argv[0] == "init" else run(root, *argv)
        assert r.code == 0, (argv, r.err)
        assert "Traceback" not in r.err
        outputs[" ".join(argv[:3])] = r.out
    # what the prose under the block says happens
    assert "12 + Overkill 2 = 14 damage; HP 20 -> 6" in outputs["act mira strike"]
    assert "mira has 0 AP; firebolt costs 2" in outputs["act mira firebolt"]
    assert "d20 3 +5 = 8 vs 10, dropped" in outputs["act hexer hex-bolt"]
    assert "cooldown of ward ended" in outputs["turn start mira"]
    assert "save d20 8 WIL +2 = 10 vs DC 11: fails" in outputs["act mira stun-word"]
    assert "charges of stun-word: 2 -> 1" in outputs["act mira stun-word"]
    assert "stun-word 1 -> 2" in outputs["rest mira --proper"]
    assert outputs["check"].strip() == "campaign ok"


def at_the_table() -> str:
    text = (REPO / "README.md").read_text()
    return text[text.index("### At the table"):text.index("### Exit status")]


def test_at_the_table_examples_run_as_written(tmp_path):
    """Every `narateer ...` in the README's "At the table" section runs, in order, in an example campaign
    with the section's aliases (lines that install completion into a shell's files are only printed)."""
    section = at_the_table()
    root = tmp_path / "camp"
    assert run(None, "init", str(root), "--example").code == 0
    config = root / "narateer.yaml"
    aliases = re.search(r"```yaml\n(aliases:\n.*?)```", section, re.S).group(1)
    config.write_text(config.read_text().replace("encounter: ambush\n", "") + aliases)
    found = [(m.start(), " ".join(m.group(1).split())) for m in re.finditer(r"(?<!`)`(narateer [^`]+)`", section)]
    found += [(m.start(), line.split("#")[0].strip()) for m in re.finditer(r"```sh\n(.*?)```", section, re.S)
              for line in m.group(1).splitlines()]
    found += [(m.start(), "narateer " + m.group(1)) for m in re.finditer(r"^narateer> (.+)$", section, re.M)]
    snippets = [text for _, text in sorted(found)]
    ran = 0
    for snippet in snippets:
        if not snippet.startswith("narateer ") or "$(" in snippet or snippet.endswith("shell"):
            continue
        argv = shlex.split(snippet.split(" > ")[0])[1:]
        r = run(root, *argv)
        assert r.code == 0, (argv, r.err)
        ran += 1
    assert ran >= 10
