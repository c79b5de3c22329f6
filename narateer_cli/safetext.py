"""Text from a campaign, made safe to print to a terminal: control characters escaped.

Names, ids, paths and messages that came from files (which may have arrived by git) can hold
control characters: an escape sequence that moves the cursor, retitles the window or hides a line.
`printable` writes each such character as a visible escape (`\\x1b`, `\\u202e`), so what the
terminal shows is exactly what the file holds. Newlines are escaped too: one message is one line.
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, and the bidirectional overrides and isolates that reorder what is shown; compiled
# when first used (0.2 ms: a command that prints only JSON never needs it)
_UNPRINTABLE_CLASS = "[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]"
_UNPRINTABLE = None


def _unprintable() -> re.Pattern:
    global _UNPRINTABLE
    if _UNPRINTABLE is None:
        _UNPRINTABLE = re.compile(_UNPRINTABLE_CLASS)
    return _UNPRINTABLE


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def needs_escape(text: str) -> bool:
    """Does `text` hold a character `printable` escapes?"""
    return _unprintable().search(text) is not None


def printable(text) -> str:
    """`text` with every control or reordering character written as a visible escape."""
    text = str(text)
    pattern = _unprintable()
    return pattern.sub(_escape, text) if pattern.search(text) else text
