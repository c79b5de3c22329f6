"""`narateer check`: every problem in a campaign, as structured values (store.schema.Problem: file,
line, key or entry id, message); the render layer shows each as `file:line: message`.

Problems are collected, not raised, so one run lists them all.
"""

from __future__ import annotations

import re

from ..errors import NarateerError
from .schema import Problem

_PLACE = re.compile(r"^([^\s:]+):(\d+): (.*)$", re.S)


def _place(label: str, exc: NarateerError, root=None) -> Problem:
    """An error raised while reading a file, as a problem at its file and line (the line of the key
    it names when the error does not say)."""
    text = exc.line()
    placed = _PLACE.match(text)
    if placed:
        return Problem(placed.group(1), int(placed.group(2)), "", placed.group(3))
    if text.startswith(label + ": "):
        text = text[len(label) + 2:]
    return Problem(label, _key_line(root, label, text), "", text)


def _key_line(root, label: str, message: str) -> int:
    """The line of the key a message names (`rules.tiers[1].name` -> its `name:`), else 1."""
    match = re.search(r"rules\.([\w.\[\]]+)", message) or re.match(r"(\w+)", message)
    if root is None or match is None:
        return 1
    key = re.sub(r"\[\d+\]", "", match.group(1)).split(".")[-1]
    from . import yamlio

    try:  # a FIFO or a device in a file's place must not hang check (G-TRUST-4)
        lines = yamlio.read_text(root / label, label).splitlines()
    except NarateerError:
        return 1
    start = next((i for i, line in enumerate(lines) if line.startswith("rules:")), 0) if "rules." in message else 0
    for number, line in enumerate(lines[start:], start + 1):
        if re.match(rf"\s*(- )?{re.escape(key)}\s*:", line) or re.search(rf"[{{,]\s*{re.escape(key)}\s*:", line):
            return number
    return 1


def validate_campaign(campaign) -> list[Problem]:
    from . import encounters

    problems = []
    try:
        rules = campaign.rules
    except NarateerError as exc:
        return [_place("narateer.yaml", exc, campaign.root)]
    root = campaign.root
    sheets = _check_sheets(campaign, problems)
    folder = root / "encounters"
    logged = {}  # char -> (at, dice, log label, line, entry id): the last logged dice (G-MERGE-5)
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        label = f"encounters/{path.name}"
        try:
            if path.name.endswith(".log.yaml"):
                _check_log(path, label, campaign, problems, logged)
                continue
            state = encounters.load_state(root, path.stem, campaign.system)
            for name in state["participants"]:
                if name not in sheets:
                    problems.append(Problem(label, 1, name, f"participant {name!r} has no valid characters/{name}.yaml"))
        except NarateerError as exc:
            problems.append(_place(label, exc, root))
    _compare_dice(sheets, logged, problems)
    current = campaign.config().get("encounter")
    if current and not (folder / f"{current}.yaml").exists():
        problems.append(Problem("narateer.yaml", 1, "encounter",
                                f"current encounter {current!r} has no encounters/{current}.yaml"))
    problems.extend(_git_problems(root))
    return problems


def _check_sheets(campaign, problems) -> dict:
    """Every character file, through the parse caches; returns id -> (SheetFile). The system's sheet
    schema lists every problem of a sheet (S-SYS-4), near-miss top-level keys included."""
    from .campaign import ID_RE

    root = campaign.root
    table = campaign.system.hook("sheet_schema")
    sheets = {}
    for path in sorted((root / "characters").glob("*")) if (root / "characters").is_dir() else []:
        label = f"characters/{path.name}"
        if path.suffix != ".yaml":
            continue
        if not ID_RE.match(path.stem):
            problems.append(Problem(label, 1, "", "file name is not a valid character id (letters, digits, - and _)"))
            continue
        try:
            found = _schema_problems(path, label, table, campaign.rules) if table is not None else []
            problems.extend(found)
            if not any(p.severity == "error" for p in found):
                sheets[path.stem] = campaign.load(path.stem)
        except NarateerError as exc:
            problems.append(_place(label, exc, root))
    return sheets


def _schema_problems(path, label, table, rules) -> list:
    from . import schema, yamlio

    doc = yamlio.load_rt(yamlio.read_text(path, label), label)
    return schema.problems(doc, table, label, rules) if isinstance(doc, dict) else []


def _check_log(path, label, campaign, problems, logged):
    """One log, line by line: each entry re-checked by its system's own verify (S-SYS-6), continuity and
    merges by the history reader (G-LOG-3, G-MERGE-2)."""
    from . import history
    from .encounters import log_path

    system, rules = campaign.system, campaign.rules
    path = log_path(path.parent.parent, path.name[: -len(".log.yaml")])  # no link leading outside
    from .secrets import checker

    hist = history.read(path, label, checker(campaign.root, system, rules)[1])
    if hist.problem:
        problems.append(hist.problem)
        return
    final = hist.final_dice() or {}
    for cid, (dice, line, eid, at) in hist.last_after.items():
        if at >= logged.get(cid, ("",))[0]:
            logged[cid] = (at, final.get(cid, dice), label, line, eid)


def _compare_dice(sheets, logged, problems):
    """G-MERGE-5: each sheet's dice against the last dice the logs record for it."""
    for cid, (_, dice, label, line, eid) in sorted(logged.items()):
        sf = sheets.get(cid)
        if sf is None:
            continue
        held = {k: v for k, v in sf.sheet.dice.items() if v}
        if held != {k: v for k, v in (dice or {}).items() if v}:
            where = (sf.places or {}).get("ready", [None])[0]
            number = where + 1 if isinstance(where, int) else _key_line(sf.path.parent.parent, sf.label, "action_dice")
            problems.append(Problem(sf.label, number, "action_dice", f"action dice {sf.sheet.dice} differ from the last "
                                    f"logged {dice} ({label}:{line}, entry {eid}); a merge or a hand edit lost a change"))


def _git_problems(root) -> list[Problem]:
    """G-TRUST-1 tracked private files; G-MERGE-1 the merge driver not registered in this clone."""
    from . import gitops

    return gitops.check_problems(root)
