"""The dice source: seeded rolls and physical faces through one path.

`DiceSource(rng, faces)` serves each group of dice (`attack`, `save`,
`evolutionary`, `damage`, `concentration`) from the faces given for it, else
from `rng`. A group is given whole or rolled whole; `check_group` refuses a
wrong count or a face outside the die before any rule is consulted.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import lru_cache

from narateer_cli.kit import Dice
from narateer_cli.kit import BadInput

GROUPS = ("attack", "save", "evolutionary", "damage", "concentration")
OPTIONS = {"attack": "--faces", "save": "--save-faces", "evolutionary": "--evolutionary-face",
           "damage": "--damage-faces", "concentration": "--concentration-faces"}
WHAT = {"attack": "the attack d20", "save": "{key}'s save d20", "evolutionary": "the Evolutionary d20",
        "damage": "the damage d{sides}", "concentration": "{key}'s Concentration d20"}
D20 = 20  # the die every check rolls (attack, save, Concentration, Evolutionary); its top face is a natural 20


def parse_faces(text, sides: int = D20) -> list[int]:
    """`"15"`, `"15,9"` or `"15 9"` -> [15, 9]; exit 2 for anything else or a face off the die."""
    parts = [p for p in re.split(r"[\s,]+", str(text).strip()) if p]
    if not parts:
        raise BadInput("no faces given", fix="give faces such as --faces 15 or --faces 15,9")
    faces = []
    for part in parts:
        if not part.isdigit() or not 1 <= int(part) <= sides:
            raise BadInput(f"face {part!r} is not a face of a d{sides}", fix=f"give whole numbers from 1 to {sides}")
        faces.append(int(part))
    return faces


class DiceSource(Dice):
    """d20-cards' dice on the host's source: faces per group, a list or a mapping name -> list (saves,
    Concentration checks)."""

    def __init__(self, rng: random.Random | None = None, faces: dict | None = None, ask=None, asked=(),
                 keyed=("save", "concentration")):
        # asking: ask(sides, option, what) -> one face typed at the table, for the groups in `asked`
        super().__init__(rng if rng is not None else random.Random(), {}, ask,
                         {group: OPTIONS.get(group, "--faces") for group in asked})
        for group, value in (faces or {}).items():
            if group not in GROUPS:
                raise ValueError(f"unknown dice group {group!r}")
            self.given[group] = {k: list(v) for k, v in value.items()} if isinstance(value, dict) else list(value)
        self.from_table = bool(self.given)  # faces typed for this command, so no die is rolled here
        self.keyed = tuple(keyed)  # the groups written T=F (on `act`); `damage` takes a bare face

    def has(self, group: str, key=None) -> bool:
        value = self.given.get(group)
        return value is not None and (key is None or not isinstance(value, dict) or key in value)

    def count(self, group: str) -> int | None:
        value = self.given.get(group)
        return None if value is None or isinstance(value, dict) else len(value)

    def keys(self, group: str) -> tuple:
        value = self.given.get(group)
        return tuple(value) if isinstance(value, dict) else ()

    def roll(self, group: str, sides: int = D20, key=None) -> int:
        value = self.given.get(group)
        queue = value.get(key) if isinstance(value, dict) else value
        if queue:
            return queue.pop(0)
        what = WHAT.get(group, "the {group} d{sides}").format(group=group, sides=sides, key=key)
        if self.asks(group):
            return self.ask(sides, OPTIONS.get(group, "--faces"), what)
        if self.from_table and self.theirs(OPTIONS.get(group, "--faces")):  # a die left out is named, never rolled
            # silently; another creature's die on a player's page is rolled here
            raise self.not_given(self.option(group, key), what)
        option = OPTIONS.get(group, "--faces")
        if not self.theirs(option):  # another creature's die on a player's page: rolled here, or typed by the
            # Guide, as declared
            guided = self.from_guide(1, self.option(group, key).removesuffix("=F").removesuffix(" F"), what, lambda text, _: parse_faces(text, sides))
            if guided is not None:
                return guided[0]
        return self.face(sides)

    def option(self, group: str, key=None) -> str:
        """How a group's faces are written on the command line (`--save-faces bandit=F` for one key)."""
        option = OPTIONS.get(group, "--faces")
        return f"{option} {key}=F" if key is not None and group in self.keyed else f"{option} F"

    def roll_many(self, group: str, count: int, sides: int, key=None) -> list[int]:
        return [self.roll(group, sides, key) for _ in range(count)]


