"""The Open Adventure example campaign, fresh for each test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run


@pytest.fixture
def oa(tmp_path) -> Path:
    root = tmp_path / "oa"
    r = run(None, "init", str(root), "--system", "open-adventure", "--example")
    assert r.code == 0, r.err
    return root
