"""Forge's text formatters, one per result kind, and the log's sentence for each action."""

from __future__ import annotations


def _faces(faces) -> str:
    return " ".join(str(f) for f in faces)


def _track(data: dict) -> str:
    line = f"stress {data['stress_before']} -> {data['stress_after']}"
    if data["trauma_after"] != data["trauma_before"]:
        line += f"; stress overflowed: trauma {data['trauma_before']} -> {data['trauma_after']}"
    return line


# The host leads each text with the result's outcome line (its `outcome`, coloured with --color), so the
# formatters below do not say it again.

def roll(data: dict) -> str:
    keeps = "highest" if data["pool"] else "lowest of two (no dice)"
    lines = [f"{data['actor']} {data['action']} ({data['position']}, {data['effect']} effect): "
             f"{data['pool']}d rolled {_faces(data['faces'])}, {keeps} {data['highest']}"]
    if data["push"]:
        lines.append(f"pushed: {_track(data)}")
    return "\n".join(lines)


def resolve(data: dict) -> str:
    cost = data["cost"]
    paid = f"clears {-cost} stress" if cost < 0 else f"costs {cost} stress"
    return (f"{data['actor']} resists with {data['attribute']} {data['rating']}: rolled {_faces(data['faces'])}, "
            f"{'critical' if data['critical'] else 'kept ' + str(data['highest'])}: {paid}\n{_track(data)}")


def fortune(data: dict) -> str:
    return f"fortune {data['rating']}: rolled {_faces(data['faces'])}, kept {data['highest']}: {data['omen']}"


def counter(data: dict) -> str:
    before, after = data["before"], data["after"]
    line = f"{data['actor']}: {data['counter']} {before[data['counter']]} -> {after[data['counter']]}"
    if data["trauma_marked"]:
        line += f"; stress overflowed: trauma {before['trauma']} -> {after['trauma']}"
    return line


def odds(data: dict) -> str:
    who = f"{data['actor']} {data.get('action') or data.get('attribute')}: " if "actor" in data else ""
    head = f"{who}{data['pool']} dice (rolls {data['rolled']}, keeps the {data['keeps']})"
    if "costs" in data:
        rows = [f"  stress {int(k):+d}: {_pct(v)}" for k, v in data["costs"].items()]
    else:
        rows = [f"  {k}: {_pct(v)}" for k, v in data["outcomes"].items()]
        rows.append(f"  full success (success or critical): {_pct(data['chance'])}")
    return "\n".join([head, *rows])


def _pct(ratio: str) -> str:
    num, den = (int(x) for x in ratio.split("/"))
    return f"{ratio} ({100 * num / den:.1f}%)"


def sheet(data: dict) -> str:
    acts = ", ".join(f"{a} {r}" for a, r in data["actions"].items() if r)
    attrs = ", ".join(f"{a} {r}" for a, r in data["attributes"].items())
    t = data["track"]
    lines = [f"{data['name']} ({data['id']})", f"actions: {acts or 'none rated'}", f"attributes: {attrs}",
             f"stress {t['stress']}/{data['stress_max']}, trauma {t['trauma']}/{data['trauma_max']}, "
             f"harm {t['harm']}/{data['harm_max']}"]
    if data["conditions"]:
        lines.append("conditions: " + ", ".join(data["conditions"]))
    return "\n".join(lines)


def dice(data: dict) -> str:
    return f"rolled {_faces(data['faces'])}: {data['keeps']} {data['highest']}"


def condition(data: dict) -> str:
    return f"{data['actor']}: conditions now {', '.join(data['conditions']) or 'none'}"


def new(data: dict) -> str:
    return f"copied {data['source']} as {', '.join(data['made'])}, with fresh stress, trauma and harm"


def turn(data: dict) -> str:
    return f"the spotlight is on {data['spotlight']}" if data.get("spotlight") else "the spotlight is free"


FORMATTERS = {"roll": roll, "resolve": resolve, "fortune": fortune, "counter": counter, "odds": odds,
              "sheet": sheet, "dice": dice, "condition": condition, "new": new, "turn": turn}


def summary(command: str, actor, declaration: dict, result: dict) -> str | None:
    """One logged action in words."""
    if not isinstance(result, dict):
        return None
    if command == "roll" and "faces" in result:
        push = ", pushed" if result.get("push") else ""
        return (f"{actor} rolled {result['action']} ({result['pool']}d{push}): {_faces(result['faces'])}, "
                f"{result['outcome']}")
    if command == "resolve" and "cost" in result:
        return f"{actor} resisted with {result['attribute']}: {_faces(result['faces'])}, stress {result['cost']:+d}"
    if command == "fortune" and "omen" in result:
        return f"{actor}'s fortune roll of {result['rating']}: {result['outcome']}, {result['omen']}"
    if command in ("harm", "stress") and "after" in result:
        c = result["counter"]
        return f"{actor}'s {c} {result['before'][c]} -> {result['after'][c]}"
    if command == "condition" and "conditions" in result:
        return f"{actor}'s conditions: {', '.join(result['conditions']) or 'none'}"
    if command == "new" and "made" in result:
        return f"{', '.join(result['made'])} copied from {result['source']}"
    if command in ("turn start", "turn end", "turn"):
        return f"the spotlight passes to {actor}" if actor else "the spotlight is free"
    return None
