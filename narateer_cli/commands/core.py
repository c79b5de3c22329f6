"""Campaign and character commands: init, new, show, readiness, check."""

from __future__ import annotations

from pathlib import Path

import click

from ..systems import DEFAULT
from .common import command, emit

GITIGNORE_LINE = ".narateer/"
GITATTRIBUTES = "# encounter logs only grow: two branches that each appended merge cleanly\nencounters/*.log.yaml merge=union\n"
CONFIG_TEXT = """# narateer campaign settings
# system: the rule system this campaign plays (`narateer systems` lists them)
system: {system}
# rules: override any key of the system's ruleset ({rules_file}) here:
# rules:
#   KEY: VALUE
autocommit: false
"""


@command(help="""Create a campaign in DIR (default: here): narateer.yaml, characters/, encounters/.

\b
Example:
  narateer init my-campaign --example
  narateer init my-campaign --system narateer""")
@click.argument("directory", required=False, default=".")
@click.option("--example", is_flag=True, help="Add the system's example characters and an encounter.")
@click.option("--system", "system_name", metavar="NAME", default=DEFAULT, show_default=True,
              help="The rule system the campaign plays (see `narateer systems`).")
def init_cmd(app, directory, example, system_name):
    from ..errors import BadInput
    from ..store.txn import atomic_write
    from ..systems import load_system

    system = load_system(system_name)  # S-SYS-1: an unknown name is exit 2, before anything is made
    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    root = root.resolve()
    created = []
    if (root / "narateer.yaml").exists():
        raise BadInput(f"{directory}: already a campaign (narateer.yaml exists)", fix="use it as it is")
    for folder in ("characters", "encounters", *system.folders):  # the private folder is made when first used
        (root / folder).mkdir(exist_ok=True)
    _ensure_line(root, ".gitignore", GITIGNORE_LINE)
    from ..store import gitops

    gitops.setup(root)  # .gitattributes, and the merge driver when in a git clone (G-MERGE-1)
    if example and system.example_dir is not None:
        created += _copy_example(root, system.example_dir, atomic_write)
    atomic_write(root, root / "narateer.yaml", CONFIG_TEXT.format(
        system=system.name, rules_file=f"{system.package.replace('.', '/')}/{system.rules_file}"))
    created.insert(0, "narateer.yaml")
    emit(app, "init", {"campaign": str(root), "created": created, "example": example,
                       "next": system.example_hint if example else None})


def _copy_example(root: Path, source: Path, atomic_write) -> list[str]:
    """The system's example campaign files (characters/, encounters/ ...), never over an existing file."""
    created = []
    for folder in sorted(p for p in source.iterdir() if p.is_dir()):
        (root / folder.name).mkdir(exist_ok=True)
        for item in sorted(folder.iterdir()):
            if item.name.endswith(".yaml") and not (root / folder.name / item.name).exists():
                atomic_write(root, root / folder.name / item.name, item.read_text(encoding="utf-8"))
                created.append(f"{folder.name}/{item.name}")
    return created


def _ensure_line(root: Path, name: str, line: str, block: str | None = None):
    path = root / name
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if line not in text.splitlines():
        if text and not text.endswith("\n"):
            text += "\n"
        path.write_text(text + (block or line + "\n"), encoding="utf-8")


@command(name="check", help="""Validate the whole campaign: every sheet, every encounter, the ruleset overrides.

Lists every problem as file:line: message and exits 1 when there are any.

\b
Example:
  narateer check""")
def check_cmd(app):
    from ..store.validate import validate_campaign

    problems = validate_campaign(app.campaign)
    emit(app, "check", {"system": app.campaign.system.name, "problems": problems, "ok": not problems})
    if problems:
        raise click.exceptions.Exit(1)


@command(help="""List the installed rule systems; the campaign's own is marked (S-SYS-2).

\b
Example:
  narateer systems""")
def systems_cmd(app):
    from .. import systems

    current = systems.system_name(systems.find_campaign(app.campaign_dir))
    rows = []
    for system in systems.loaded_systems():  # an add-on that fails to load is left out
        name = system.name
        rows.append({"name": system.name, "title": system.title, "summary": system.summary,
                     "builtin": name in systems.BUILTIN, "current": name == current})
    emit(app, "systems", {"systems": rows, "current": current})
