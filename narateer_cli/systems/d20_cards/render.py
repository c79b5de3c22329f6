"""Text and JSON for every d20-cards result: pure functions from records to strings or dicts.

Text follows the chapter's card layout for `card show`; JSON follows the
shapes of the contract (Part 3), with `system` on every check result and
Fractions as exact strings beside their decimal. Each result record declares
its JSON on its fields (results.py); each text formatter (FORMATTERS, one per
result kind) reads that JSON.
"""

from __future__ import annotations

from narateer_cli.kit import plain

SYSTEM = "d20-cards"
ORNAMENT = "─── ⋅ ∙ ∘ ☽ ◯ ☾ ∘ ⋅ ⋅ ───"
PROPERTY_NAMES = {"swan_song": "Swan Song"}






# --- cards --------------------------------------------------------------------

def cost_text(card) -> str:
    parts = [f"{n} {'AP' if k == 'ap' else k}" for k, n in card.cost.items()] or ["free"]
    text = ", ".join(parts)
    return f"{text} ({card.cost_note})" if card.cost_note else text


def range_text(card, char=None) -> str:
    kind = card.range_kind
    if kind == "meter":
        return f"{card.range:g} m"
    if kind == "reach":
        reach = (char.reach if char else 1) + card.reach_bonus
        extra = f" +{card.reach_bonus:g} m" if card.reach_bonus else ""
        return f"Reach{extra}" + (f" ({reach:g} m)" if char else "")
    if kind == "self" and card.area is not None:
        return f"Self ({card.area:g} m area)"
    return kind.capitalize()


def atk_text(card, char=None) -> str:
    if card.kind == "attack":
        ac = "Mental" if card.atk in ("kno", "wil") else "Physical"
        bonus = f" {char.bonus(card.atk):+d}" if char else ""
        return f"{card.atk.upper()} ATK{bonus} vs {ac} AC"
    if card.kind == "dc":
        value = ""
        if char:
            attr = "mind" if card.dc == "mental" else "body"
            value = f" {char.attr(attr) + char.concentration}"
        save = f" (save {card.save.upper()})" if card.save else ""
        return f"{card.dc.capitalize()} DC{value}{save}"
    return "None"


def cooldown_text(card) -> str:
    parts = []
    if card.cooldown:
        parts.append(str(card.cooldown))
    if card.charges:
        recharge = "Proper Rest" if card.recharge == "proper" else card.recharge
        parts.append(f"{card.charges} charge{'s' if card.charges != 1 else ''} ({recharge})")
    return ", ".join(parts) or "None"


def card_show(card, terms, char=None, status=None) -> str:
    """`card show`: the card in the chapter's layout (name, cost, tier and source, ATK/DC, range, cooldown,
    properties, details), each part said in words; `terms` is the rules' reading of it (CardTerms), and
    with a character its numbers and readiness."""
    lines = [card.name, f"Cost: {cost_text(card)}", f"✦ . ⁺ Tier {card.tier} – {card.source or 'No source'} . ⁺ ✦",
             f"ATK/DC: {roll_words(card, terms, char)}", f"Range: {range_words(card, terms, char)}",
             f"Cooldown: {cooldown_words(card)}"]
    props = [PROPERTY_NAMES.get(p, p.capitalize()) for p in card.properties]
    if card.max_duration:
        props = [f"{p} (up to {card.max_duration})" if p == "Concentration" else p for p in props]
    if props:
        lines.append("Properties: " + ", ".join(props))
    lines += effect_lines(card, terms, char)
    if card.details:
        lines.append(card.details)
    if status:
        lines.append(f"For {char.id}: {status}")
    lines.append(ORNAMENT)
    return "\n".join(lines)


def _whose(value, char) -> str:
    return f" ({value} for {char.id})" if char is not None and value is not None else ""


def roll_words(card, terms, char=None) -> str:
    """ATK/DC in words: the attack roll and the AC it meets, or the Action DC and how a target saves."""
    if card.kind == "attack":
        bonus = _whose(f"{terms.bonus:+d}" if terms.bonus is not None else None, char)
        return f"attack roll, d20 + {card.atk.upper()} ATK{bonus} against each target's {terms.ac.capitalize()} AC"
    if card.kind == "dc":
        dc = f"{card.dc.capitalize()} DC{_whose(terms.dc, char)}, {terms.dc_from.capitalize()} + Concentration"
        return f"{dc}; each target saves with {save_words(terms)}"
    return "none: no roll, it lands on every legal target"


