"""Open Adventure's sheet as a `narateer_cli.store.schema` table, for the host's `check` (a misspelt key is bad input).

One table serves PCs and NPC statblocks: an attribute group is a mapping of
attributes (PC) or a whole number (NPC). `sheet.problems` adds the checks a
table cannot express (all nine attributes present, action names). A PC without point pools or Defenses is
kept, but `check` warns of it: its pools cannot pay a Stunt or take a loss,
and nobody can roll against its Defenses.
"""

from __future__ import annotations

from narateer_cli.kit import Anything, Either, Int, Map, Name, Problem, Seq, Text

_SCORE = Int(0, "max_points")
_POOLS = Map(keys={g: _SCORE for g in ("body", "mind", "spirit")})
_ACTION = Map(keys={"as": _SCORE, "effect": _SCORE, "group": Name("group_names", "group"), "stunt": Anything()},
              required=("as",))



class _Sheet(Map):
    """The sheet's own keys, and a warning (never an error) for a PC whose point pools or Defenses are missing
    or empty."""

    WANTED = {"points": ("no point pools: a Stunt's cost or a loss has nothing to come off",
                         "add `points: {body: N, mind: N, spirit: N}`"),
              "defenses": ("no Defenses: no check can take one as its DS (--vs)",
                           "add `defenses: {body: N, mind: N, spirit: N}`")}

    def walk(self, value, path, place, out, ctx):
        super().walk(value, path, place, out, ctx)
        if not isinstance(value, dict) or value.get("kind", "pc") != "pc":
            return
        line = ctx.line(value, "name", place) if "name" in value else 1
        for key, (missing, fix) in self.WANTED.items():
            if not value.get(key):
                out.append(Problem(ctx.label, ctx.line(value, key, place) if key in value else line, key,
                                   f"a PC with {missing}", fix, "warning"))


SHEET = _Sheet(keys={
    "name": Text(),
    "kind": Text(word=True),
    "attributes": Map(keys={g: Either(_SCORE, Map(names=f"{g}_attributes", values=_SCORE, what="attribute"))
                            for g in ("body", "mind", "spirit")}, required=("body", "mind", "spirit")),
    "mo": Map(keys={"name": Text(), "score": _SCORE}),
    "specializations": Seq(Text()),
    "bonuses": Map(values=_SCORE),
    "effect_bonuses": Map(values=_SCORE),
    "defenses": _POOLS,
    "points": _POOLS,
    "points_max": _POOLS,
    "wounds": _SCORE,
    "conditions": Seq(Text()),
    "reaction": _SCORE,
    "challenge_points": _SCORE,
    "challenge_points_max": _SCORE,
    "actions": Map(values=_ACTION),
}, open=True, required=("name", "attributes"))
