"""Narateer's formatters: one text formatter per result kind (`FORMATTERS`, the game's `formatters`).

JSON is the result's own shape, written by the host; these build the text for
people. tabulate is imported only by formatters that print a table.
"""

from __future__ import annotations

from narateer_cli.kit import table

from .render_traits import message as trait_message, trait_react, use_line

DOTS = {0: "○", 1: "●", 2: "●●"}
NAMES = {0: "Miss", 1: "Hit", 2: "Crit"}


def face_name(face) -> str:
    """One face in words (Miss, Hit, Crit): the faces of a session report."""
    return NAMES.get(face, str(face))


def faces_text(faces) -> str:
    return "  ".join(DOTS.get(f, str(f)) for f in faces) if faces else "(no dice)"


def dice_text(before: dict, after: dict) -> str:
    parts = []
    for state in ("ready", "used", "wounded"):
        b, a = before.get(state, 0), after.get(state, 0)
        if b != a:
            parts.append(f"{state} {b} -> {a}")
        elif state != "wounded" or a:
            parts.append(f"{state} {a}")
    return ", ".join(parts)


def signed(n) -> str:
    return f"{n:+d}" if isinstance(n, int) else str(n)


def check_lines(c: dict, title: str | None = None) -> list[str]:
    """One check result: payment, faces, Edge, total vs target, tier, dice."""
    lines = [check_head(c, title), payment_line(c), f"  faces  {faces_text(c['faces'])}"]
    if c.get("rerolled"):
        moves = ", ".join(f"#{i}: {NAMES[c['faces'][i]]} -> {NAMES[f]}" for i, f in zip(c["rerolled"], c["reroll_faces"]))
        lines.append(f"  {c['edge'].title()} rerolled {moves}")
    if c.get("power_rerolled"):
        lines.append(f"  explicit reroll of dice {', '.join(map(str, c['power_rerolled']))}")
    if c["final_faces"] != c["faces"]:
        lines.append(f"  final  {faces_text(c['final_faces'])}")
    if c["target"] is None:
        lines.append(f"  total {c['total']}")
    else:
        verdict = c["outcome"]
        lines.append(f"  total {c['total']} vs {c['target']}: margin {signed(c['margin'])}, {verdict}")
    lines.append(f"  dice   {dice_text(c['dice_before'], c['dice_after'])}")
    if c.get("power"):
        lines.append(f"  power  {c['power']} (recorded)")
    return lines



def check_head(c: dict, title: str | None = None) -> str:
    """Who rolls what, against what, and whether it is a Reaction."""
    head = title or f"{c['actor']} rolls {c['skill'].title()}"
    if c.get("target_label"):
        head += f" vs {c['target_label']}"
    if c.get("reaction"):
        head += " (Reaction)"
    return head


def payment_line(c: dict) -> str:
    """The whole modified payment, discounts and Slowed applied, and the dice it rolls."""
    pay = f"base {c['base_cost']}" + (f" -{c['discount_base']} discount" if c.get("discount_base") else "")
    if c["boost"]:
        pay += f" + boost {c['boost']}" + (f" -{c['discount_boost']} discount" if c.get("discount_boost") else "")
    if c.get("fee"):
        pay += f" + fee {c['fee']}"
    if c.get("pay_multiplier", 1) != 1:
        pay = f"({pay}) x{c['pay_multiplier']}"
    extra = f", +{c['bonus_dice']} bonus" if c.get("bonus_dice") else ""
    return f"  paid {c['paid']} AD ({pay}); rolled {c['roll_dice']} {'die' if c['roll_dice'] == 1 else 'dice'}{extra}"

def roll(data: dict) -> str:
    lines = check_lines(data)
    if data.get("opponent"):
        opp = data["opponent"]
        lines[0] = f"{data['actor']} rolls {data['skill'].title()} against {opp['actor']}'s {opp['skill'].title()}"
        lines.extend(check_lines(opp, f"{opp['actor']} rolls {opp['skill'].title()}"))
    if data.get("assist"):
        a = data["assist"]
        lines.append(f"  {a['helper']} assists: paid {a['paid']} AD for {a['grants']}; "
                     f"dice {dice_text(a['dice_before'], a['dice_after'])}")
    return "\n".join(lines)


