"""H2-REFUSE-1: a refused command writes nothing, the merge entry included.

The first writer after git joined two branches of play reconciles: it appends the merge entry (and sets each
sheet to what the log adds up to) before the command computes. When the command itself is then refused, its
reconciliation is taken back with it: the log and every file hold the bytes they held before the command, and
the next writer that is not refused reconciles.
"""

from __future__ import annotations

import pytest

from narateer_cli.api import open_campaign
from narateer_cli.errors import NarateerError

from .test_sync import files, git
from .test_sync_rounds import Table

# per game: a legal change on each of two clones that forks the campaign log, and a command refused after it
FORKS = {
    "d20-cards": (("damage mira 1", "damage tor 1"), "damage nobody 1"),
    "narateer": (("wound javi 1", "wound selka 1"), "wound nobody 1"),
    "open-adventure": (("points amicus body -1", "points ezarel mind -1"), "points nobody body -1"),
}


def _forked(tmp_path, game: str, rebase: bool) -> Table:
    """Two clones diverge (each logs one change), the second pulls the first's: its campaign log forks."""
    table = Table(tmp_path, game, rebase, "refuse", clones=2)
    a, b = table.clones
    (first, second), _ = FORKS[game]
    assert table.run(a, first)
    table.commit(a, first)
    table.push(a, "setup")
    assert table.run(b, second)
    table.commit(b, second)
    table.pull(b, "setup")
    assert not table.problems, table.problems
    return table


@pytest.mark.parametrize("rebase", [False, True], ids=["merge", "rebase"])
@pytest.mark.parametrize("game", sorted(FORKS))
def test_H2_REFUSE_1_a_refused_command_after_a_merge_writes_no_merge_entry(tmp_path, game, rebase):
    table = _forked(tmp_path, game, rebase)
    b = table.clones[1]
    log = b / "encounters" / "campaign.log.yaml"
    before, log_before = files(b), log.read_bytes()
    with pytest.raises(NarateerError) as refused:
        open_campaign(b).run(*FORKS[game][1].split())
    assert refused.value.exit_code in (2, 3), refused.value.line()
    assert log.read_bytes() == log_before  # no merge entry
    assert files(b) == before
    assert git(b, "status", "--porcelain").stdout == ""
    # the next writer that runs reconciles: the merge entry goes in once, and the clone verifies
    assert table.run(b, FORKS[game][0][0])
    merges = [line for line in log.read_text(encoding="utf-8").splitlines() if '"command": "merge"' in line
              or "command: merge" in line]
    assert len(merges) <= 1, merges
    table.commit(b, "after the refusal")
    table.push(b, "end")
    found = table.verdict([b])
    assert not found, "\n".join(found)
