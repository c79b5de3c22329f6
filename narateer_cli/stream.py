"""Output printed while a log is read: what a command holds stays flat however long the log.

`table_lines` yields, line by line, exactly the text `render.table` gives for all the rows at once, while
holding one chunk of rows. tabulate lays a column out from all of its cells: the widest sets the width,
and the least specific type (an empty cell, a bool, an int, a float, text) sets the alignment and the
number format. So a first pass over the rows keeps, per column, the widest cell of plain text and each
distinct cell that could read as anything but text (a number, a bool, an empty cell): the witnesses.
Each chunk is then laid out by tabulate with the witness rows after it, whose lines are dropped, and
so gets the whole table's widths and alignment. The witnesses grow with the distinct values that may
read as numbers (character ids such as `42`), never with the number of rows.

`json_object` writes `{..., "KEY": [items]}` as `json.dumps` would, one item at a time.

`Spool` keeps what a first pass over a log made (its entries, or their rows) in a temporary file, so the
second pass reads them back instead of parsing and checking every line again, with memory still flat.
"""

from __future__ import annotations

import json

CHUNK = 1000  # rows laid out by one tabulate call
_NUMBER_CHARS = frozenset("0123456789+-.,_eEinfatyINFATY")  # every character of a number tabulate reads
_LAYOUT_CHARS = ("\n", "\r", "\x1b")  # a line break or an escape code changes how tabulate lays out every cell


def _is_text(cell: str) -> bool:
    """A cell tabulate can only read as text, not as a number: it holds a character no number has."""
    return any(ch not in _NUMBER_CHARS and not ch.isspace() and not ch.isdecimal() for ch in cell)


class Witnesses:
    """Per column: the widest text cell, the widest cell of each other Python type, and every distinct cell
    that tabulate might read as a number, a bool or empty."""

    def __init__(self, columns: int, disable_numparse=(), headers=()):
        from .render import _needs_wide

        self.wide = _needs_wide(headers, [])  # does any cell need wcwidth: then every chunk is laid out with it
        self.text_only = set(disable_numparse if isinstance(disable_numparse, (list, tuple)) else
                             range(columns) if disable_numparse else ())
        self.widest: list[dict] = [{} for _ in range(columns)]  # key -> (width, cell)
        self.special: list[dict] = [{} for _ in range(columns)]  # cells that may read as something else than text
        self.count = 0
        self.exact = True  # False once a cell breaks lines or holds escape codes: no chunk can stand alone

    def add(self, row):
        self.count += 1
        for column, cell in enumerate(row):
            if isinstance(cell, str):
                if any(code in cell for code in _LAYOUT_CHARS):
                    self.exact = False
                if cell not in ("", "True", "False") and (column in self.text_only or _is_text(cell)):
                    self._keep(column, "text", self.width(cell.strip()), cell)
                else:
                    self.special[column].setdefault(cell, None)
            else:
                self._keep(column, type(cell), len(str(cell)), cell)

    def width(self, cell: str) -> int:
        """A cell's width as tabulate counts it: wcwidth for a character that is not one column wide, else len."""
        from .render import _needs_wide

        if cell.isascii() or not _needs_wide((), [(cell,)]):
            return len(cell)
        self.wide = True
        try:
            from wcwidth import wcswidth
        except ImportError:
            return len(cell)
        return wcswidth(cell)

    def _keep(self, column: int, key, width: int, cell):
        best = self.widest[column].get(key)
        if best is None or width > best[0]:
            self.widest[column][key] = (width, cell)

    def rows(self) -> list:
        """The witness rows: column by column, every kept cell (where a column has fewer, its first kept cell
        again: a cell of its own cannot change how tabulate types or sizes it, while an empty one can)."""
        cells = [[cell for _, cell in widest.values()] + list(special)
                 for widest, special in zip(self.widest, self.special)]
        depth = max(map(len, cells), default=0)
        return [[column[i] if i < len(column) else column[0] if column else "" for column in cells]
                for i in range(depth)]


def table_lines(rows, headers, chunk: int | None = None, **kw):
    """The lines of `render.table(all rows, headers, **kw)`, laid out a chunk at a time; `rows()` gives a fresh
    iterator over the same rows each time it is called (it is read twice). Rows must fill one line each."""
    from .render import table

    chunk = chunk or CHUNK
    seen = Witnesses(len(headers), kw.get("disable_numparse", ()), headers)
    with Spool() as spool:
        for row in rows():
            seen.add(row)
            spool.add(row)
        yield from _laid_out(spool if spool.whole else None, rows, headers, chunk, seen, kw)


def _laid_out(spool, rows, headers, chunk: int, seen, kw: dict):
    """`table_lines` once the witnesses are known: the rows again from `spool` (None: from `rows()`)."""
    from .render import table

    again = iter(spool) if spool is not None else rows()
    if not seen.exact:  # a cell on two lines: the whole table at once (no game's log rows do this)
        yield from table(list(again), headers, **kw).split("\n")
        return
    extra = seen.rows()
    first, batch = True, []
    for row in again:
        batch.append(row)
        if len(batch) == chunk:
            yield from _chunk(batch, extra, headers, first, {**kw, "wide": seen.wide})
            first, batch = False, []
    if batch or first:
        yield from _chunk(batch, extra, headers, first, {**kw, "wide": seen.wide})


def _chunk(batch: list, extra: list, headers, first: bool, kw: dict):
    from .render import table

    lines = table(batch + extra, headers, **dict(kw)).split("\n")
    head = 0 if first else 2  # the header and its rule once, before the first chunk
    yield from lines[head: len(lines) - len(extra)]


def json_object(write, head: dict, key: str, items, encoded: bool = False):
    """Write `head` with `key` holding the list of `items` as `json.dumps({**head, key: [...]})` would, item by
    item (`ensure_ascii=False`), and a newline (`encoded`: the items are that JSON text already)."""
    text = json.dumps({**head, key: []}, ensure_ascii=False)
    before = text[: text.rindex("[]")]
    write(before + "[")
    for n, item in enumerate(items):
        write((", " if n else "") + (item if encoded else json.dumps(item, ensure_ascii=False)))
    write("]" + text[len(before) + 2:] + "\n")


class Spool:
    """Values kept, in order, in a temporary file (pickled: it is this process's own, never read by another),
    to be given back by iterating; `whole` is False once a value could not be kept (the caller then reads
    them from their source again). A context manager: the file goes when it ends."""

    def __init__(self):
        import tempfile

        self.fh = tempfile.TemporaryFile()
        self.count, self.whole = 0, True

    def add(self, value):
        import pickle

        if self.whole:
            try:
                self.fh.write(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
            except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
                self.whole = False
            self.count += 1

    def __iter__(self):
        import pickle

        self.fh.seek(0)
        load = pickle.load
        for _ in range(self.count):
            yield load(self.fh)

    def close(self):
        self.fh.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
