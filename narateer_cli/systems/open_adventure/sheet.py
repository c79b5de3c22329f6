"""Character sheets and NPC statblocks (docs/rules/open-adventure.md), parsed into frozen records.

`schema(rules)` is the table of known keys per map; `problems(doc, ...)`
lists every way a document does not fit it (closest name for a misspelt
key); `parse_sheet` returns a `Sheet` or raises the first problem as bad input.
Top-level unknown keys are the user's own and survive; inner maps are closed.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import BadInput

from .names import closest, norm, unknown
from narateer_cli.kit import Record, computed, field

GROUPS = ("body", "mind", "spirit")
INT, NAME, FLAG, NAMES, MAP = "whole number >= 0", "name", "true or false", "list of names", "mapping"
COUNT_MAP = "mapping of NAME: whole number"


class Action(Record):
    """A statblock action: pre-calculated AS, optional flat Effect."""
    name: Any
    score: Any
    effect: Any
    group: Any
    stunt: Any


class Sheet(Record):
    id: Any
    name: Any
    npc: Any
    scores: Any
    mo_name: Any
    mo_score: Any
    specializations: Any
    bonuses: Any
    effect_bonuses: Any
    defenses: Any
    points: Any
    wounds: Any
    conditions: Any
    reaction: Any
    challenge_points: Any
    actions: Any

    @property
    def counters(self) -> dict:
        """The counters the host's log and merge driver track (SYSTEM.counters), by their key paths."""
        out = {f"points.{k}": v for k, v in self.points.items()}
        out["wounds"] = self.wounds or 0
        if self.challenge_points is not None:
            out["challenge_points"] = self.challenge_points
        return out


class ScoreRow(Record):
    """One attribute (or NPC group) on `show`: its AS and dice, and with the MO when the sheet has one."""
    name: Any
    score: Any
    action_score: Any
    dice: Any
    with_mo: Any = field(default=None, skip=lambda r: r.with_mo is None)
    dice_with_mo: Any = field(default=None, skip=lambda r: r.with_mo is None)


class ActionRow(Record):
    """One statblock action on `show` (its JSON names the AS `as`, as the statblock does)."""
    name: Any
    action_score: Any = field(key="as")
    dice: Any
    effect: Any
    group: Any
    stunt: Any


class MO(Record):
    name: Any
    score: Any


class SheetView(Record):
    """`show CHAR`: the sheet with each attribute's AS and dice."""
    system: Any
    id: Any
    name: Any
    npc: Any
    mo: Any
    scores: Any
    actions: Any
    points: Any
    wounds: Any
    specializations: Any
    defenses: Any
    reaction: Any
    conditions: Any
    rounds_left: Any


class SheetCreated(Record):
    """`new ID`: the sheet written."""
    system: Any
    id: Any
    file: Any
    npc: Any
    challenge_points: Any = field(default=None, skip=lambda r: r.challenge_points is None)

    message = computed(lambda r: f"created {r.file}" + ("" if r.challenge_points is None else
                                                         f" (Challenge Points {r.challenge_points})"))


class SheetsCopied(Record):
    """`new ID --from OTHER [--count N]`: the copies written."""
    system: Any
    id: Any
    ids: Any
    source: Any = field(key="from")
    file: Any

    message = computed(lambda r: f"created {r.file} from characters/{r.source}.yaml")


def view(sheet: Sheet, rules, state=None) -> SheetView:
    """What `show` prints: each score's AS and dice, with the MO added when the sheet has one; `state`: the
    encounter CHAR takes part in, for its timed conditions."""
    from .chart import chart_dice, printed
    from .turns import rounds_left

    def dice(score):
        return printed(chart_dice(score, rules)) if score >= rules.min_as else "none (no check)"

    mo = sheet.mo_score
    rows = [ScoreRow(name=name, score=score, action_score=score, dice=dice(score),
                     **({} if mo is None else {"with_mo": score + mo, "dice_with_mo": dice(score + mo)}))
            for name, score in sheet.scores.items()]
    actions = [ActionRow(name=a.name, action_score=a.score, dice=dice(a.score), effect=a.effect, group=a.group,
                         stunt=a.stunt) for a in sheet.actions.values()]
    return SheetView(system="open-adventure", id=sheet.id, name=sheet.name, npc=sheet.npc,
                     mo=MO(name=sheet.mo_name, score=mo) if mo is not None else None, scores=rows, actions=actions,
                     points=sheet.points, wounds=sheet.wounds, specializations=list(sheet.specializations),
                     defenses=sheet.defenses, reaction=sheet.reaction, conditions=list(sheet.conditions),
                     rounds_left=rounds_left(state, sheet.id))


