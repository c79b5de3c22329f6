"""The Open Adventure README's commands work as written, in order, on a fresh example campaign."""

from __future__ import annotations

import shlex
from pathlib import Path

from tests.conftest import run

README = Path(__file__).resolve().parents[3] / "narateer_cli" / "systems" / "open_adventure" / "README.md"


def run_as_written(lines, tmp_path):
    """Each `narateer ...` line in order (comments dropped), `init` making the campaign; each must succeed
    and print something. Returns the campaign folder."""
    camp = None
    for line in lines:
        args = shlex.split(line, comments=True)[1:]
        if args[0] == "init":
            assert run(None, "init", str(tmp_path / args[1]), *args[2:]).code == 0
            camp = tmp_path / args[1]
            continue
        r = run(camp, *args)
        assert r.code == 0, (line, r.err)
        assert r.out.strip(), line
    return camp


def test_readme_commands_run_as_written(tmp_path):
    lines = [line[2:] for line in README.read_text().splitlines() if line.startswith("$ narateer ")]
    assert len(lines) > 15
    run_as_written(lines, tmp_path)


ROOT_README = README.parents[3] / "README.md"


def test_root_readme_open_adventure_section_runs_as_written(tmp_path):
    text = ROOT_README.read_text()
    start = text.index("## Open Adventure")
    section = text[start:text.index("\n## ", start + 1)]
    blocks = section.split("```sh\n")[1:]
    lines = [line for block in blocks for line in block.split("```")[0].splitlines() if line.startswith("narateer ")]
    assert len(lines) > 15 and lines[0].startswith("narateer init")
    camp = run_as_written(lines, tmp_path)
    log = (camp / "encounters" / "campaign.log.yaml").read_text()
    assert '"command": "roll"' in log  # the Stunt outside the encounter (G-LOG-5)