def save_words(terms) -> str:
    names = [a.upper() for a in terms.saves_with]
    if not names:
        return "a d20 alone"
    if terms.best_of and len(names) > 1:
        return f"d20 + the better of its {' and '.join(names)} bonuses"
    return f"d20 + its {names[0]} bonus"


def range_words(card, terms, char=None) -> str:
    """Range in words: the kind, how far, and how many targets (Self: the performer and any area)."""
    kind = card.range_kind
    if kind == "self":
        area = card.area
        return "Self only" if area is None else f"Self and every creature within {area:g} m (the area moves along)"
    count = "one target" if card.targets == 1 else f"up to {card.targets} targets"
    if kind == "meter":
        words = f"{card.range:g} m, {count} up to {card.range:g} m away"
    elif kind == "reach":
        bonus = f" +{card.reach_bonus:g} m" if card.reach_bonus else ""
        metres = f"{terms.reach:g} m" if terms.reach is not None else None
        words = f"Reach, {count} within reach{bonus}{_whose(metres, char)}"
    else:
        sense = "the performer can see" if kind == "sight" else "can hear the performer"
        words = f"{kind.capitalize()}, {count} at any distance that {sense}"
    touch = "; by touch, so within reach" if card.has("touch") and kind != "reach" else ""
    return words + touch


def cooldown_words(card) -> str:
    parts = []
    if card.cooldown:
        start = ", counted from when Concentration drops" if card.has("concentration") else ""
        parts.append(f"{card.cooldown} before it can be performed again{start}")
    if card.charges:
        rest = "a Proper Rest" if card.recharge == "proper" else f"a {card.recharge} rest"
        parts.append(f"{card.charges} charge{'s' if card.charges != 1 else ''}, refilled by {rest}")
    return "; ".join(parts) or "none"


RESISTED = {"none": "nothing", "half": "half, rounded down", "full": "all of it"}


def effect_lines(card, terms, char=None) -> list:
    """The card's effects in words: its damage, trigger and Evolutionary outcomes."""
    lines = []
    if card.damage is not None:
        dealt = f"{card.damage}{f' [+{card.overkill}]' if card.overkill else ''}"
        dealt += f" {card.damage_type} damage" if card.damage_type else " damage"
        if card.kind == "attack":
            overkill = f" (Overkill: +{card.overkill} for each point above the AC)" if card.overkill else ""
            lines.append(f"On a hit: {dealt}{overkill}")
        elif card.kind == "dc":
            lines.append(f"On a failed save: {dealt}; on a resisted save: {RESISTED[terms.on_save]}")
        else:
            lines.append(f"Damage: {dealt} to each target")
    if card.trigger:
        lines.append(f"Trigger: {card.trigger}")
    if card.evolutionary:
        evo = card.evolutionary
        stops = ", and no target is resolved" if evo.get("failure_stops") else ""
        lines += [f"Evolutionary: d20 against the Augmentor{_whose(terms.augmentor, char)}",
                  f"  on a success: {evo.get('on_success', '-')}", f"  on a failure: {evo.get('on_failure', '-')}{stops}"]
    return lines


def card_json(card) -> dict:
    out = plain(card)
    out["kind"] = card.kind
    out["damage"] = str(card.damage) if card.damage else None
    for key in ("cooldown", "max_duration"):
        out[key] = {card.__dict__[key].unit: card.__dict__[key].length} if card.__dict__[key] else None
    return out


# --- act ----------------------------------------------------------------------

def _ac_word(kind):
    return f"{kind.capitalize()} AC"


def attack_line(t) -> str:
    a = t.attack
    faces = f"d20 {a.face}" if len(a.faces) == 1 else f"d20 {faces_text(a.faces)} keep {a.face}"
    parts = [faces, f"{a.attribute.upper()} {a.bonus:+d}"]
    if a.penalty:
        parts.append(f"blind {a.penalty:+d}")
    if a.mod:
        parts.append(f"mod {a.mod:+d}")
    verdict = "hit" if a.hit else "miss"
    return f"{' '.join(parts)} = {a.total} vs {_ac_word(a.ac_kind)} {a.ac}: {verdict}"


def save_line(t) -> str:
    s = t.save
    attr = f" {s.attribute.upper()} {s.bonus:+d}" if s.attribute else ""
    return f"save d20 {s.face}{attr} = {s.total} vs DC {s.dc}: {'resists' if s.resisted else 'fails'}"


