"""The d20-cards example campaign as most command-line tests start from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import ok, run


def fight(tmp_path: Path, *chars: str) -> Path:
    """A fresh d20-cards example campaign with encounter `fight` (CHARS) current and mira's turn in round 1."""
    root = tmp_path / "d20"
    assert run(None, "init", str(root), "--system", "d20-cards", "--example").code == 0
    ok(root, "encounter", "new", "fight", *chars)
    ok(root, "turn", "start", "mira")
    return root


@pytest.fixture
def d20(tmp_path) -> Path:
    """Encounter `fight` (mira, bandit, tor), mira's turn in round 1."""
    return fight(tmp_path, "mira", "bandit", "tor")
