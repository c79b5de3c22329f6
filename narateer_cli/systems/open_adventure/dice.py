"""Exploding Action Dice: physical chains typed with `+`, seeded chains, Critical Failure.

A chain is the list of faces one die produced: `[6, 3]` is a d6 that showed
its maximum, exploded (another die of the same size) and then showed 3. `--faces 4,6+3` gives
one comma-separated group per die in chart order. A `DiceSource` serves
chains either from a seeded `random.Random` or from a person's dice, so
tests, seeded play and physical dice share one path.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import Dice
from narateer_cli.kit import BadInput
from narateer_cli.kit import Record, field


class Pool(Record):
    """One pool rolled or read: its chains, their text, which dice exploded, the total (every face summed) and
    whether it is a Critical Failure (every die shows 1)."""
    chains: Any
    faces_text: Any
    exploded: Any
    total: Any
    critical_failure: Any


class DiceRoll(Record):
    """`dice AS`: the bare dice of an Action Score, rolled or read, explosions and Critical Failure included."""
    system: Any = field(public=True)  # a secret shows the dice, never their faces
    action_score: Any = field(public=True)
    dice: Any = field(public=True)
    faces: Any
    faces_text: Any
    exploded: Any
    total: Any
    critical_failure: Any


def parse_faces(text, option: str = "--faces") -> list[list[int]] | None:
    """`4,6+3` -> [[4], [6, 3]]; the syntax only (sizes are checked by `check_chains`)."""
    if text is None:
        return None
    text = str(text).strip()
    if not text:
        raise BadInput(f"{option} is empty", fix="give one face per die, e.g. 4,6+3")
    chains = []
    for group in text.replace(" ", "").split(","):
        parts = group.split("+")
        if not all(p.isdigit() for p in parts):
            hint = " (`+`, not `!`, joins an explosion)" if "!" in group else ""
            raise BadInput(f"{option}: {group!r} is not a die's faces{hint}",
                           fix="give whole numbers, a chain joined with +, e.g. 4,6+3")
        chains.append([int(p) for p in parts])
    return chains


def explodes(face: int, size: int, length: int, rules) -> bool:
    """Does this face (the `length`-th of its chain) call for another die?"""
    if not rules.explode_all or face != size:
        return False
    return rules.explode_cap is None or length <= rules.explode_cap


def check_chains(chains, dice, action_score, rules, option: str = "--faces"):
    """Physical chains must fit the dice exactly (exit 2 naming the die and the fix)."""
    if len(chains) != len(dice):
        names = ",".join(f"d{n}" for n in dice)
        raise BadInput(f"{option} gave {len(chains)} die/dice but AS {action_score} rolls {names}",
                       fix=f"give {len(dice)} comma-separated group(s), one per die in chart order")
    limit = rules.limits["faces_per_chain"]
    for index, (chain, size) in enumerate(zip(chains, dice)):
        if len(chain) > limit:
            raise BadInput(f"{option}: die {index + 1} (d{size}) has {len(chain)} faces", fix=f"at most {limit} per chain")
        for pos, face in enumerate(chain):
            if not 1 <= face <= size:
                raise BadInput(f"{option}: die {index + 1} (d{size}) cannot show {face}", fix=f"give faces 1..{size}")
            more = explodes(face, size, pos + 1, rules)
            last = pos == len(chain) - 1
            if more and last:
                raise BadInput(f"{option}: die {index + 1} (d{size}) shows {face}: it explodes",
                               fix=f"give the next face, e.g. {face_text(chain)}+3")
            if not more and not last:
                raise BadInput(f"{option}: die {index + 1} (d{size}) shows {face}, which does not explode",
                               fix=f"`+` follows only a face that explodes; end that die at {face}")


def face_text(chain) -> str:
    return "+".join(str(f) for f in chain)


def faces_text(chains) -> str:
    """The text that replays these chains through --faces."""
    return ",".join(face_text(c) for c in chains)


def critical_failure(chains, rules) -> bool:
    """Critical Failure: every die's first face (or every chain's last face) is 1."""
    if not chains:
        return False
    pick = 0 if rules.crit_faces == "first" else -1
    return all(chain[pick] == 1 for chain in chains)


class DiceSource(Dice):
    """Open Adventure's dice on the host's source: exploding chains, a maximum face rolling another die.

    `physical` maps a stream name ("faces", "other") to parsed chains and the
    option that gave them. Seeded rolls draw in chart order, finishing each
    chain before the next die.
    """

    def __init__(self, rng=None, physical: dict | None = None, ask=None, asked=()):
        # asking: ask(size, option, what) -> one face typed at the table, for the streams in `asked` (-> option)
        super().__init__(rng, {k: v for k, v in (physical or {}).items() if v is not None and v[0] is not None},
                         ask, dict(asked))
        self.options = {k: v[1] for k, v in (physical or {}).items() if v is not None}
        self.from_table = bool(self.given)  # faces typed for this command, so no die is rolled here

    @property
    def physical(self) -> dict:
        return self.given

    def chains(self, stream: str, dice, action_score, rules) -> list[list[int]]:
        if stream in self.physical:
            chains, option = self.physical[stream]
            check_chains(chains, dice, action_score, rules, option)
            return [list(c) for c in chains]
        if self.asks(stream):
            return self._asked(self.asked[stream], dice, rules)
        option = str(self.options.get(stream) or self.asked.get(stream) or f"--{stream}-faces")
        if self.from_table and dice and self.theirs(option):  # given faces: the other side's dice are the table's
            # too (on a player's page another creature's dice are rolled here)
            raise self.not_given(option, f"{'the opponent' if stream == 'other' else 'the check'}'s dice")
        if dice and not self.theirs(option):  # the other side's dice on a player's page: rolled here, or typed by
            # the Guide, as declared
            guided = self._guided(option, dice, rules)
            if guided is not None:
                return guided
        if self.rng is None:
            raise BadInput("no dice to roll", fix="give --faces or a seed")
        out = []
        for size in dice:
            chain = [self.face(size)]
            while explodes(chain[-1], size, len(chain), rules):
                chain.append(self.face(size))
            out.append(chain)
        return out


    def _guided(self, option, dice, rules) -> list[list[int]] | None:
        """The other side's dice as the Guide types them, one die at a time as they explode (None: rolled here)."""
        if self.from_guide(0, option, "", one_face(2)) is None:
            return None
        out = []
        for index, size in enumerate(dice):
            what = f"the opponent's die {index + 1} (d{size})"
            chain = list(self.from_guide(1, option, what, one_face(size)) or ())
            while explodes(chain[-1], size, len(chain), rules):
                chain += self.from_guide(1, option, f"{what} exploded on {chain[-1]}: roll it again", one_face(size)) or []
            out.append(chain)
        return out

    def _asked(self, option, dice, rules) -> list[list[int]]:
        """Faces asked: each die's face in chart order, then each explosion as it happens."""
        out = []
        for index, size in enumerate(dice):
            chain = [self.ask(size, option, f"die {index + 1} (d{size})")]
            while explodes(chain[-1], size, len(chain), rules):
                chain.append(self.ask(size, option, f"die {index + 1} (d{size}) exploded on {chain[-1]}: roll it again"))
            out.append(chain)
        return out


