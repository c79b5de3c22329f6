"""A catalogue of hostile inputs (exit status).

Every case prepares a fresh example campaign (the `ambush` encounter current,
selka/sentry/mira/bandit in it), spoils something, and runs one command in
process. Each must end with exit 2 (bad input) or 3 (rules refusal), exactly
one line on stderr, no traceback and no "internal error", nothing on stdout,
and every byte under the test's folder unchanged: the campaign, its private
`.narateer/` folder (undo records, manifest) and the files outside the
campaign that symlinks point to. No YAML tag may run code.

The counts (tried / left a file changed) are printed in the stress figures.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import run

from . import stats
from .helpers import diff, full_snapshot

# -------------------------------------------------------------------------------------------
# setup helpers: each takes (root, outside) and spoils the campaign


def write(rel, data):
    def setup(root, outside):
        path = root / rel
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data(root, outside) if callable(data) else data, encoding="utf-8")
    return setup


def edit(rel, old, new):
    def setup(root, outside):
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {rel}"
        path.write_text(text.replace(old, new(outside) if callable(new) else new, 1), encoding="utf-8")
    return setup


def add(rel, extra):
    def setup(root, outside):
        path = root / rel
        path.write_text(path.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return setup


def rules(text):
    return add("narateer.yaml", "rules: " + text + "\n")


def both(*steps):
    def setup(root, outside):
        for step in steps:
            step(root, outside)
    return setup


def cli(*args):
    """Run a legal command first (so undo records and a log exist)."""
    def setup(root, outside):
        r = run(root, *args)
        assert r.code == 0, r.err
    return setup


def remove(rel):
    def setup(root, outside):
        path = root / rel
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    return setup


def replace_with_dir(rel):
    return both(remove(rel), lambda root, outside: (root / rel).mkdir())


def symlink(rel, target):
    """Replace `rel` with a symlink; target(root, outside) gives where it points."""
    def setup(root, outside):
        path = root / rel
        where = target(root, outside)
        if path.exists() or path.is_symlink():
            path.unlink()
        path.symlink_to(where)
    return setup


def copy_outside(rel, name):
    """Copy a campaign file to the outside folder and return the copy's path."""
    def target(root, outside):
        dest = outside / name
        shutil.copy(root / rel, dest)
        return dest
    return target


def fifo(rel):
    return both(remove(rel), lambda root, outside: os.mkfifo(root / rel))


SHEET = "characters/selka.yaml"
STATE = "encounters/ambush.yaml"
LOG = "encounters/ambush.log.yaml"
CONFIG = "narateer.yaml"

# a Python-object tag that would create this file if any loader honoured it
PWNED = "!!python/object/apply:os.system [\"touch {marker}\"]"


def tag(template):
    return lambda outside: template.format(marker=outside / "pwned")


