"""The conformance checks, one function per property; each raises Failed or Skipped, or passes.

Every check starts from a fresh copy of the game's example campaign with its script's setup played.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from .kit import (SHARED_VERBS, Failed, Kit, Skipped, Verdict, changed, git, grown_log, log_entries, narateer,
                  snapshot)

SEEDS = (1, 2, 3, 4, 5, 6, 7, 8)
VOLATILE = ("seq", "id", "parent", "at", "commitment")  # an entry's fields that differ for the same action
RAW = re.compile(r"[{}]|\b(True|False|None)\b")


def _need(what, name: str):
    if not what:
        raise Skipped(f"not provided: the game's conformance script gives no `{name}` command")
    return what


def check_verbs(kit: Kit):
    """`--help` inside the campaign lists every shared verb, and each answers `VERB --help`. A
    shared verb the game's own rules send elsewhere (its SYSTEM.pointers: d20-cards' `roll` is `act`) is
    there when it answers exit 2 with that pointer."""
    root = kit.fresh()
    listing = narateer(root, "--help")
    if listing.code != 0:
        raise Failed(f"--help: {listing.say()}")
    pointers = kit.system().pointers
    missing = [v for v in SHARED_VERBS if not re.search(rf"(?m)^  {re.escape(v)}\s", listing.out)
               and not _points(root, v, pointers.get(v))]
    broken = [f"{v} ({narateer(root, v, '--help').say()})" for v in SHARED_VERBS
              if v not in missing and v not in pointers and narateer(root, v, "--help").code != 0]
    if missing or broken:
        raise Failed("; ".join(filter(None, [missing and "not in --help: " + " ".join(missing),
                                             broken and "VERB --help fails: " + ", ".join(broken)])))


def _points(root: Path, verb: str, pointer: str | None) -> bool:
    """The game sends this verb elsewhere: exit 2, naming its pointer."""
    if not pointer:
        return False
    r = narateer(root, verb)
    return r.code == 2 and pointer in r.err


def _function(kit: Kit, command: tuple) -> str:
    """`module.function` of the game's function that a script command runs (a failure names it), else the
    verb's words."""
    from ..cli import verb_command
    from ..readonly import function_name

    found = None
    try:
        found = verb_command(kit.system(), command[0])
        for word in command[1:]:
            sub = getattr(found, "commands", {}).get(word)
            if sub is None:
                break
            found = sub
    except Exception:  # a verb that does not load: the failure says so on its own
        found = None
    fn = getattr(found, "function", None)
    return function_name(fn) if fn is not None else f"the game's {command[0]}"


def check_refusal(kit: Kit):
    """A refused command (exit 2 or 3) changes no byte of the campaign."""
    root = kit.fresh()
    for command in _need(kit.script.refused, "refused"):
        before = snapshot(root)
        r = narateer(root, *command)
        if r.code not in (2, 3):
            raise Failed(f"`{' '.join(command)}` should be refused (exit 2 or 3): {r.say()}")
        touched = changed(before, snapshot(root))
        if touched:
            raise Failed(f"`{' '.join(command)}` was refused ({r.code}) yet changed {', '.join(touched)}")


def check_undo(kit: Kit):
    """Undo restores the exact bytes of every file the action changed; the log only gains the undo entry."""
    root = kit.fresh()
    for command in _need(kit.script.actions(), "counter, secret or more"):
        before = snapshot(root)
        kit.play(root, command, "action")
        touched = changed(before, snapshot(root))
        if not touched:
            continue  # the action logged nothing (it changed nothing): there is nothing to undo
        r = narateer(root, "undo")
        if r.code != 0:
            raise Failed(f"undo after `{' '.join(command)}`: {r.say()}")
        after = snapshot(root)
        for name in changed(before, after):
            kept = name.endswith(".log.yaml") and after.get(name, b"").startswith(before.get(name, b""))
            if not kept:
                how = "left" if name in touched else "changed"
                raise Failed(f"undo of `{' '.join(command)}` {how} {name} different from before the action")


