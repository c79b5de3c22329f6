"""Every example in the --help of Open Adventure's own verbs runs in the example campaign (S-SYS-3).

Each verb's examples run in order in a fresh example campaign, so a verb that needs an encounter shows the
`encounter new` that starts one first. An example may be a rules refusal (exit 3) the rules intend; never
bad input (exit 2) and never an internal error."""

from __future__ import annotations

import re
import shlex

import pytest

from narateer_cli.systems.open_adventure import SYSTEM
from tests.conftest import run

WORDED = {"turn"}  # groups whose every subcommand speaks in the system's words (the host's turn start and end too)


def own_verbs() -> list[tuple[str, ...]]:
    """Every verb of the system, and each subcommand of its groups that the system defines itself or words."""
    out = []
    for verb in SYSTEM.verbs:
        out.append((verb,))
        group = SYSTEM.command(verb)
        out += [(verb, sub) for sub, cmd in getattr(group, "commands", {}).items()
                if verb in WORDED or cmd.callback.__module__.startswith(SYSTEM.package)]
    return out


def examples(help_text: str) -> list[list[str]]:
    """The `narateer ...` lines of a help text, without the program name and a trailing `(note)`."""
    lines = [line.strip() for line in help_text.splitlines() if line.strip().startswith("narateer ")]
    return [shlex.split(re.sub(r"\s{2,}\(.*\)$", "", line))[1:] for line in lines]


@pytest.mark.parametrize("verb", own_verbs(), ids=" ".join)
def test_every_help_example_runs_in_the_example_campaign(oa, verb):
    shown = run(oa, *verb, "--help")
    assert shown.code == 0, shown.err
    found = examples(shown.out)
    assert found, f"`{' '.join(verb)} --help` has no example"
    for args in found:
        r = run(oa, *args)
        assert r.code in (0, 3), (args, r.code, r.err)
        assert "Traceback" not in r.err and "internal error" not in r.err, r.err
