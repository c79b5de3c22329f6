"""HTML of the players' screen, drawn on the server from the (already filtered) view model.

Everything printed is escaped; the page loads only its own two assets (V-3: it works offline),
and the script only swaps in a fresh copy of `<main>` when the server says the files changed.
"""

from __future__ import annotations

from html import escape

DOT_LIMIT = 20  # more than this many in a pool: a number instead of dots


def document(title: str, body: str, view: str, base: str) -> str:
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<meta name=\"color-scheme\" content=\"light dark\"><title>{escape(title)}</title>"
        "<link rel=\"stylesheet\" href=\"/assets/style.css\">"
        "<script src=\"/assets/app.js\" defer></script></head>"
        f"<body data-view=\"{escape(view)}\" data-base=\"{escape(base)}\">"
        f"<main id=\"main\">{body}</main></body></html>\n")


def encounter(model: dict, links: str = "") -> str:
    """The body of the encounter view."""
    head = f"<header><h1>{escape(_title(model))}</h1>{links}</header>"
    if model.get("problem"):
        return head + f"<p class=\"problem\">{escape(model['problem'])}</p>"
    if not model.get("encounter"):
        return head + "<p class=\"quiet\">No encounter is running.</p>"
    acting = _name(model, model.get("actor")) if model.get("actor") else "nobody"
    parts = [head, "<section class=\"turn\">",
             f"<div class=\"round\">Round <b id=\"round\">{escape(str(model.get('round')))}</b></div>",
             f"<div class=\"acting\">Acting: <b id=\"acting\">{escape(acting)}</b></div>"]
    if model.get("next"):
        parts.append(f"<div class=\"next\">Next: {escape(_name(model, model['next']))}</div>")
    parts.append("</section>")
    parts.append(_order(model))
    parts.append(_last_check(model.get("last_check")))
    parts.append(_log(model.get("log") or []))
    if model.get("guide"):
        parts.append(_guide_extra(model["guide"]))
    return "".join(parts)


def _title(model: dict) -> str:
    where = f"Encounter {model['encounter']}" if model.get("encounter") else model.get("title", "narateer")
    return where + (" (Guide)" if model.get("view") == "guide" else "")


def _name(model: dict, cid) -> str:
    for row in model.get("order") or []:
        if row["id"] == cid:
            return row["name"]
    return str(cid)


def _order(model: dict) -> str:
    rows = []
    for row in model.get("order") or []:
        cls = "who acting" if row.get("acting") else "who"
        bits = [f"<li class=\"{cls}\" id=\"p-{escape(row['id'])}\"><div class=\"name\">{escape(row['name'])}</div>"]
        if row.get("dice"):
            bits.append(dice(row["dice"]))
        for pool in row.get("pools") or []:
            bits.append(_pool(pool))
        if row.get("conditions"):
            bits.append("<div class=\"conds\">" + "".join(_condition(c) for c in row["conditions"]) + "</div>")
        if row.get("hidden_from"):
            bits.append(_hidden(row["hidden_from"]))
        rows.append("".join(bits) + "</li>")
    return "<section><h2>Order</h2><ol class=\"order\">" + "".join(rows) + "</ol></section>"


def dice(counts: dict) -> str:
    """A participant's dice as dots, one per die in each state, in the order the system's `view` gives the
    states; each dot's class is its state, which the style sheet draws (filled, hollow, crossed)."""
    dots = []
    for state, n in counts.items():
        dots += [f"<span class=\"dot {escape(state)}\" title=\"{escape(state)}\"></span>"] * min(n or 0, DOT_LIMIT)
    label = ", ".join(f"{n or 0} {s}" for s, n in counts.items())
    return f"<div class=\"dice\" aria-label=\"{escape(label)}\">{''.join(dots)}</div>"