def check_verify(kit: Kit):
    """Verify re-derives every entry: clean after the script, and exit 1 naming an entry whose logged
    total was edited, or one of whose faces was edited to a face that decides: one that, played at the
    table (`--faces`), gives another result (found by trying each die of a scripted `--faces` action at
    each other face until the result changes; in a highest-die game the first die often decides nothing)."""
    root = kit.fresh()
    start = snapshot(root)
    before_each = []  # (command, the campaign just before it, what it logged)
    for command in _need(kit.script.actions(), "counter, secret or more"):
        if _faces_at(command) is not None:
            copy = root.parent / f"{root.name}-before{len(before_each)}"
            shutil.copytree(root, copy)
            ahead = snapshot(root)
        kit.play(root, command, "action")
        if _faces_at(command) is not None:
            before_each.append((command, copy, _appended(root, ahead)))
    checker = _hook_name(kit, "log_checker")
    clean = narateer(root, "--json", "verify")
    if clean.code != 0:
        raise Failed(f"verify after the script ({checker}): {clean.say()}")
    edits = [e for e in _edits(root, start) if e[-1] == "its total"] + _deciding_faces(kit, root, before_each)
    if not edits:
        raise Skipped("not provided: no logged entry of the script holds a total or faces to edit")
    for log, text, number, seq, edited, what in edits:
        log.write_text(edited, encoding="utf-8")
        r = narateer(root, "--json", "verify")
        log.write_text(text, encoding="utf-8")
        named = f":{number}:" in r.out + r.err or f"entry {seq} " in r.out + r.err
        if r.code != 1 or not named:
            raise Failed(f"verify ({checker}) with {what} of entry {seq} ({log.name}:{number}) edited: {r.say()}"
                         + ("" if r.code != 1 else "; the problem does not name that entry"))


def _hook_name(kit: Kit, hook: str) -> str:
    """`module.function` of one of the game's hooks, else the hook's name."""
    from ..readonly import function_name

    try:
        found = kit.system().hook(hook)
    except Exception:  # a game that does not load: the check's own failure says so
        found = None
    return function_name(found) if found is not None else f"the game's {hook}"


def _edits(root: Path, start: dict):
    """(log path, text, line, seq, edited text, what) for the first total and the first face of each
    open (not secret) entry the script logged."""
    for name in changed(start, snapshot(root)):
        if not name.endswith(".log.yaml"):
            continue
        log = root / name
        text = log.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        for number, entry in log_entries(text):
            if "commitment" in entry or number <= len(start.get(name, b"").splitlines()):
                continue
            found = False
            for key in ("total", "faces"):
                result = json.loads(json.dumps(entry.get("result")))
                if _bump(result, key):
                    found, out = True, list(lines)
                    out[number - 1] = "- " + json.dumps(dict(entry, result=result), ensure_ascii=False) + "\n"
                    yield log, text, number, entry["seq"], "".join(out), f"its {key}"
            if found:
                return


def _faces_at(command: tuple) -> int | None:
    """The index of the word after `--faces` in a command (its faces at the table), or None."""
    words = list(command)
    for i, word in enumerate(words[:-1]):
        if word == "--faces":
            return i + 1
    return None


def _appended(root: Path, ahead: dict):
    """(log, line number, entry) of the one open entry an action appended, or None."""
    log = grown_log(ahead, snapshot(root))
    if log is None:
        return None
    number, entry = log_entries((root / log).read_text(encoding="utf-8"))[-1]
    return None if "commitment" in entry else (log, number, entry)


def _alternatives(faces: list[str]):
    """Each (die, other face) to try: the faces the roll shows and, for numbers, one below and one above."""
    shown = list(dict.fromkeys(faces))
    numbers = [int(f) for f in shown if f.lstrip("-").isdigit()]
    near = range(min(numbers) - 1, max(numbers) + 2) if numbers else range(0, 7)  # words: try small numbers too
    pool = shown + [str(n) for n in near]
    for i, face in enumerate(faces):
        for other in dict.fromkeys(pool):
            if other != face:
                yield i, other


