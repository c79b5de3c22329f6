"""H2-SHAPE-1, H2-SHAPE-2: one value of one committed log line mutated, and every reader of every game run.

Each game (the three built in, the example games moves and forge, and the coin toy) plays its conformance
script in its example campaign; then one value of one line of the log it wrote is mutated (a type swapped, a
key removed, a value nested deep, a huge or non-finite number, a wrong seq, a bad id, parent, time or command)
and every reader runs: verify, check, encounter log, report, stats, show, undo, a writer, and the page's
/data, /part, /events and /stats (its handlers, in process). No reader may end in an internal error or a 500,
and a mutation that changes the envelope's meaning must be reported by `verify` as `file:line: field: ...`.
`make test` plays a few fixed examples per game; NARATEER_SOAK=1 explores many more. The stress figures at
the end of the run give the mutations per game, the reader runs and the internal errors (0).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from narateer_cli.testing.kit import Kit
from tests.conftest import run, snapshot
from tests.stress.soak import amount
from tests.stress.stats import add
from tests.systems.kit.games import FORGE, MOVES, TOY, forget, register

GAMES = ["narateer", "open-adventure", "d20-cards", "coin", "moves", "forge"]
RAW = "\x00raw\x00"  # stands in json.dumps' text for a token JSON cannot write (1e999, NaN, a deep nest)
COUNTS = {"mutations": 0, "runs": 0, "internal": 0}


@pytest.fixture(scope="module", autouse=True)
def plug_ins_on_the_path(tmp_path_factory):
    folder = tmp_path_factory.mktemp("dists")
    register(folder, "moves", "narateer_moves")
    register(folder, "forge", "narateer_forge")
    with pytest.MonkeyPatch.context() as patch:
        for path in (TOY, MOVES, FORGE, folder):
            patch.syspath_prepend(str(path))
        yield
    forget(["coin", "moves", "forge"], {"coin_system", "narateer_moves", "narateer_forge"})


class Played:
    """A game's example campaign with its script played: the log it wrote most to, and a writer to run after."""

    def __init__(self, name: str, workdir: Path):
        kit = Kit(name, workdir)
        self.root = kit.fresh()
        script = kit.script
        for command in script.actions()[:4]:
            kit.play(self.root, command, "play", "--seed", "3")
        logs = sorted((self.root / "encounters").glob("*.log.yaml"), key=lambda p: len(p.read_bytes()))
        self.log = logs[-1]
        self.log_id = self.log.name[: -len(".log.yaml")]
        self.writer = script.counter or script.actions()[0]
        self.lines = self.log.read_text(encoding="utf-8").splitlines(keepends=True)
        self.chars = sorted(p.stem for p in (self.root / "characters").glob("*.yaml"))

    def copy(self, to: Path) -> Path:
        shutil.copytree(self.root, to, symlinks=True)
        return to


_PLAYED: dict = {}


def played(name: str, tmp_path_factory) -> Played:
    if name not in _PLAYED:
        _PLAYED[name] = Played(name, tmp_path_factory.mktemp(name.replace("-", "_")))
    return _PLAYED[name]


# -- mutations: (kind, the value that replaces the one at the path; REMOVE takes the key away) ----------------

REMOVE = object()
DEEP = ("deep", RAW, "[" * 100 + "]" * 100)
DEEPER = ("deeper", RAW, '{"a": ' * 100_000 + "1" + "}" * 100_000)
HUGE = [("1e999", RAW, "1e999"), ("-1e999", RAW, "-1e999"), ("NaN", RAW, "NaN"), ("Infinity", RAW, "-Infinity"),
        ("big int", 10 ** 40, None), ("long text", "x" * 20_000, None)]
SWAPS = [("text", "x", None), ("int", 7, None), ("float", 2.5, None), ("null", None, None), ("list", [], None),
         ("map", {"a": 1}, None), ("bool", True, None), ("empty text", "", None)]
