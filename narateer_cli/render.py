"""The host's output: JSON for scripts, and text for people through the system's formatters.

`out(kind, data, as_json, system)` prints one JSON object (and nothing else)
with --json; otherwise it asks the campaign's system for the text formatter of
`kind` (its render module), then the host's own (init, check, systems ...).
tabulate is imported only by formatters that print a table.
"""

from __future__ import annotations

import json
import sys


def plain(value):
    """A result as JSON-ready data: a record by its fields in order (or by the render-layer function its
    `_shape` names, "module:function"; or its own `to_json`), mappings and lists item by item. Engines
    return records; this is where they become the JSON shape."""
    shape = getattr(type(value), "_shape", None)
    if isinstance(shape, str):
        return plain(_shape_function(shape)(value))
    if hasattr(value, "to_json"):
        return value.to_json()
    fields = getattr(value, "_fields", None)
    if isinstance(fields, tuple) and not isinstance(value, tuple):
        return {name: plain(getattr(value, name)) for name in fields}
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def _shape_function(path: str):
    import importlib

    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def out(kind: str, data, as_json: bool, system=None):
    """Print one result: JSON, or the text of the system's formatter for `kind` (else the host's)."""
    data = plain(data)
    if as_json:
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
        return
    formatter = (system.formatter(kind) if system is not None else None) or FORMATTERS.get(kind, generic)
    text = formatter(data)
    sys.stdout.write(text.rstrip("\n") + "\n")


def table(rows, headers, **kw) -> str:
    from tabulate import tabulate

    return tabulate(rows, headers=headers, tablefmt=kw.pop("tablefmt", "simple"), **kw)


def init(data: dict) -> str:
    text = f"campaign ready in {data['campaign']}"
    if data["example"]:
        text += f" with {len(data['created']) - 1} example files"
        if data.get("next"):  # the system's example_hint: what to do next in its example
            text += f"; {data['next']}"
    return text


def encounter_end(data: dict) -> str:
    return f"encounter {data['id']} ended; changes outside encounters now go to the campaign log"


def git_setup(data: dict) -> str:
    if data["driver"]:
        return "narateer merge driver registered in this clone; .gitattributes ready"
    return ".gitattributes ready; not in a git clone, so no merge driver yet: run `narateer git-setup` after `git init`"


def new(data: dict) -> str:
    return f"created {data['file']}"


def problem(p) -> str:
    """A structured problem (store.schema.Problem: file, line, key, message, fix) as `file:line: message`."""
    return f"{p.file}:{p.line}: {p.message}" + (f"; {p.fix}" if p.fix else "")


def check(data: dict) -> str:
    return "\n".join(data["problems"]) if data["problems"] else "campaign ok"


def encounter_new(data: dict) -> str:
    return f"encounter {data['id']} created and current ({', '.join(data['participants']) or 'no participants'})"


def undo(data: dict) -> str:
    return f"undid entry {data['undone']} of {data['encounter']} ({', '.join(data['files'])})"


def verify(data: dict) -> str:
    if data["ok"]:
        text = f"encounter {data['encounter']}: {data['entries']} entries verified, no problems"
    else:
        text = f"encounter {data['encounter']}: {data['problem']}"
    if data.get("secret"):
        text += f"\nstill secret: {', '.join(data['secret'])}"
    if data.get("lost"):
        text += f"\nprivate record lost here (stays a commitment): {', '.join(data['lost'])}"
    return text


def unveil(data: dict) -> str:
    lines = [f"unveiled {u['entry']} in {u['log']} (entry {u['unveil']})" for u in data["unveiled"]]
    if data["lost"]:
        lines.append(f"private record lost, still a commitment: {', '.join(data['lost'])}")
    return "\n".join(lines) or "nothing to unveil"


def stats(data: dict) -> str:
    """P-LUCK-2 as a table and a terminal chart: successes against expected, and the percentile."""
    rows = data["actors"]
    if not rows:
        return "no checks logged" + (f" ({data['scope']['sealed']} still secret)" if data["scope"]["sealed"] else "")
    head = table([(r["actor"], r["checks"], f"{r['successes']}", f"{r['expected']:.2f}",
                   "-" if r["percentile"] is None else f"{r['percentile']:.1f}%", r["dice_spent"],
                   f"{r['crits']} / {r['crits_expected']:.2f}") for r in rows],
                 ["actor", "checks", "successes", "expected", "luck", "dice spent", "crits / expected"],
                 disable_numparse=True, colalign=("left",) + ("right",) * 6)
    width = max(len(r["actor"]) for r in rows)
    chart = ["", "luck (percentile of possible sessions; | marks 50%)"]
    for r in rows:
        pct = r["percentile"] if r["percentile"] is not None else 0
        filled = round(pct / 5)
        bar = ("#" * filled).ljust(20)
        chart.append(f"{r['actor']:<{width}}  {bar[:10]}|{bar[10:]}  {pct:5.1f}%")
    if data["scope"]["sealed"]:
        chart.append(f"({data['scope']['sealed']} secret roll(s) count once unveiled)")
    return head + "\n" + "\n".join(chart)


def systems(data: dict) -> str:
    rows = [("*" if s["current"] else "", s["name"], s["title"], s["summary"]) for s in data["systems"]]
    return table(rows, ["", "system", "title", "what it plays"])


def generic(data: dict) -> str:
    return "\n".join(f"{k}: {v}" for k, v in data.items())


FORMATTERS = {
    "init": init, "new": new, "check": check, "encounter_new": encounter_new, "undo": undo, "verify": verify,
    "systems": systems, "git_setup": git_setup, "encounter_end": encounter_end,
    "unveil": unveil, "stats": stats,
}
