"""Formatters for Open Adventure results: JSON shapes (SPEC-open-adventure Part 3) and text lines.

Pure functions from result records to plain data or lines; the host prints.
"""

from __future__ import annotations

from fractions import Fraction

SYSTEM = "open-adventure"


def frac(p) -> str | None:
    """An exact probability as `137/288` (`0`, `1` when whole)."""
    if p is None:
        return None
    p = Fraction(p)
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def pct(p) -> str:
    value = float(p) * 100
    return f"{value:.2f}%" if 0 < value < 0.01 or value > 99.99 and value < 100 else f"{value:.1f}%"


def check_json(r) -> dict:
    out = r.as_dict()
    out["opposed"] = check_json(r.opposed) if r.opposed is not None else None
    return out


def _ds_text(ds: dict) -> str:
    source = ds["base_source"]
    parts = [f"{ds['base']}" + (f" ({source})" if isinstance(source, str) else "")]
    parts += [f"{ds[k]} {k}" for k in ("drawback", "familiarity", "multi") if ds.get(k)]
    if len(parts) == 1 and not isinstance(source, str):
        return f"DS {ds['total']}"
    return f"DS {ds['total']} = " + " + ".join(parts)


def _as_text(parts: dict) -> str:
    names = [k for k in ("attribute", "statblock", "mo", "specializations", "benefit", "time", "bonus") if parts.get(k)]
    inner = " + ".join(f"{parts[k]} {k}" for k in names)
    return f"AS {parts['total']}" + (f" = {inner}" if len(names) > 1 else "")


def check_lines(r) -> list[str]:
    """A check as a user reads it: who, AS and dice, DS, faces, outcome, Effect, Stunt loss."""
    what = r.action or r.attribute
    lines = [f"{r.actor}: {what} ({r.group}), {_as_text(r.action_score)}, {'+'.join(r.dice) or 'no dice'}"]
    if r.opposed is not None:
        o = r.opposed
        crit = ", Critical Failure" if o.critical_failure else ""
        lines.append(f"  opposed by {o.actor}: {o.action or o.attribute}, AS {o.action_score['total']}, "
                     f"faces {o.faces_text} = {o.total}{crit}")
    lines.append(f"  {_ds_text(r.ds)}")
    if r.method == "compare":
        lines.append(f"  Comparing Scores: AS {r.total} vs DS {r.ds['total']}")
    else:
        boom = f" (exploded: die {', '.join(map(str, r.exploded))})" if r.exploded else ""
        lines.append(f"  faces {r.faces_text} = {r.total}{boom}")
    if r.success:
        bonus = f" (+{r.effect_bonus} bonus)" if r.effect_bonus else ""
        lines.append(f"  {r.outcome}: Effect {r.effect}{bonus}" + (" (flat)" if r.effect_source == "flat" else ""))
    else:
        lines.append(f"  {r.outcome}: short by {r.shortfall}")
    if r.critical_failure and r.mishap:
        lines.append(f"  mishap: {r.mishap}")
    if r.stunt:
        s = r.stunt
        pool = f"{s['before']} -> {s['after']}" if s["before"] is not None else "reported (no pool on the statblock)"
        wound = f", Wounds {s['wounds_after']}" if s["after"] == 0 else ""
        lines.append(f"  Stunt: {s['pool']} points -{s['loss']}: {pool}{wound}")
    return lines


def odds_json(o) -> dict:
    return {"system": SYSTEM, "action_score": o.action_score, "dice": [f"d{n}" for n in o.dice], "ds": o.ds,
            "p_success": float(o.p_success), "p_success_exact": frac(o.p_success),
            "p_critical_failure": frac(o.p_critical_failure), "expected_total": frac(o.expected_total),
            "distribution": {str(t): frac(p) for t, p in o.distribution.items()},
            "tail_above": frac(o.tail_above), "upto": o.upto}


def odds_lines(o) -> list[str]:
    dice = "+".join(f"d{n}" for n in o.dice)
    lines = [f"AS {o.action_score} ({dice}, exploding) vs DS {o.ds}",
             f"  success          {frac(o.p_success)} = {pct(o.p_success)}",
             f"  critical failure {frac(o.p_critical_failure)} = {pct(o.p_critical_failure)}",
             f"  expected total   {frac(o.expected_total)} = {float(o.expected_total):.3f}",
             "  total  P(total)            P(total >= t)"]
    at_least = Fraction(1)
    for t, p in o.distribution.items():
        lines.append(f"  {t:>5}  {frac(p):<18}  {pct(at_least)}")
        at_least -= p
    lines.append(f"  >{o.upto:<4}  {frac(o.tail_above):<18}  {pct(o.tail_above)}")
    return lines


