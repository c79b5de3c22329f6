"""Sharing a campaign by git: `git-setup` (logs merge by union, sheets and states by narateer's own
driver) and the `merge-driver` git calls."""

from __future__ import annotations

import click

from .common import command, emit


@command(name="git-setup", help="""Register narateer's merge driver in this clone and write .gitattributes.

Run once in every new clone (`init` runs it): sheets and encounter states
then merge key by key, and dice spent on both sides are all kept.

\b
Example:
  narateer git-setup""")
def git_setup_cmd(app):
    from ..store import gitops

    data = gitops.setup(app.campaign.root)
    from ..render import HostKind

    emit(app, HostKind.git_setup, data)


@command(name="reconcile", writes=True, help="""After a merge, set each sheet's counters to what its log adds up to.

git may leave one side's bytes on a sheet (both clones wrote the same
values, so the merge driver never ran). The log keeps every spend: the first
command that writes after the merge sets each counter a branch changed to
its base plus every branch's logged change and logs a `merge` entry with
both values. This command does only that; `check` and `verify` name it while
a sheet is behind its log.

\b
Example:
  git pull && narateer reconcile""")
def reconcile_cmd(s):
    from ..outcome import Show

    from ..render import HostKind

    return Show(HostKind.reconcile, {"reconciled": list(s.reconciled)})


@click.command(name="merge-driver", help="""git's merge driver for campaign YAML (set up by `narateer git-setup`).

Merges THEIRS into OURS key by key; exits 1 with conflict markers when both
sides changed one value differently, and exits 1 at once, OURS untouched, when
a side is larger than 256 KiB (no sheet or state is).

\b
Example (what git runs):
  narateer merge-driver %O %A %B %P""")
@click.argument("base")
@click.argument("ours")
@click.argument("theirs")
@click.argument("path", required=False, default="")
def merge_driver_cmd(base, ours, theirs, path):
    from ..store.merge import run_driver

    raise click.exceptions.Exit(run_driver(base, ours, theirs, path, _campaign_system(path)))


def _campaign_system(path: str) -> str | None:
    """The rule system of the campaign holding `path` (git runs the driver at the top of the work tree):
    its counters are what add up (point pools in Open Adventure, Action Dice in Narateer)."""
    from pathlib import Path

    from ..systems import CONFIG, system_name

    parts = Path(path).parts
    cut = next((i for i, part in enumerate(parts) if part in ("characters", "encounters")), 0)
    root = Path.cwd().joinpath(*parts[:cut])
    return system_name(root) if (root / CONFIG).is_file() else None
