"""Name matching shared by the engine: normalised names, and "did you mean" through the host's one
matcher (`narateer_cli.suggest`) comparing names the Open Adventure way."""

from __future__ import annotations


def norm(name) -> str:
    """Names match ignoring case, spaces, `-` and `_`."""
    return "".join(ch for ch in str(name).lower() if ch not in " -_")


def closest(word, known) -> str | None:
    """The known name nearest to `word`, if any is near."""
    from narateer_cli.kit import closest as nearest

    found = nearest(word, known, limit=1, norm=norm)
    return found[0] if found else None


def unknown(what: str, name, known, **options):
    """The host's BadInput for an unknown NAME, names compared the Open Adventure way."""
    from narateer_cli.kit import unknown as host_unknown

    return host_unknown(what, name, known, norm=norm, **options)


def suggest(word, known) -> str:
    """A fix text: `did you mean X?` or the list of known names."""
    near = closest(word, known)
    if near is not None:
        return f"did you mean {near}?"
    known = list(known)
    return "known: " + ", ".join(map(str, known)) if known else "none are defined"
