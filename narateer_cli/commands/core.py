"""Campaign and character commands: init, new, show, readiness, check."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..systems import DEFAULT
from .common import command, emit

if TYPE_CHECKING:
    from pathlib import Path

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

With --git the campaign is ready to share: `git init` (unless DIR is
already in a git work tree), .gitattributes, the merge driver
(`narateer git-setup`) and a first commit of the campaign's files.

\b
Example:
  narateer init my-campaign --example
  narateer init my-campaign --system narateer --git""")
@click.argument("directory", required=False, default=".")
@click.option("--example", is_flag=True, help="Add the system's example characters and an encounter.")
@click.option("--system", "system_name", metavar="NAME", default=DEFAULT, show_default=True,
              help="The rule system the campaign plays (see `narateer systems`).")
@click.option("--git", "use_git", is_flag=True,
              help="Also make it a git repository with the merge driver set up and a first commit.")
def init_cmd(app, directory, example, system_name, use_git):
    from ..store import gitops
    from ..systems import load_system

    system = load_system(system_name)  # an unknown game is exit 2, before anything is made
    if use_git:
        _require_git()
    root = _new_campaign_folder(directory, system)
    made_repo = gitops.start(root) if use_git else False
    shared = gitops.setup(root)  # .gitattributes (how git merges each file), and the driver in a git clone
    created = _write_campaign(root, system, example)
    data = {"campaign": str(root), "created": created, "example": example,
            "next": system.example_hint if example else None}
    if use_git:
        data["git"] = {"initialized": made_repo, "driver": shared["driver"],
                       "commit": gitops.first_commit(root, _campaign_paths(root, system), _first_message(system))}
    from ..render import HostKind

    emit(app, HostKind.init, data)


def _new_campaign_folder(directory: str, system) -> Path:
    """DIR with the campaign's folders and .gitignore; bad input when it already is a campaign."""
    from ..errors import BadInput

    from pathlib import Path

    root = Path(directory)
    root.mkdir(parents=True, exist_ok=True)
    root = root.resolve()
    if (root / "narateer.yaml").exists():
        raise BadInput(f"{directory}: already a campaign (narateer.yaml exists)", fix="use it as it is")
    for folder in ("characters", "encounters", *system.folders):  # the private folder is made when first used
        (root / folder).mkdir(exist_ok=True)
    _ensure_line(root, ".gitignore", GITIGNORE_LINE)
    return root


def _write_campaign(root: Path, system, example: bool) -> list[str]:
    """The example files (with --example), then narateer.yaml; the files made, narateer.yaml first."""
    from ..store.txn import atomic_write

    created = _copy_example(root, system.example_dir, atomic_write) if example and system.example_dir else []
    atomic_write(root, root / "narateer.yaml", CONFIG_TEXT.format(
        system=system.name, rules_file=f"{system.package.replace('.', '/')}/{system.rules_file}"))
    return ["narateer.yaml", *created]


def _require_git():
    """`init --git` without git on the PATH: bad input before anything is made."""
    import shutil

    from ..errors import BadInput

    if shutil.which("git") is None:
        raise BadInput("--git needs git, and git is not installed (not on the PATH)",
                       fix="install git, or run `narateer init` without --git")


def _campaign_paths(root: Path, system) -> list[str]:
    """What the first commit holds: the campaign's own files and folders (an empty folder has none)."""
    names = [".gitignore", ".gitattributes", "narateer.yaml", "characters", "encounters", *system.folders]
    return [name for name in dict.fromkeys(names)
            if (root / name).is_file() or any(p.is_file() for p in (root / name).rglob("*"))]


def _first_message(system) -> str:
    return (f"Start a {system.title} campaign (narateer init --git)\n\n"
            "Sheets and encounter states merge by narateer's driver, logs by union: run `narateer git-setup`\n"
            "once in every clone.")


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
    cites = [getattr(p, "rule", None) for p in problems]  # rule ids for --json, beside the text people read
    from ..render import HostKind

    emit(app, HostKind.check, {"system": app.campaign.system.name, "problems": problems, "problem_rules": cites,
                        "ok": not problems})
    if problems:
        raise click.exceptions.Exit(1)


@command(help="""List the installed rule systems; the campaign's own is marked.

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
    from ..render import HostKind

    emit(app, HostKind.systems, {"systems": rows, "current": current})