def schema(rules) -> dict:
    """Known keys per map path, for PCs and NPCs; `*` marks a map whose keys the user names."""
    pools = {g: INT for g in GROUPS}
    common = {"name": NAME, "kind": "pc or npc", "defenses": MAP, "points": MAP, "points_max": MAP,
              "wounds": INT, "conditions": NAMES, "mo": MAP, "bonuses": COUNT_MAP, "effect_bonuses": COUNT_MAP}
    pc = {"": {**common, "attributes": MAP, "specializations": NAMES},
          "attributes": {g: MAP for g in GROUPS}, "mo": {"name": NAME, "score": INT},
          "defenses": pools, "points": pools, "points_max": pools, "bonuses": {"*": INT},
          "effect_bonuses": {"*": INT}}
    for group, names in rules.groups.items():
        pc[f"attributes.{group}"] = {a: INT for a in names}
    npc = {"": {**common, "attributes": MAP, "reaction": INT, "challenge_points": INT,
                "challenge_points_max": INT, "actions": MAP,
                "specializations": NAMES},
           "attributes": pools, "mo": {"name": NAME, "score": INT}, "defenses": pools, "points": pools,
           "points_max": pools, "bonuses": {"*": INT}, "effect_bonuses": {"*": INT}, "actions": {"*": MAP},
           "actions.*": {"as": INT, "effect": INT, "group": "body, mind or spirit", "stunt": FLAG}}
    return {"pc": pc, "npc": npc}


def _type_ok(value, want: str) -> bool:
    if want == INT:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if want == NAME:
        return isinstance(value, str) and bool(value.strip())
    if want == FLAG:
        return isinstance(value, bool)
    if want == NAMES:
        return isinstance(value, list) and all(isinstance(v, str) and v.strip() for v in value)
    if want in (MAP, COUNT_MAP):
        return isinstance(value, dict)
    if want == "pc or npc":
        return value in ("pc", "npc")
    return value in GROUPS


def _walk(doc: dict, tpath: str, dpath: str, table: dict, label: str, out: list, limit: int):
    """Check `doc` against the table row `tpath`; `dpath` is the key path shown to the user."""
    known = table.get(tpath, {})
    for key, value in doc.items():
        shown = f"{dpath}.{key}" if dpath else str(key)
        want = known.get(key, known.get("*"))
        if want is None:
            if tpath:  # inner maps are closed; top-level unknown keys are the user's own
                names = [k for k in known if k != "*"]
                near = closest(key, names)
                fix = f"did you mean {near}?" if near else "known: " + ", ".join(names)
                out.append(f"{label}: unknown key {shown}; {fix}")
            continue
        if not _type_ok(value, want):
            out.append(f"{label}: {shown} must be a {want}; got {value!r}")
            continue
        if want == INT and value > limit:
            out.append(f"{label}: {shown} is over the limit {limit}")
        sub = (f"{tpath}.{key}" if tpath else str(key)) if key in known else f"{tpath}.*"
        if isinstance(value, dict) and sub in table:
            _walk(value, sub, shown, table, label, out, limit)


def problems(doc, label: str, rules) -> list[str]:
    """Every way `doc` does not fit the sheet schema (attributes and their bounds); [] if it fits."""
    if not isinstance(doc, dict):
        return [f"{label}: a sheet must be a mapping"]
    kind = doc.get("kind", "pc")
    if kind not in ("pc", "npc"):
        return [f"{label}: kind must be pc or npc; got {kind!r}"]
    out: list[str] = []
    table = schema(rules)[kind]
    _walk(doc, "", "", table, label, out, rules.limits["points"])
    if "name" not in doc:
        out.append(f"{label}: name is missing")
    out += _attribute_problems(doc.get("attributes"), kind, label, rules)
    actions = doc.get("actions") if kind == "npc" else None
    out += _action_problems(actions if isinstance(actions, dict) else {}, label, rules)
    return out