def _face_paths(a, b, path=()) -> list[tuple]:
    """Key paths (to keys naming faces, through mappings and lists) where two results' faces differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in a:
            if k in b:
                out += (([path + (k,)] if a[k] != b[k] else []) if "face" in str(k) else _face_paths(a[k], b[k], path + (k,)))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b)) for p in _face_paths(x, y, path + (i,))]
    return []


def _set_path(value, path: tuple, new):
    for key in path[:-1]:
        value = value[key]
    value[path[-1]] = new


def _deciding_faces(kit: Kit, root: Path, before_each: list) -> list:
    """The verify edit of a deciding face: for the last scripted `--faces` action that logged an open entry,
    each die at each other face is played from the campaign as it was before the action; the first that
    changes anything of the result besides the faces gives the edit (the logged entry with those faces)."""
    for command, copy, logged in reversed(before_each):
        if logged is None:
            continue
        log_name, number, entry = logged
        at = _faces_at(command)
        faces = command[at].split(",")
        for i, other in _alternatives(faces):
            trial = copy.parent / f"{copy.name}-try"
            shutil.rmtree(trial, ignore_errors=True)
            shutil.copytree(copy, trial)
            ahead = snapshot(trial)
            tried = (*command[:at], ",".join(faces[:i] + [other] + faces[i + 1:]), *command[at + 1:])
            if narateer(trial, *tried).code != 0:
                continue
            again = _appended(trial, ahead)
            if again is None:
                continue
            mine, theirs = entry.get("result"), again[2].get("result")
            paths = _face_paths(mine, theirs)
            if not paths or _stable_result(mine, paths) == _stable_result(theirs, paths):
                continue  # this face decides nothing: the result is the same but for its faces
            result = json.loads(json.dumps(mine))
            for path in paths:
                new = theirs
                for key in path:
                    new = new[key]
                _set_path(result, path, new)
            log = root / log_name
            text = log.read_text(encoding="utf-8")
            lines = text.splitlines(keepends=True)
            lines[number - 1] = "- " + json.dumps(dict(entry, result=result), ensure_ascii=False) + "\n"
            return [(log, text, number, entry["seq"], "".join(lines),
                     f"die {i + 1} of `{' '.join(command)}` edited to {other}, a face that decides")]
    return []


def _stable_result(result, paths) -> str:
    """A result without its faces (the key paths given), for comparing what the faces decided."""
    copy = json.loads(json.dumps(result))
    for path in paths:
        _set_path(copy, path, None)
    return json.dumps(_stable(copy), sort_keys=True)


def _bump(value, key: str) -> bool:
    """Change the first `key` (a number, or the first number of a list) found depth first; True if done."""
    if isinstance(value, list):
        return any(_bump(v, key) for v in value)
    if not isinstance(value, dict):
        return False
    for k, v in value.items():
        if k == key and isinstance(v, int) and not isinstance(v, bool):
            value[k] = v + 1
            return True
        if k == key and isinstance(v, list) and _bump_first(v):
            return True
    return any(_bump(v, key) for v in value.values())


def _bump_first(items: list) -> bool:
    for i, v in enumerate(items):
        if isinstance(v, int) and not isinstance(v, bool):
            items[i] = v + 1
            return True
        if isinstance(v, list) and _bump_first(v):
            return True
    return False


def check_secret(kit: Kit):
    """A secret entry reveals nothing of its roll: it is sealed (a commitment), and its public part (what its
    result type declares public, its changes, every other field) is the same whatever the dice."""
    command = _need(kit.script.secret, "secret")
    seen, results = {}, set()
    for seed in SEEDS:
        root = kit.fresh()
        before = snapshot(root)
        r = kit.play(root, command, "secret", "--seed", str(seed), "--json")
        results.add(r.out)
        log = grown_log(before, snapshot(root))
        if log is None:
            raise Failed(f"secret `{' '.join(command)}` logged no entry")
        number, entry = log_entries((root / log).read_text(encoding="utf-8"))[-1]
        if "commitment" not in entry:
            raise Failed(f"secret `{' '.join(command)}`: {log}:{number} is not sealed (no commitment)")
        seen[seed] = {k: v for k, v in entry.items() if k not in VOLATILE}
    if len(results) < 2:
        raise Failed(f"secret `{' '.join(command)}` gave one result under seeds {SEEDS[0]}..{SEEDS[-1]}: "
                     "give a command whose dice vary")
    first = seen[SEEDS[0]]
    for seed, public in seen.items():
        differ = _differences(first, public)
        if differ:
            raise Failed(f"a secret entry's public part changes with the dice (seed {SEEDS[0]} vs {seed}): "
                         + ", ".join(differ[:6]))


def _keys(value) -> set:
    if isinstance(value, dict):
        return set(value).union(*(_keys(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_keys(v) for v in value))
    return set()


def _differences(a, b, path: str = "") -> list[str]:
    """Key paths where two JSON values differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in list(a) + [k for k in b if k not in a]:
            out += _differences(a.get(key), b.get(key), f"{path}.{key}" if path else key)
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in _differences(x, y, f"{path}[{i}]")]
    return [] if a == b and type(a) is type(b) else [path or "(the entry)"]


