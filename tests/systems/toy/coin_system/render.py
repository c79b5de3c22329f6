"""The coin game's text formatters, one per result kind."""


def roll(data: dict) -> str:
    coins = " ".join("H" if f else "T" for f in data["faces"])
    verdict = "beats" if data["success"] else "does not beat"
    return f"{data['actor']} flips {coins}: {data['total']} heads {verdict} {data['target']}"


def odds(data: dict) -> str:
    return f"{data['coins']} coins beat {data['target']}: {data['exact']}"


def call(data: dict) -> str:
    return f"called {data['called']}: {'heads' if data['face'] else 'tails'}, {'won' if data['won'] else 'lost'}"
