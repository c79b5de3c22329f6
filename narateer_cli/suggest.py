"""Closest known names for a misspelt one, shared by every "unknown NAME" message.

`closest` is the one matcher: difflib's ratio (at least `cutoff`) plus the
known names that start with the word. With `slip=True` it keeps only the
names a typing slip away (one letter left out, added, changed or swapped)
or a cut-short form of (`blind` for blinded), with `cutoff` 0.75: the rule
for names that may also be new (d20-cards' free-form conditions), so `weakened` is not taken
for `deafened`. `norm` lets a system match names its own way (Open
Adventure ignores case, spaces, `-` and `_`).
"""

from __future__ import annotations


def closest(word: str, known, limit: int = 3, *, cutoff: float = 0.6, slip: bool = False, norm=None) -> list[str]:
    """Known names close to `word` (best first); empty when none is close."""
    import difflib

    key = norm or (lambda name: str(name).lower())
    known = [str(k) for k in known]
    lowered = {key(k): k for k in known}
    word = key(word)
    found = difflib.get_close_matches(word, list(lowered), n=limit, cutoff=cutoff)
    if slip:  # only a typing slip or a cut-short form, never the name itself
        found = [f for f in found if f != word and (slips(word, f) <= 1 or (len(word) >= 4 and f.startswith(word)))]
    prefix = [k for k in lowered if word and k.startswith(word)] if not slip else []
    out = []
    for name in found + prefix:
        if lowered[name] not in out:
            out.append(lowered[name])
    return out[:limit]


def slips(a: str, b: str) -> int:
    """Typing slips from a to b: letters left out, added, changed or swapped (optimal string alignment)."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            row.append(min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb)))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def did_you_mean(word: str, known, **options) -> str:
    """' (did you mean X?)' or '' ; `options` as for `closest`."""
    near = closest(word, known, **options)
    return f" (did you mean {' or '.join(near)}?)" if near else ""


def known_list(known, more: int = 20) -> str:
    names = [str(k) for k in known]
    text = ", ".join(names[:more]) + (f" and {len(names) - more} more" if len(names) > more else "")
    return text or "none yet"


def unknown(what: str, name, known, *, detail: str = "", rule: str | None = None, create: str | None = None,
            more: str = "", norm=None):
    """The BadInput for an unknown NAME: the closest known names when any are close, the known
    names otherwise (and `more`, another way out), and how to create one only as a pattern (never the
    misspelt name itself). `norm`: how the system compares names, as for `closest`."""
    from .errors import BadInput

    known = list(known)
    message = f"unknown {what} {str(name)!r}{detail}" + did_you_mean(str(name), known, norm=norm)
    fix = "known: " + known_list(known) + more
    if create and not closest(str(name), known, norm=norm):
        fix += f"; create one with `{create}`"
    return BadInput(message, rule=rule, fix=fix)
