"""Forge's hooks: one class, each method importing only the part of the game it needs."""

from __future__ import annotations

from narateer_cli.kit import Game


class Forge(Game):
    def ruleset(self, data, overrides, where, checked=False):
        from .engine import ruleset

        return ruleset(data, overrides, where, checked=checked)

    def parse_sheet(self, char_id, doc, label, rules):
        from .engine import parse_sheet

        return parse_sheet(char_id, doc, label, rules)

    def log_checker(self, rules, continuity):
        from narateer_cli.kit import entrywise

        from .engine import verify_log

        return entrywise(verify_log)(rules, continuity)

    @property
    def sheet_schema(self):
        from .engine import SHEET_SCHEMA

        return SHEET_SCHEMA

    @property
    def formatters(self):
        from .render import FORMATTERS

        return FORMATTERS

    @property
    def conformance(self):
        from .engine import CONFORMANCE

        return CONFORMANCE

    def summary(self, command, actor, declaration, result):
        from .render import summary

        return summary(command, actor, declaration, result)

    def chance(self, check, rules):
        from .engine import chance

        return chance(check, rules)

    # the host's verbs, computed here

    def condition(self, s, char, changes, rounds):
        from narateer_cli.kit import BadInput, Outcome, encounter_for

        sheet = s.sheet(char)
        now = list(sheet.conditions)
        for change in changes:
            sign, name = change[:1], change[1:].strip().lower()
            if sign not in "+-" or not name:
                raise BadInput(f"{change!r} is not a condition change", fix="write +NAME or -NAME: +shaken")
            if sign == "+" and name not in now:
                now.append(name)
            elif sign == "-":
                if name not in now:
                    raise BadInput(f"{char} has no condition {name!r}", fix=f"its conditions: {', '.join(now) or 'none'}")
                now.remove(name)
        result = {"actor": char, "changes": list(changes), "conditions": now}
        return Outcome("condition", char, {"changes": list(changes)}, result, kind="condition",
                       sheets={char: {"conditions": now}}, encounter=getattr(encounter_for(s, char), "id", None))

    def turn_start(self, s, char, options):
        from narateer_cli.kit import Outcome, current_encounter

        enc = current_encounter(s, required=True)
        if char is None or not enc.has(char):
            from narateer_cli.kit import BadInput

            raise BadInput(f"{char} is not in encounter {enc.id}", fix=f"narateer turn start ONE_OF {' '.join(enc.state['participants'])}")
        state = {**enc.state, "spotlight": char}
        return Outcome("turn start", char, {}, {"spotlight": char}, kind="turn", encounter=enc.id, state=state)

    def turn_end(self, s, next_id, options):
        from narateer_cli.kit import BadInput, Outcome, current_encounter

        enc = current_encounter(s, required=True)
        if next_id is not None and not enc.has(next_id):
            raise BadInput(f"{next_id} is not in encounter {enc.id}")
        state = {**enc.state, "spotlight": next_id}
        return Outcome("turn end", next_id, {}, {"spotlight": next_id}, kind="turn", encounter=enc.id, state=state)

    def copied(self, s, source, count, made):
        from narateer_cli.kit import Outcome

        return Outcome("new", source, {"from": source, "count": count}, {"source": source, "made": sorted(made)},
                       kind="new", created=made)

    def fresh_sheet(self, doc, rules):
        track = doc.get("track")
        if track is not None:
            for key in ("stress", "trauma", "harm"):
                if key in track:
                    track[key] = 0
        return doc

    def dice(self, app, options):
        from narateer_cli.kit import Show

        from .commands import _dice
        from .engine import OUTCOME_WORDS, judge

        n = options.get("n")
        n = 2 if n is None else n
        if not 0 <= n <= 30:
            from narateer_cli.kit import BadInput

            raise BadInput(f"a bare pool is 0 to 30 dice, not {n}")
        rolled = n if n > 0 else 2
        faces = _dice(app.rng(), rolled, options.get("faces"))
        if len(faces) != rolled or not all(1 <= f <= 6 for f in faces):
            from narateer_cli.kit import BadInput

            raise BadInput(f"--faces: give {rolled} faces, each 1 to 6")
        from narateer_cli.kit import Session

        with Session(app, write=False) as s:
            rules = s.rules
        judged = judge(n, faces, rules)
        return Show("dice", {"n": n, "faces": faces, "keeps": "highest" if n else "lowest",
                             "highest": judged["highest"], "outcome": OUTCOME_WORDS[judged["outcome"]]})

    def verb_words(self, verb):
        import click

        return {
            "dice": {"dice": {"help": "Roll a bare pool of N d6 (default 2) and read the die it keeps.\n\n"
                                      "Example: narateer dice 3",
                              "options": (click.argument("n", type=int, required=False),
                                          click.option("--faces", help="The faces rolled at the table: 6,3."))}},
            "condition": {"condition": {"rounds": None}},
            "new": {"new": {"help": "Copy a character with fresh stress, trauma and harm: new ID --from OTHER "
                                    "[--count N] (N copies, ID-1 .. ID-N).\n\nExample: narateer new bluecoat --from "
                                    "bluecoat --count 3",
                            "source": {"required": True}, "name": None}},
        }.get(verb, {})

GAME = Forge()
