"""HTML of the players' screen, drawn on the server from the (already filtered) view model.

Everything printed is escaped; the page loads only its own two assets (nothing from the internet: it works offline),
and the script only swaps in a fresh copy of `<main>` when the server says the files changed.
"""

from __future__ import annotations

from html import escape

from .view import LEFT, SPENT

SECRET_MARK = "<span class=\"badge\" title=\"rolled in secret: the party does not see this\">secret</span>"
DOT_LIMIT = 20  # more than this many in a pool: a number instead of dots


def document(title: str, body: str, view: str, base: str, panel: str = "") -> str:
    """A whole page; `panel` (serve --act) is the acting screen, kept outside the <main> a refresh swaps."""
    script = "<script src=\"/assets/act.js\" defer></script>" if panel else ""
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<meta name=\"color-scheme\" content=\"light dark\"><title>{escape(title)}</title>"
        "<link rel=\"stylesheet\" href=\"/assets/style.css\">"
        f"<script src=\"/assets/app.js\" defer></script>{script}</head>"
        f"<body data-view=\"{escape(view)}\" data-base=\"{escape(base)}\">{panel}"
        f"<main id=\"main\">{body}</main></body></html>\n")


def act_panel(where: str, token: str, actor: str | None = None) -> str:
    """The acting screen's frame (Guide or player); act.js draws each verb's form from `{where}/forms`. The token rides
    in a header of every POST, never in a cookie alone."""
    who = f" data-actor=\"{escape(actor)}\"" if actor else ""
    title = f"Act as {escape(actor)}" if actor else "Act"
    return (f"<aside id=\"act\" class=\"act\" data-act=\"{escape(where)}\" data-token=\"{escape(token)}\"{who}>"
            f"<h2>{title}</h2><div id=\"act-forms\"><p class=\"quiet\">Loading the verbs\u2026</p></div>"
            "<pre id=\"act-result\" class=\"result\" aria-live=\"polite\"></pre></aside>")


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
    parts.append(_legend(model.get("legend") or []))
    parts.append(_last_check(model.get("last_check"), model))
    parts.append(_log(model.get("log") or [], model.get("view") == "guide"))
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
        if row.get("marks") or row.get("conditions"):  # a game's marks (its words for a state) lead the conditions
            bits.append("<div class=\"conds\">" + "".join(f"<span class=\"cond mark\">{escape(m)}</span>"
                                                          for m in row.get("marks") or [])
                        + "".join(_condition(c) for c in row.get("conditions") or []) + "</div>")
        if row.get("hidden_from"):
            bits.append(_hidden(row["hidden_from"]))
        rows.append("".join(bits) + "</li>")
    return "<section><h2>Order</h2><ol class=\"order\">" + "".join(rows) + "</ol></section>"


def dice(counts: dict) -> str:
    """A participant's dice as dots, one per die in each state, in the order the system's `view` gives the
    states; each dot's class is its state, which the style sheet draws (filled, hollow, crossed)."""
    dots = []
    for state, n in counts.items():
        dots.append(_dots(state, n or 0))
    label = ", ".join(f"{n or 0} {s}" for s, n in counts.items())
    return f"<div class=\"dice\" role=\"img\" aria-label=\"{escape(label)}\">{''.join(dots)}</div>"


def _dots(state: str, n: int) -> str:
    """`n` dots of one state; past DOT_LIMIT the rest as `+N`, so a pool is drawn alike at any size."""
    dot = f"<span class=\"dot {escape(state)}\" title=\"{escape(state)}\"></span>"
    more = f"<span class=\"more\">+{n - DOT_LIMIT}</span>" if n > DOT_LIMIT else ""
    return dot * max(0, min(n, DOT_LIMIT)) + more


def _pool(pool: dict) -> str:
    """A pool, by the drawing its system chose: `bar`, a bar with `value/max` beside it (HP), its fill a
    class of whole percents (`w43`) that the style sheet sizes, since the page's own Content-Security-Policy
    refuses an inline `style`; or
    `dots`, the number and a dot per point: filled (or the pool's `state`) for what is left, hollow for
    what is spent when the pool has a maximum."""
    if pool.get("draw") == "band":  # a creature outside the party, shown as a band (no numbers)
        name, word = escape(pool["name"]), escape(pool.get("band") or "")
        return f"<div class=\"pool band {word}\"><span class=\"label\">{name}</span> <b>{word}</b></div>"
    value, top = pool.get("value") or 0, pool.get("max")
    number = f"{value}/{top}" if isinstance(top, int) else str(value)
    name = escape(pool["name"])
    if pool.get("draw") == "bar":
        most = top if isinstance(top, int) and top > 0 else max(value, 1)
        fill = max(0, min(100, round(100 * value / most)))
        low = " low" if fill <= 25 else ""
        return (f"<div class=\"pool bar\"><span class=\"label\">{name}</span>"
                f"<span class=\"meter{low}\" role=\"meter\" aria-label=\"{name} {escape(number)}\" "
                f"aria-valuemin=\"0\" aria-valuemax=\"{most}\" aria-valuenow=\"{value}\">"
                f"<span class=\"fill w{fill}\"></span></span><b>{escape(number)}</b></div>")
    spent = max(0, top - value) if isinstance(top, int) else 0
    shown = _dots(pool.get("state") or LEFT, max(0, value)) + _dots(SPENT, spent)
    return (f"<div class=\"pool dots\"><span class=\"label\">{name}</span> "
            f"<b>{escape(number)}</b> <span class=\"dice\">{shown}</span></div>")


def _condition(cond: dict) -> str:
    rounds = cond.get("rounds")
    left = f" · {rounds} round{'' if rounds == 1 else 's'} left" if rounds is not None else ""
    return f"<span class=\"cond\">{escape(cond['name'])}{escape(left)}</span>"


