"""`narateer check`: every problem in a campaign, as `file:line: message`.

Problems are collected, not raised, so one run lists them all.
"""

from __future__ import annotations

import re

from ..errors import NarateerError

_PLACE = re.compile(r"^([^\s:]+):(\d+): ")


def _place(label: str, exc: NarateerError, root=None) -> str:
    text = exc.line()
    if _PLACE.match(text):
        return text
    if text.startswith(label + ": "):
        text = text[len(label) + 2:]
    return f"{label}:{_key_line(root, label, text)}: {text}"


def _key_line(root, label: str, message: str) -> int:
    """The line of the key a message names (`rules.tiers[1].name` -> its `name:`), else 1."""
    match = re.search(r"rules\.([\w.\[\]]+)", message) or re.match(r"(\w+)", message)
    if root is None or match is None:
        return 1
    key = re.sub(r"\[\d+\]", "", match.group(1)).split(".")[-1]
    try:
        lines = (root / label).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return 1
    start = next((i for i, line in enumerate(lines) if line.startswith("rules:")), 0) if "rules." in message else 0
    for number, line in enumerate(lines[start:], start + 1):
        if re.match(rf"\s*(- )?{re.escape(key)}\s*:", line) or re.search(rf"[{{,]\s*{re.escape(key)}\s*:", line):
            return number
    return 1


def validate_campaign(campaign) -> list[str]:
    from . import encounters, schema, yamlio
    from .campaign import ID_RE

    problems = []
    try:
        rules = campaign.rules
    except NarateerError as exc:
        return [_place("narateer.yaml", exc, campaign.root)]
    root = campaign.root
    table = campaign.system.hook("sheet_schema")
    sheets = set()
    for path in sorted((root / "characters").glob("*")) if (root / "characters").is_dir() else []:
        label = f"characters/{path.name}"
        if path.suffix != ".yaml":
            continue
        if not ID_RE.match(path.stem):
            problems.append(f"{label}:1: file name is not a valid character id (letters, digits, - and _)")
            continue
        try:
            doc = yamlio.load_rt(yamlio.read_text(path, label), label)
            found = schema.problems(doc, table, label, rules) if table is not None and isinstance(doc, dict) else []
            problems.extend(p.text() for p in found)
            if any(p.severity == "error" for p in found):
                continue
            campaign.system.parse_sheet(path.stem, doc, label, rules)
            sheets.add(path.stem)
        except NarateerError as exc:
            problems.append(_place(label, exc, root))
    folder = root / "encounters"
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        label = f"encounters/{path.name}"
        try:
            if path.name.endswith(".log.yaml"):
                text = yamlio.read_text(path, label)
                data = yamlio.load_safe(text, label)
                if data is not None and not isinstance(data, list):
                    problems.append(f"{label}:1: a log must be a list of entries")
                elif data:
                    problem = campaign.system.verify_log(data, rules)
                    if problem:
                        problems.append(f"{label}:{_entry_line(text, problem)}: {problem}")
                continue
            state = encounters.load_state(root, path.stem, campaign.system)
            for name in state["participants"]:
                if name not in sheets:
                    problems.append(f"{label}:1: participant {name!r} has no valid characters/{name}.yaml")
        except NarateerError as exc:
            problems.append(_place(label, exc, root))
    current = campaign.config().get("encounter")
    if current and not (folder / f"{current}.yaml").exists():
        problems.append(f"narateer.yaml:1: current encounter {current!r} has no encounters/{current}.yaml")
    return problems


def _entry_line(text: str, problem: str) -> int:
    """The line where the entry a verify problem names begins (one-line flow or JSON entries, or block style)."""
    match = re.match(r"entry (\d+) ", problem)
    if match:
        seq = match.group(1)
        found = re.search(rf'^- (?:\{{\s*"?seq"?\s*:\s*{seq}\s*[,}}]|seq:\s*{seq}\s*$)', text, re.M)
        if found:
            return text.count("\n", 0, found.start()) + 1
    return 1
