"""The coin game's rules: pure functions, no files, no printing."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from narateer_cli.kit import BadInput, Refused
from narateer_cli.kit import entrywise

KNOBS = ("faces", "max_coins", "cost")
# how the conformance kit plays the coin game in its example campaign (S-SYS-11)
CONFORMANCE = {
    "counter": "roll pim --target 1 --coins 2",
    "secret": "roll pim --target 1 --coins 3 --secret",
    "refused": ["roll pim --target 1 --coins 99", "roll nobody --target 1", "roll pim --target 1 --faces 1,2,3"],
    "more": ["roll pim --target 0 --coins 1 --faces 1"],
}


def ruleset(data: dict, overrides: dict, where: str, checked: bool = False) -> dict:
    for key in overrides:
        if key not in KNOBS:
            raise BadInput(f"{where}: unknown ruleset key rules.{key}", fix="known keys: " + ", ".join(KNOBS))
    return {**data, **overrides}


def parse_sheet(char_id, doc, label, rules):
    coins = doc.get("coins") if isinstance(doc, dict) else None
    if not isinstance(coins, dict):
        raise BadInput(f"{label}: coins must be a mapping", fix="write `coins: {ready: 3, spent: 0}`")
    return Sheet(char_id, str(doc.get("name", char_id)), {k: int(coins.get(k, 0)) for k in ("ready", "spent")})


class Sheet:
    def __init__(self, id, name, dice):
        self.id, self.name, self.dice = id, name, dice


def new_state(enc_id, participants, rules) -> dict:
    return {"id": enc_id, "round": 1, "participants": list(participants)}


def load_state(data: dict, label: str, checked: bool = False) -> dict:
    return {"id": data["id"], "round": data["round"], "participants": list(data["participants"])}


def parse_faces(text, option="--faces"):
    if not text:
        return None
    words = {"0": 0, "1": 1, "tails": 0, "heads": 1, "t": 0, "h": 1}
    out = []
    for token in str(text).split(","):
        if token.strip().lower() not in words:
            raise BadInput(f"{option}: {token!r} is not a coin face", fix="give 1/0 or heads/tails")
        out.append(words[token.strip().lower()])
    return out


def beats(total: int, target: int) -> bool:
    return total > target


def flip(sheet, coins: int, target: int, faces: list, rules) -> dict:
    """One roll: pay `cost`, count heads, compare. Faces come in (random or physical)."""
    if not 1 <= coins <= rules["max_coins"]:
        raise BadInput(f"--coins {coins} is out of range", fix=f"give 1 to {rules['max_coins']}")
    if len(faces) != coins:
        raise BadInput(f"{len(faces)} faces for {coins} coins", fix=f"give {coins} faces")
    if sheet.dice["ready"] < rules["cost"]:
        raise Refused(f"{sheet.id} has no coin to spend", fix="nothing was spent")
    after = {"ready": sheet.dice["ready"] - rules["cost"], "spent": sheet.dice["spent"] + rules["cost"]}
    total = sum(faces)
    return {"system": "coin", "actor": sheet.id, "coins": coins, "target": target, "faces": list(faces),
            "total": total, "success": beats(total, target), "paid": rules["cost"],
            "dice_before": dict(sheet.dice), "dice_after": after}


def odds(coins: int, target: int, rules) -> Fraction:
    outcomes = list(product(rules["faces"], repeat=coins))
    return Fraction(sum(1 for o in outcomes if beats(sum(o), target)), len(outcomes))


def chance(entry_check: dict, rules) -> Fraction:
    return odds(entry_check["coins"], entry_check["target"], rules)


def verify_log(entries: list, rules) -> str | None:
    """Re-run `flip` on each logged roll's own declaration and faces."""
    for entry in entries:
        if entry.get("command") != "roll":
            continue
        logged = entry["result"]
        sheet = Sheet(logged["actor"], logged["actor"], logged["dice_before"])
        again = flip(sheet, logged["coins"], logged["target"], logged["faces"], rules)
        if again != logged:
            wrong = sorted(k for k in again if again[k] != logged.get(k))
            return f"entry {entry['seq']} (roll): {', '.join(wrong)} do not follow from the faces"
    return None


# The `log_checker` hook (S-SYS-9): each entry checked on its own, as the host streams a log.
log_checker = entrywise(verify_log)