ENVELOPE_BAD = {  # values no writer writes in these fields: each must be reported
    "seq": [("seq jump", "+7", None), ("seq back", "-1", None), ("seq zero", 0, None), ("seq text", "3", None),
            ("seq float", 1.5, None), ("seq bool", True, None), ("seq 1e999", RAW, "1e999")],
    "id": [("id upper", "ABCDEF012345", None), ("id short", "abc", None), ("id int", 7, None), ("id map", {"a": 1}, None)],
    "parent": [("parent map", {"a": 1}, None), ("parent unknown", "0123456789ab", None), ("parent int", 5, None)],
    "at": [("at words", "yesterday", None), ("at month 13", "2026-13-01T00:00:00Z", None), ("at int", 5, None),
           ("at null", None, None)],
    "command": [("command 1e999", RAW, "1e999"), ("command int", 1, None), ("command empty", "", None),
                ("command null", None, None), ("command newline", "roll\nx", None)],
    "actor": [("actor map", {"x": 1}, None), ("actor int", 5, None), ("actor path", "../x", None)],
    "declaration": [("declaration text", "x", None), ("declaration list", [], None)],
    "result": [("result text", "x", None), ("result int", 3, None)],
    "dice": [("dice text", "x", None), ("dice char int", {"selka": 5}, None)],
    "changes": [("changes text", "x", None), ("changes list", [1], None)],
}
REQUIRED = ("seq", "id", "parent", "at", "command")


def paths(value, prefix=()) -> list:
    """Every key path inside an entry (lists by index), to at most 4 levels."""
    out = []
    if len(prefix) >= 4:
        return out
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        out.append(prefix + (key,))
        out.extend(paths(item, prefix + (key,)))
    return out


def mutated_line(entry: dict, path: tuple, new, raw: str | None) -> str:
    entry = json.loads(json.dumps(entry))
    holder = entry
    for key in path[:-1]:
        holder = holder[key]
    last = path[-1]
    if new is REMOVE:
        del holder[last]
    elif isinstance(new, str) and new[:1] in "+-" and path == ("seq",):
        holder[last] = holder[last] + int(new)
    else:
        holder[last] = new
    text = json.dumps(entry, ensure_ascii=False, separators=(", ", ": "))
    return "- " + text.replace(json.dumps(RAW), raw) + "\n" if raw is not None else "- " + text + "\n"


def mutation(entry: dict, draw) -> tuple[tuple, str, object, str | None, bool]:
    """(path, kind, new value, raw token, whether verify must report it) drawn for one entry."""
    group = draw(st.sampled_from(["envelope", "remove", "limits", "swap"]))
    if group == "envelope":
        field = draw(st.sampled_from([k for k in ENVELOPE_BAD if k in entry]))
        kind, new, raw = draw(st.sampled_from(ENVELOPE_BAD[field]))
        return (field,), kind, new, raw, True
    every = paths(entry)
    if group == "remove":
        path = draw(st.sampled_from(every))
        return path, "removed", REMOVE, None, path in [(k,) for k in REQUIRED]
    path = draw(st.sampled_from(every))
    if group == "limits":
        kind, new, raw = draw(st.sampled_from(HUGE + [DEEP, DEEPER]))
        return path, kind, new, raw, True
    kind, new, raw = draw(st.sampled_from(SWAPS))
    return path, kind, new, raw, False


# -- the readers -----------------------------------------------------------------------------------------------

def readers(game: Played) -> list[tuple[str, tuple]]:
    log = game.log_id
    char = game.chars[0]
    return [("verify", ("--json", "verify", log)), ("check", ("--json", "check")),
            ("encounter log", ("--json", "encounter", "log", log)), ("encounter log --last", ("encounter", "log", log, "--last", "3")),
            ("report", ("report", log)), ("stats", ("--json", "stats")), ("show", ("show", char)),
            ("undo", ("undo", log)), ("writer", ("--seed", "5", *game.writer))]


def page(root: Path) -> list[tuple[str, str | None]]:
    """The page's /data, /part, /events and /stats for the party and the Guide, by their handlers in process:
    (route, the exception's text when one would be a 500, else None)."""
    from narateer_cli.serve.app import Site

    site = Site(root, "t" * 32, 0.25)
    out = []
    for guide in (False, True):
        for route, call in (("/data", lambda: site.data(None, guide)), ("/part", lambda: site.part(None, guide)),
                            ("/events", lambda: site.models.digest(guide)), ("/stats", lambda: site.stats(None, guide)),
                            ("/", lambda: site.full(None, guide))):
            try:
                call()
                out.append((route, None))
            except Exception as exc:  # noqa: BLE001 - what a 500 would be
                out.append((route, f"{type(exc).__name__}: {exc}"))
    return out