def dry_run_json(d) -> dict:
    out = d.as_dict()
    out.update(p_success=None if d.p_success is None else float(d.p_success),
               p_success_exact=frac(d.p_success), p_critical_failure=frac(d.p_critical_failure),
               expected_total=frac(d.expected_total), dry_run=True)
    return out


def dry_run_lines(d) -> list[str]:
    lines = [f"{d.actor}: {d.action or d.attribute} ({d.group}), {_as_text(d.action_score)}, "
             f"{'+'.join(d.dice) or 'no dice'}"]
    if d.ds["total"] is not None:
        lines.append(f"  {_ds_text(d.ds)}")
        lines.append(f"  chance of success {frac(d.p_success)} = {pct(d.p_success)}; "
                     f"Critical Failure {frac(d.p_critical_failure)}")
    else:
        extra = d.ds["drawback"] + d.ds["familiarity"] + d.ds["multi"]
        lines.append(f"  DS = {d.ds['base_source']}'s total" + (f" + {extra}" if extra else ""))
        chance = f"chance of success {frac(d.p_success)} = {pct(d.p_success)}; " if d.p_success is not None else ""
        lines.append(f"  {chance}Critical Failure {frac(d.p_critical_failure)}")
    lines.append("  nothing rolled or written (--dry-run)")
    return lines


def dice_json(action_score: int, dice, roll: dict) -> dict:
    return {"system": SYSTEM, "action_score": action_score, "dice": [f"d{n}" for n in dice],
            "faces": roll["chains"], "faces_text": roll["faces_text"], "exploded": roll["exploded"],
            "total": roll["total"], "critical_failure": roll["critical_failure"]}


def dice_lines(action_score: int, dice, roll: dict) -> list[str]:
    crit = " - Critical Failure (every die shows 1)" if roll["critical_failure"] else ""
    return [f"AS {action_score}: {'+'.join(f'd{n}' for n in dice)}: {roll['faces_text']} = {roll['total']}{crit}"]


def chart_json(rows) -> dict:
    return {"system": SYSTEM, "rows": [dict(r) for r in rows]}


def chart_lines(rows) -> list[str]:
    out = ["  AS  dice"]
    out += [f"  {r['action_score']:>2}  {r['printed']}" + ("  (extended)" if r.get("extended") else "") for r in rows]
    return out


def time_lines(steps) -> list[str]:
    return ["Time Chart: " + " -> ".join(label for label, _ in steps), "each step above the start is a +1 Benefit"]


def ladder_lines(ladder) -> list[str]:
    return [f"  {row['tier']:<18} {row['ds']}" for row in ladder]


def points_json(p) -> dict:
    return p.as_dict()


def points_lines(p) -> list[str]:
    wound = f"; Wounds {p.wounds_after}" if p.after == 0 and p.wounds_after is not None else ""
    return [f"{p.actor}: {p.pool} points {p.before} -> {p.after}{wound}"]


def turn_json(state, expired=None) -> dict:
    from narateer_cli import durations

    data = {"system": SYSTEM, "encounter": state.encounter, "round": state.round, "actor": state.actor,
            "major": not state.major, "minor": not state.minor, "order": list(state.order)}
    left = {c: durations.left({"round": state.round, "durations": state.durations}, c) for c in state.durations}
    if left:
        data["rounds_left"] = left  # T-DURATION
    if expired:
        data["expired"] = list(expired)
    return data


def turn_lines(state) -> list[str]:
    if state.actor is None:
        return [f"{state.encounter}: Round {state.round}, no Turn going; order {', '.join(state.order)}"]
    left = [k.title() for k in ("major", "minor") if not getattr(state, k)]
    return [f"{state.encounter}: Round {state.round}, {state.actor}'s Turn; "
            f"left: {', '.join(left) or 'nothing'}; order {', '.join(state.order)}"]


def commit_message(command: str, actor, r: dict) -> str:
    """The git commit message for one logged Open Adventure action."""
    if "outcome" in r and "total" in r:
        return f"{r['actor']}: {r.get('action') or r.get('attribute')} {r['total']} vs DS {r['ds']['total']}, {r['outcome']}"
    if command == "points":
        return f"{r['actor']}: {r['pool']} points {r['before']} -> {r['after']}"
    return f"{actor or 'encounter'}: {command}"


# -- text formatters over the JSON shapes (the host's `emit` hands each one its data) ----------------

class _View:
    """Attribute access over a result's JSON, so one set of line formatters serves records and data."""

    def __init__(self, data: dict):
        self.__dict__.update(data)
        if isinstance(data.get("opposed"), dict):
            self.opposed = _View(data["opposed"])


def _join(lines) -> str:
    return "\n".join(lines)


def check_text(data: dict) -> str:
    return _join(check_lines(_View(data)))


def dry_run_text(data: dict) -> str:
    chance = Fraction(data["p_success_exact"]) if data["p_success_exact"] else data["p_success"]
    view = _View({**data, "p_success": chance, "p_critical_failure": Fraction(data["p_critical_failure"])})
    return _join(dry_run_lines(view))