def pct(p: float) -> str:
    return f"{p * 100:.1f}%"


def dry_run(data: dict) -> str:
    rows = [(o["boost"], o["roll_dice"], o["paid"], "yes" if o["affordable"] else "no", pct(o["p_success"]))
            for o in data["options"]]
    against = {"dr": f"DR {data['target']}", "readiness": f"Readiness {data['target']}",
               "contested": "the other side's roll"}.get(data["target_source"], str(data["target"]))
    head = (f"{data['actor']}: {data['skill'].title()} SL {data['level']} vs {against} "
            f"with {data['ready']} Ready (dry run, nothing written)")
    return head + "\n" + table(rows, ["boost", "roll dice", "pay AD", "affordable", "chance"])


def cast_dry_run(data: dict) -> str:
    slowed = f" x{data['pay_multiplier']}" if data["pay_multiplier"] != 1 else ""
    magic = "no Magic Dice" if data["magic_ready"] is None else f"{data['magic_ready']} Ready MD"
    head = (f"{data['caster']} casts {data['spell']} ({data['tier']}, Casting Cost {data['cost']['ad']} AD{slowed}"
            f" + {data['cost']['md']} MD) with {data['ready']} Ready AD and {magic}")
    if data["skill"] is None:
        option = data["options"][0]
        return (head + f"\npays {option['paid_ad']} AD and {data['paid_md']} MD, asks no check: "
                + ("affordable" if option["affordable"] else "not affordable") + " (dry run, nothing written)")
    rows = [(o["boost"], o["roll_dice"], o["paid_ad"], data["paid_md"], "yes" if o["affordable"] else "no",
             pct(o["p_success"])) for o in data["options"]]
    head += f"\n{data['skill'].title()} SL {data['level']} vs DR {data['dr']} (dry run, nothing written)"
    return head + "\n" + table(rows, ["boost", "roll dice", "pay AD", "pay MD", "affordable", "chance"])


def dice(data: dict) -> str:
    lines = [f"{data['dice']} dice: {faces_text(data['faces'])}"]
    if data["rerolled"]:
        lines.append(f"{data['edge'].title()} rerolled dice {', '.join(str(i + 1) for i in data['rerolled'])}: "
                     f"{faces_text(data['final_faces'])}")
    lines.append(f"total {data['total']}")
    return "\n".join(lines)


def dr_ladder(data: dict) -> str:
    return table([(name.title(), dr) for name, dr in data["ladder"].items()], ["tier", "DR"])


def dr(data: dict) -> str:
    return f"{data['tier'].title()}: DR {data['dr']}"


def random_dr(data: dict) -> str:
    return (f"{data['tier'].title()}: base DR {data['base_dr']} {signed(data['offset'])} + "
            f"{faces_text(data['faces'])} ({data['total']}) = DR {data['dr']}")


def odds(data: dict) -> str:
    from .engine.dice import beats  # a tie fails: the one success comparison marks the totals that win
    edge = "" if data["edge"] == "none" else f" with {data['edge']}"
    lines = [f"{data['dice']} dice{edge} vs DR {data['target']}: {pct(data['p_success'])} to exceed"]
    dist = data["distribution"]
    top = max(dist.values()) if dist else 1
    rows = []
    for total, p in dist.items():
        bar = "█" * max(1, round(30 * p / top)) if p > 0 else ""
        mark = "*" if beats(int(total), data["target"]) else ""
        rows.append((total + mark, pct(p), bar))
    lines.append(table(rows, ["total", "chance", ""]))
    lines.append("* exceeds the DR")
    return "\n".join(lines)


def behind(data: dict) -> str:
    if data.get("readiness_off"):
        return f"{data['actor']} is {data['readiness_off']}: Readiness does not apply, the check fails"
    shift = ""
    if data["target"] != data["base_target"]:
        shift = f" ({data['edge']}: {data['base_target']} -> {data['target']})"
    verdict = "succeeds" if data["success"] else "fails"
    return (f"{data['actor']}'s {data['skill'].title()} Readiness {data['readiness']} vs {data['target']}{shift}: "
            f"{verdict}")