def check_seeded(kit: Kit):
    """Under `--seed` the dice come from the seed alone, each die its own draw. The script's secret roll
    (and `dice`, when it takes no words) is played under each seed twice, with Python's global `random`
    seeded differently before each: the two answers are the same (a game that draws from `random` itself,
    or from a `Random` of its own, gives two); and across the seeds some roll shows two different faces (a
    game that draws once and repeats that draw for every die shows one face per roll, command by command)."""
    import random

    commands = [c for c in (kit.script.secret, ("dice",)) if c]
    for command in commands:
        rolls = []
        for seed in SEEDS:
            answers = []
            for reseed in (1, 2):
                root = kit.fresh()
                random.seed(reseed)
                r = narateer(root, "--seed", str(seed), "--json", *command)
                if r.code != 0:
                    break
                answers.append(_stable(r.json))
            if len(answers) < 2:
                if command == ("dice",):
                    break  # this game's `dice` needs words: the secret roll alone is played
                raise Failed(f"`{' '.join(command)}` under --seed {seed}: {r.say()}")
            if answers[0] != answers[1]:
                raise Failed(f"`{' '.join(command)}` under --seed {seed} gave two answers ("
                             + ", ".join(_differences(*answers)[:4]) + f"): {_function(kit, command)} (or what it "
                             "calls) draws from Python's `random` (or a Random of its own), not from the command's "
                             "dice (`rng()`)")
            rolls += _pools(answers[0])
        if rolls and all(len(set(pool)) == 1 for pool in rolls):
            raise Failed(f"`{' '.join(command)}` shows one face on every die of a roll under seeds {SEEDS[0]}.."
                         f"{SEEDS[-1]}: {_function(kit, command)} (or what it calls) repeats one draw for every "
                         "die (draw each die from `rng()`)")


def _stable(value):
    """A JSON answer without the fields that differ for the same action (ids, times, commitments)."""
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def _pools(value) -> list[list[int]]:
    """Every list of two or more whole numbers in a JSON answer (the faces of a pool, among others)."""
    if isinstance(value, dict):
        return [p for v in value.values() for p in _pools(v)]
    if isinstance(value, list):
        numbers = [v for v in value if isinstance(v, int) and not isinstance(v, bool)]
        if len(value) >= 2 and len(numbers) == len(value):
            return [numbers]
        return [p for v in value for p in _pools(v)]
    return []


def check_merge(kit: Kit):
    """Two git clones play the counter command, one of them twice; after a pull every counter is start +
    both deltas, the merged files hold no conflict marker, and verify is clean (each merge's sums check)."""
    _merge(kit, (1, 2))


def check_merge_same(kit: Kit):
    """Two git clones play the counter command once each, the same change on both sides: two spends stay two
    (the merged counters are start + both deltas) and verify is clean."""
    _merge(kit, (1, 1))


def _merge(kit: Kit, plays: tuple):
    command = _need(kit.script.counter, "counter")
    if shutil.which("git") is None:
        raise Skipped("git is not installed")
    origin = kit.fresh()
    git(origin, "init", "-q", "-b", "main")
    _setup_git(origin)
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "campaign")
    clones = []
    for side, times in enumerate(plays):
        clone = origin.parent / f"{origin.name}-clone{side}"
        git(origin.parent, "clone", "-q", str(origin), str(clone))
        _setup_git(clone)
        for seed in range(side * 10 + 1, side * 10 + 1 + times):
            kit.play(clone, command, "counter", "--seed", str(seed))
        if not git(clone, "status", "--porcelain").strip():
            raise Failed(f"counter `{' '.join(command)}` changed no counter ({', '.join(kit.system().counters)})")
        git(clone, "add", "-A")
        git(clone, "commit", "-qm", f"clone {side}")
        clones.append(clone)
    start = _counters(kit, origin)
    deltas = [_delta(start, _counters(kit, clone)) for clone in clones]
    if not any(deltas[0].values()):
        raise Failed(f"counter `{' '.join(command)}` changed no counter ({', '.join(kit.system().counters)})")
    left, right = clones
    git(left, "pull", "-q", "--no-rebase", str(right), "main")
    marked = [n for n, data in snapshot(left).items() if b"<<<<<<<" in data]
    if marked:
        raise Failed(f"the merge left conflict markers in {', '.join(marked)}")
    if _counters(kit, left) != _expected(start, deltas):  # git left one side; check says so, names the fix
        r = narateer(left, "check")
        if r.code != 1 or "narateer reconcile" not in r.out:
            raise Failed(f"a sheet behind its log after the merge, and check does not name `narateer reconcile`: "
                         f"{r.say()}")
    r = narateer(left, "reconcile")  # the first writer after a merge reconciles; this one does only that
    if r.code != 0:
        raise Failed(f"reconcile after the merge: {r.say()}")
    _same_counters(kit, start, deltas, left)
    for verb in ("verify", "check"):
        r = narateer(left, "--json", verb)
        if r.code != 0:
            raise Failed(f"{verb} after the merge: {r.say()}")


