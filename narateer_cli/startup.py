"""Libraries imported without the standard modules they load but a command never uses (SPEC Part 9, speed).

click imports `inspect` at start-up (with `ast`, `dis` and `tokenize`: about 7 ms, a tenth of the
import floor) and, on a command's path, calls only `inspect.cleandoc` on each option's help text,
which for a one-line text that starts with no blank is the text itself. tabulate imports `dataclasses`
(which imports `inspect`) and `html` for a table of dataclasses and its HTML format. So while such a
library is imported, each of those modules is a stand-in holding the few functions the library calls
(each answers as the real one does, or asks the real one), and any other attribute imports the real
module and reads it there. Once the library is in, the stand-ins leave `sys.modules`, so any later
import gets the real module; the library keeps its stand-in, which from its first other use on
behaves exactly as the real module does.
"""

from __future__ import annotations

import sys
from types import ModuleType


class _Deferred(ModuleType):
    """A module's stand-in: what it does not hold itself is read from the real module, imported on first use."""

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):  # e.g. the `__path__` a `from ... import` looks for
            raise AttributeError(attr)
        if sys.modules.get(self.__name__) is self:
            del sys.modules[self.__name__]
        __import__(self.__name__)
        return getattr(sys.modules[self.__name__], attr)


def _is_dataclass(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return hasattr(cls, "__dataclass_fields__")  # dataclasses.is_dataclass


def _escape(text, quote=True):
    import html

    return html.escape(text, quote)


def import_with(name: str, stand_ins: dict):
    """Module `name`, imported with each module of `stand_ins` ({module: {attribute: value}}) a stand-in
    holding those attributes while it imports (when neither it nor that module is imported yet)."""
    if name in sys.modules:
        return sys.modules[name]
    placed = {}
    for module, own in stand_ins.items():
        if module not in sys.modules:
            stand_in = _Deferred(module)
            stand_in.__dict__.update(own)
            placed[module] = sys.modules[module] = stand_in
    try:
        __import__(name)
        return sys.modules[name]
    finally:
        for module, stand_in in placed.items():
            if sys.modules.get(module) is stand_in:
                del sys.modules[module]


def import_tabulate():
    """The tabulate module, imported with `dataclasses` and `html` deferred."""
    return import_with("tabulate", {"dataclasses": {"is_dataclass": _is_dataclass}, "html": {"escape": _escape}})
