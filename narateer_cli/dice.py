"""The host's one dice source, which each game parametrises (the host names no game's dice).

Every die a command rolls comes from one of three places, in this order:
the faces typed at the table for its stream (`--faces`, kept in `given`, in
the game's own form), the faces asked at the table for a stream that wants
them (one die at a time, through `ask`), or the command's seeded `random.Random`
(text output then says `(seeded N)`; unseeded, `random.Random()`, seeded from the system's
randomness). Once faces are typed for a command, every die it needs comes from the table: a stream
left out is asked, else it is bad input that names the option to give (`not_given`), never a silent
roll. A game's source subclasses `Dice` and says what a stream is and what its dice show (Narateer's
faces 0..2, Open Adventure's exploding chains, d20-cards' groups of d20s); the seed, the order of draws
and the asking are the host's.
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

    def has(self, stream: str) -> bool:
        """Were faces typed at the table for this stream?"""
        return stream in self.given

    def asks(self, stream: str) -> bool:
        """Are this stream's faces asked at the table, one die at a time as it is needed?"""
        return self.ask is not None and stream in self.asked

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