def damage_line(d) -> str:
    text = f"{d.dealt} damage"
    if d.overkill:
        text = f"{d.base} + Overkill {d.overkill} = {text}"
    if d.doubled:
        text += f", doubled by Swan Song to {d.taken}"
    text += f"; HP {d.hp_before} -> {d.hp_after}"
    c = d.concentration_check
    if c:
        word = "kept" if c.kept else "dropped"
        text += f"; Concentration on {c.card}: d20 {c.face} {c.bonus:+d} = {c.total} vs {c.dc}, {word}"
    return text


def _where(t) -> str:
    if t.distance is None:
        return ""
    extra = ", beyond range" if t.in_range == "beyond" else ""
    return f" at {t.distance:g} m{extra}"


def act_text(r) -> str:
    """What a user reads after `act`."""
    return "\n".join([_act_head(r), *_act_rolls(r), *_act_targets(r), *_act_tail(r)])


def _act_head(r) -> str:
    spent = ", ".join(f"{n} {'AP' if k == 'ap' else k}" for k, n in r.paid.items())
    pool = f" (AP {r.resources_before['ap']} -> {r.resources_after['ap']})" if "ap" in r.paid else ""
    head = f"{r.actor} performs {r.card_name}" + (f" for {r.owner}" if r.owner != r.actor else "")
    return head + (f": {spent}{pool}" if spent else ": AP shown, not spent" if not r.in_encounter else "")


def _act_rolls(r) -> list:
    """The lines before the targets: trigger, dropped Concentration, Evolutionary, DC, damage dice."""
    lines = [f"  trigger: {r.trigger}"] if r.trigger else []
    if r.dropped:
        lines.append(f"  dropped Concentration on {r.dropped}")
    if r.evolutionary:
        e = r.evolutionary
        word = "success" if e["success"] else "failure"
        lines.append(f"  Evolutionary: d20 {e['face']} vs Augmentor {e['augmentor']}: {word}"
                     + (f" - {e['text']}" if e.get("text") else "") + (" (no target resolves)" if e["stopped"] else ""))
    if r.dc:
        lines.append(f"  {r.dc['kind'].capitalize()} DC {r.dc['value']}")
    if r.damage_roll and r.damage_roll["faces"]:
        d = r.damage_roll
        lines.append(f"  damage {dice_text(d)}")
    return lines


def _act_targets(r) -> list:
    lines = []
    for t in r.targets:
        lines.append(f"  {t.id}{_where(t)}: " + (attack_line(t) if t.attack else save_line(t) if t.save else "lands"))
        if t.damage:
            crit = " (Critical Condition)" if getattr(t, "critical", False) else ""
            lines.append(f"    {damage_line(t.damage)}{crit}")
        lines += [f"    {t.id} is now {cond}" for cond in t.conditions_added]
    return lines


def _act_tail(r) -> list:
    lines = []
    if r.charges:
        lines.append(f"  charges of {r.card}: {r.charges['before']} -> {r.charges['after']}")
    if r.concentrating:
        rounds = r.concentrating.get("rounds")
        lines.append(f"  {r.actor} concentrates on {r.card}" + (f" (up to {rounds} rounds)" if rounds else ""))
    if r.cooldown:
        c = r.cooldown
        when = "starts when Concentration drops" if c["state"] == "pending" else "starts now"
        unit = c["unit"][:-1] if c["length"] == 1 else c["unit"]
        lines.append(f"  cooldown {c['length']} {unit}: {when}")
    if "swan_song" in r.conditions_added:
        lines.append(f"  {r.actor} carries swan_song: all damage it takes is doubled until stabilized")
    if r.revealed:
        lines.append(f"  {r.actor} is no longer hidden")
    return lines








def dry_run_text(d) -> str:
    lines = [f"{d['actor']} {d['card']}: " + ("allowed" if d["allowed"] else "refused") + " (dry run, nothing written)"]
    for g in d["gates"]:
        lines.append(f"  {'ok' if g['ok'] else 'NO':<3} {g['gate']:<14} {g['why']}")  # rule ids: --json only
    if d.get("odds"):
        lines.append(odds_text(d["odds"]))
    return "\n".join(lines)




# --- odds ---------------------------------------------------------------------

