"""`narateer report`: a session record, each action in words, for notes, in Markdown (Obsidian, a git host) or HTML.

Pure formatting over log entries: rounds, each action in words (the system's
`summary` hook), its faces, the chance beforehand (the entry's own `chance`,
else the system's `chance` hook) and the outcome (its `headline` hook). The
HTML is one self-contained page: no script, no font, no link to fetch.
"""

from __future__ import annotations

import sys

from .render import headline, summary

HEAD = ("#", "time", "who", "what happened", "faces", "chance", "outcome")


class Struck(str):
    """The words of an entry a later `undo` took back: struck through in Markdown (~~) and HTML (<s>)."""


def undone_ids(entries) -> set:
    """The ids (or seqs, in an older log) that the log's `undo` entries name."""
    return {str((e.get("declaration") or {}).get("undoes")) for e in entries if e.get("command") == "undo"}
NESTED = ("check", "attack", "defense", "opponent")


def sections(log_id: str, entries: list, system, rules) -> dict:
    """One encounter's report as data: its title line and its rounds, each a list of rows."""
    rounds = []
    for label, cells in rows(entries, system, rules, undone_ids(entries)):
        if not rounds or rounds[-1]["title"] != label:
            rounds.append({"title": label, "rows": []})
        rounds[-1]["rows"].append(cells)
    return {"id": log_id, "span": span(entries), "entries": len(entries), "rounds": rounds}


def rows(entries, system, rules, undone=frozenset()):
    """(the round's title, the row) for each entry, in order (streamed: nothing is kept); an entry whose id
    (or seq) is in `undone` has its words `Struck`."""
    current = None
    for entry in entries:
        result = entry.get("result") if isinstance(entry.get("result"), dict) else {}
        if entry.get("command") == "turn start" and isinstance(result.get("round"), int):
            current = result["round"]
        cells = row(entry, result, system, rules)
        if undone and (str(entry.get("id")) in undone or str(entry.get("seq")) in undone):
            cells[3] = Struck(cells[3])
        yield f"Round {current}" if current is not None else "Before the first round", cells


def span(entries) -> str:
    """The date and the first and last clock times of the entries that have a time."""
    first = last = None
    for entry in entries:
        if entry.get("at"):
            first, last = first or str(entry["at"]), str(entry["at"])
    return f"{first[:10]}, {first[11:16]} to {last[11:16]} UTC" if first else "no entries yet"


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
    return "\n".join(_trimmed(markdown_lines(map(_streamed, reports)))) + "\n"


def _streamed(rep: dict) -> tuple:
    """A report built by `sections` as `markdown_lines` and `html_lines` read one: (id, span, count, rows)."""
    return rep["id"], rep["span"], rep["entries"], ((sec["title"], cells) for sec in rep["rounds"] for cells in sec["rows"])


def _trimmed(lines):
    """`lines` without the blank lines at their end."""
    blanks = 0
    for line in lines:
        if line:
            yield from [""] * blanks
            blanks = 0
            yield line
        else:
            blanks += 1


def markdown_lines(reports):
    """The Markdown report, line by line; `reports` yields (id, span, entry count, (round title, row) pairs)."""
    yield from ("# Session report", "")
    for log_id, when, count, pairs in reports:
        yield from (f"## {title(log_id)}", "", f"{when}; {count} entries", "")
        closing = []
        for label, rows in _sections(pairs):
            yield from closing + [f"### {label}", "", "| " + " | ".join(HEAD) + " |",
                                  "|" + "|".join("---:" if h in ("#", "chance") else "---" for h in HEAD) + "|"]
            yield from ("| " + " | ".join(f"~~{_md_cell(c)}~~" if isinstance(c, Struck) else _md_cell(c)
                                          for c in cells) + " |" for cells in rows)
            closing = [""]
        yield from closing


def _sections(pairs):
    """(section label, its rows) for each run of (label, cells) pairs under one label, read as they come."""
    from itertools import groupby

    for label, run in groupby(pairs, key=lambda pair: pair[0]):
        yield label, (cells for _, cells in run)


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
    return "\n".join(html_lines(map(_streamed, reports))) + "\n"


def html_lines(reports):
    """The HTML report, line by line; `reports` as `markdown_lines` reads them."""
    from html import escape

    yield from ("<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                "<title>Session report</title>", f"<style>{STYLE}</style></head><body>", "<h1>Session report</h1>")
    for log_id, when, count, pairs in reports:
        yield from (f"<h2>{escape(title(log_id))}</h2>", f"<p>{escape(when)}; {count} entries</p>")
        closing = []
        for label, rows in _sections(pairs):
            yield from closing + [f"<h3>{escape(label)}</h3>", "<table><thead><tr>"
                                  + "".join(f"<th>{escape(h)}</th>" for h in HEAD) + "</tr></thead><tbody>"]
            yield from ("<tr>" + "".join(f'<td{" class=n" if i in (0, 5) else ""}>{_html_cell(c, escape)}</td>'
                                         for i, c in enumerate(cells)) + "</tr>" for cells in rows)
            closing = ["</tbody></table>"]
        yield from closing
    yield "</body></html>"


def _html_cell(cell, escape) -> str:
    text = escape(str(cell))
    return f"<s>{text}</s>" if isinstance(cell, Struck) else text


def _shown(cells) -> list:
    """`shown(cells)`, keeping which words are struck."""
    from .render import shown

    return [Struck(shown(c)) if isinstance(c, Struck) else shown(c) for c in cells]


def write(fmt: str, logs: list, as_json: bool, system, rules, color: bool = False, seeded: int | None = None):
    """Print the report of `logs` as `render.out(HostKind.report, ...)` prints it, byte for byte, one row at a time."""
    from .render import HostKind, headline, paint, shown
    from .safetext import printable

    out = sys.stdout.write
    if as_json:
        return _write_json(out, fmt, logs, system, rules)
    reports = ((shown(log.id), shown(log.span), log.count,
                ((label, _shown(cells)) for label, cells in rows(log.entries(), system, rules, log.undone)))
               for log in logs)
    lines = _trimmed(markdown_lines(reports)) if fmt == "markdown" else html_lines(reports)
    head = headline(HostKind.report, {"format": fmt, "encounters": []}, system)
    if head is not None:
        out(paint(head[0], head[1], color) + "\n")
    for line in lines:
        out(printable(line) + "\n")
    if seeded is not None:
        out(f"(seeded {seeded})\n")


def _write_json(out, fmt: str, logs: list, system, rules):
    """`{"format": ..., "encounters": [...]}` as `json.dumps` writes it, one row at a time."""
    import json

    def dumps(value):
        return json.dumps(value, ensure_ascii=False)

    out('{"format": ' + dumps(fmt) + ', "encounters": [')
    for n, log in enumerate(logs):
        out((", " if n else "") + f'{{"id": {dumps(log.id)}, "span": {dumps(log.span)}, "entries": {log.count}, "rounds": [')
        section = None
        for label, cells in rows(log.entries(), system, rules):
            if label != section:
                out(("]}, " if section is not None else "") + f'{{"title": {dumps(label)}, "rows": [' + dumps(cells))
                section = label
            else:
                out(", " + dumps(cells))
        out(("]}" if section is not None else "") + "]}")
    out("]}\n")
