"""Open Adventure's render layer: one text formatter per result type, and the words and numbers they share.

Each result record declares its own JSON (narateer_cli.record: `to_json`); the
text formatters (`FORMATTERS`) receive that JSON. Pure functions: the host
prints.
"""

from __future__ import annotations

SYSTEM = "open-adventure"


def _fraction(*args):
    """fractions.Fraction, imported only when a probability is shown (fractions and decimal cost a few ms
    of start-up: `encounter show`, a roll's words and `show` print none)."""
    from fractions import Fraction

    return Fraction(*args)


def frac(p) -> str | None:
    """An exact probability as `137/288` (`0`, `1` when whole)."""
    if p is None:
        return None
    p = _fraction(p)
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def chance(p) -> str:
    """A chance for a person: `11/20 = 55.0%` while the fraction reads at a glance, else the percentage
    alone (an opposed check's exact fraction runs to 14 digits; `--json` keeps it)."""
    return f"{frac(p)} = {pct(p)}" if _fraction(p).denominator <= 10_000 else pct(p)


def pct(p) -> str:
    value = float(p) * 100
    return f"{value:.2f}%" if 0 < value < 0.01 or value > 99.99 and value < 100 else f"{value:.1f}%"


def rounds_words(n: int, who: str) -> str:
    """A timer's Rounds left in words; at 0 it ends as `who`'s next Turn starts, this Round."""
    if n <= 0:
        return f"ends at the start of {who}'s next Turn"
    return f"{n} Round{'s' if n != 1 else ''} left"


# -- JSON -----------------------------------------------------------------------------------------------

def declared(decl, **first) -> dict:
    """A check's declaration as logged: `first` (resolve's intent and path), then the Declaration's fields."""
    from narateer_cli.kit import plain

    return {**first, **plain(decl)}


def commit_message(command: str, actor, r: dict) -> str:
    """The git commit message for one logged Open Adventure action (from its JSON shape)."""
    if "outcome" in r and "total" in r:
        return f"{r['actor']}: {r.get('action') or r.get('attribute')} {r['total']} vs DS {r['ds']['total']}, {r['outcome']}"
    if command == "points":
        return f"{r['actor']}: {r['pool']} points {r['before']} -> {r['after']}"
    return f"{actor or 'encounter'}: {command}"


# -- text lines -------------------------------------------------------------------------------------

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
    lines = [f"{r.actor}: {r.action or r.attribute} ({r.group}), {_as_text(r.action_score)}, "
             f"{'+'.join(r.dice) or 'no dice'}"]
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
    lines.append(_outcome_line(r))
    if r.critical_failure and r.mishap:
        lines.append(f"  mishap: {r.mishap}")
    if r.stunt:
        lines.append(_stunt_line(r.stunt))
    applied, not_applied = getattr(r, "applied", None), getattr(r, "not_applied", None)  # in a success's JSON only
    if applied:
        a = applied
        lines.append(f"  applied: {a['target']} Challenge Points {a['before']} -> {a['after']}")
    if not_applied:
        lines.append(f"  not applied: run `{not_applied['command']}` (or roll with --apply)")
    return lines


def _outcome_line(r) -> str:
    if not r.success:
        return f"  {r.outcome}: short by {r.shortfall}"
    bonus = f" (+{r.effect_bonus} bonus)" if r.effect_bonus else ""
    return f"  {r.outcome}: Effect {r.effect}{bonus}" + (" (flat)" if r.effect_source == "flat" else "")


def _stunt_line(s: dict) -> str:
    pool = f"{s['before']} -> {s['after']}" if s["before"] is not None else "reported (no pool on the statblock)"
    wound = f", Wounds {s['wounds_after']}" if s["after"] == 0 else ""
    return f"  Stunt: {s['pool']} points -{s['loss']}: {pool}{wound}"


