"""What the host's luck report (`stats`) asks of d20-cards: each attack roll and each save
of a logged act is a check of its performer, with its exact chance beforehand; the d20's top face is 20."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .act import hits, resists
from .dice import D20, edge_mode, kept_faces

if TYPE_CHECKING:
    from fractions import Fraction


CHECK_MARKS = (b'"targets"',)  # a log line with an attack or a save holds its targets (stats reads only those)


def checks(result, declaration=None):
    """Views of each target's `attack` and `save` (a written `chance` lands on the logged object); a save's
    one d20 is also its `faces`, as the report shows them."""
    if not isinstance(result, dict) or not isinstance(result.get("targets"), list):
        return
    decl = declaration if isinstance(declaration, dict) else {}
    edge = {"advantage": bool(decl.get("advantage")), "disadvantage": bool(decl.get("disadvantage"))}
    for target in result["targets"]:
        if not isinstance(target, dict):
            continue
        if isinstance(target.get("attack"), dict):
            a = target["attack"]
            yield _View(a, {"actor": result.get("actor"), "kind": "attack", "success": a.get("hit"), **edge})
        if isinstance(target.get("save"), dict):
            s = target["save"]
            landed = None if "resisted" not in s else not s["resisted"]
            yield _View(s, {"actor": result.get("actor"), "kind": "save", "success": landed,
                            "faces": [s["face"]] if "face" in s else []})


class _View(dict):
    """A logged attack or save read with what its act adds (its keys win, as in a ChainMap); what is
    written to it (`chance`) lands on the logged object too. A plain dict underneath: `stats` reads one
    per check of a long log, and a dict's reads are far cheaper than a ChainMap's."""
    __slots__ = ("logged",)

    def __init__(self, logged: dict, added: dict):
        super().__init__(added)
        self.update(logged)
        self.logged = logged

    def __setitem__(self, key, value):
        self.logged[key] = value
        super().__setitem__(key, value)


def chance(check, rules) -> Fraction | None:
    """An attack: P(hit) over the kept d20 face (meeting the AC, Edge included); a save: P(the target fails it)."""
    ratio = chance_ratio(check, rules)
    if ratio is None:
        return None
    from fractions import Fraction

    return Fraction(*ratio)


def chance_ratio(check, rules) -> tuple[int, int] | None:
    """`chance` as whole numbers (ways to succeed, ways in all): an `act` logs it without importing fractions."""
    if check.get("kind") == "attack":
        if len(check.get("faces") or [1]) == 2 and not (check.get("advantage") or check.get("disadvantage")):
            return None  # an edge the declaration does not name (an entry from before it was logged)
        faces = kept_faces(edge_mode(check.get("advantage"), check.get("disadvantage"), rules.edge))
        shift = check["bonus"] + check.get("penalty", 0) + check.get("mod", 0)
        wins = sum(n for face, n in faces.items() if hits(face, face + shift, check["ac"], rules))
        return wins, sum(faces.values())
    if check.get("kind") == "save":
        return sum(1 for face in range(1, D20 + 1) if not resists(face + check["bonus"], check["dc"], rules)), D20
    return None


def luck(check, rules) -> dict:
    """Actor and success; an attack's d20 faces showing 20 against the 1 in 20 each die expects."""
    out = {"actor": check.get("actor"), "success": check.get("success"), "spent": 0}
    faces = check.get("faces") if check.get("kind") == "attack" else None
    if isinstance(faces, list):
        out["crits"] = sum(1 for face in faces if face == D20)
        out["crits_expected"] = _one_in_twenty(len(faces))
    return out


@lru_cache(maxsize=16)
def _one_in_twenty(dice: int) -> Fraction:
    from fractions import Fraction

    return Fraction(dice, D20)
