"""The `sheet_schema` hook: d20-cards' own sheet table seen through the host's schema interface.

The table itself lives in `schema.py` (one copy); this node hands every problem
it finds, with its line, to the host's `check`, which then lists them all.
"""

from __future__ import annotations

from narateer_cli.store.schema import Node, Problem

from .files import locator
from .sheet import sheet_problems


class SheetTable(Node):
    def walk(self, value, path, place, out, ctx):
        locate = locator(value) if hasattr(value, "lc") else None
        for p in sheet_problems("", value, ctx.label, locate, ctx.rules):
            key = p.message.partition(":")[0]
            out.append(Problem(ctx.label, p.line, key, p.message, "correct the sheet"))


SHEET = SheetTable()