def odds_lines(o) -> list[str]:
    dice = "+".join(f"d{n}" for n in o.dice)
    lines = [f"AS {o.action_score} ({dice}, exploding) vs DS {o.ds}",
             f"  success          {frac(o.p_success)} = {pct(o.p_success)}",
             f"  critical failure {frac(o.p_critical_failure)} = {pct(o.p_critical_failure)}",
             f"  expected total   {frac(o.expected_total)} = {float(o.expected_total):.3f}",
             "  total  P(total)            P(total >= t)"]
    at_least = _fraction(1)
    for t, p in o.distribution.items():
        lines.append(f"  {t:>5}  {frac(p):<18}  {pct(at_least)}")
        at_least -= p
    lines.append(f"  >{o.upto:<4}  {frac(o.tail_above):<18}  {pct(o.tail_above)}")
    return lines


def dry_run_lines(d) -> list[str]:
    lines = [f"{d.actor}: {d.action or d.attribute} ({d.group}), {_as_text(d.action_score)}, "
             f"{'+'.join(d.dice) or 'no dice'}"]
    if d.ds["total"] is not None:
        lines.append(f"  {_ds_text(d.ds)}")
        lines.append(f"  chance of success {chance(d.p_success)}; "
                     f"Critical Failure {frac(d.p_critical_failure)}")
    else:
        extra = d.ds["drawback"] + d.ds["familiarity"] + d.ds["multi"]
        lines.append(f"  DS = {d.ds['base_source']}'s total" + (f" + {extra}" if extra else ""))
        odds = f"chance of success {chance(d.p_success)}; " if d.p_success is not None else ""
        lines.append(f"  {odds}Critical Failure {frac(d.p_critical_failure)}")
    lines.append("  nothing rolled or written (--dry-run)")
    return lines


# -- text formatters over the JSON shapes (the host's `emit` hands each one its data) ----------------

class _View:
    """Attribute access over a result's JSON shape, for the line formatters above."""

    def __init__(self, data: dict):
        self.__dict__.update(data)
        if isinstance(data.get("opposed"), dict):
            self.opposed = _View(data["opposed"])


def _join(lines) -> str:
    return "\n".join(lines)


def check_text(data: dict) -> str:
    return _join(check_lines(_View(data)))


def dry_run_text(data: dict) -> str:
    chance = _fraction(data["p_success_exact"]) if data["p_success_exact"] else data["p_success"]
    view = _View({**data, "p_success": chance, "p_critical_failure": _fraction(data["p_critical_failure"])})
    return _join(dry_run_lines(view))


def odds_text(data: dict) -> str:
    view = _View({"action_score": data["action_score"], "dice": [int(d[1:]) for d in data["dice"]],
                  "ds": data["ds"], "p_success": _fraction(data["p_success_exact"]),
                  "p_critical_failure": _fraction(data["p_critical_failure"]),
                  "expected_total": _fraction(data["expected_total"]), "upto": data["upto"],
                  "distribution": {int(t): _fraction(p) for t, p in data["distribution"].items()},
                  "tail_above": _fraction(data["tail_above"])})
    return _join(odds_lines(view))


def dice_text(data: dict) -> str:
    crit = " - Critical Failure (every die shows 1)" if data["critical_failure"] else ""
    return f"AS {data['action_score']}: {'+'.join(data['dice'])}: {data['faces_text']} = {data['total']}{crit}"


def chart_text(data: dict) -> str:
    return _join(["  AS  dice"] + [f"  {r['action_score']:>2}  {r['printed']}" + ("  (extended)" if r.get("extended")
                                                                               else "") for r in data["rows"]])


def time_chart_text(data: dict) -> str:
    return _join(["Time Chart: " + " -> ".join(data["time"]), "each step above the start is a +1 Benefit"])


def ds_text(data: dict) -> str:
    return _join(["Difficulty Score ladder (advice; any whole number is a legal DS):"]
                 + [f"  {row['tier']:<18} {row['ds']}" for row in data["ladder"]])


def ds_tier_text(data: dict) -> str:
    return f"{data['tier']}: DS {data['ds']}"


