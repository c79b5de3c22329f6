"""Code that runs in worker processes started by the stress tests (multiprocessing 'spawn').

Kept apart from the test modules so a worker imports only narateer, not pytest.
"""

from __future__ import annotations

import contextlib
import io


def invoke(argv: list[str]) -> tuple[int, str, str]:
    """One CLI invocation in this process, as tests/conftest.py's run() does it."""
    from narateer_cli.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return code, out.getvalue(), err.getvalue()


def hammer(root: str, worker: int, count: int, char: str, gate, results):
    """Wait for the start gate, then run `count` dice-moving commands on `char` as fast as possible."""
    import narateer_cli.systems.narateer.commands.rolls  # noqa: F401  (import before the gate opens: contention, not imports)
    import narateer_cli.systems.narateer.commands.encounter  # noqa: F401

    gate.wait(60)
    done = []
    try:
        for i in range(count):
            kind = ("roll", "wound", "heal")[(worker + i) % 3]
            if kind == "roll":
                argv = ["--json", "roll", "--force", char, "stealth", "--dr", "2", "--reaction", "--faces", "1"]
            else:
                argv = ["--json", kind, char, "1"]
            code, out, err = invoke(["--campaign", root] + argv)
            done.append((kind, code, out, err))
    finally:
        results.put((worker, done))