def _attribute_problems(attrs, kind: str, label: str, rules) -> list[str]:
    """A PC names every attribute of each group; an NPC gives each group one score."""
    if not isinstance(attrs, dict):
        return [f"{label}: attributes are missing"]
    if kind != "pc":
        return [f"{label}: attributes.{g} is missing" for g in GROUPS if g not in attrs]
    out = []
    for group, names in rules.groups.items():
        block = attrs.get(group)
        block = block if isinstance(block, dict) else {}
        out += [f"{label}: attributes.{group}.{a} is missing" for a in names if a not in block]
    return out


def _action_problems(actions: dict, label: str, rules) -> list[str]:
    """A statblock action has an AS and a name of its own."""
    out = []
    for name in actions:
        if norm(name) in {norm(a) for a in rules.attributes + GROUPS}:
            out.append(f"{label}: actions.{name} is named like an attribute or group; rename it")
        elif not isinstance(actions[name], dict) or "as" not in actions[name]:
            out.append(f"{label}: actions.{name}.as is missing")
    return out


def placed(problem: str, doc, label: str) -> str:
    """`LABEL: attributes.body.strength is missing` -> `LABEL:5: ...`: the line of the deepest key of the
    first dotted path the problem names that the document holds (unchanged when none is known)."""
    import re

    from narateer_cli.kit import line_of

    rest = problem[len(label) + 2:] if problem.startswith(label + ": ") else None
    for path in re.findall(r"[A-Za-z_][\w-]*(?:\.[\w-]+)*", rest or ""):
        node, line = doc, None
        for key in path.split("."):
            if not isinstance(node, dict) or key not in node:
                break
            line, node = line_of(node, key) or line, node[key]
        if line is not None:
            return f"{label}:{line}: {rest}"
    return problem


def _actions(doc: dict) -> dict:
    out = {}
    for name, block in (doc.get("actions") or {}).items():
        out[str(name)] = Action(name=str(name), score=block["as"], effect=block.get("effect"),
                                group=block.get("group", "body"), stunt=bool(block.get("stunt", False)))
    return out


def parse_sheet(char_id: str, doc, label: str, rules, lines=None) -> Sheet:
    """A validated `Sheet` (PC or NPC statblock); the first problem is bad input (exit 2), at the line of
    the key it names when `lines` (or `doc` itself) is a round-trip document that knows its lines."""
    found = problems(doc, label, rules)
    if found:
        raise BadInput(placed(found[0], doc if lines is None else lines, label),
                       fix="correct the sheet (`check` lists every problem)")
    npc = doc.get("kind", "pc") == "npc"
    attrs = doc["attributes"]
    if npc:
        scores = {g: attrs[g] for g in GROUPS}
    else:
        scores = {a: attrs[g][a] for g, names in rules.groups.items() for a in names}
    mo = doc.get("mo") or {}
    return Sheet(id=char_id, name=str(doc["name"]), npc=npc, scores=scores, mo_name=mo.get("name"),
                 mo_score=mo.get("score"), specializations=tuple(doc.get("specializations") or ()),
                 bonuses=dict(doc.get("bonuses") or {}), effect_bonuses=dict(doc.get("effect_bonuses") or {}),
                 defenses=dict(doc.get("defenses") or {}), points=dict(doc.get("points") or {}),
                 wounds=doc.get("wounds", 0), conditions=tuple(doc.get("conditions") or ()),
                 reaction=doc.get("reaction"), challenge_points=doc.get("challenge_points"),
                 actions=_actions(doc) if npc else {})


def whole(text, what: str, limit: int, example: str) -> int:
    """A whole number 0..limit given as text on the command line (`--attribute strength=3`); `example`: the
    whole option as it may be written, for the fix."""
    if not str(text).isdigit() or int(text) > limit:
        raise BadInput(f"{what} {text!r} must be a whole number from 0 to {limit}", fix=f"for example {example}")
    return int(text)


