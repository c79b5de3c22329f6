"""The omen game's text formatters."""


def fortune(data: dict) -> str:
    return f"{data['actor']} reads the omen: {data['omen']} ({data['face']})"


def mark(data: dict) -> str:
    return f"{data['actor']} marks {data['face']}"


def read(data: dict) -> str:
    return f"the omen is {data['omen']}: {'good' if data['good'] else 'bad'}"


def tally(data: dict) -> str:
    return f"round {data['round']}"


def show(data: dict) -> str:
    return f"{data['name']}: mark {data['mark']}"


FORMATTERS = {"fortune": fortune, "mark": mark, "read": read, "tally": tally, "show": show}
