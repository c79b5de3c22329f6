"""Open Adventure's sheet as a `narateer_cli.store.schema` table, for the host's `check` (a misspelt key is bad input).

One table serves PCs and NPC statblocks: an attribute group is a mapping of
attributes (PC) or a whole number (NPC). `sheet.problems` adds the checks a
table cannot express (all nine attributes present, action names).
"""

from __future__ import annotations

from narateer_cli.kit import Anything, Either, Int, Map, Name, Seq, Text

_SCORE = Int(0, "max_points")
_POOLS = Map(keys={g: _SCORE for g in ("body", "mind", "spirit")})
_ACTION = Map(keys={"as": _SCORE, "effect": _SCORE, "group": Name("group_names", "group"), "stunt": Anything()},
              required=("as",))

SHEET = Map(keys={
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
