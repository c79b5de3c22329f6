"""Time and peak memory of the commands that read a whole log, in each game, at 10,000 and 100,000 entries.

    .venv/bin/python scripts/stream_measure.py [SIZES] [--code DIR]

SIZES is a comma list (default 10000,100000). `--code DIR` runs the narateer
found in DIR (a worktree of another commit) for a before/after comparison.
Each command runs once as its own process, stdout to /dev/null; the peak is
the child's resident set (ru_maxrss).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

COMMANDS = {
    "verify": ["verify"],
    "report": ["report"],
    "report html": ["report", "--format", "html"],
    "encounter log": ["encounter", "log"],
    "log --json": ["--json", "encounter", "log"],
}


def measure(root: Path, args: list, env: dict) -> tuple[float, float]:
    """(seconds, peak MiB) of one run of narateer with `args` in the campaign at `root`."""
    argv = [sys.executable, "-m", "narateer_cli", "--campaign", str(root), *args]
    start = time.perf_counter()
    with open(os.devnull, "wb") as sink:
        proc = subprocess.Popen(argv, stdout=sink, stderr=subprocess.PIPE, env=env, cwd=root)
        _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    err = proc.stderr.read().decode()
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed: {err.strip()}")
    return seconds, usage.ru_maxrss / 1024


def main():
    from tests.biglogs import PLAYS, BigLog

    args = sys.argv[1:]
    env = dict(os.environ)
    if "--code" in args:
        at = args.index("--code")
        env["PYTHONPATH"] = str(Path(args[at + 1]).resolve())
        del args[at: at + 2]
    sizes = [int(n) for n in (args[0] if args else "10000,100000").split(",")]
    print(f"{'game':<15} {'command':<14}" + "".join(f"{n:>10,} s {n:>8,} MiB" for n in sizes))
    with tempfile.TemporaryDirectory() as scratch:
        for system in PLAYS:
            big = BigLog(Path(scratch) / system, system)
            results = {name: [] for name in COMMANDS}
            for size in sizes:
                big.grow(size)
                for name, cmd in COMMANDS.items():
                    results[name].append(measure(big.root, cmd, env))
            for name, cells in results.items():
                print(f"{system:<15} {name:<14}" + "".join(f"{s:>12.2f} {m:>12.0f}" for s, m in cells), flush=True)


if __name__ == "__main__":
    main()
