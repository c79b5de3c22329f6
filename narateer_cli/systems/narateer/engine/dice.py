"""Action Dice: faces, where they come from, the Edge Phase and exact odds.

A `DiceSource` hands out faces either from a seeded `random.Random` or from
the faces a person rolled at the table (a Miss, a Hit or a Critical), so one code path serves
seeded play, tests and physical dice. Odds are exact integer convolutions.
"""

from __future__ import annotations

from typing import Any, Mapping

from narateer_cli.kit import Dice
from narateer_cli.kit import BadInput

from narateer_cli.kit import Record, field

TOKENS = {"0": 0, "1": 1, "2": 2, "miss": 0, "hit": 1, "crit": 2, "critical": 2, "m": 0, "h": 1, "c": 2}


def parse_faces(text: str | None, option: str = "--faces") -> list[int] | None:
    """Faces written as `2,0,1` or `crit,miss,hit`."""
    if text is None:
        return None
    text = str(text).strip()
    if not text:
        return []
    faces = []
    for token in text.replace(" ", ",").split(","):
        if not token:
            continue
        face = TOKENS.get(token.lower())
        if face is None:
            raise BadInput(f"{option}: {token!r} is not a die face", fix="use 0/1/2 or miss/hit/crit, comma separated")
        faces.append(face)
    return faces


def parse_indices(text: str | None, option: str = "--power-reroll") -> list[int]:
    if not text:
        return []
    out = []
    for token in str(text).replace(" ", ",").split(","):
        if not token:
            continue
        if not token.isdigit():
            raise BadInput(f"{option}: {token!r} is not a die index", fix="give 0-based die indices such as 0,2")
        out.append(int(token))
    return out


class DiceSource(Dice):
    """Narateer's dice on the host's source: each die shows one of the ruleset's `values` (its faces).

    Physical faces are consumed in order; `stream` names which one (the
    initial roll, Edge rerolls, power rerolls) so a mismatch names its option.
    """

    def __init__(self, rng=None, physical: Mapping[str, list[int] | None] | None = None, values=(0, 0, 1, 1, 2, 2),
                 ask=None):
        # asking at the table: ask(count, option, what) -> faces typed at the table, for every stream not given
        super().__init__(rng, {k: list(v) for k, v in (physical or {}).items() if v is not None}, ask)
        self.values = tuple(values)
        self.options: dict[str, str] = {}  # stream -> the option that gives its faces

    @property
    def physical(self) -> dict:
        return self.given

    def take(self, stream: str, count: int, option: str, what: str) -> list[int]:
        if stream in self.physical:
            faces = self.physical[stream]
            self.options[stream] = option
            if len(faces) < count:
                raise BadInput(f"{option} gave {len(faces)} face(s) but {what} needs {count}",
                               fix=f"give exactly {count} face(s) with {option}")
            for face in faces[:count]:
                if face not in self.values:
                    raise BadInput(f"{option}: face {face} does not exist on these dice", rule="A-FACES",
                                   fix="give faces the ruleset's dice can show")
            self.physical[stream] = faces[count:]
            return faces[:count]
        if self.ask is not None and count and self.theirs(option):
            faces = self.ask(count, option, what)
            self.physical[stream] = list(faces)
            return self.take(stream, count, option, what)
        if self.physical and count and self.theirs(option):  # another creature's dice on a player's page: rolled
            raise BadInput(f"{what} needs {count} more face(s) but {option} was not given",
                           fix=f"give the rolled faces with {option}")
        if count and not self.theirs(option):  # another creature's dice on a player's page: rolled here, or
            guided = self.from_guide(count, option, what, parse_faces)  # typed by the Guide, as declared
            if guided is not None:
                self.physical[stream] = list(guided)
                return self.take(stream, count, option, what)
        return [self.choice(self.values) for _ in range(count)]

    def finish(self):
        """Every physical face given must have been used."""
        for stream, left in self.physical.items():
            if left:
                option = self.options.get(stream, stream)
                raise BadInput(f"{option} gave {len(left)} face(s) more than were rolled",
                               fix="give exactly one face per die rolled")


def edge_mode(advantage: bool, disadvantage: bool, edge_both: str) -> str:
    """The Edge in force: none, advantage, disadvantage or both (the ruleset says what both means)."""
    if advantage and disadvantage:
        return "both" if edge_both == "both" else "none"
    if advantage:
        return "advantage"
    if disadvantage:
        return "disadvantage"
    return "none"


def rerolls_face(face: int, edge: str, disadvantage_rule: str) -> bool:
    """Does Edge reroll a die showing `face`?"""
    adv = face == 0
    dis = face == 2 if disadvantage_rule == "crits" else face >= 1
    if edge == "advantage":
        return adv
    if edge == "disadvantage":
        return dis
    if edge == "both":
        return adv or dis
    return False


def edge_indices(faces: list[int], edge: str, disadvantage_rule: str) -> list[int]:
    """The 0-based dice the Edge Phase rerolls, each at most once."""
    return [i for i, face in enumerate(faces) if rerolls_face(face, edge, disadvantage_rule)]


