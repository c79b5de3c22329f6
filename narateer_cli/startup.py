"""click, imported without the standard `inspect` module (SPEC Part 9, speed).

click imports `inspect` at start-up (with `ast`, `dis` and `tokenize`: about 7 ms,
a tenth of the import floor) and, on a command's path, calls only
`inspect.cleandoc` on each option's help text, which for a one-line text is the
text without its leading blanks. So while click is imported, `inspect` is a
stand-in: its `cleandoc` answers a one-line text itself, and any other
attribute (or a text of several lines) imports the real module and reads it
there. Once click is in, the stand-in leaves `sys.modules`, so any later
`import inspect` gets the real module; click keeps the stand-in, which from its
first other use on behaves exactly as the real module does.
"""

from __future__ import annotations

import sys
from types import ModuleType


class _Deferred(ModuleType):
    """A module's stand-in: what it does not hold itself is read from the real module, imported on first use."""

    def __getattr__(self, attr):
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        import importlib

        return getattr(importlib.import_module(self.__name__), attr)


def _cleandoc(doc):
    if isinstance(doc, str) and "\n" not in doc and "\t" not in doc:
        return doc.lstrip()  # inspect.cleandoc's answer for one line
    import inspect

    return inspect.cleandoc(doc)


def import_click():
    """The click module, imported with `inspect` deferred (when neither is imported yet)."""
    if "click" in sys.modules or "inspect" in sys.modules:
        import click

        return click
    stand_in = _Deferred("inspect")
    stand_in.cleandoc = _cleandoc
    sys.modules["inspect"] = stand_in
    try:
        import click
    finally:
        if sys.modules.get("inspect") is stand_in:
            del sys.modules["inspect"]
    return click