def points_text(data: dict) -> str:
    wound = f"; Wounds {data['wounds_after']}" if data["after"] == 0 and data["wounds_after"] is not None else ""
    return f"{data['actor']}: {data['pool']} points {data['before']} -> {data['after']}{wound}"


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
        lines.append(f"  {data['actor']}: {', '.join(data['expired'])} ended (its rounds ran out)")
    if data.get("participants"):
        return _join(lines + ["", participants_table(data["participants"])])
    for cid, timers in (data.get("rounds_left") or {}).items():
        lines.append(f"  {cid}: " + ", ".join(f"{n} {rounds_words(r, cid)}" for n, r in timers.items()))
    return _join(lines)


def participants_table(rows) -> str:
    """`encounter show`: participant, current Body/Mind/Spirit Points, Wounds, Challenge Points (NPCs) and
    conditions with the Rounds left on timed ones; '-' where the sheet has none."""
    from narateer_cli.kit import table

    def cell(row):
        pools = row.get("points") or {}
        left = row.get("rounds_left") or {}
        names = list(row["conditions"]) + [n for n in left if n not in row["conditions"]]
        conds = ", ".join(c + (f" ({rounds_words(left[c], row['id'])})" if c in left else "") for c in names)
        challenge = row.get("challenge_points")
        return [row["id"] + (" (NPC)" if row["npc"] else ""), *(pools.get(g, "-") for g in ("body", "mind", "spirit")),
                row["wounds"], "-" if challenge is None else challenge, conds or "-"]

    return table([cell(r) for r in rows], ["participant", "body", "mind", "spirit", "wounds", "challenge",
                                           "conditions"], disable_numparse=True)


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
    return _join(lines + _show_state_lines(data))


def _show_state_lines(data: dict) -> list[str]:
    """Points, Wounds, Defenses (and an NPC's Reaction), conditions (with timers) and Specializations under a
    sheet's scores."""
    lines = []
    pools = ", ".join(f"{k} {v}" for k, v in data.get("points", {}).items())
    if pools:
        lines.append(f"  points: {pools}; Wounds {data.get('wounds', 0)}")
    lines += _defense_lines(data)
    if data.get("conditions"):
        left = data.get("rounds_left") or {}
        lines.append("  conditions: " + ", ".join(c + (f" ({rounds_words(left[c], data['id'])})" if c in left else "")
                                                  for c in data["conditions"]))
    if data.get("specializations"):
        lines.append("  Specializations: " + ", ".join(data["specializations"]))
    return lines


def _defense_lines(data: dict) -> list[str]:
    """The Defenses (and an NPC's Reaction) on one line; a PC with none is told how to give them."""
    defenses = ", ".join(f"{k} {v}" for k, v in (data.get("defenses") or {}).items())
    reaction = f"Reaction {data['reaction']}" if data.get("npc") and data.get("reaction") is not None else ""
    if defenses or reaction:
        return ["  " + "; ".join(part for part in (defenses and f"Defenses: {defenses}", reaction) if part)]
    return [] if data.get("npc") else ["  Defenses: none (add `defenses: {body: N, mind: N, spirit: N}` to the sheet)"]


def message_text(data: dict) -> str:
    """`new`, `encounter new`, `condition`: the result's own one-line message."""
    return data["message"]


def resolve_text(data: dict) -> str:
    head = f"{data['actor']}: {data['intent']} -> {data['path']}"
    if data.get("reason"):
        head += f" ({data['reason']})"
    if data.get("check"):
        return head + "\n" + check_text(data["check"])
    return head


FORMATTERS = {"check": check_text, "dry_run": dry_run_text, "odds": odds_text, "dice": dice_text,
              "chart": chart_text, "time_chart": time_chart_text, "ds": ds_text, "ds_tier": ds_tier_text,
              "points": points_text, "wounds": wounds_text, "turn": turn_text, "show": show_text,
              "new": message_text, "encounter_new": message_text, "condition": message_text,
              "minor": message_text,
              "resolve": resolve_text}
