"""The coin game's text formatters, one per result kind."""


def roll(data: dict) -> str:
    coins = " ".join("H" if f else "T" for f in data["faces"])
    verdict = "beats" if data["success"] else "does not beat"
    return f"{data['actor']} flips {coins}: {data['total']} heads {verdict} {data['target']}"


def odds(data: dict) -> str:
    return f"{data['coins']} coins beat {data['target']}: {data['exact']}"


def call(data: dict) -> str:
    return f"called {data['called']}: {'heads' if data['face'] else 'tails'}, {'won' if data['won'] else 'lost'}"


def dice(data: dict) -> str:
    return " ".join("H" if f else "T" for f in data["faces"]) + f": {data['total']} heads"


def show(data: dict) -> str:
    return f"{data['name']}: {data['coins']['ready']} coins ready, {data['coins']['spent']} spent"


def new(data: dict) -> str:
    return f"{data['id']}: a copy of {data['from']}"


def turn(data: dict) -> str:
    return f"{data['actor']}'s turn: {data['coins_after']['ready']} coins ready"


def condition(data: dict) -> str:
    return f"{data['actor']}: " + (", ".join(data["conditions"]) or "no conditions")


FORMATTERS = {"roll": roll, "odds": odds, "call": call, "dice": dice, "show": show, "new": new, "turn": turn,
              "condition": condition}