def _pool(pool: dict) -> str:
    """A pool: its number (of its maximum), and dots when it is small: filled for what is left."""
    value, top = pool.get("value") or 0, pool.get("max")
    spent = max(0, top - value) if isinstance(top, int) else 0
    shown = ""
    if 0 <= value and value + spent <= DOT_LIMIT:
        shown = "<span class=\"dot ready\"></span>" * value + "<span class=\"dot used\"></span>" * spent
    number = f"{value}/{top}" if isinstance(top, int) else str(value)
    return (f"<div class=\"pool\"><span class=\"label\">{escape(pool['name'])}</span> "
            f"<b>{escape(number)}</b> <span class=\"dice\">{shown}</span></div>")


def _condition(cond: dict) -> str:
    left = f" ({cond['rounds']} rounds left)" if cond.get("rounds") is not None else ""
    return f"<span class=\"cond\">{escape(cond['name'])}{escape(left)}</span>"


def _hidden(observers) -> str:
    if isinstance(observers, dict):  # the Guide's view: with the recorded totals
        text = ", ".join(f"{o} ({t})" if t is not None else str(o) for o, t in observers.items())
    else:
        text = ", ".join(map(str, observers))
    return f"<div class=\"hid\">hidden from {escape(text)}</div>"


def _last_check(check: dict | None) -> str:
    if not check:
        return "<section class=\"check\" id=\"last-check\"><h2>Last check</h2><p class=\"quiet\">none yet</p></section>"
    faces = check.get("faces") or []
    face_html = "".join(_face(f) for f in faces)
    what = " ".join(str(x) for x in (check.get("actor"), check.get("skill") or check.get("command")) if x)
    total = f"total {check['total']}" if check.get("total") is not None else ""
    target = f" vs {check['target']}" if check.get("target") is not None else ""
    chance = f"chance {check['chance']}" if check.get("chance") else ""
    outcome = check.get("outcome") or ""
    cls = "ok" if outcome and "fail" not in str(outcome).lower() else "bad"
    return ("<section class=\"check\" id=\"last-check\"><h2>Last check</h2>"
            f"<div class=\"what\">{escape(what)}</div><div class=\"faces\">{face_html}</div>"
            f"<div class=\"sum\">{escape(total + target)} <span class=\"chance\">{escape(chance)}</span> "
            f"<b class=\"{cls}\">{escape(str(outcome))}</b></div></section>")


def _face(face) -> str:
    """A die face: as pips when it is a small count (0 shows an empty die), else its number."""
    if isinstance(face, int) and not isinstance(face, bool) and 0 <= face <= 6:
        pips = "<span class=\"pip\"></span>" * face
        return f"<span class=\"face pips\" title=\"{face}\" aria-label=\"face {face}\">{pips}</span>"
    return f"<span class=\"face\">{escape(str(face))}</span>"


def _log(rows: list) -> str:
    items = "".join(
        f"<li class=\"{'undone' if r.get('undone') else 'done'}\"><span class=\"seq\">{escape(str(r.get('seq')))}</span> <b>{escape(str(r.get('actor') or ''))}</b> "
        f"{escape(str(r.get('command') or ''))}: {escape(r.get('text') or '')}</li>" for r in reversed(rows))
    return f"<section><h2>Recent</h2><ul class=\"log\" id=\"log\">{items}</ul></section>"


def _guide_extra(extra: dict) -> str:
    concealed = ", ".join(extra.get("concealed_from_party") or []) or "nobody"
    recorded = ", ".join(f"{k} {v}" for k, v in (extra.get("recorded") or {}).items()) or "none"
    return (f"<section class=\"guide\"><h2>Guide only</h2><p>Unseen by the whole party: {escape(concealed)}</p>"
            f"<p>Recorded totals: {escape(recorded)}</p></section>")


def stats(title: str, charts: list[tuple[str, str]], links: str = "") -> str:
    """The luck page body: one server-drawn SVG chart per character (V-4)."""
    head = f"<header><h1>{escape(title)}</h1>{links}</header>"
    if not charts:
        return head + "<p class=\"quiet\">No checks with a known chance logged yet.</p>"
    body = "".join(f"<figure class=\"chart\"><figcaption>{escape(name)}</figcaption>{svg}</figure>"
                   for name, svg in charts)
    return head + "<section class=\"charts\">" + body + "</section>"
