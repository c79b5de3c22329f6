"""`narateer report` (T-LOG): a session record for notes, in Markdown (Obsidian, a git host) or HTML.

Pure formatting over log entries: rounds, each action in words (the system's
`summary` hook), its faces, the chance beforehand (the entry's own `chance`,
else the system's `chance` hook) and the outcome (its `headline` hook). The
HTML is one self-contained page: no script, no font, no link to fetch.
"""

from __future__ import annotations

from .render import headline, summary

HEAD = ("#", "time", "who", "what happened", "faces", "chance", "outcome")
NESTED = ("check", "attack", "defense", "opponent")


def sections(log_id: str, entries: list, system, rules) -> dict:
    """One encounter's report as data: its title line and its rounds, each a list of rows."""
    rounds, current = [], None
    for entry in entries:
        result = entry.get("result") if isinstance(entry.get("result"), dict) else {}
        if entry.get("command") == "turn start" and isinstance(result.get("round"), int):
            current = result["round"]
        label = f"Round {current}" if current is not None else "Before the first round"
        if not rounds or rounds[-1]["title"] != label:
            rounds.append({"title": label, "rows": []})
        rounds[-1]["rows"].append(row(entry, result, system, rules))
    times = [str(e.get("at") or "") for e in entries if e.get("at")]
    span = f"{times[0][:10]}, {times[0][11:16]} to {times[-1][11:16]} UTC" if times else "no entries yet"
    return {"id": log_id, "span": span, "entries": len(entries), "rounds": rounds}


def row(entry: dict, result: dict, system, rules) -> list[str]:
    checks = _checks(entry, result, system)
    faces = "; ".join(faces_words(c, system) for c in checks if c.get("final_faces") or c.get("faces"))
    chance = "; ".join(filter(None, (chance_text(c, system, rules) for c in checks)))
    head = headline((entry.get("command") or "").replace(" ", "_"), result, system)
    return [str(entry.get("seq", "")), _clock(entry.get("at")), entry.get("actor") or "-", summary(entry, system),
            faces or "-", chance or "-", head[0] if head else "-"]


def _checks(entry: dict, result: dict, system) -> list:
    """The rolls of an entry: the result itself or its nested check, else what the system's `checks` hook
    finds (d20-cards: one roll per target)."""
    checks = [c for c in [result, *(result.get(k) for k in NESTED)] if isinstance(c, dict) and "total" in c]
    if checks or system is None or system.hook("checks") is None:
        return checks
    from .luck import find

    return [c for c in find(system.hook("checks"), result, entry.get("declaration")) if "total" in c]


def faces_words(check: dict, system) -> str:
    faces = check.get("final_faces") or check.get("faces") or []
    words = system.hook("face_names") if system is not None else None
    return " ".join(words(f) if words else _face(f) for f in faces)


def _face(face) -> str:
    """A face as written; a die that rolled again (a list of faces) as 6+2."""
    return "+".join(map(str, face)) if isinstance(face, (list, tuple)) else str(face)


def chance_text(check: dict, system, rules) -> str | None:
    """The chance beforehand: the check's own `chance` when logged, else the system's `chance` hook."""
    value = check.get("chance")
    if value is None and system is not None and system.hook("chance") is not None:
        try:
            value = system.hook("chance")(check, rules)
        except (KeyError, TypeError, ValueError):
            value = None
    if value is None:
        return None
    if isinstance(value, str) and "/" in value:
        from fractions import Fraction

        value = Fraction(value)
    return f"{float(value) * 100:.1f}%"


def title(log_id: str) -> str:
    return "Outside encounters (the campaign log)" if log_id == "campaign" else f"Encounter {log_id}"


def _clock(at) -> str:
    text = str(at or "")
    return text[11:19] if len(text) >= 19 else "-"


def markdown(reports: list) -> str:
    out = []
    for rep in reports:
        out += [f"## {title(rep['id'])}", "", f"{rep['span']}; {rep['entries']} entries", ""]
        for section in rep["rounds"]:
            out += [f"### {section['title']}", "", "| " + " | ".join(HEAD) + " |",
                    "|" + "|".join("---:" if h in ("#", "chance") else "---" for h in HEAD) + "|"]
            out += ["| " + " | ".join(_md_cell(c) for c in cells) + " |" for cells in section["rows"]]
            out.append("")
    return "# Session report\n\n" + "\n".join(out).rstrip() + "\n"


def _md_cell(text: str) -> str:
    """A table cell: pipes escaped, no line breaks, nothing a Markdown viewer would read as markup."""
    text = " ".join(str(text).split())
    for ch in ("\\", "|", "*", "_", "`", "[", "]", "<"):
        text = text.replace(ch, "\\" + ch)
    return text


STYLE = ("body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em}"
         "table{border-collapse:collapse;width:100%;margin-bottom:1.5em}"
         "th,td{border:1px solid #ccc;padding:.3em .5em;text-align:left;vertical-align:top}"
         "th{background:#f2f2f2}td.n{text-align:right}")


def html(reports: list) -> str:
    from html import escape

    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>Session report</title>", f"<style>{STYLE}</style></head><body>", "<h1>Session report</h1>"]
    for rep in reports:
        out += [f"<h2>{escape(title(rep['id']))}</h2>", f"<p>{escape(rep['span'])}; {rep['entries']} entries</p>"]
        for section in rep["rounds"]:
            out += [f"<h3>{escape(section['title'])}</h3>", "<table><thead><tr>"
                    + "".join(f"<th>{escape(h)}</th>" for h in HEAD) + "</tr></thead><tbody>"]
            for cells in section["rows"]:
                out.append("<tr>" + "".join(f'<td{" class=n" if i in (0, 5) else ""}>{escape(str(c))}</td>'
                                            for i, c in enumerate(cells)) + "</tr>")
            out.append("</tbody></table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
