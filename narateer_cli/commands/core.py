"""Campaign and character commands: init, new, show, readiness, check."""

from __future__ import annotations

from pathlib import Path

import click

from .common import Session, command, emit, nonneg, split_pairs

GITIGNORE_LINE = ".narateer/"
GITATTRIBUTES = "# encounter logs only grow: two branches that each appended merge cleanly\nencounters/*.log.yaml merge=union\n"
CONFIG_TEXT = """# narateer campaign settings
# system: the rule system this campaign plays (`narateer systems` lists them)
system: {system}
# rules: override any ruleset key (see the README), e.g.
# rules:
#   disadvantage: dotted
autocommit: false
"""


@command(help="""Create a campaign in DIR (default: here): narateer.yaml, characters/, encounters/.

\b
Example:
  narateer init my-campaign --example
  narateer init my-campaign --system narateer""")
@click.argument("directory", required=False, default=".")
@click.option("--example", is_flag=True, help="Add the system's example characters and an encounter.")
@click.option("--system", "system_name", metavar="NAME", default="narateer", show_default=True,
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
    for folder in ("characters", "encounters", ".narateer"):
        (root / folder).mkdir(exist_ok=True)
    _ensure_line(root, ".gitignore", GITIGNORE_LINE)
    _ensure_line(root, ".gitattributes", GITATTRIBUTES.strip().splitlines()[-1], GITATTRIBUTES)
    if example and system.example_dir is not None:
        created += _copy_example(root, system.example_dir, atomic_write)
    atomic_write(root, root / "narateer.yaml", CONFIG_TEXT.format(system=system.name))
    created.insert(0, "narateer.yaml")
    emit(app, "init", {"campaign": str(root), "created": created, "example": example})


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


@command(help="""Create characters/ID.yaml.

\b
Example:
  narateer new selka --name Selka --vital agility=3 --vital cognition=2 --skill stealth=2 --dice 5""")
@click.argument("char_id")
@click.option("--name", help="Display name (default: the id).")
@click.option("--vital", multiple=True, metavar="K=V", help="A vital, repeatable.")
@click.option("--skill", multiple=True, metavar="K=V", help="A skill level, repeatable.")
@click.option("--dice", type=int, default=5, show_default=True, help="Ready Action Dice.")
def new_cmd(app, char_id, name, vital, skill, dice):
    from ..engine.errors import BadInput
    from ..store import yamlio
    from ..store.campaign import check_id

    check_id(char_id)
    with Session(app) as s:
        rules = s.rules
        nonneg("--dice", dice, rules.max_state_dice)
        path = s.campaign.sheet_path(char_id)
        if path.exists():
            raise BadInput(f"characters/{char_id}.yaml already exists", fix="edit it, or choose another id")
        vitals = _pairs(vital, "--vital", 100)
        for key in vitals:
            if key not in rules.vitals:
                raise BadInput(f"unknown vital {key!r}", fix="known: " + ", ".join(rules.vitals))
        skills = _pairs(skill, "--skill", 100)
        for key in skills:
            if key not in rules.skills:
                raise BadInput(f"unknown skill {key!r}", fix="known: " + ", ".join(sorted(rules.skills)))
        doc = {"name": name or char_id, "vitals": vitals, "skills": skills,
               "action_dice": {"ready": dice, "used": 0}, "conditions": []}
        text = yamlio.emit_text(doc)
        s.txn.write(path, text)
        s.commit()
    emit(app, "new", {"id": char_id, "file": f"characters/{char_id}.yaml"})


def _pairs(items, option, high):
    """--vital / --skill NAME=NUMBER, each number from 0 to `high`."""
    from ..engine.errors import BadInput

    example = "stealth=2" if option == "--skill" else "agility=3"
    out = {}
    for key, value in split_pairs(items, option, example).items():
        try:
            number = int(value)
        except ValueError:
            raise BadInput(f"{option} {key}={value!r}: {value!r} is not a whole number",
                           fix=f"for example {option} {example}") from None
        nonneg(f"{option} {key}", number, high)
        out[key.lower()] = number
    return out


@command(help="""Show a character sheet with its Readiness table.

\b
Example:
  narateer show selka""")
@click.argument("char")
def show_cmd(app, char):
    with Session(app, write=False) as s:
        sheet = s.sheet(char)
        rules = s.rules
        names = sorted(set(sheet.skills) | set(rules.skills))
        skills = []
        for name in names:
            sk = sheet.skill(name, rules)
            skills.append({"skill": name, "level": sk.level, "vital": sk.vital, "trained": sk.trained,
                           "readiness": sheet.readiness(name, rules), "uses": sk.uses})
    emit(app, "show", {"id": sheet.id, "name": sheet.name, "vitals": sheet.vitals, "dice": sheet.dice,
                       "conditions": list(sheet.conditions), "movement": sheet.movement, "skills": skills})


@command(help="""Readiness Scores, 1 + (Linked Vital + SL) // 2, at least 2 (R-RDY-1).

\b
Examples:
  narateer readiness kaelin insight
  narateer readiness kaelin --write""")
@click.argument("char")
@click.argument("skills", nargs=-1)
@click.option("--write", is_flag=True, help="Record the scores on the sheet under `readiness:`.")
def readiness_cmd(app, char, skills, write):
    with Session(app, write=write) as s:
        sheet = s.sheet(char)
        names = [n.lower() for n in skills] or sorted(sheet.skills)
        scores = {sheet.skill(n, s.rules).name: sheet.readiness(n, s.rules) for n in names}
        if write:
            s.set_sheet(char, readiness=scores)
            s.commit()
    emit(app, "readiness", {"actor": sheet.id, "readiness": scores, "written": write})


@command(name="check", help="""Validate the whole campaign: every sheet, every encounter, the ruleset overrides.

Lists every problem as file:line: message and exits 1 when there are any.

\b
Example:
  narateer check""")
def check_cmd(app):
    from ..store.validate import validate_campaign

    problems = validate_campaign(app.campaign)
    emit(app, "check", {"problems": problems, "ok": not problems})
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
    for name in systems.installed():
        system = systems.load_system(name)
        rows.append({"name": system.name, "title": system.title, "summary": system.summary,
                     "builtin": name in systems.BUILTIN, "current": name == current})
    emit(app, "systems", {"systems": rows, "current": current})
