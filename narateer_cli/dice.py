"""The host's one dice source, which each game parametrises (the host names no game's dice).

Every die a command rolls comes from one of three places, in this order:
the faces typed at the table for its stream (`--faces`, kept in `given`, in
the game's own form), the faces asked at the table for a stream that wants
them (one die at a time, through `ask`), or the command's seeded `random.Random`
(text output then says `(seeded N)`; unseeded, `random.Random()`, seeded from the system's
randomness). Once faces are typed for a command, every die it needs comes from the table: a stream
left out is asked, else it is bad input that names the option to give (`not_given`), never a silent
roll. On a player's page the table is that player: only their own dice are asked or typed (`theirs`), and
another creature's are rolled here, or wait for the Guide to type them as the game declares (`from_guide`). A game's source subclasses `Dice` and says what a stream is and what its dice show (Narateer's
faces 0..2, Open Adventure's exploding chains, d20-cards' groups of d20s); the seed, the order of draws
and the asking are the host's, and so is the question before a check that cannot succeed
(`before_roll`, which the game calls with the check's exact chance).
"""

from __future__ import annotations


class Dice:
    """One command's dice. `given`: stream -> faces typed at the table (the game's form); `ask`: the
    table's asker, used for the streams in `asked` (stream -> the option it stands for)."""

    def __init__(self, rng=None, given: dict | None = None, ask=None, asked=()):
        self.rng = rng  # None: an unseeded one is made at the first seeded draw
        self.given = dict(given or {})
        self.ask = ask
        self.asked = dict(asked) if not isinstance(asked, (tuple, list, set, frozenset)) else {s: s for s in asked}

    gate = None  # the command's question before a check with no chance to succeed (`ask.zero_gate`), or None

    def before_roll(self, chance, what: str) -> None:
        """A game says the exact chance of the check it is about to roll, before any of its dice is
        drawn or asked; at 0 the command's gate asks (a terminal), lets it roll (`--force`) or refuses. A
        source with no gate (a replay in `verify`, a test's) rolls on."""
        if self.gate is not None and chance == 0:
            self.gate(what)

    def has(self, stream: str) -> bool:
        """Were faces typed at the table for this stream?"""
        return stream in self.given

    def asks(self, stream: str) -> bool:
        """Are this stream's faces asked at the table, one die at a time as it is needed? (Never another
        creature's die on a player's page: see `theirs`.)"""
        return self.ask is not None and stream in self.asked and self.theirs(self.asked[stream])

    @staticmethod
    def theirs(option: str) -> bool:
        """May the table of this call give the faces that `option` stands for? At the shell and on the Guide's
        screen every die is the table's; on a player's page only that player's own (the game's `player_verbs`):
        another creature's die (a save, a Concentration check, a defender's or an observer's dice) is rolled
        here, never asked of that player, and never refused as a die the table left out."""
        from .sink import current

        own = current().own
        return own is None or option.split(" ", 1)[0] in own

    @staticmethod
    def from_guide(count: int, option: str, what: str, parse) -> list[int] | None:
        """Another creature's dice on a player's page (`theirs` is False for `option`): None when the server
        rolls them (the default), else the faces the Guide typed for them, as the game or the campaign declares
        (`Game.others_dice`): the first one the Guide has not typed stops the command (`ask.GuideWanted`, nothing
        written) until the Guide types it. `parse(text, option)` reads one face, as the game writes faces."""
        from .ask import from_guide

        return from_guide(parse, count, option, what)

    def not_given(self, option: str, what: str):
        """The error for a die the table must give: faces were typed for this command, so the
        tool rolls none of its dice; `option` is how the missing one is written (`--save-faces bandit=F`)."""
        from .errors import BadInput

        return BadInput(f"{what} must come from the table: this command was given faces, so narateer rolls "
                        f"none of its dice", fix=f"give {option} as well, or give no faces to let narateer roll")

    @staticmethod
    def typed(text, sides: int, option: str = "--faces") -> list[int] | None:
        """Faces typed at the table as an option gives them (`declared.faces`: the text "6,3", or None when
        the option was not given) as whole numbers from 1 to `sides`; None for no faces; else BadInput naming
        the option."""
        if text is None or not str(text).strip():
            return None
        faces = []
        for word in str(text).replace(" ", "").split(","):
            if not (word.isascii() and word.isdigit() and 1 <= int(word) <= sides):
                from .errors import BadInput

                raise BadInput(f"{option}: a d{sides} shows 1 to {sides}, not {word!r}",
                               fix=f"give each face as a number, the faces apart by commas: {option} {sides},1")
            faces.append(int(word))
        return faces

    def pool(self, stream: str, count: int, sides: int, option: str = "--faces") -> list[int]:
        """`count` dice of `sides` for `stream`: the faces typed for it (there must be `count` of them, else
        BadInput naming `option`), else `count` seeded draws, each die its own."""
        typed = self.given.get(stream)
        if typed is None:
            return [self.face(sides) for _ in range(count)]
        if len(typed) != count:
            from .errors import BadInput

            raise BadInput(f"{option} gives {len(typed)} {'die' if len(typed) == 1 else 'dice'}, and this roll "
                           f"rolls {count}", fix=f"give {count} faces: {option} {','.join([str(sides)] * count)}")
        return list(typed)

    def face(self, sides: int) -> int:
        """One seeded die from 1 to `sides`."""
        return self._rng().randint(1, sides)

    def choice(self, faces) -> int:
        """One seeded die showing one of `faces` (a die with repeated or custom faces)."""
        return self._rng().choice(faces)

    def _rng(self):
        if self.rng is None:
            import random

            self.rng = random.Random()
        return self.rng