def _legend(items: list) -> str:
    """Each drawing on the page with what it means."""
    if not items:
        return ""
    rows = []
    for item in items:
        if item.get("draw") == "bar":
            sample = "<span class=\"meter\"><span class=\"fill w60\"></span></span>"
        elif item.get("draw") == "band":
            sample = "<b>hurt</b>"
        else:
            sample = _dots(item.get("state") or LEFT, 1)
        rows.append(f"<li><span class=\"sample\">{sample}</span> {escape(item.get('text') or '')}</li>")
    return "<section class=\"legend\" id=\"legend\"><h2>Legend</h2><ul>" + "".join(rows) + "</ul></section>"


def _hidden(observers) -> str:
    if isinstance(observers, dict):  # the Guide's view: with the recorded totals
        text = ", ".join(f"{o} ({t})" if t is not None else str(o) for o, t in observers.items())
    else:
        text = ", ".join(map(str, observers))
    return f"<div class=\"hid\">hidden from {escape(text)}</div>"


def _last_check(check: dict | None, model: dict | None = None) -> str:
    """The last roll: every roll of it (an exchange's attack and response) with faces, total against what,
    chance and outcome, then the entry's words as the log says them (damage and wounds)."""
    if not check:
        return "<section class=\"check\" id=\"last-check\"><h2>Last check</h2><p class=\"quiet\">none yet</p></section>"
    mark = " " + SECRET_MARK if check.get("secret") else ""
    rolls = "".join(_roll(roll, model or {}) for roll in check.get("rolls") or [check])
    said = f"<p class=\"words\">{escape(check['words'])}</p>" if check.get("words") else ""
    return (f"<section class=\"check\" id=\"last-check\"><h2>Last check{mark}</h2>"
            f"<div class=\"rolls\">{rolls}</div>{said}</section>")


def _roll(roll: dict, model: dict) -> str:
    who = _name(model, roll["actor"]) if roll.get("actor") else ""
    what = " ".join(str(x) for x in (who, roll.get("skill") or roll.get("command")) if x)
    pips = roll.get("pips") is not False  # a game whose dice are not six-sided says so (a d20's 3 is a 3)
    face_html = "".join(_face(f, pips) for f in roll.get("faces") or [])
    total = f"total {roll['total']}" if roll.get("total") is not None else ""
    against = _against(roll.get("target"), roll.get("target_label"))
    target = f" vs {against}" if against is not None else ""
    chance = f"chance {roll['chance']}" if roll.get("chance") else ""
    outcome = roll.get("outcome") or ""
    cls = "ok" if _succeeded(roll.get("success"), outcome) else "bad"
    return (f"<div class=\"roll\"><div class=\"what\">{escape(what)}</div><div class=\"faces\">{face_html}</div>"
            f"<div class=\"sum\">{escape(total + target)} <span class=\"chance\">{escape(chance)}</span> "
            f"<b class=\"{cls}\">{escape(str(outcome))}</b></div></div>")


def _against(target, label):
    """What a roll was against: `DR 2` says its number; `bandit's Clash` needs it beside."""
    if not label:
        return target
    return label if target is None or str(target) in str(label) else f"{target} ({label})"


def _succeeded(success, outcome) -> bool:
    if isinstance(success, bool):
        return success
    return bool(outcome) and not any(w in str(outcome).lower() for w in ("fail", "miss"))


def _face(face, pips: bool = True) -> str:
    """A die face: as pips when it is a small count (0 shows an empty die), else its number."""
    if pips and isinstance(face, int) and not isinstance(face, bool) and 0 <= face <= 6:
        pips = "<span class=\"pip\"></span>" * face
        return f"<span class=\"face pips\" title=\"{face}\" aria-label=\"face {face}\">{pips}</span>"
    return f"<span class=\"face\">{escape(str(face))}</span>"


def _log(rows: list, guide: bool = False) -> str:
    """The recent entries, newest first, in words as `encounter log` says them; an undone one struck through;
    a secret one marked for the Guide (the party's row says it in words)."""
    items = []
    for r in reversed(rows):
        cls = " ".join(x for x in ("undone" if r.get("undone") else "done", "secret" if r.get("secret") else "") if x)
        mark = SECRET_MARK + " " if r.get("secret") and guide else ""
        items.append(f"<li class=\"{cls}\"><span class=\"seq\">{escape(str(r.get('seq')))}</span> {mark}"
                     f"{escape(r.get('text') or '')}</li>")
    return f"<section><h2>Recent</h2><ul class=\"log\" id=\"log\">{''.join(items)}</ul></section>"


def _guide_extra(extra: dict) -> str:
    concealed = ", ".join(extra.get("concealed_from_party") or []) or "nobody"
    recorded = ", ".join(f"{k} {v}" for k, v in (extra.get("recorded") or {}).items()) or "none"
    return (f"<section class=\"guide\"><h2>Guide only</h2><p>Unseen by the whole party: {escape(concealed)}</p>"
            f"<p>Recorded totals: {escape(recorded)}</p></section>")


def stats(title: str, charts: list[tuple[str, str]], links: str = "") -> str:
    """The luck page body: one server-drawn SVG chart per character, expected successes against real ones."""
    head = f"<header><h1>{escape(title)}</h1>{links}</header>"
    if not charts:
        return head + "<p class=\"quiet\">No checks with a known chance logged yet.</p>"
    from .charts import legend

    body = "".join(f"<figure class=\"chart\"><figcaption>{escape(name)}</figcaption>{svg}</figure>"
                   for name, svg in charts)
    return head + legend() + "<section class=\"charts\">" + body + "</section>"
