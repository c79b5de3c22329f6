"""docs/secret-rolls.md: the worked example's numbers are what the commitment rule gives (P-SECRET-1),
by hashlib and by the shell commands the page shows."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess

import pytest

from narateer_cli.store import secrets
from tests.conftest import REPO

DOC = (REPO / "docs" / "secret-rolls.md").read_text()
SALT = "000102030405060708090a0b0c0d0e0f"


def example():
    result_json = re.search(r"```\n(\{.*\})\n```", DOC).group(1)
    digest = re.search(r"```\n([0-9a-f]{64})  -\n```", DOC).group(1)
    return result_json, digest


def test_the_worked_example_is_the_commitment_rule():
    import json

    result_json, digest = example()
    result = json.loads(result_json)
    assert secrets.canonical(result).decode() == result_json  # the page shows canonical JSON
    assert secrets.commitment(bytes.fromhex(SALT), result) == digest
    assert hashlib.sha256(bytes.fromhex(SALT) + result_json.encode()).hexdigest() == digest


@pytest.mark.skipif(not (shutil.which("xxd") and shutil.which("sha256sum")), reason="needs xxd and sha256sum")
def test_the_shell_commands_print_the_commitment():
    script = re.search(r"```sh\n(\{ printf.*?\| sha256sum)\n```", DOC, re.S).group(1)
    out = subprocess.run(["sh", "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split()[0] == example()[1]