def show(data: dict) -> str:
    lines = [f"{data['name']} ({data['id']})"]
    vit = ", ".join(f"{k} {v}" for k, v in data["vitals"].items())
    lines.append(f"vitals: {vit or 'none'}")
    d = data["dice"]
    lines.append("dice: " + ", ".join(f"{k} {v}" for k, v in d.items()))
    lines.append("conditions: " + conditions_text(data["conditions"], data.get("rounds_left")))
    if data.get("movement"):
        lines.append("movement: " + ", ".join(f"{k} {v} m" for k, v in data["movement"].items()))
    rows = [(s["skill"], s["level"], s["vital"], s["readiness"], s["uses"]) for s in data["skills"]]
    lines.append(table(rows, ["skill", "SL", "vital", "readiness", "uses/activation"]))
    if data.get("magic_dice") is not None or data.get("spells"):
        lines.extend(spell_lines(data))
    if data.get("traits"):
        lines.append(trait_table(data["traits"]))
    return "\n".join(lines)


def trait_table(traits: list) -> str:
    """A sheet's traits with their uses left, below its sheet."""
    def modifies(t):
        return "; ".join(f"{event}: " + ", ".join(f"{k} {v}" for k, v in (change or {}).items())
                         for event, change in t["modifies"].items()) or "-"

    rows = [(t["name"], t["trigger"], f"{t['uses']['left']}/{t['uses']['max']}", modifies(t),
             "yes" if t["creates_reaction"] else "no") for t in traits]
    return table(rows, ["trait", "trigger", "uses left", "modifies", "reaction"])


def spell_lines(data: dict) -> list[str]:
    """A caster's Magic Dice and spells, below its sheet."""
    lines = []
    if data.get("magic_dice") is not None:
        lines.append("magic dice: " + ", ".join(f"{k} {v}" for k, v in data["magic_dice"].items()))
    rows = [(s["name"], f"{s['cost']['ad']} AD + {s['cost']['md']} MD", s["tier"],
             f"{s['check']['skill']} vs " + (f"DR {s['check']['dr']}" if s["check"]["dr"] is not None else "a DR given")
             if s["check"] else "-", ", ".join(s["reveals"]) or "-", s["range"] if s["range"] is not None else "-")
            for s in data.get("spells") or ()]
    if rows:
        lines.append(table(rows, ["spell", "cost", "tier", "check", "reveals", "range"]))
    return lines


def readiness(data: dict) -> str:
    rows = list(data["readiness"].items())
    text = f"{data['actor']}: Readiness\n" + table(rows, ["skill", "readiness"])
    if data.get("written"):
        text += f"\nrecorded on characters/{data['actor']}.yaml"
    return text


def encounter_show(data: dict) -> str:
    lines = [f"encounter {data['id']}, round {data['round']}: "
             + (f"{data['actor']} is acting" if data["actor"] else "nobody is acting")
             + (f", {data['next']} named next" if data.get("next") else "")]
    rows = []
    for cid in data["participants"]:
        st = data["status"][cid]
        state = "acting" if cid == data["actor"] else ("acted" if cid in data["acted"] else "waiting")
        d = st["dice"]
        rows.append((cid, state, d.get("ready", 0), d.get("used", 0), d.get("wounded", 0),
                     conditions_text(st["conditions"], st.get("rounds_left"), "-")))
    lines.append(table(rows, ["who", "turn", "ready", "used", "wounded", "conditions"]))
    if data["actor"]:
        uses = ", ".join(f"{k} {v}" for k, v in data["uses"].items())
        lines.append(f"{data['actor']}'s uses left: {uses or '-'}")
        if data.get("mode"):
            lines.append(f"movement: {data['mode']}, {data['movement_left']} m left")
    if data["hidden"]:
        hidden = [(h, o, t) for h, obs in data["hidden"].items() for o, t in obs.items()]
        lines.append("hidden:\n" + table(hidden, ["hider", "from", "recorded total"]))
    else:
        lines.append("hidden: nobody")
    return "\n".join(lines)


