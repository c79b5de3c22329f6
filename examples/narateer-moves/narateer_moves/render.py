"""Moves' words: one text formatter per result kind, and one sentence per log entry."""


def roll(data: dict) -> str:
    if "faces" not in data:  # a sealed move, as the log shows it
        return f"{data['actor']} makes a secret move: {data['move']}"
    faces = " + ".join(map(str, data["faces"]))
    xp = f"; marks {data['xp_marked']} XP" if data["xp_marked"] else ""
    return f"{data['actor']} makes {data['move']}: {faces} {data['stat']} {data['stat_value']:+d} = " \
           f"{data['total']}, {data['band']}{xp}"


def dice(data: dict) -> str:
    return f"2d6: {' + '.join(map(str, data['faces']))} = {data['total']}"


def odds(data: dict) -> str:
    return f"stat {data['stat']:+d}: strong hit {data['strong hit']}, weak hit {data['weak hit']}, miss {data['miss']}"


def show(data: dict) -> str:
    stats = ", ".join(f"{k} {v:+d}" for k, v in data["stats"].items())
    return f"{data['name']} ({data['id']}): {stats}; harm {data['track']['harm']}, xp {data['track']['xp']}"


def new(data: dict) -> str:
    return f"characters/{data['id']}.yaml written, a copy of {data['from']}"


def harm(data: dict) -> str:
    return f"{data['actor']}: harm {data['track_before']['harm']} -> {data['track_after']['harm']}"


def condition(data: dict) -> str:
    return f"{data['actor']}: {' '.join(data['changes'])}; now {', '.join(data['conditions']) or 'none'}"


def turn(data: dict) -> str:
    return f"the spotlight turns to {data['spotlight']}"


def summary(command, actor, declaration, result) -> str | None:
    """One logged action in words (encounter log, report, commit messages)."""
    kind = {"resolve": "roll"}.get(command, command)
    formatter = FORMATTERS.get(kind) if kind in ("roll", "harm", "condition", "turn") else None
    return formatter(result) if formatter and isinstance(result, dict) else None


# each result kind the game's commands name, and its formatter (the game's `formatters`)
FORMATTERS = {"roll": roll, "dice": dice, "odds": odds, "show": show, "new": new, "harm": harm,
              "condition": condition, "turn": turn}