def die_weights(values, edge: str, disadvantage_rule: str) -> tuple[list[int], int]:
    """The exact distribution of one die's final face as integer weights over a denominator."""
    k = len(values)
    weights = [0, 0, 0]
    rerolled = sum(1 for v in values if rerolls_face(v, edge, disadvantage_rule))
    for v in values:
        if not rerolls_face(v, edge, disadvantage_rule):
            weights[v] += k
        weights[v] += rerolled
    return weights, k * k


def pool_weights(dice: int, values, edge: str, disadvantage_rule: str) -> tuple[list[int], int]:
    """Exact distribution of a pool's total by integer convolution: weights[t] / denominator."""
    one, denom = die_weights(values, edge, disadvantage_rule)
    dist = [1]
    for _ in range(dice):
        new = [0] * (len(dist) + 2)
        for total, w in enumerate(dist):
            if w:
                new[total] += w * one[0]
                new[total + 1] += w * one[1]
                new[total + 2] += w * one[2]
        dist = new
    return dist, denom ** dice


def chance_to_exceed(dist: list[int], denom: int, target: int) -> float:
    """P(beats(total, target)) from an exact distribution."""
    return sum(w for total, w in enumerate(dist) if beats(total, target)) / denom


def chance_to_beat(dist_a, denom_a, dist_b, denom_b) -> float:
    """P(beats(A's total, B's total)) for two independent exact distributions."""
    wins = sum(wa * wb for a, wa in enumerate(dist_a) for b, wb in enumerate(dist_b) if beats(a, b))
    return wins / (denom_a * denom_b)


def exact_count(dice: DiceSource, stream: str, count: int, option: str, what: str):
    """Physical faces must match the dice rolled exactly (bad input otherwise)."""
    if dice.has(stream) and len(dice.physical[stream]) != count:
        raise BadInput(f"{option} gave {len(dice.physical[stream])} face(s) but {what} rolls {count}",
                       fix=f"give exactly {count}")


class PoolRoll(Record):
    """A bare pool of N dice after its Edge Phase (`dice`)."""

    dice: Any = field(public=True)  # a secret pool shows how many dice and their Edge, never the faces
    edge: Any = field(public=True)
    faces: Any
    rerolled: Any
    final_faces: Any
    total: Any


class RandomDr(Record):
    """A tier's DR with the dots of the dice rolled behind the screen (`dr TIER --random`)."""

    tier: Any = field(public=True)  # the DR itself stays behind the screen
    dr: Any
    base_dr: Any = field(public=True)
    offset: Any = field(public=True)
    faces: Any
    total: Any


class TierDr(Record):
    """One tier's DR (`dr TIER`)."""

    tier: Any
    dr: Any


class DrLadder(Record):
    """Every tier with its DR (`dr`)."""

    ladder: Any


class Odds(Record):
    """Exact chance that N dice beat a target, and the whole distribution of totals (`odds`)."""

    dice: Any
    target: Any
    edge: Any
    p_success: Any
    distribution: Any


def roll_pool(n: int, advantage: bool, disadvantage: bool, rules, dice: DiceSource) -> PoolRoll:
    """A bare pool: roll N dice, then the Edge Phase, each die rerolled at most once."""
    exact_count(dice, "faces", n, "--faces", f"a pool of {n}")
    first = dice.take("faces", n, "--faces", f"{n} dice")
    edge = edge_mode(advantage, disadvantage, rules.edge_both)
    rerolled = edge_indices(first, edge, rules.disadvantage)
    new = dice.take("reroll", len(rerolled), "--reroll-faces", "the Edge Phase")
    dice.finish()
    final = list(first)
    for index, face in zip(rerolled, new):
        final[index] = face
    return PoolRoll(n, edge, list(first), list(rerolled), final, sum(final))


def dr_lookup(tier: str | None, rules, dice=None):
    """The DR ladder (no tier), one tier's DR, or a random DR for that tier when `dice`
    (a function that makes the DiceSource, asked only once the tier is known) is given."""
    if tier is None:
        return DrLadder(dict(rules.dr))
    value, label = rules.dr_value(tier)
    return random_dr(label, value, rules, dice()) if dice is not None else TierDr(label, value)


def random_dr(tier: str, base: int, rules, dice: DiceSource) -> RandomDr:
    """A random DR: the tier's DR + offset + the dots of 3 AD rolled behind the screen."""
    count = rules.random_dr_dice
    exact_count(dice, "faces", count, "--faces", "a random DR")
    rolled = dice.take("faces", count, "--faces", "the random DR")
    dice.finish()
    return RandomDr(tier, base + rules.random_dr_offset + sum(rolled), base, rules.random_dr_offset, list(rolled),
                    sum(rolled))


def beats(total: int, target: int) -> bool:
    """A total succeeds only when it exceeds the target; a tie fails. The one place this is written."""
    return total > target


def odds(n: int, target: int, advantage: bool, disadvantage: bool, rules) -> Odds:
    """Exact chance that N dice beat a target, and the whole distribution (by convolution over the faces, Edge
    included)."""
    edge = edge_mode(advantage, disadvantage, rules.edge_both)
    dist, denom = pool_weights(n, rules.faces, edge, rules.disadvantage)
    return Odds(n, target, edge, chance_to_exceed(dist, denom, target),
                {str(t): w / denom for t, w in enumerate(dist) if w})
