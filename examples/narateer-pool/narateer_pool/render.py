"""Pool's words: one text formatter per result kind, and one sentence per log entry."""


def _pool(data: dict) -> str:
    keep = "" if data["keep"] == "highest" else ", the lowest kept"
    return f"{data['pool']}d6{keep}"


def roll(data: dict) -> str:
    if "faces" not in data:  # a sealed roll, as the log shows it
        return f"{data['actor']} rolls {data['action']} at rating {data['rating']} in secret"
    faces = " ".join(map(str, data["faces"]))
    return f"{data['actor']} rolls {data['action']} ({_pool(data)}): {faces} -> {data['kept']}, {data['outcome']}"


def resist(data: dict) -> str:
    trauma = f"; stress past {9}, marks a trauma" if data["trauma_marked"] else ""
    return (f"{data['actor']} resists with {data['attribute']} ({_pool(data)}): "
            f"{' '.join(map(str, data['faces']))} -> {data['kept']}, takes {data['stress_taken']} stress{trauma}; "
            f"stress {data['track_before']['stress']} -> {data['track_after']['stress']}, "
            f"trauma {data['track_after']['trauma']}")


def fortune(data: dict) -> str:
    if "faces" not in data:  # sealed: only its commitment is public
        return f"{data.get('actor', 'the Guide')} makes a sealed fortune roll"
    return (f"fortune roll of {data['dice']} ({_pool(data)}): {' '.join(map(str, data['faces']))} -> "
            f"{data['kept']}, {data['outcome']}")


def stress(data: dict) -> str:
    took = f"takes {data['stress']}" if data["stress"] > 0 else f"clears {-data['stress']}"
    trauma = ", marks a trauma" if data["trauma_marked"] else ""
    return (f"{data['actor']} {took} stress{trauma}: stress {data['track_before']['stress']} -> "
            f"{data['track_after']['stress']}, trauma {data['track_after']['trauma']}")


def dice(data: dict) -> str:
    return f"{len(data['faces'])}d6: {' '.join(map(str, data['faces']))}; highest {data['highest']}"


def odds(data: dict) -> str:
    return (f"{data['dice']} dice: critical {data['critical']}, full success {data['full success']}, "
            f"partial success {data['partial success']}, failure {data['failure']}")


def show(data: dict) -> str:
    actions = ", ".join(f"{k} {v}" for k, v in data["actions"].items() if v) or "none rated"
    attributes = ", ".join(f"{k} {v}" for k, v in data["attributes"].items())
    return (f"{data['name']} ({data['id']}): {actions}; attributes {attributes}; "
            f"stress {data['track']['stress']}, trauma {data['track']['trauma']}")


def new(data: dict) -> str:
    return f"characters/{data['id']}.yaml written, a copy of {data['from']}"


def condition(data: dict) -> str:
    return f"{data['actor']}: {' '.join(data['changes'])}; now {', '.join(data['conditions']) or 'none'}"


def turn(data: dict) -> str:
    return f"the spotlight turns to {data['spotlight']}"


_SUMMARIES = {"roll": roll, "resolve": roll, "resist": resist, "fortune": fortune, "stress": stress,
              "condition": condition, "turn": turn}


def summary(command, actor, declaration, result) -> str | None:
    """One logged action in words (encounter log, report, commit messages)."""
    formatter = _SUMMARIES.get(command)
    if formatter is None or not isinstance(result, dict):
        return None
    if command == "fortune" and "faces" not in result:
        return f"{actor} makes a sealed fortune roll"
    return formatter(result)


# each result kind the game's commands name, and its formatter (the game's `formatters`)
FORMATTERS = {"roll": roll, "resist": resist, "fortune": fortune, "stress": stress, "dice": dice, "odds": odds,
              "show": show, "new": new, "condition": condition, "turn": turn}
