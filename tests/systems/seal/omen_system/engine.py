"""The omen game's rules: pure functions, no files."""

from __future__ import annotations

from narateer_cli.kit import BadInput, Choice, Int, Map, Text, entrywise, problems

SHEET = Map(keys={"name": Text(), "luck": Map(keys={"spent": Int(0, 100)}), "mark": Int(1, 6)}, open=True)
STATE = Map(keys={"round": Int(1), "omen": Choice("storm", "wind", "rain", "calm", "sun", "gold"),
                  "asked": Text(word=True)})


class Sheet:
    def __init__(self, id, name, spent, mark):
        self.id, self.name, self.counters, self.mark = id, name, {"spent": spent}, mark


def parse_sheet(char_id, doc, label, rules):
    return Sheet(char_id, str(doc.get("name", char_id)), int((doc.get("luck") or {}).get("spent", 0)), doc.get("mark"))


def load_state(data: dict, label: str) -> dict:
    """The state as written: its id, round and participants, and the omen and who asked for it, when there are."""
    found = [p for p in problems({k: v for k, v in data.items() if k in ("omen", "asked", "round")}, STATE, label, {})
             if p.severity == "error"]
    if found:
        raise found[0].error()
    return {k: data[k] for k in ("id", "round", "participants", "omen", "asked") if k in data}


def face_of(text, rng) -> int:
    if text is None:
        return rng.randint(1, 6)
    if not (text.isdigit() and 1 <= int(text) <= 6):
        raise BadInput(f"--faces {text!r} is not a face of a d6", fix="give 1 to 6")
    return int(text)


def fortune(actor: str, face: int, rules) -> dict:
    return {"actor": actor, "face": face, "omen": rules["omens"][face - 1]}


def mark(actor: str, face: int) -> dict:
    return {"actor": actor, "face": face}


def verify_log(entries: list, rules) -> str | None:
    for entry in entries:
        result = entry.get("result") or {}
        if entry.get("command") in ("fortune", "fortune-loose") and "face" in result:
            if fortune(result["actor"], result["face"], rules) != result:
                return f"entry {entry['seq']} ({entry['command']}): the omen does not follow from the face"
    return None


log_checker = entrywise(verify_log)
