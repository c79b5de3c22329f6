"""The kill-rate floor of `make mutate`: reads mutmut's results (mutants/**/*.meta), leaves out the mutants
listed in scripts/mutants-equivalent.txt (each with the reason it changes nothing a test can see), and exits
1 when fewer than FLOOR of the rest are killed. A mutant no selected test reaches counts as a survivor;
one not run yet counts as neither (the figures say how many).

    python scripts/mutation_floor.py [MODULE_PREFIX ...]   e.g. narateer_cli.luck narateer_cli.store.merge
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

FLOOR = 0.85
KILLED = {1, 3, 36, 24, -24, 152, 255}  # a test failed, pytest broke, or it ran out of time
SURVIVED = {0, 5, 33}  # every selected test passed, or none reaches it
REPO = Path(__file__).resolve().parent.parent


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


def results(mutants: Path) -> dict[str, int | None]:
    out = {}
    for meta in sorted(mutants.rglob("*.meta")):
        out.update(json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {}))
    return out


def main(prefixes: list[str]) -> int:
    codes = results(REPO / "mutants")
    if prefixes:
        codes = {k: v for k, v in codes.items() if any(k.startswith(p + ".") for p in prefixes)}
    same = equivalent(REPO / "scripts" / "mutants-equivalent.txt")
    killed = sum(1 for k, v in codes.items() if v in KILLED and k not in same)
    survived = sorted(k for k, v in codes.items() if v in SURVIVED and k not in same)
    listed = sum(1 for k in codes if k in same)
    unrun = sum(1 for k, v in codes.items() if v is None and k not in same)
    counted = killed + len(survived)
    for name in survived:
        print("survived:", name)
    rate = killed / counted if counted else 0.0
    print(f"mutants {len(codes)}: killed {killed}, survived {len(survived)}, equivalent (listed) {listed}, "
          f"not run {unrun}; kill rate {rate:.1%} of {counted} non-equivalent (floor {FLOOR:.0%})")
    if not counted:
        print("no mutant was run: run `mutmut run` first")
        return 1
    return 0 if rate >= FLOOR else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