def run_every_reader(game: Played, root: Path, line_no: int, must_report: bool, what: str):
    label = f"encounters/{game.log.name}:{line_no}"
    failures = []
    runs, internal = COUNTS["runs"], COUNTS["internal"]
    for name, args in readers(game):
        r = run(root, *args)
        COUNTS["runs"] += 1
        if "internal error" in r.err or "Traceback" in r.err:
            COUNTS["internal"] += 1
            failures.append(f"{name}: {r.err.strip()[-300:]}")
        if name == "verify" and must_report:
            problem = (r.json or {}).get("problem") if r.out.startswith("{") else None
            if r.code != 1 or not problem or label not in str(problem):
                failures.append(f"verify did not report {label} (exit {r.code}: {r.out.strip()[:300]} {r.err[:200]})")
    for route, error in page(root):
        COUNTS["runs"] += 1
        if error:
            COUNTS["internal"] += 1
            failures.append(f"page {route}: {error[:300]}")
    add("log-shape fuzz: reader runs", COUNTS["runs"] - runs)
    add("log-shape fuzz: internal errors", COUNTS["internal"] - internal)
    assert not failures, f"{what}:\n" + "\n".join(failures)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=amount(3, 60), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_one_mutated_value_of_one_line_never_breaks_a_reader(name, data, tmp_path_factory):
    game = played(name, tmp_path_factory)
    index = data.draw(st.integers(0, len(game.lines) - 1), label="line")
    entry = json.loads(game.lines[index][2:])
    path, kind, new, raw, must_report = mutation(entry, data.draw)
    line = mutated_line(entry, path, new, raw)
    if line == game.lines[index]:
        return
    COUNTS["mutations"] += 1
    add(f"log-shape fuzz: mutations ({name})")
    root = game.copy(tmp_path_factory.mktemp("m") / "camp")
    text = "".join(game.lines[:index]) + line + "".join(game.lines[index + 1:])
    (root / "encounters" / game.log.name).write_text(text, encoding="utf-8")
    run_every_reader(game, root, index + 1, must_report, f"{name}, line {index + 1}, {'.'.join(map(str, path))}: {kind}")


# -- the findings, exactly as they were met ------------------------------------------------------------------------

FINDINGS = [
    ("parent", "parent map", {"a": 1}, None),
    ("command", "command 1e999", RAW, "1e999"),
    ("declaration", "declaration nested 100,000 deep", RAW, '{"a": ' * 100_000 + "1" + "}" * 100_000),
    ("seq", "seq jump", "+7", None),
    ("id", "bad id", "NOT-AN-ID", None),
    ("at", "bad at", "13:05 on Tuesday", None),
]


@pytest.mark.parametrize("name", ["narateer", "d20-cards"])
@pytest.mark.parametrize("field,kind,new,raw", FINDINGS, ids=[f[1] for f in FINDINGS])
def test_each_finding_is_reported_and_every_reader_keeps_going(name, field, kind, new, raw, tmp_path_factory):
    game = played(name, tmp_path_factory)
    index = 1  # a line in the middle: later lines continue from it
    entry = json.loads(game.lines[index][2:])
    root = game.copy(tmp_path_factory.mktemp("f") / "camp")
    lines = list(game.lines)
    lines[index] = mutated_line(entry, (field,), new, raw)
    (root / "encounters" / game.log.name).write_text("".join(lines), encoding="utf-8")
    run_every_reader(game, root, index + 1, True, f"{name}: {kind}")