def odds_text(data: dict) -> str:
    view = _View({"action_score": data["action_score"], "dice": [int(d[1:]) for d in data["dice"]],
                  "ds": data["ds"], "p_success": Fraction(data["p_success_exact"]),
                  "p_critical_failure": Fraction(data["p_critical_failure"]),
                  "expected_total": Fraction(data["expected_total"]), "upto": data["upto"],
                  "distribution": {int(t): Fraction(p) for t, p in data["distribution"].items()},
                  "tail_above": Fraction(data["tail_above"])})
    return _join(odds_lines(view))


def dice_text(data: dict) -> str:
    roll = {k: data[k] for k in ("faces_text", "total", "critical_failure")}
    return _join(dice_lines(data["action_score"], [int(d[1:]) for d in data["dice"]], roll))


def chart_text(data: dict) -> str:
    if "time" in data:
        return _join(time_lines([(label, 0) for label in data["time"]]))
    return _join(chart_lines(data["rows"]))


def ds_text(data: dict) -> str:
    if "ladder" in data:
        return _join(["Difficulty Score ladder (advice; any whole number is a legal DS):"] + ladder_lines(data["ladder"]))
    return f"{data['tier']}: DS {data['ds']}"


def points_text(data: dict) -> str:
    return _join(points_lines(_View(data)))


def wounds_text(data: dict) -> str:
    return f"{data['actor']}: Wounds {data['before']} -> {data['after']}"


def turn_text(data: dict) -> str:
    if data.get("actor") is None:
        head = f"{data['encounter']}: Round {data['round']}, no Turn going; order {', '.join(data['order'])}"
    else:
        left = [k.title() for k in ("major", "minor") if data.get(k)]
        head = (f"{data['encounter']}: Round {data['round']}, {data['actor']}'s Turn; "
                f"left: {', '.join(left) or 'nothing'}; order {', '.join(data['order'])}")
    lines = [head]
    if data.get("expired"):
        lines.append(f"  {data['actor']}: {', '.join(data['expired'])} ended (T-DURATION)")
    for cid, timers in (data.get("rounds_left") or {}).items():
        lines.append(f"  {cid}: " + ", ".join(f"{n} {r} Round{'s' if r != 1 else ''} left" for n, r in timers.items()))
    return _join(lines)


def show_text(data: dict) -> str:
    kind = "NPC" if data["npc"] else "PC"
    lines = [f"{data['name']} ({data['id']}, {kind})" + (f", MO {data['mo']['name']} {data['mo']['score']}"
                                                         if data.get("mo") else "")]
    for row in data["scores"]:
        mo = f"   with MO: AS {row['with_mo']} {row['dice_with_mo']}" if row.get("with_mo") is not None else ""
        lines.append(f"  {row['name']:<13} {row['score']:>3}  AS {row['action_score']} {row['dice']}{mo}")
    for row in data.get("actions", []):
        eff = f", Effect {row['effect']}" if row.get("effect") is not None else ""
        lines.append(f"  action {row['name']}: AS {row['as']} {row['dice']}{eff}" + (" (Stunt)" if row["stunt"] else ""))
    pools = ", ".join(f"{k} {v}" for k, v in data.get("points", {}).items())
    if pools:
        lines.append(f"  points: {pools}; Wounds {data.get('wounds', 0)}")
    if data.get("conditions"):
        left = data.get("rounds_left") or {}
        lines.append("  conditions: " + ", ".join(c + (f" ({left[c]} Round{'s' if left[c] != 1 else ''} left)"
                                                       if c in left else "") for c in data["conditions"]))
    if data.get("specializations"):
        lines.append("  Specializations: " + ", ".join(data["specializations"]))
    return _join(lines)


def simple_text(data: dict) -> str:
    return data.get("message") or ", ".join(f"{k}: {v}" for k, v in data.items() if k != "system")


def resolve_text(data: dict) -> str:
    head = f"{data['actor']}: {data['intent']} -> {data['path']}"
    if data.get("reason"):
        head += f" ({data['reason']})"
    if data.get("check"):
        return head + "\n" + check_text(data["check"])
    return head


def verify_text(data: dict) -> str:
    if data["ok"]:
        return f"{data['encounter']}: {data['entries']} entries, every check reproduces"
    return f"{data['encounter']}: {data['problem']}"


FORMATTERS = {"oa-check": check_text, "oa-dry-run": dry_run_text, "oa-odds": odds_text, "oa-dice": dice_text,
              "oa-chart": chart_text, "oa-ds": ds_text, "oa-points": points_text, "oa-wounds": wounds_text,
              "oa-turn": turn_text, "oa-show": show_text, "oa-simple": simple_text, "oa-resolve": resolve_text,
              "oa-verify": verify_text}