def new_doc(char_id: str, name, npc: bool, given: dict, rules, mo=None, specializations=(), pools=None,
            defenses=None, reaction=None, actions=None) -> dict:
    """`new ID`: a fresh sheet (PC) or statblock (NPC) from NAME=VALUE texts; attributes not given are 0."""
    limit = rules.limits["points"]
    known = GROUPS if npc else rules.attributes
    scores = {k: whole(v, f"--attribute {k}", limit, f"--attribute {k}=3") for k, v in given.items()}
    for key in scores:
        if key not in known:
            raise unknown("attribute", key, known, detail=" for an NPC" * npc)
    doc = {"name": name or char_id, "kind": "npc" if npc else "pc"}
    doc.update(_npc_block(scores, reaction, actions or {}, limit) if npc else _pc_block(scores, reaction, actions, rules))
    doc.update(_training(mo, specializations, limit))
    pools = dict(pools or {})
    if "challenge" in pools:
        doc["challenge_points"] = _challenge(pools.pop("challenge"), npc, limit)
    for key, flag, option in (("defenses", "--defense", defenses), ("points", "--points", pools)):
        values = {k: whole(v, f"{flag} {k}", limit, f"{flag} {k}=5") for k, v in (option or {}).items()}
        if values:
            doc[key] = values
    doc["wounds"] = 0
    doc["conditions"] = []
    return doc


def _challenge(text, npc: bool, limit: int) -> int:
    """`--points challenge=N`: an NPC's Challenge Points, worn down by Effect; a PC has none."""
    if not npc:
        raise BadInput("--points challenge=N is for NPC statblocks (Challenge Points)",
                       fix="add --npc, or give a PC's pools as body=, mind=, spirit=")
    return whole(text, "--points challenge", limit, "--points challenge=8")


def _training(mo, specializations, limit: int) -> dict:
    """`--mo NAME=N` and `--specialization S` as sheet keys."""
    out: dict[str, dict | list] = {}
    if mo:
        mo_name, sep, score = (part.strip() for part in mo.partition("="))
        example = f"--mo {mo_name or 'Warrior'}=2"
        if not sep or not mo_name:
            raise BadInput(f"--mo {mo!r} must be NAME=N, the MO's name and its score", fix=f"for example {example}")
        out["mo"] = {"name": mo_name, "score": whole(score, "--mo score", limit, example)}
    if specializations:
        out["specializations"] = list(specializations)
    return out


def _pc_block(scores: dict, reaction, actions, rules) -> dict:
    if reaction is not None or actions:
        raise BadInput("--reaction and --action are for NPC statblocks", fix="add --npc")
    return {"attributes": {g: {a: scores.get(a, 0) for a in names} for g, names in rules.groups.items()}}


def _npc_block(scores: dict, reaction, actions: dict, limit: int) -> dict:
    """An NPC's groups, Reaction and actions (`spear=6:2`: AS 6, flat Effect 2)."""
    out = {}
    for name, value in actions.items():
        score, _, effect = value.partition(":")
        block = {"as": whole(score, f"--action {name}", limit, f"--action {name}=6:2"), "group": "body"}
        if effect:
            block["effect"] = whole(effect, f"--action {name} effect", limit, f"--action {name}={score}:2")
        out[name] = block
    return {"attributes": {g: scores.get(g, 0) for g in GROUPS}, "reaction": reaction if reaction is not None else 0,
            "actions": out}


def new_sheet(char_id: str, name, npc: bool, given: dict, rules, **options) -> tuple[dict, Sheet, SheetCreated]:
    """`new ID`: the document to write, its sheet (exit 2 on any misfit, before anything is written) and what
    `new` reports. `options`: `new_doc`'s."""
    doc = new_doc(char_id, name, npc, given, rules, **options)
    sheet = parse_sheet(char_id, doc, f"characters/{char_id}.yaml", rules)
    return doc, sheet, SheetCreated(system="open-adventure", id=char_id, file=f"characters/{char_id}.yaml",
                                    npc=sheet.npc, challenge_points=sheet.challenge_points)


def copied(source: str, ids) -> SheetsCopied:
    files = ", ".join(f"characters/{i}.yaml" for i in ids)
    return SheetsCopied(system="open-adventure", id=ids[0], ids=list(ids), source=source, file=files)


def fresh_sheet(doc, rules):
    """A copy starts fresh: each point pool at its maximum (`points_max`, when the sheet gives one;
    else the pool as written), Challenge Points at `challenge_points_max` likewise, no Wounds, no conditions."""
    pools, top = doc.get("points"), doc.get("points_max") or {}
    if isinstance(pools, dict):
        for pool in list(pools):
            if isinstance(top.get(pool), int):
                pools[pool] = top[pool]
    if isinstance(doc.get("challenge_points_max"), int) and "challenge_points" in doc:
        doc["challenge_points"] = doc["challenge_points_max"]
    if doc.get("wounds"):
        doc["wounds"] = 0
    if doc.get("conditions"):
        doc["conditions"] = []
    return doc