def test_a_line_with_no_id_parent_or_time_and_a_jump_in_seq_is_reported(tmp_path_factory):
    """The finding's own line, appended by hand: verify used to say "2 entries verified, no problems"."""
    game = played("narateer", tmp_path_factory)
    root = game.copy(tmp_path_factory.mktemp("a") / "camp")
    log = root / "encounters" / game.log.name
    log.write_text(log.read_text() + '- {"seq": 77, "command": "note", "actor": "nobody"}\n')
    r = run(root, "--json", "verify", game.log_id)
    assert r.code == 1 and f"{game.log.name}:{len(game.lines) + 1}: " in r.json["problem"]
    check = run(root, "--json", "check")
    assert check.code == 1 and any(f"{game.log.name}:{len(game.lines) + 1}: " in p for p in check.json["problems"])
    before = snapshot(root)
    writer = run(root, *game.writer)
    assert writer.code == 2 and f"{game.log.name}:{len(game.lines) + 1}: " in writer.err
    assert "mend or delete that line" in writer.err and snapshot(root) == before


def test_the_page_lists_a_damaged_line_and_keeps_serving(tmp_path_factory):
    from narateer_cli.serve import view

    game = played("d20-cards", tmp_path_factory)  # its script plays in an encounter, which the page shows
    root = game.copy(tmp_path_factory.mktemp("p") / "camp")
    log = root / "encounters" / game.log.name
    lines = list(game.lines)
    lines[-1] = mutated_line(json.loads(lines[-1][2:]), ("command",), RAW, "1e999")
    log.write_text("".join(lines))
    from narateer_cli.serve.app import Site

    site = Site(root, "t" * 32, 0.25)
    data = json.loads(site.data(None, True).body)  # the Guide's (the party's leaves out lines naming the hidden)
    assert [row["text"] for row in data["log"] if row.get("damaged")] == [view.DAMAGED_WORDS]
    assert all(error is None for _, error in page(root))


def test_the_fuzz_counts():
    """Runs last in this module: the counts of the fuzz above (each example already asserted 0 internal errors)."""
    print(f"\nlog-shape fuzz: {COUNTS['mutations']} mutations, {COUNTS['runs']} reader runs, "
          f"{COUNTS['internal']} internal errors")
    assert COUNTS["internal"] == 0


def test_check_reads_a_log_from_before_ids(tmp_path_factory):
    """H2-REFUSE-1: `check` on a log from before entries had ids used to end in an internal error (KeyError)."""
    game = played("narateer", tmp_path_factory)
    root = game.copy(tmp_path_factory.mktemp("o") / "camp")
    old = ("- {seq: 1, command: turn start, actor: selka, declaration: {}, result: {}, "
           "dice: {selka: {before: {ready: 5, used: 0}, after: {ready: 5, used: 0}}}}\n"
           "- {seq: 2, command: refresh, actor: selka, declaration: {count: null}, result: {actor: selka}, "
           "dice: {selka: {before: {ready: 5, used: 0}, after: {ready: 5, used: 0}}}}\n")
    (root / "encounters" / game.log.name).write_text(old)
    r = run(root, "--json", "check")
    assert "internal error" not in r.err and r.code in (0, 1), r.err
    assert not any(p.startswith(f"encounters/{game.log.name}:") for p in r.json["problems"]), r.json
    assert run(root, "--json", "verify", game.log_id).json["ok"] is True


@pytest.mark.parametrize("name", GAMES)
def test_H2_REFUSE_1_a_log_from_before_ids_checks_and_verifies_in_every_game(name, tmp_path_factory):
    """Each line of a game's log as it was before entries had ids (no `id`, `parent` or `at`): `check` and
    `verify` read it without an internal error and find nothing wrong with its shape."""
    game = played(name, tmp_path_factory)
    root = game.copy(tmp_path_factory.mktemp("o") / "camp")
    old = []
    for line in game.lines:
        entry = {k: v for k, v in json.loads(line[2:]).items() if k not in ("id", "parent", "at")}
        old.append("- " + json.dumps(entry) + "\n")
    (root / "encounters" / game.log.name).write_text("".join(old), encoding="utf-8")
    for args in (("--json", "check"), ("--json", "verify", game.log_id)):
        r = run(root, *args)
        assert "internal error" not in r.err and "Traceback" not in r.err, (args, r.err)
        assert r.code in (0, 1) and r.out.startswith("{"), (args, r.code, r.err)
    checked = run(root, "--json", "check").json
    assert not [p for p in checked["problems"] if p.startswith(f"encounters/{game.log.name}:")], checked
    assert run(root, "--json", "verify", game.log_id).json["ok"] is True