def turn_start(data: dict) -> str:
    uses = ", ".join(f"{k} {v}" for k, v in data["uses"].items())
    text = (f"round {data['round']}: {data['actor']} acts ({data['refreshed']} AD refreshed; "
            f"dice {dice_text(data['dice_before'], data['dice_after'])})\nuses: {uses or '-'}")
    if data.get("expired"):
        text += f"\n{', '.join(data['expired'])} ended (its rounds ran out)"
    return text


def turn_end(data: dict) -> str:
    text = f"{data['ended']} ends the activation"
    if data["new_round"]:
        text += f"; round {data['round']} begins"
    if data["next"]:
        text += f"; {data['next']} acts next"
    elif data["waiting"]:
        text += f"; still to act: {', '.join(data['waiting'])}"
    return text


def resolve(data: dict) -> str:
    head = f"{data['actor']}: {data['intent']}" + (f" ({data['method']})" if data.get("method") else "")
    if data["path"] == "check":
        return head + "\n" + "\n".join(check_lines(data["check"]))
    return head + f"\n  {data['tier']} action, automatic: paid {data['paid']} AD; dice " + \
        dice_text(data["dice_before"], data["dice_after"])


def condition(data: dict) -> str:
    return f"{data['actor']}: conditions now {conditions_text(data['conditions'], data.get('rounds_left'))}"


def conditions_text(names, rounds_left=None, none="none") -> str:
    """`slowed (2 rounds left)` for a timed condition."""
    left = rounds_left or {}
    return ", ".join(f"{c} ({left[c]} round{'s' if left[c] != 1 else ''} left)" if c in left else c
                     for c in names) or none


def dice_move(data: dict) -> str:
    return f"{data['actor']}: moved {data['moved']} AD; dice {dice_text(data['dice_before'], data['dice_after'])}" \
        + harm_text(data)


def uses_text(before: dict, after: dict) -> str:
    """Each trait's uses left before and after, `iron-wall 1 -> 2`."""
    return ", ".join(f"{key} {before.get(key)} -> {left}" if before.get(key) != left else f"{key} {left}"
                     for key, left in after.items())


def trait_refresh(data: dict) -> str:
    return f"{data['actor']}: {data['moved']} trait use(s) back; uses left {uses_text(data['dice_before'], data['dice_after'])}"


def magic_refresh(data: dict) -> str:
    return f"{data['actor']}: moved {data['moved']} MD; magic dice {dice_text(data['dice_before'], data['dice_after'])}"


def harm_text(data: dict) -> str:
    """Wounds past a character's dice, and who is out of the fight."""
    text = ""
    if data.get("overflow"):
        text += f"\n{data['overflow']} wound(s) past {data['actor']}'s dice: every die is wounded"
    if data.get("out"):
        text += f"\n{data['actor']} is out of the fight ({data['out']})"
    return text


def applied_text(data: dict) -> str:
    a = data.get("applied")
    if not a:
        later = data.get("not_applied")
        return f"\nnot applied: run `{later['command']}` (or add --apply)" if later else ""
    return (f"\napplied: {a['actor']} takes {a['moved']} wound(s); dice "
            f"{dice_text(a['dice_before'], a['dice_after'])}" + harm_text(a))


def hide(data: dict) -> str:
    lines = check_lines(data["check"], f"{data['actor']} hides (Stealth)")
    lines = [l for l in lines if not l.startswith("  total")]
    lines.insert(-1, f"  Stealth total {data['total']}")
    for o in data["observers"]:
        how = "searching" if o["searching"] else "Observation Readiness"
        if o["fell_back"]:
            how = "could not pay to search: Readiness used"
        verdict = "hidden" if o["hidden"] else ("tie: not hidden" if o["target"] == data["total"] else "not hidden")
        lines.append(f"  vs {o['id']} ({how}) {o['target']}: {verdict}")
        if o["check"]:
            lines.extend("    " + l for l in check_lines(o["check"], f"{o['id']} searches (Observation)")[1:])
    if data["recorded_total"] is not None:
        lines.append(f"  recorded Stealth total {data['recorded_total']} (hidden from {', '.join(data['hidden_from'])})")
    return "\n".join(lines)