class LoggedFaces(DiceSource):
    """The faces a log entry recorded, served to the same rule functions that rolled them (`verify`'s replay, so the
    rules exist once): too few faces, or one off its die, is a `LogFacesMismatch`; `unused()` names a group with faces
    left over."""

    def roll(self, group: str, sides: int = D20, key=None) -> int:
        value = self.given.get(group)
        queue = value.get(key) if isinstance(value, dict) else value
        if not queue:
            raise LogFacesMismatch(f"the log holds fewer {group} faces than the rules roll")
        face = queue.pop(0)
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
            raise LogFacesMismatch(f"{group} face {face!r} is not a face of a d{sides}")
        return face

    def unused(self) -> str | None:
        for group, value in self.given.items():
            if any(value.values()) if isinstance(value, dict) else value:
                return group
        return None


class LogFacesMismatch(LookupError):
    pass


def table_asker():
    """The host's asker (narateer_cli.ask), one face of a d`sides` per call; a face off the die is asked again."""
    from narateer_cli.kit import ask

    def one(sides, option, what):
        return ask.asker(lambda text, opt: parse_faces(text, sides))(1, option, what)[0]

    return one


def check_group(dice: DiceSource, group: str, want: int, sides: int = D20, option: str = "--faces"):
    """Exit 2 when a given group does not hold exactly `want` faces of a d`sides`."""
    have = dice.given.get(group)
    if have is None:
        return
    lists = have.values() if isinstance(have, dict) else [have]
    for faces in lists:
        bad = [f for f in faces if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= sides]
        if bad:
            raise BadInput(f"{option}: {bad[0]} is not a face of a d{sides}", fix=f"give faces from 1 to {sides}")
    if not isinstance(have, dict) and len(have) != want:
        raise BadInput(f"{option} needs {want} face{'s' if want != 1 else ''}, got {len(have)}",
                       fix=f"give {want} or leave {option} out to roll")
    if isinstance(have, dict):
        for key, faces in have.items():
            if len(faces) != want:
                raise BadInput(f"{option} {key}= needs {want} face, got {len(faces)}", fix="give one face per name")


def edge_roll(dice: DiceSource, advantage: bool, disadvantage: bool, edge: dict, key=None) -> tuple[list, int, str | None]:
    """Edge: one d20, or two keeping the higher (advantage) / lower (disadvantage)."""
    mode = edge_mode(advantage, disadvantage, edge)
    if mode is None:
        face = dice.roll("attack", D20, key)
        return [face], face, None
    faces = [dice.roll("attack", D20, key), dice.roll("attack", D20, key)]
    return faces, kept_face(faces, mode), mode


def kept_face(faces, mode: str | None) -> int:
    """The d20 that counts: the higher of two under advantage, the lower under disadvantage."""
    if mode is None:
        return faces[0]
    return max(faces) if mode == "advantage" else min(faces)


def edge_mode(advantage: bool, disadvantage: bool, edge: dict) -> str | None:
    if advantage and disadvantage:
        return None if edge.get("both", "cancel") == "cancel" else "disadvantage"
    return "advantage" if advantage else "disadvantage" if disadvantage else None


def parse_faces_option(text, option: str = "--faces"):
    """The host's `parse_faces` hook: d20 faces typed at the table, or None when none were given."""
    if text is None:
        return None
    try:
        return parse_faces(text)
    except BadInput as exc:
        raise BadInput(f"{option}: {exc.message}", fix=exc.fix) from None


def kept_faces(mode) -> Counter:
    """How many ways each kept d20 face comes up: 1 of 20, or out of 400 pairs under an edge."""
    return Counter(dict(kept_ways(mode)))


@lru_cache(maxsize=4)
def kept_ways(mode) -> tuple:
    """(face, ways) for each kept d20 face in order, counted once per edge through `kept_face` itself."""
    if mode is None:
        return tuple((f, 1) for f in range(1, D20 + 1))
    ways = Counter(kept_face((a, b), mode) for a in range(1, D20 + 1) for b in range(1, D20 + 1))
    return tuple(sorted(ways.items()))
