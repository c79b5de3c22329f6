"""Name matching shared by the engine: normalised names and "did you mean"."""

from __future__ import annotations

import difflib


def norm(name) -> str:
    """A-OA-SPEC: names match ignoring case, spaces, `-` and `_`."""
    return "".join(ch for ch in str(name).lower() if ch not in " -_")


def closest(word, known) -> str | None:
    """The known name nearest to `word`, if any is near."""
    known = [str(k) for k in known]
    table = {norm(k): k for k in known}
    found = difflib.get_close_matches(norm(word), list(table), n=1, cutoff=0.6)
    return table[found[0]] if found else None


def suggest(word, known) -> str:
    """A fix text: `did you mean X?` or the list of known names."""
    near = closest(word, known)
    if near is not None:
        return f"did you mean {near}?"
    known = list(known)
    return "known: " + ", ".join(map(str, known)) if known else "none are defined"
