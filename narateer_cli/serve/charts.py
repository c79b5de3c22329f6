"""The luck page of `stats`: expected against actual successes over time, per character,
as SVG drawn here on the server (no script, no library from the internet).

`series` reads every log of the campaign as a stream and follows each character's checks in log
order: the expected count grows by each check's chance beforehand (logged as `chance`, exact,
or from the system's `chance` hook), the actual count by each success. Checks without a known
chance (secret ones among them) are not counted.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from pathlib import Path


def _reader(system, rules):
    """(checks in a result, check -> (actor, success, chance or None)): the luck module's hooks,
    the same reading `stats` makes."""
    from .. import luck

    checks, _, read = luck.hooks(system)

    def judge(check):
        got = read(check, rules)
        success = got.get("success")
        chance = luck.chance_of(system, rules, check) if success is not None else None
        return got.get("actor"), bool(success), chance
    return checks, judge


def _entries(root: Path):
    """(log id, entry) of every log of the campaign, streamed; broken lines are passed over."""
    from ..store import loglines

    for path in sorted((root / "encounters").glob("*.log.yaml")):
        log_id = path.name[: -len(".log.yaml")]
        for _, entry, problem in loglines.iter_lines(path, f"encounters/{path.name}"):
            if not problem and entry is not None:
                yield log_id, entry


def series(root: Path, system, rules, skip: set = frozenset()) -> dict:
    """{actor: [(expected so far, successes so far), ...]} over every log of the campaign, in log
    order; an undone entry does not count."""
    from ..store.loglines import entry_id

    undone = {(log_id, str((e.get("declaration") or {}).get("undoes"))) for log_id, e in _entries(root)
              if e.get("command") == "undo"}
    checks, judge = _reader(system, rules)
    out: dict = {}
    for log_id, entry in _entries(root):
        result = entry.get("result")
        if (log_id, entry_id(entry)) in undone or not isinstance(result, dict):
            continue
        for check in checks(result):
            actor, success, chance = judge(check)
            if actor is None or str(actor) in skip or chance is None:
                continue
            points = out.setdefault(str(actor), [])
            expected, actual = points[-1] if points else (Fraction(0), 0)
            points.append((expected + chance, actual + (1 if success else 0)))
    return out


def svg(points: list, width: int = 360, height: int = 180) -> str:
    """Two lines over the checks: expected (dashed) and actual successes (solid)."""
    pad = 28
    n = len(points)
    top = max(1, max(max(float(e), a) for e, a in points))

    def xy(i, v):
        x = pad + (width - 2 * pad) * (i / max(1, n))
        y = height - pad - (height - 2 * pad) * (v / top)
        return f"{x:.1f},{y:.1f}"

    expected = " ".join([xy(0, 0)] + [xy(i + 1, float(e)) for i, (e, _) in enumerate(points)])
    actual = " ".join([xy(0, 0)] + [xy(i + 1, a) for i, (_, a) in enumerate(points)])
    last_e, last_a = points[-1]
    label = f"{plural(n, 'check')}: {plural(last_a, 'success', 'successes')}, {float(last_e):.1f} expected"
    return (f"<svg class=\"luck\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"{escape(label)}\">"
            f"<line class=\"axis\" x1=\"{pad}\" y1=\"{height - pad}\" x2=\"{width - pad}\" y2=\"{height - pad}\"/>"
            f"<line class=\"axis\" x1=\"{pad}\" y1=\"{pad}\" x2=\"{pad}\" y2=\"{height - pad}\"/>"
            f"<text x=\"4\" y=\"{pad + 4}\">{top:g}</text><text x=\"4\" y=\"{height - pad}\">0</text>"
            f"<polyline class=\"expected\" points=\"{expected}\"/><polyline class=\"actual\" points=\"{actual}\"/>"
            f"<text x=\"{pad}\" y=\"{height - 6}\">{escape(label)}</text></svg>")


def plural(n: int, one: str, many: str | None = None) -> str:
    """`1 check`, `2 checks`."""
    return f"{n} {one if n == 1 else many or one + 's'}"


LEGEND = (("actual", "actual successes, counted as they came"),
          ("expected", "expected successes: each check's chance beforehand, added up"))


def legend() -> str:
    """What the two lines of every chart mean, drawn as they are drawn in the charts."""
    items = "".join(f"<li><svg class=\"luck key\" viewBox=\"0 0 40 10\" aria-hidden=\"true\"><polyline class=\"{cls}\" "
                    f"points=\"0,5 40,5\"/></svg> {escape(text)}</li>" for cls, text in LEGEND)
    return f"<section class=\"legend\" id=\"legend\"><h2>Legend</h2><ul>{items}</ul></section>"


def charts(root: Path, system, rules, skip: set = frozenset()) -> list[tuple[str, str]]:
    return [(actor, svg(points)) for actor, points in sorted(series(root, system, rules, skip).items())]