def search(data: dict) -> str:
    lines = check_lines(data["check"], f"{data['searcher']} searches for {data['hider']}")
    lines.append(f"  {'found ' + data['hider'] + ' (revealed to ' + data['searcher'] + ' only)' if data['found'] else 'not found'}"
                 + (f"; still {data['invisible']}: attacks by and on it stay unseen attacks" if data.get("invisible")
                    else ""))
    return "\n".join(lines)


def reveal(data: dict) -> str:
    text = f"{data['hider']} revealed to {', '.join(data['revealed_to']) or 'nobody'}"
    if data["still_hidden_from"]:
        text += f"; still hidden from {', '.join(data['still_hidden_from'])}"
    if data.get("invisible"):
        text += f"; still {data['invisible']}: attacks by and on it stay unseen attacks"
    return text


def move(data: dict) -> str:
    text = f"{data['actor']} moves {data['metres']} m ({data['mode']}"
    text += ", difficult" if data.get("difficult") else ""
    text += ", hidden" if data["hidden"] else ""
    text += f"): costs {data['cost']} m, {data['movement_left']} m left"
    if data.get("paid"):
        text += f"; paid {data['paid']} AD for {data['mode']}"
    if data.get("revealed_to"):
        text += f"\nSprinting ends hiding: revealed to {', '.join(data['revealed_to'])}"
    return text


def exchange(data: dict) -> str:
    lines = [f"{data['attacker']} attacks {data['defender']} (response: {data['response']})"]
    lines.extend(check_lines(data["attack"], f"  attack: {data['attack']['skill'].title()}"))
    if data["defense"]:
        lines.extend(check_lines(data["defense"], f"  {data['response']}: {data['defense']['skill'].title()}"))
    if data["lands"]:
        lines.append(f"=> {data[data['lands']]} lands: Hit Margin {data['hit_margin']} ({data['outcome']})"
                     + (f", damage {data['damage']}" if data.get("damage") is not None else ""))
    else:
        lines.append("=> nothing lands")
    if data.get("revealed_to"):
        lines.append(f"{data['attacker']} is revealed to {', '.join(data['revealed_to'])}")
    return "\n".join(lines) + use_line(data.get("trait")) + applied_text(data)


def react(data: dict) -> str:
    lines = check_lines(data["check"], f"{data['actor']} makes an Opportunity Attack on {data['against']}")
    lines.append(("=> lands: Hit Margin %s" % data["hit_margin"]
                  + (f", damage {data['damage']}" if data.get("damage") is not None else "")) if data["lands"]
                 else "=> misses")
    return "\n".join(lines) + use_line(data.get("trait")) + applied_text(data)


def cast(data: dict) -> str:
    """A cast: the Casting Cost paid (Action Dice, Slowed applied, and Magic Dice), its check, whom it revealed."""
    cost = " + ".join(part for part in (f"{data['cost']['ad']} AD" if data["cost"]["ad"] or not data["cost"]["md"]
                                        else "", f"{data['cost']['md']} MD" if data["cost"]["md"] else "") if part)
    slowed = f" x{data['pay_multiplier']} on AD" if data.get("pay_multiplier", 1) != 1 and data["cost"]["ad"] else ""
    lines = [f"{data['caster']} casts {data['spell']} ({data['tier']}, Casting Cost {cost}{slowed})"]
    if data.get("check"):
        lines.extend(check_lines(data["check"], f"  check: {data['check']['skill'].title()}"))
    else:
        lines.append(f"  paid {data['paid_ad']} AD; dice {dice_text(data['dice_before'], data['dice_after'])}")
    if data.get("magic_after") is not None:
        lines.append(f"  paid {data['paid_md']} MD; magic dice {dice_text(data['magic_before'], data['magic_after'])}")
    if data.get("revealed_to"):
        lines.append(f"{data['caster']} is revealed to {', '.join(data['revealed_to'])} ({', '.join(data['reveals'])})"
                     + (f"; still {data['invisible']}" if data.get("invisible") else ""))
    return "\n".join(lines)