# -- dice expressions: `d20`, `2d6+3`, `d6+d8-1` ------------------------------------------------------------
# Plain dice the host rolls in every game, outside a campaign too. `narateer dice ...` is each game's own command
# (`Game.dice`), its argument the game's own dice (a pool of N dice, a score that picks them); where that argument
# takes a number and is given an expression, the host rolls the expression instead (commands/shared.py), so a
# bare number keeps meaning the game's own dice. Nothing is logged but a secret roll's commitment.

EXPR_MAX_DICE, EXPR_MAX_SIDES, EXPR_MAX_BONUS = 100, 100, 1_000_000
EXPR_FIX = (f"write dice such as d20, 2d6+3 or d6+d8-1: at most {EXPR_MAX_DICE} dice of 2 to {EXPR_MAX_SIDES} "
            f"faces and a bonus up to {EXPR_MAX_BONUS:,}")
_TERM = r"(?:\d*\s*[dD]\s*\d+|\d+)"  # a group of dice (`2d6`, `d20`) or a number


def looks_like_expression(text) -> bool:
    """Is `text` written as a dice expression (terms joined by + or -, one of them dice)? Its bounds are
    `parse_expression`'s to check."""
    import re

    return isinstance(text, str) and bool(re.fullmatch(rf"\s*[+-]?\s*{_TERM}(?:\s*[+-]\s*{_TERM})*\s*", text)) \
        and bool(re.search(r"[dD]\s*\d", text))


def parse_expression(text: str) -> tuple[list[int], int]:
    """(the faces of each die in order, the bonus): `2d6+3` is ([6, 6], 3); bad input past the bounds."""
    import re

    from .errors import BadInput

    if not looks_like_expression(text):
        raise BadInput(f"bad dice {text!r}", fix=EXPR_FIX)
    sides: list[int] = []
    bonus = 0
    for sign, count, size, number in re.findall(r"([+-]?)\s*(?:(\d*)\s*[dD]\s*(\d+)|(\d+))", text):
        if number:
            bonus += -int(number) if sign == "-" else int(number)
            continue
        n, faces = int(count or 1), int(size)
        if sign == "-" or n < 1 or not 2 <= faces <= EXPR_MAX_SIDES or len(sides) + n > EXPR_MAX_DICE:
            raise BadInput(f"bad dice {text!r}", fix=EXPR_FIX)
        sides += [faces] * n
    if abs(bonus) > EXPR_MAX_BONUS:
        raise BadInput(f"bad dice {text!r}", fix=EXPR_FIX)
    return sides, bonus


def expression_faces(text: str, sides: list[int]) -> list[int]:
    """`--faces 4,5`: one face per die, in the expression's order, each a face that die has."""
    from .errors import BadInput

    parts = [p.strip() for p in str(text).split(",") if p.strip()]
    if len(parts) != len(sides):
        raise BadInput(f"--faces needs {len(sides)} faces, got {len(parts)}",
                       fix=f"give {len(sides)}, or leave --faces out to roll")
    for part, size in zip(parts, sides):
        if not part.isdigit() or not 1 <= int(part) <= size:
            raise BadInput(f"face {part!r} is not a face of a d{size}", fix=f"give whole numbers from 1 to {size}")
    return [int(part) for part in parts]


def roll_expression(text: str, faces: str | None, rng) -> dict:
    """The expression rolled with `rng` (or read from the table's faces): {expr, dice, faces, bonus, total}."""
    sides, bonus = parse_expression(text)
    if faces is not None:
        got = expression_faces(faces, sides)
    else:
        source = Dice(rng)
        got = [source.face(size) for size in sides]
    return {"expr": text.strip(), "dice": [f"d{size}" for size in sides], "faces": got, "bonus": bonus,
            "total": sum(got) + bonus}


def expression_text(data: dict) -> str:
    """`2d6+3: [2, 5] = 10`."""
    return f"{data['expr']}: [{', '.join(map(str, data['faces']))}] = {data['total']}"