def _setup_git(root: Path):
    r = narateer(root, "git-setup")
    if r.code != 0:
        raise Failed(f"git-setup: {r.say()}")


def _expected(start: dict, deltas: list) -> dict:
    return {key: value + sum(d.get(key, 0) for d in deltas) for key, value in start.items()}


def _same_counters(kit: Kit, start: dict, deltas: list, merged_root: Path):
    merged = _counters(kit, merged_root)
    for key, value in start.items():
        want = value + sum(d.get(key, 0) for d in deltas)
        if merged.get(key) != want:
            raise Failed(f"after the merge {key} is {merged.get(key)}; start {value} + both deltas "
                         f"({' and '.join(str(d.get(key, 0)) for d in deltas)}) is {want}")


def _delta(start: dict, now: dict) -> dict:
    return {k: now.get(k, 0) - v for k, v in start.items() if isinstance(now.get(k, 0), int)}


def _counters(kit: Kit, root: Path) -> dict:
    """`file:key.path` -> value for every counter the game declares, in every sheet."""
    from ruamel.yaml import YAML

    out = {}
    for sheet in sorted((root / "characters").glob("*.yaml")):
        doc = YAML(typ="safe").load(sheet.read_text(encoding="utf-8"))
        for path in kit.system().counters:
            for key, value in _at(doc, path.split(".")):
                if isinstance(value, int) and not isinstance(value, bool):
                    out[f"{sheet.name}:{key}"] = value
    return out


def _at(doc, parts: list, prefix: str = ""):
    """(key path, value) pairs a counter path names in a document; `*` is any key."""
    if not parts:
        yield prefix, doc
        return
    if not isinstance(doc, dict):
        return
    keys = list(doc) if parts[0] == "*" else [parts[0]] if parts[0] in doc else []
    for key in keys:
        yield from _at(doc[key], parts[1:], f"{prefix}.{key}" if prefix else str(key))


def check_words(kit: Kit):
    """Each logged entry reads as words: `encounter log` shows no raw braces, True, False or None, and gives
    no warning (a game's `summary` that failed or gave no text, the host's words shown in its place)."""
    root = kit.fresh()
    start = snapshot(root)
    for command in _need(kit.script.actions(), "counter, secret or more"):
        kit.play(root, command, "action")
    logs = [n for n in changed(start, snapshot(root)) if n.endswith(".log.yaml")]
    for name in logs:
        log_id = Path(name).name[: -len(".log.yaml")]
        r = narateer(root, "encounter", "log", log_id)
        if r.code != 0:
            raise Failed(f"encounter log {log_id}: {r.say()}")
        warned = [line for line in r.err.splitlines() if "warning:" in line]
        if warned:  # the host's words stood in for a summary that failed, or gave no text
            raise Failed(f"encounter log {log_id}: {warned[0].partition('warning: ')[2]}")
        rows = r.out.splitlines()[2:]
        raw = [row.strip() for row in rows if RAW.search(row)]
        if raw:
            raise Failed(f"encounter log {log_id} shows raw data: {raw[0][:200]}")


def check_stats(kit: Kit):
    """`stats` parses only the log lines that hold one of the game's `check_marks` (or the host's own): after
    the script's actions, after an undo and after its secret roll is unveiled (each when the rules let it
    happen), it counts what a read of every line of every log counts."""
    root = kit.fresh()
    for command in _need(kit.script.actions(), "counter, secret or more"):
        kit.play(root, command, "action")
    _same_stats(root, "the script")
    for step in (("undo",), ("unveil", "--all")):
        if narateer(root, *step).code == 0:
            _same_stats(root, f"`{' '.join(step)}`")