def one_face(size: int):
    """A reader of one typed face of a d`size` (exit-2 errors, so the asker asks again)."""
    def parse(text, option):
        word = str(text).strip()
        if not word.isdigit() or not 1 <= int(word) <= size:
            raise BadInput(f"{option}: {word!r} is not a face of a d{size}", fix=f"type a whole number 1..{size}")
        return [int(word)]

    return parse


def table_asker():
    """The host's asker (narateer_cli.ask), one face of one die per call."""
    from narateer_cli.kit import ask

    def one(size, option, what):
        return ask.asker(one_face(size))(1, option, what)[0]

    return one


def roll_pool(dice, action_score, rules, source: DiceSource, stream: str = "faces") -> Pool:
    """Roll (or read) one pool: chains, total (every face summed), explosions and Critical Failure."""
    chains = source.chains(stream, dice, action_score, rules)
    return Pool(chains=chains, faces_text=faces_text(chains), exploded=[i for i, c in enumerate(chains) if len(c) > 1],
                total=sum(sum(c) for c in chains), critical_failure=critical_failure(chains, rules))


def bare_roll(action_score: int, rules, source: DiceSource) -> DiceRoll:
    """`dice AS`: the chart's dice for the AS, rolled (or read) with no check."""
    from .chart import chart_dice, dice_names
    from .odds import check_action_score

    check_action_score(action_score, rules, "dice to roll")
    dice = chart_dice(action_score, rules)
    roll = roll_pool(dice, action_score, rules, source)
    return DiceRoll(system="open-adventure", action_score=action_score, dice=dice_names(dice), faces=roll.chains,
                    faces_text=roll.faces_text, exploded=roll.exploded, total=roll.total,
                    critical_failure=roll.critical_failure)