LAUGHS = ("lol0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
          + "".join(f"lol{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 10)))

WOUND = ("wound", "selka")
REACT = ("roll", "--force", "selka", "stealth", "--dr", "2", "--reaction", "--faces", "1")
START = ("turn", "start", "selka")
IN_TURN = cli("turn", "start", "selka")
ROLL = ("roll", "--force", "selka", "stealth", "--dr", "2")

CASES = []


def case(name, argv, setup=None, codes=(2,), env=None):
    CASES.append(pytest.param(setup, tuple(argv), tuple(codes), env, id=name))


# --- malformed YAML and hostile YAML in a character sheet ---------------------------------
case("sheet-unclosed-flow", WOUND, write(SHEET, "name: Selka\nvitals: {might: 2\naction_dice: {ready: 5}\n"))
case("sheet-bad-indent", WOUND, write(SHEET, "name: Selka\n  vitals: 3\n bad: [\n"))
case("sheet-tab-indent", WOUND, write(SHEET, "name: Selka\naction_dice:\n\tready: 5\n"))
case("sheet-duplicate-key", WOUND, add(SHEET, "action_dice: {ready: 9, used: 0}\n"))
case("sheet-unclosed-quote", WOUND, add(SHEET, "motto: \"never ends\n"))
case("sheet-python-apply", WOUND, edit(SHEET, "ready: 5", tag("ready: " + PWNED)))
case("sheet-python-name", WOUND, edit(SHEET, "ready: 5", "ready: !!python/name:os.system"))
case("sheet-python-object-new", WOUND, write(SHEET, lambda r, o: "!!python/object/new:os.system [\"touch %s\"]\n" % (o / "pwned")))
case("sheet-python-module", WOUND, edit(SHEET, "conditions: []", "conditions: !!python/module:os"))
case("sheet-python-object-new-int", WOUND, edit(SHEET, "used: 0", "used: !!python/object/new:int [5]"))
case("sheet-billion-laughs", WOUND, add(SHEET, LAUGHS))
case("sheet-deep-nesting", WOUND, add(SHEET, "deep: " + "[" * 5000 + "]" * 5000 + "\n"))
case("sheet-ready-huge", WOUND, edit(SHEET, "ready: 5", "ready: " + "9" * 40))
case("sheet-ready-negative", WOUND, edit(SHEET, "ready: 5", "ready: -5"))
case("sheet-used-over-limit", WOUND, edit(SHEET, "used: 0", "used: 1000001"))
case("sheet-vital-huge", ROLL, edit(SHEET, "agility: 3", "agility: 1e400"))
case("sheet-vital-negative", ROLL, edit(SHEET, "agility: 3", "agility: -3"))
case("sheet-skill-negative", ROLL, edit(SHEET, "stealth: 2", "stealth: -2"))
case("sheet-ready-float", WOUND, edit(SHEET, "ready: 5", "ready: 3.5"))
case("sheet-ready-inf", WOUND, edit(SHEET, "ready: 5", "ready: .inf"))
case("sheet-ready-word", WOUND, edit(SHEET, "ready: 5", "ready: lots"))
case("sheet-ready-bool", WOUND, edit(SHEET, "ready: 5", "ready: true"))
case("sheet-ready-null", WOUND, edit(SHEET, "ready: 5", "ready:"))
case("sheet-no-action-dice", WOUND, edit(SHEET, "action_dice:\n  ready: 5\n  used: 0\n", ""))
case("sheet-action-dice-list", WOUND, edit(SHEET, "action_dice:\n  ready: 5\n  used: 0", "action_dice: [5, 0]"))
case("sheet-unknown-condition", WOUND, edit(SHEET, "conditions: []", "conditions: [dizzy]"))
case("sheet-conditions-not-list", WOUND, edit(SHEET, "conditions: []", "conditions: slowed"))
case("sheet-skill-no-vital", WOUND, edit(SHEET, "melee: 1", "juggling: 1"))
case("sheet-skill-level-word", ROLL, edit(SHEET, "stealth: 2", "stealth: {level: high}"))
case("sheet-vitals-list", ROLL, edit(SHEET, "vitals:\n  might: 2", "vitals:\n  - 2\n  - might: 2"))
case("sheet-is-list", WOUND, write(SHEET, "- name: Selka\n- ready: 5\n"))
case("sheet-is-scalar", WOUND, write(SHEET, "just some words\n"))
case("sheet-empty", WOUND, write(SHEET, ""))
case("sheet-comments-only", WOUND, write(SHEET, "# nothing here\n\n"))
case("sheet-binary-junk", WOUND, write(SHEET, bytes(range(256)) * 4))
case("sheet-invalid-utf8", WOUND, write(SHEET, b"name: Sel\xff\xfeka\naction_dice: {ready: 5, used: 0}\n"))
case("sheet-latin1", WOUND, write(SHEET, "name: Selk\u00e4\naction_dice: {ready: 5, used: 0}\n".encode("latin-1")))
case("sheet-17-mib", WOUND, write(SHEET, b"# " + b"x" * (17 * 1024 * 1024) + b"\n"))
case("sheet-is-directory", WOUND, replace_with_dir(SHEET))
case("sheet-is-fifo", WOUND, fifo(SHEET))
case("sheet-symlink-outside", WOUND, symlink(SHEET, copy_outside(SHEET, "selka.yaml")))
case("sheet-symlink-dev-zero", WOUND, symlink(SHEET, lambda r, o: "/dev/zero"))
case("sheet-symlink-loop", WOUND, symlink(SHEET, lambda r, o: r / SHEET))
case("sheet-symlink-to-config", WOUND, symlink(SHEET, lambda r, o: Path("..") / CONFIG))
case("sheet-symlink-dangling", WOUND, symlink(SHEET, lambda r, o: o / "gone.yaml"))
case("sheet-deleted-mid-session", ("turn", "start", "bandit"), both(cli(*REACT), remove("characters/bandit.yaml")))
case("sheet-deleted-show", ("encounter", "show"), both(cli(*REACT), remove("characters/bandit.yaml")))

# --- narateer.yaml and ruleset overrides ---------------------------------------------------
case("config-malformed", WOUND, add(CONFIG, "rules: {faces: [0, 1\n"))
case("config-python-apply", WOUND, add(CONFIG, "rules: " + PWNED.format(marker="/tmp/narateer-pwned-config") + "\n"))
case("config-python-tag-value", WOUND, add(CONFIG, "autocommit: !!python/object/apply:os.getcwd []\n"))
case("config-billion-laughs", WOUND, add(CONFIG, LAUGHS))
case("config-is-list", WOUND, write(CONFIG, "- encounter\n- ambush\n"))
case("config-invalid-utf8", WOUND, write(CONFIG, b"encounter: amb\xc3\x28ush\n"))
case("config-binary-junk", WOUND, write(CONFIG, b"\x00\x01\x02PK\x03\x04" * 100))
case("config-is-directory", WOUND, replace_with_dir(CONFIG))
case("config-encounter-escapes", WOUND, edit(CONFIG, "encounter: ambush", "encounter: ../../etc/passwd"))
case("config-encounter-absolute", WOUND, edit(CONFIG, "encounter: ambush", "encounter: /etc/passwd"))
case("config-encounter-list", WOUND, edit(CONFIG, "encounter: ambush", "encounter: [a, b]"))
case("rules-unknown-key", WOUND, rules("{bogus: 1}"))
case("rules-not-mapping", WOUND, rules("[faces, dr]"))
case("rules-faces-three", WOUND, rules("{faces: [0, 1, 3]}"))
case("rules-faces-word", WOUND, rules("{faces: abc}"))
case("rules-faces-empty", WOUND, rules("{faces: []}"))
case("rules-faces-bools", WOUND, rules("{faces: [true, false]}"))
case("rules-limit-negative", WOUND, rules("{limits: {dice_per_roll: -1}}"))
case("rules-limit-huge", WOUND, rules("{limits: {dice_per_state: 1e99}}"))
case("rules-tiers-number", WOUND, rules("{tiers: 5}"))
case("rules-tiers-unordered", WOUND, rules("{tiers: [{from: 1, name: a}, {from: 5, name: b}, {from: null, name: c}]}"))
case("rules-multiplier-zero", WOUND, rules("{conditions: {slowed: {pay_multiplier: 0}}}"))
case("rules-condition-extra-key", WOUND, rules("{conditions: {slowed: {pay_multiplier: 2, teleports: true}}}"))
case("rules-skill-bad-vital", WOUND, rules("{skills: {stealth: luck}}"))
case("rules-refresh-negative", WOUND, rules("{refresh: {amount: -1}}"))
case("rules-first-round-word", WOUND, rules("{turn: {first_round: one}}"))
case("rules-wound-from-wounded", WOUND, rules("{wound: {from: [wounded]}}"))
case("rules-dr-negative", WOUND, rules("{dr: {routine: -2}}"))
case("rules-readiness-off-unknown", WOUND, rules("{readiness_off: [asleep]}"))

# --- encounter state and log ---------------------------------------------------------------
case("state-malformed", START, add(STATE, "acted: [selka\n"))
case("state-python-apply", START, edit(STATE, "acted: []", tag("acted: " + PWNED)))
case("state-billion-laughs", START, add(STATE, LAUGHS))
case("state-empty", START, write(STATE, ""))
case("state-binary-junk", START, write(STATE, os.urandom(64) + b"\0"))
case("state-invalid-utf8", START, write(STATE, b"id: ambush\nround: 1\nparticipants: [s\xe9lka]\n"))
case("state-round-negative", START, edit(STATE, "round: 1", "round: -1"))
case("state-round-word", START, edit(STATE, "round: 1", "round: first"))
case("state-round-huge-float", START, edit(STATE, "round: 1", "round: 1e999"))
case("state-acted-number", START, edit(STATE, "acted: []", "acted: 5"))
case("state-uses-list", START, edit(STATE, "uses: {}", "uses: [1]"))
case("state-hidden-list", START, edit(STATE, "hidden: {}", "hidden: [1]"))
case("state-uses-word", ROLL, both(IN_TURN, edit(STATE, "stealth: 3", "stealth: many")))
case("state-participants-missing", START, edit(STATE, "participants: [selka, sentry, mira, bandit]\n", ""))
case("state-participants-numbers", START, edit(STATE, "participants: [selka, sentry, mira, bandit]", "participants: [1, 2]"))
case("state-is-directory", START, replace_with_dir(STATE))
case("state-deleted-mid-session", REACT, both(cli(*REACT), remove(STATE)))
case("state-symlink-outside", WOUND, symlink(STATE, copy_outside(STATE, "ambush.yaml")))
case("log-symlink-outside", WOUND, both(cli(*REACT), symlink(LOG, copy_outside(LOG, "ambush.log.yaml"))))
case("log-malformed-show", WOUND, both(cli(*REACT), add(LOG, "- seq: [\n")))
case("log-malformed-verify", WOUND, both(cli(*REACT), add(LOG, "  : : :\n\t- {\n")))
case("log-billion-laughs", WOUND, write(LOG, LAUGHS))
case("log-binary-junk", WOUND, write(LOG, b"\x00" * 64))
case("log-python-apply", WOUND, write(LOG, lambda r, o: "- seq: 1\n  x: " + PWNED.format(marker=o / "pwned") + "\n"))

# --- ids: escapes, empties, absurd lengths -------------------------------------------------
case("id-dotdot", ("wound", ".."))
case("id-dotdot-config", ("wound", "../narateer"))
case("id-absolute", ("wound", "/etc/passwd"))
case("id-empty", ("wound", ""))
case("id-65-chars", ("wound", "a" * 65))
case("id-100k-chars", ("wound", "b" * 100_000))
case("id-embedded-dotdot", ("wound", "selka/../selka"))
case("id-unicode", ("wound", "selk\u00e4"))
case("id-nul", ("wound", "sel\x00ka"))
case("id-newline", ("wound", "selka\nsentry"))
case("id-unknown", ("wound", "nobody"))
case("encounter-new-dotdot", ("encounter", "new", "../evil", "selka"))
case("encounter-new-empty", ("encounter", "new", "", "selka"))
case("encounter-new-unknown-char", ("encounter", "new", "skirmish", "nobody"))
case("encounter-new-twice-named", ("encounter", "new", "skirmish", "selka", "selka"))
case("encounter-new-exists", ("encounter", "new", "ambush", "selka"))
case("in-dotdot", ("--json", "wound", "selka", "--in", "../ambush"))
case("in-empty", ("wound", "selka", "--in", ""))
case("in-unknown", ("wound", "selka", "--in", "nowhere"))
case("undo-dotdot", ("undo", "../../x"))
case("undo-empty-id", ("undo", ""), cli(*WOUND))
case("show-empty-id", ("encounter", "show", ""))

# --- conditions ----------------------------------------------------------------------------
case("condition-unknown", ("condition", "selka", "+dizzy"))
case("condition-no-sign", ("condition", "selka", "slowed"))
case("condition-bare-plus", ("condition", "selka", "+"))
case("condition-none-given", ("condition", "selka"))
case("condition-unknown-after-good", ("condition", "selka", "+slowed", "+dizzy"))

# --- flags with absurd values, wrong faces -------------------------------------------------
case("dr-negative", REACT[:3] + ("--dr", "-1", "--reaction", "--faces", "1"))
case("dr-huge", REACT[:3] + ("--dr", str(10**12), "--reaction", "--faces", "1"))
case("dr-unknown-tier", REACT[:3] + ("--dr", "impossible", "--reaction", "--faces", "1"))
case("boost-huge", REACT + ("--boost", str(10**12)))
case("boost-negative-out-of-turn", ROLL + ("--boost", "-1", "--faces", "1"))
case("boost-negative-in-turn", ROLL + ("--boost", "-1", "--faces", "1"), IN_TURN)
case("boost-word", REACT + ("--boost", "two"))
case("cost-negative", REACT + ("--cost", "-1"))
case("fee-astronomic", REACT + ("--fee", str(10**30)))
case("bonus-dice-over-limit", REACT + ("--bonus-dice", "1001"))
case("faces-1001", REACT[:-1] + (",".join(["1"] * 1001),))
case("faces-1001-dice", REACT[:-2] + ("--bonus-dice", "1000", "--faces", ",".join(["1"] * 1001)))
case("faces-count-out-of-turn", ROLL + ("--faces", "1,1"))
case("faces-three", REACT[:-1] + ("3",))
case("faces-word", REACT[:-1] + ("lucky",))
case("faces-negative", REACT[:-1] + ("-1",))
case("faces-semicolon", REACT[:-1] + ("1;0",))
case("faces-fullwidth-digit", REACT[:-1] + ("\uff11",))
case("faces-float", REACT[:-1] + ("1.0",))
case("faces-too-few", REACT + ("--cost", "2"))
case("reroll-faces-without-edge", REACT + ("--reroll-faces", "2"))
case("advantage-missing-reroll", REACT[:-1] + ("0", "--advantage"))
case("power-reroll-out-of-range", REACT + ("--power-reroll", "99", "--power-faces", "1"))
case("power-reroll-negative", REACT + ("--power-reroll", "-1"))
case("contested-no-colon", ("roll", "selka", "stealth", "--contested", "sentry", "--reaction", "--faces", "1"))
case("two-targets", REACT + ("--vs", "sentry:observation"))
case("wound-negative", ("wound", "selka", "-1"))
case("wound-huge", ("wound", "selka", str(10**12)))
case("wound-word", ("wound", "selka", "many"))
case("heal-astronomic", ("heal", "selka", "9" * 30))
case("move-negative", ("move", "selka", "-3"), IN_TURN)
case("move-huge", ("move", "selka", str(10**9)), IN_TURN)
case("move-bad-mode", ("move", "selka", "3", "--mode", "teleport"), IN_TURN)
case("dice-over-limit", ("dice", "1001"))
case("odds-over-limit", ("odds", "1001", "--dr", "2"))
case("seed-env-word", ("roll", "--force", "selka", "stealth", "--dr", "2", "--reaction"), env={"NARATEER_SEED": "abc"})
case("campaign-missing", ("--campaign", "/nonexistent/narateer", "wound", "selka"))
case("unknown-command", ("teleport", "selka"))
case("unknown-option", WOUND + ("--with-style",))

# --- rules refusals (exit 3) ----------------------------------------------------------------
case("refuse-boost-over-sl", ROLL + ("--boost", "3", "--faces", "1,1,1,1"), IN_TURN, codes=(3,))
case("refuse-unaffordable", REACT[:-1] + ("1,1,1,1,1,1", "--cost", "6"), codes=(3,))
case("refuse-not-your-turn", ROLL + ("--faces", "1",), codes=(3,))
case("refuse-no-use-left", ("roll", "--force", "selka", "melee", "--dr", "2", "--faces", "1"),
     both(IN_TURN, cli("roll", "--force", "selka", "melee", "--dr", "2", "--faces", "1"),
          cli("roll", "--force", "selka", "melee", "--dr", "2", "--faces", "1")), codes=(3,))
case("refuse-turn-end-nobody", ("turn", "end"), codes=(3,))
case("refuse-second-start", ("turn", "start", "sentry"), IN_TURN, codes=(3,))
case("refuse-undo-empty", ("undo",), codes=(3,))
case("refuse-impossible", ("resolve", "selka", "--intent", "fly", "--impossible", "no wings"), codes=(3,))
case("refuse-readiness-off", ("roll", "selka", "stealth", "--vs", "sentry:observation", "--reaction", "--faces", "1"),
     edit("characters/sentry.yaml", "conditions: []", "conditions: [unconscious]"), codes=(3,))
case("refuse-undo-after-hand-edit", ("undo",), both(cli(*WOUND), edit(SHEET, "# Selka", "# Selka, edited")),
     codes=(3,))

# --- the tool's private folder --------------------------------------------------------------
case("private-dir-is-file", WOUND, both(remove(".narateer"), write(".narateer", "not a folder\n")))
case("private-dir-links-outside", WOUND, both(remove(".narateer"),
                                              lambda root, outside: (root / ".narateer").symlink_to(outside)))
case("private-undo-is-file", WOUND, both(lambda root, outside: (root / ".narateer" / "undo").mkdir(),
                                         write(".narateer/undo/ambush", "not a folder\n")))
# an undo record that is not sealed to this machine and campaign is ignored: nothing to undo (G-PRIV-2)
case("undo-record-damaged", ("undo",), both(cli(*WOUND), write(".narateer/undo/ambush/00000001.json", "{nope")),
     codes=(3,))
case("undo-record-wrong-shape", ("undo",), both(cli(*WOUND), write(".narateer/undo/ambush/00000001.json", "[1, 2]")),
     codes=(3,))
# a manifest not made on this machine for this campaign is set aside, not refused: tests/store/test_git_trust.py
case("undo-record-escapes", ("undo",), both(cli(*WOUND), write(
    ".narateer/undo/ambush/00000001.json", '{"seq": 1, "before": {"../outside/evil.txt": "pwned"}, "after": {}}')),
     codes=(3,))
case("characters-dir-is-file", ("new", "newbie"), both(remove("characters"), write("characters", "not a folder\n")))


# -------------------------------------------------------------------------------------------


@pytest.fixture
def hostile_camp(encounter_camp):
    outside = encounter_camp.parent / "outside"
    outside.mkdir()
    return encounter_camp, outside


@pytest.mark.parametrize("setup,argv,codes,env", CASES)
def test_hostile_input(hostile_camp, setup, argv, codes, env):
    root, outside = hostile_camp
    if setup is not None:
        setup(root, outside)
    before = full_snapshot(root.parent)
    stats.add("hostile inputs tried")
    stats.add("hostile inputs that changed a file", 0)
    try:
        r = run(root, *argv, env=env)
    finally:
        changed = diff(before, full_snapshot(root.parent))
        if changed:
            stats.add("hostile inputs that changed a file")
            stats.put("hostile inputs that changed a file: last", ", ".join(changed))
    assert not (outside / "pwned").exists() and not Path("/tmp/narateer-pwned-config").exists(), "a YAML tag ran code"
    assert "Traceback" not in r.err + r.out
    assert "internal error" not in r.err, r.err
    assert r.code in codes, (r.code, r.err)
    assert r.err.count("\n") == 1 and r.err.endswith("\n") and r.err.startswith("narateer: "), repr(r.err)
    assert r.out == "" or ("--json" in argv and json.loads(r.out)["exit"] == r.code), r.out  # --json: the error
    assert changed == [], f"files changed: {changed}"


def test_catalogue_size():
    assert len(CASES) >= 40
    stats.put("hostile catalogue size", len(CASES))


def test_python_tag_in_unknown_key_is_kept_as_data(encounter_camp):
    """A tag under a key narateer ignores is not bad input; it is kept verbatim and never run."""
    marker = encounter_camp.parent / "pwned"
    sheet = encounter_camp / SHEET
    sheet.write_text(sheet.read_text() + "lore: " + PWNED.format(marker=marker) + "\n")
    r = run(encounter_camp, *WOUND)
    assert r.code == 0, r.err
    assert not marker.exists()
    assert "lore: " + PWNED.format(marker=marker) in sheet.read_text()


def test_damaged_manifest_does_not_keep_the_lock(encounter_camp):
    """A manifest set aside (G-TRUST-2) leaves the lock free: the same process can take it again."""
    import fcntl

    (encounter_camp / ".narateer" / "txn.json").write_text("[]")
    r = run(encounter_camp, *WOUND)
    assert r.code == 0 and r.err.startswith("narateer: set aside an unfinished action")
    fd = os.open(encounter_camp / ".narateer", os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises BlockingIOError if a leaked descriptor holds it
    finally:
        os.close(fd)