def _same_stats(root: Path, after: str):
    from ..luck import campaign_entries, stats_record
    from ..store.campaign import Campaign

    shown = narateer(root, "--json", "stats")
    if shown.code != 0:
        raise Failed(f"stats after {after}: {shown.say()}")
    camp = Campaign(root)
    every = stats_record(campaign_entries(root, None, camp.system), camp.system, camp.rules)
    if shown.json != every:
        counted = {row["actor"]: row["checks"] for row in shown.json["actors"]}
        raise Failed(f"stats after {after} counts {counted} checks, a read of every log line "
                     f"{ {row['actor']: row['checks'] for row in every['actors']} }: a check's line holds none "
                     "of the game's check_marks")


def check_imports(kit: Kit):
    """Every module of the game's package imports only narateer's kit (`narateer_cli.kit`), its own package
    and other libraries: no other module of narateer and no other installed game. Read from the source, so an
    import inside a function the script never plays counts too (the host checks each import statement as it
    runs; this finds the rest, `importlib.import_module("...")` of a name written out included)."""
    import ast

    from ..systems import _entry_points

    system = kit.system()
    own, folder = system.package, system.folder
    others = {ep.value.partition(":")[0].strip(): name for name, ep in _entry_points().items() if name != system.name}
    for path in sorted(folder.rglob("*.py")):
        if path.name.startswith("test_") or path.name == "conftest.py":
            continue  # a test the package ships is no part of the game (it may use narateer_cli.testing)
        rel = path.relative_to(folder.parent)
        parts = list(rel.with_suffix("").parts)
        module = ".".join([*own.split(".")[:-1], *(parts[:-1] if parts[-1] == "__init__" else parts)])
        package = module if parts[-1] == "__init__" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            for name, fromlist in _imports(node, package):
                wrong = _wrong_import(own, others, name, fromlist)
                if wrong is not None:
                    raise Failed(f"{rel}:{node.lineno} imports {wrong}")


def _wrong_import(own: str, others: dict, name: str, fromlist: tuple) -> str | None:
    """What is wrong with `import name` (`from name import *fromlist`) in the game package `own`, or None;
    `others`: every other installed game's package -> its name."""
    from ..readonly import private_import

    wrong = private_import(own, name, fromlist)
    if wrong is not None:
        return (f"{wrong}, a module of narateer other than its kit: a game imports only narateer_cli.kit, its own "
                "package and libraries")
    for full in (name, *(f"{name}.{f}" for f in fromlist)):
        game = next((g for p, g in others.items() if full == p or full.startswith(p + ".")), None)
        if game is not None and not (own == full or own.startswith(full + ".")):
            return f"{full}, the package of the game {game}: a game never imports another"
    return None


def _imports(node, package: str) -> list[tuple[str, tuple]]:
    """(module, names taken from it) for each import an AST node makes: `import a.b`, `from .x import y`
    (made absolute), and `importlib.import_module("a.b")` or `__import__("a.b")` of a name written out."""
    import ast
    from importlib.util import resolve_name as resolve

    if isinstance(node, ast.Import):
        return [(alias.name, ()) for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        try:
            name = resolve("." * node.level + (node.module or ""), package) if node.level else node.module or ""
        except (ImportError, ValueError):
            return []
        return [(name, tuple(alias.name for alias in node.names))]
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
            return [(node.args[0].value, ())] if not node.args[0].value.startswith(".") else []
    return []


CHECKS = {"verbs": check_verbs, "imports": check_imports, "refusal": check_refusal, "undo": check_undo, "verify": check_verify,
          "secret": check_secret, "seeded": check_seeded, "merge": check_merge, "merge-same": check_merge_same, "words": check_words,
          "stats": check_stats}


def verdict(kit: Kit, check: str) -> Verdict:
    """One check's answer: pass, fail (with the one-line reason) or skip (with why)."""
    try:
        CHECKS[check](kit)
    except Skipped as exc:
        return Verdict(check, "skip", str(exc))
    except Failed as exc:
        return Verdict(check, "fail", str(exc))
    except Exception as exc:  # what the game printed or wrote was not what any game should give
        return Verdict(check, "fail", f"{type(exc).__name__}: {exc}")
    return Verdict(check, "pass")


def conform(name: str, workdir: Path, checks=None) -> list[Verdict]:
    """Run the kit over the installed game `name`; campaigns go under `workdir`."""
    try:
        kit = Kit(name, Path(workdir))
    except Exception as exc:  # a game that does not load: one line with the reason, no check runs
        return [Verdict("load", "fail", f"{type(exc).__name__}: {exc}")]
    return [verdict(kit, check) for check in checks or CHECKS]