def _cast_message(actor, declaration, r) -> str:
    check = f"; {_check_words(r.check)}" if r.check is not None else ""
    md = f" + {r.paid_md} MD" if r.paid_md else ""
    revealed = f"; revealed to {', '.join(r.revealed_to)}" if r.revealed_to else ""
    return f"{actor}: casts {r.spell} (paid {r.paid_ad} AD{md}){check}{revealed}"


def join(data: dict) -> str:
    lines = [f"{data['observer']} joins encounter {data['encounter']}"]
    for r in data["compared"]:
        how = "searching" if r["searching"] and not r["fell_back"] else "Readiness"
        lines.append(f"  {r['hider']}'s recorded {r['recorded']} vs {how} {r['target']}: "
                     + ("stays hidden" if r["hidden"] else "spotted"))
    return "\n".join(lines)


def headline(kind: str, data: dict):
    """The outcome line that leads a result's text, with its colour's sense (True good, False bad)."""
    from narateer_cli.kit import check_headline

    if kind == "exchange":
        if not data.get("lands"):
            return "Nothing lands", False
        who = data[data["lands"]]
        return f"{who} lands: {data['outcome']}, Hit Margin {data['hit_margin']}", data["lands"] == "attacker"
    if kind == "react":
        return (f"Lands: Hit Margin {data['hit_margin']}", True) if data.get("lands") else ("Misses", False)
    if kind == "search" and isinstance(data.get("check"), dict) and data["check"].get("outcome"):
        return f"{data['check']['outcome']}: " + ("found" if data["found"] else "not found"), bool(data["found"])
    return check_headline(data)


def summary(command: str, actor: str | None, declaration: dict, r) -> str | None:
    """One logged action in words: `encounter log`, `report` and git commit messages. `r` is the record of
    the command's result (the game's `results`), read back from the log; a `resolve` or `dr` (whose results
    are more than one record) and a `hide` or `search` (which the party's page words from the part of the
    result it may see) are the logged JSON."""
    if command == "roll":
        return _check_words(r.result)
    if command == "resolve":
        check = r.get("check")
        if isinstance(check, dict) and "total" in check:
            from .engine.actions import CheckOutcome

            return _check_words(CheckOutcome.from_json(check).result)
    message = COMMIT_MESSAGES.get(command)
    if message is not None:
        return message(actor, declaration, r)
    return None


def _check_words(c) -> str:
    against = c.target_label or (f"DR {c.target_value}" if c.target_value is not None else "no target")
    verdict = f", {c.outcome}" if c.outcome else ""
    return (f"{c.actor}: {c.skill.title()} {' '.join(DOTS.get(f, str(f)) for f in c.final_faces)} = {c.total} "
            f"vs {against}{verdict} (paid {c.paid} AD)")


def _dice_message(verb):
    return lambda actor, d, r: f"{actor}: {verb.format(n=r.moved)} ({dice_text(r.dice_before, r.dice_after)})"


def _condition_message(actor, declaration, r) -> str:
    if not (r.added or r.removed):
        return f"{actor}: conditions unchanged"
    n = declaration.get("rounds")
    rounds = f" for {n} round{'s' if n != 1 else ''}" if n else ""
    return f"{actor}: conditions " + " ".join([f"+{c}" for c in r.added] + [f"-{c}" for c in r.removed]) + rounds


def _applied_words(applied) -> str:
    """The wound an exchange dealt with --apply (the wound's JSON, as the result holds it)."""
    return f"; {applied['actor']} takes {applied['moved']} wound(s)" + (", out of the fight" if applied.get("out") else "")


def _exchange_message(actor, declaration, r) -> str:
    lands = (f"{getattr(r, r.lands)} lands, Hit Margin {r.hit_margin}"
             + (f", damage {r.damage}" if r.damage is not None else "") if r.lands else "nothing lands")
    if r.applied:
        lands += _applied_words(r.applied)
    return f"{r.attacker} vs {r.defender} ({r.response}): {lands}"