def odds_text(d) -> str:
    """`odds` (and the odds of `act --dry-run`) from its JSON shape."""
    edge = f" with {d['edge']}" if d.get("edge") else ""
    lines = [f"{d['actor']} {d['card']} ({d['kind']}){edge}"]
    for t in d["targets"]:
        need = ""
        if t["need_face"] is not None:
            need = f"; face >= {t['need_face']}" if d["kind"] == "attack" else f"; resists on a save face >= {t['need_face']}"
        word = "hits" if d["kind"] == "attack" else "lands"
        blind = f" (blind {t['penalty']:+d})" if t.get("penalty") else ""
        lines.append(f"  {t['id']}{blind}: {word} {t['p_lands_exact']} ({t['p_lands'] * 100:.1f}%){need}; "
                     f"expected damage {t['expected_damage_exact']} ({t['expected_damage']:.2f})")
        if t["distribution"]:
            lines.append("    damage: " + ", ".join(f"{k}: {v}" for k, v in t["distribution"].items()))
    return "\n".join(lines)




# --- time ---------------------------------------------------------------------

def turn_text(r) -> str:
    where = f"round {r.round}: " if r.round is not None else ""
    lines = [f"{where}{r.actor}'s turn starts"]
    if r.ap:
        lines.append(f"  AP {r.ap['before']} -> {r.ap['after']}")
    for card in r.cooldowns_ended:
        lines.append(f"  cooldown of {card} ended")
    if r.concentration_ended:
        lines.append(f"  Concentration on {r.concentration_ended} ended (its cooldown starts)")
    if r.drain:
        lines.append(f"  Dying drain: {damage_line(r.drain)}")
    for name in getattr(r, "expired", None) or ():
        lines.append(f"  {name} ended (its rounds ran out)")
    for sub in r.companions:
        lines += ["  " + line for line in turn_text(sub).splitlines()]
    return "\n".join(lines)




def rest_text(r) -> str:
    lines = [f"{'Proper Rest' if r.kind == 'proper' else r.kind + ' rest'}"]
    for a in r.actors:
        bits = [f"{c} {b} -> {n}" for c, (b, n) in a.charges.items()] or ["no charges to refill"]
        if a.ap:
            bits.append(f"AP {a.ap['before']} -> {a.ap['after']}")
        if a.cooldowns_ended:
            bits.append("cooldowns ended: " + ", ".join(a.cooldowns_ended))
        lines.append(f"  {a.id}: " + "; ".join(bits))
    return "\n".join(lines)




def _span(seconds: int) -> str:
    for size, unit in ((86400, "d"), (3600, "h"), (60, "m")):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def elapse_text(r) -> str:
    lines = [f"clock {_span(r.clock_before) if r.clock_before else 0} -> {_span(r.clock_after)} (+{_span(r.seconds)})"]
    for a in r.actors:
        bits = [f"cooldown of {c} ended" for c in a.cooldowns_ended]
        if a.concentration_ended:
            bits.append(f"Concentration on {a.concentration_ended} ended")
        lines.append(f"  {a.id}: " + "; ".join(bits))
    return "\n".join(lines)


def change_text(r) -> str:
    if r.what in ("damage", "drain"):
        return f"{r.actor}: {damage_line(r.damage)}"
    if r.what == "heal":
        return f"{r.actor}: HP {r.hp_before} -> {r.hp_after}"
    if r.what == "drop":
        return f"{r.actor} drops Concentration on {r.dropped} (its cooldown starts)"
    if r.what == "refresh":
        return f"{r.actor}: AP {r.ap['before']} -> {r.ap['after']}"
    bits = [f"+{c}" for c in r.conditions_added] + [f"-{c}" for c in r.conditions_removed]
    left = "".join(f"; {n}: {k} round{'s' if k != 1 else ''} left" for n, k in (getattr(r, "rounds_left", None)
                                                                                 or {}).items())
    return f"{r.actor}: " + (" ".join(bits) or "no change") + left




# --- sheet --------------------------------------------------------------------

