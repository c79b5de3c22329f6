"""Closest known names for a misspelt one (S-SYS-5), shared by every "unknown NAME" message."""

from __future__ import annotations


def closest(word: str, known, limit: int = 3) -> list[str]:
    """Known names close to `word` (best first); empty when none is close."""
    import difflib

    known = [str(k) for k in known]
    lowered = {k.lower(): k for k in known}
    found = difflib.get_close_matches(str(word).lower(), list(lowered), n=limit, cutoff=0.6)
    prefix = [k for k in known if k.lower().startswith(str(word).lower()) and str(word)]
    out = []
    for name in [lowered[f] for f in found] + prefix:
        if name not in out:
            out.append(name)
    return out[:limit]


def did_you_mean(word: str, known) -> str:
    """' (did you mean X?)' or '' ."""
    near = closest(word, known)
    return f" (did you mean {' or '.join(near)}?)" if near else ""


def known_list(known, more: int = 20) -> str:
    names = [str(k) for k in known]
    text = ", ".join(names[:more]) + (f" and {len(names) - more} more" if len(names) > more else "")
    return text or "none yet"


def unknown(what: str, name, known, *, detail: str = "", rule: str | None = None, create: str | None = None):
    """The BadInput for an unknown NAME (S-SYS-5): the closest known names when any are close, the known
    names otherwise, and how to create one only as a pattern (never the misspelt name itself)."""
    from .errors import BadInput

    known = list(known)
    near = closest(str(name), known)
    message = f"unknown {what} {str(name)!r}{detail}" + (f" (did you mean {' or '.join(near)}?)" if near else "")
    fix = "known: " + known_list(known)
    if create and not near:
        fix += f"; create one with `{create}`"
    return BadInput(message, rule=rule, fix=fix)