def _search_message(actor, declaration, r) -> str:
    found = f"found {r['hider']}" if r["found"] else "nothing found"
    return f"{actor}: Search {r['check']['total']} vs {r['target']}, {found}"


def _hide_message(actor, declaration, r) -> str:
    """Hide in words: whom it hides from and, by name, whom not."""
    hidden = r["hidden_from"]
    seen = [o["id"] for o in r.get("observers") or () if o.get("id") not in hidden]
    return (f"{actor}: Hide {r['total']}, hidden from {', '.join(hidden) or 'nobody'}"
            + (f"; not hidden from {', '.join(seen)}" if seen else ""))


def _turn_end_message(actor, declaration, r) -> str:
    return f"{actor}: activation ends" + (f", {r.next} next" if r.next else "")


COMMIT_MESSAGES = {  # command -> (actor, declaration, result) -> one line
    "resolve": lambda actor, d, r: f"{actor}: {r.get('intent')} ({r.get('tier')}, automatic, paid {r.get('paid')} AD)",
    "encounter join": lambda actor, d, r: f"{actor} joins {r.encounter}",
    "turn start": lambda actor, d, r: f"{actor}: activation starts, round {r.round} ({r.refreshed} AD refreshed)"
                                      + (f"; {', '.join(r.expired)} ended" if r.expired else ""),
    "turn end": _turn_end_message,
    "condition": _condition_message,
    "hide": _hide_message,
    "dr": lambda actor, d, r: (f"random DR was {r['dr']} ({r['tier']}: base {r['base_dr']} + {r['total']})"
                               if "total" in r else f"DR {r['dr']} ({r['tier']})"),
    "search": _search_message,
    "reveal": lambda actor, d, r: f"{actor}: revealed to {', '.join(r.revealed_to) or 'nobody'}",
    "move": lambda actor, d, r: f"{actor}: {r.mode} {r.metres} m (costs {r.cost} m)",
    "exchange": _exchange_message,
    "react trait": lambda actor, d, r: trait_message(actor, r),
    "react": lambda actor, d, r: f"{actor}: Opportunity Attack on {r.against}, "
                                 + (f"lands, Hit Margin {r.hit_margin}" if r.lands else "misses")
                                 + (f", damage {r.damage}" if r.damage is not None else "")
                                 + (f"; {r.applied['actor']} takes {r.applied['moved']} wound(s)"
                                    if r.applied else ""),
    "refresh": lambda actor, d, r: (f"{actor}: {r.moved} trait use(s) back ({uses_text(r.dice_before, r.dice_after)})"
                                    if d.get("traits") else _dice_message("{n} MD refreshed" if d.get("magic") else
                                                                          "{n} AD refreshed")(actor, d, r)),
    "wound": lambda actor, d, r: _dice_message("takes {n} wound(s)")(
        actor, d, r) + (f"; {r.overflow} past its dice" if r.overflow else "")
    + (", out of the fight" if r.out else ""),
    "heal": _dice_message("heals {n} wound(s)"),
    "readiness": lambda actor, d, r: f"{actor}: Readiness recorded",
    "cast": _cast_message,
}


def new(data: dict) -> str:
    return f"created {data['file']}"


FORMATTERS = {
    "new": new, "encounter_show": encounter_show, "turn_start": turn_start,
    "turn_end": turn_end, "resolve": resolve, "condition": condition, "refresh": dice_move, "wound": dice_move,
    "heal": dice_move, "hide": hide, "search": search, "reveal": reveal, "move": move,
    "exchange": exchange, "react": react, "join": join, "cast": cast, "magic_refresh": magic_refresh,
    "trait_refresh": trait_refresh,
    "trait_react": trait_react,
    "roll": roll, "dry_run": dry_run, "cast_dry_run": cast_dry_run, "dice": dice, "dr_ladder": dr_ladder, "dr": dr, "random_dr": random_dr,
    "odds": odds,
    "behind": behind, "show": show, "readiness": readiness
}