def show_text(char, rows, left=None, dc=None, build=None) -> str:
    """`show CHAR`: numbers, DCs and each card's readiness; `rows` are (card, status)."""
    dc = dc or {"mental": char.attr("mind") + char.concentration, "physical": char.attr("body") + char.concentration}
    a = char.attributes
    lines = [f"{char.name} ({char.id})" + (f", companion of {char.owner}" if char.owner else ""),
             "  " + " ".join(f"{k.upper()} {v}" for k, v in a.items()),
             f"  HP {char.hp}/{char.hp_max}  AP {char.ap()}/{char.resources.get('ap', (0, 0))[1]}  "
             f"AC physical {char.ac.get('physical')} / mental {char.ac.get('mental')}  reach {char.reach:g} m",
             f"  Mental DC {dc['mental']}  Physical DC {dc['physical']}"
             f"  Concentration {char.concentration:+d}"]
    from .tiers import build_text

    lines += build_text(build or {})
    if char.concentrating:
        lines.append(f"  concentrating on {char.concentrating['card']}")
    if char.conditions:
        lines.append("  conditions: " + ", ".join(_timed(char.conditions, left)))
    for card, status in rows:
        lines.append(f"  {card.id:<14} {status}")
    return "\n".join(lines)


# --- the host's hook: text formatters over the JSON shapes -----------------------

class View(dict):
    """A JSON object read with attribute access, so one formatter serves records and JSON."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None


def view(value):
    if isinstance(value, dict):
        return View({k: view(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(view(v) for v in value)
    return value








def card_row(card, status=None) -> dict:
    return {**card_json(card), "summary": {"cost": cost_text(card), "atk_dc": atk_text(card), "range": range_text(card),
                                           "cooldown": cooldown_text(card)}, "status": status,
            "blocked_by": getattr(status, "rule", None)}


def card_list_text(d) -> str:
    cards = d["cards"]
    if not cards:
        return "no cards"
    head = ("id", "name", "cost", "tier", "atk/dc", "range", "cooldown", "properties") + (("status",) if d.get("for") else ())
    rows = [(c["id"], c["name"], c["summary"]["cost"], str(c["tier"]), c["summary"]["atk_dc"], c["summary"]["range"],
             c["summary"]["cooldown"], ", ".join(c["properties"]) or "-") + ((c["status"],) if d.get("for") else ())
            for c in cards]
    widths = [max(len(str(r[i])) for r in (head, *rows)) for i in range(len(head))]
    return "\n".join("  ".join(str(v).ljust(w) for v, w in zip(r, widths)).rstrip() for r in (head, *rows))


def faces_text(faces) -> str:
    """Faces in text as `dice` prints them and JSON holds them: [3, 4] (a tuple too)."""
    return "[" + ", ".join(str(f) for f in faces) + "]"


def dice_text(d) -> str:
    return f"{d['expr']}: {faces_text(d['faces'])} = {d['total']}"


def _timed(conditions, left) -> list:
    """A timed condition: `immobilized (2 rounds left)`."""
    left = left or {}
    out = []
    for c in conditions:
        n = left.get(str(c).partition(":")[0].strip().lower())
        out.append(c if n is None else f"{c} ({n} round{'s' if n != 1 else ''} left)")
    return out


def encounter_show_text(d) -> str:
    lines = [f"encounter {d['id']}: round {d['round']}, " + (f"{d['turn']}'s turn" if d.get("turn") else "between turns")]
    for row in d["status"]:
        extra = f"; concentrating on {row['concentrating']}" if row.get("concentrating") else ""
        conds = f"; {', '.join(_timed(row['conditions'], row.get('rounds_left')))}" if row["conditions"] else ""
        crit = " (Critical Condition)" if row.get("critical") else ""
        lines.append(f"  {row['id']:<10} HP {row['hp']}{crit}  AP {row['ap']}{extra}{conds}")
    return "\n".join(lines)


def turn_end_text(d) -> str:
    return f"{d['ended']}'s turn ends (round {d['round']})" if d.get("ended") else "no turn was running"


FORMATTERS = {
    "act": lambda d: act_text(view(d)),
    "act_dry_run": dry_run_text,
    "odds": odds_text,
    "turn_start": lambda d: turn_text(view(d)),
    "turn_end": turn_end_text,
    "turn_next": lambda d: turn_end_text(d) + "\n" + turn_text(view(d)),
    "rest": lambda d: rest_text(view(d)),
    "elapse": lambda d: elapse_text(view(d)),
    "change": lambda d: change_text(view(d)),
    "card_show": lambda d: d["layout"],
    "card_list": card_list_text,
    "sheet": lambda d: d["layout"],
    "dice": dice_text,
    "encounter_show": encounter_show_text,
    "join": lambda d: f"{d['joined']} joins encounter {d['encounter']}",
    "new": lambda d: f"created {d['file']}",
}

