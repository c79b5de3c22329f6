"""The kill-rate floor of `make mutate`: reads mutmut's results (mutants/**/*.meta, one per source file),
leaves out the mutants listed in scripts/mutants-equivalent.txt (each with the reason it changes nothing a
test can see), prints each file's figures and exits 1 when any file that was run has fewer than FLOOR of
its other mutants killed. A mutant that times out counts as killed (the change made the tests loop); one no
selected test reaches counts as a survivor; one not run yet counts as neither (the figures say how many).

    python scripts/mutation_floor.py [MODULE_PREFIX ...]   e.g. narateer_cli.luck narateer_cli.store.merge
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

FLOOR = 0.85
KILLED = {1, 3}  # a test failed, or pytest broke on the mutant
TIMEOUT = {36, 24, -24, 152, 255}  # ran out of time: the mutant changed what the tests see (it loops)
SURVIVED = {0}  # every test that reaches the mutant passed
NO_TESTS = {5, 33}  # no selected test reaches the mutant: a survivor too
REPO = Path(__file__).resolve().parent.parent
EQUIVALENTS = REPO / "scripts" / "mutants-equivalent.txt"


def equivalent(path: Path) -> dict[str, str]:
    """mutant name -> why it is equivalent; a listed name without a reason is an error."""
    out = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, _, reason = line.partition(" ")
        if not reason.strip():
            sys.exit(f"{path.name}:{number}: {name} has no reason; write why it changes nothing")
        out[name] = reason.strip()
    return out


def results(mutants: Path) -> dict[str, dict[str, int | None]]:
    """source file (relative to mutants/) -> mutant name -> mutmut's exit code (None: not run)."""
    out = {}
    for meta in sorted(mutants.rglob("*.meta")):
        codes = json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {})
        if codes:
            out[str(meta.relative_to(mutants))[: -len(".meta")]] = codes
    return out


def figures(codes: dict[str, int | None], same: dict[str, str]) -> dict:
    """One file's counts; `survivors` names each survivor (and each mutant no test reaches)."""
    counted = {k: v for k, v in codes.items() if k not in same}
    killed = sum(1 for v in counted.values() if v in KILLED)
    timeouts = sum(1 for v in counted.values() if v in TIMEOUT)
    survivors = sorted(k for k, v in counted.items() if v in SURVIVED | NO_TESTS)
    no_tests = sum(1 for v in counted.values() if v in NO_TESTS)
    unrun = sum(1 for v in counted.values() if v is None)
    other = len(counted) - killed - timeouts - len(survivors) - unrun  # suspicious, skipped, crashed
    judged = killed + timeouts + len(survivors)
    return {"mutants": len(codes), "killed": killed, "timeouts": timeouts, "survived": len(survivors),
            "no_tests": no_tests, "equivalent": len(codes) - len(counted), "not_run": unrun, "other": other,
            "judged": judged, "rate": (killed + timeouts) / judged if judged else None, "survivors": survivors}


def main(prefixes: list[str]) -> int:
    same = equivalent(EQUIVALENTS)
    failed, idle, judged = [], [], 0
    for source, codes in results(REPO / "mutants").items():
        if prefixes:
            codes = {k: v for k, v in codes.items() if any(k.startswith(p + ".") for p in prefixes)}
        if not codes:
            continue
        f = figures(codes, same)
        if not f["judged"]:
            idle.append(f"{source} ({f['mutants']})")
            continue
        for name in f["survivors"]:
            print("survived:", name)
        print(f"{source}: {f['mutants']} mutants: killed {f['killed']}, timeouts {f['timeouts']}, survived "
              f"{f['survived']} ({f['no_tests']} reached by no test), equivalent {f['equivalent']}, "
              f"not run {f['not_run']}, other {f['other']}; kill rate {f['rate']:.1%} of {f['judged']}")
        judged += f["judged"]
        if f["rate"] < FLOOR:
            failed.append(source)
    if idle:
        print("not run yet:", ", ".join(idle))
    if not judged:
        print("no mutant was run: run `mutmut run` first")
        return 1
    if failed:
        print(f"below the floor of {FLOOR:.0%} killed: {', '.join(failed)}")
        return 1
    print(f"every file that was run kills at least {FLOOR:.0%} of its non-equivalent mutants")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
