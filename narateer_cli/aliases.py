"""`aliases:` in narateer.yaml maps a name to a command line with $1..$9.

    aliases:
      sneak: roll $1 stealth --dr $2

`narateer sneak selka 3` runs `narateer roll selka stealth --dr 3`; arguments
past the highest $N are appended. Read only when a name is not a verb, so
ordinary start-up never parses the file, and an alias never shadows a verb.
"""

from __future__ import annotations

import re

from .errors import BadInput

SLOT = re.compile(r"\$([1-9])")


def aliases(root) -> dict:
    """The campaign's aliases (name -> command text); {} outside a campaign or when there are none."""
    if root is None:
        return {}
    from .store import yamlio

    path = root / "narateer.yaml"
    doc = yamlio.load_rt(yamlio.read_text(path, "narateer.yaml"), "narateer.yaml") or {}
    table = doc.get("aliases") if isinstance(doc, dict) else None
    if table is None:
        return {}
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise BadInput("narateer.yaml: aliases must map names to command lines",
                       fix="for example  aliases: {sneak: roll $1 stealth --dr $2}")
    return {str(k): v for k, v in table.items()}


def expand(root, name: str, args: list[str], partial: bool = False) -> list[str] | None:
    """The command line an alias stands for, with $1..$9 filled from `args`; None: not an alias. With
    `partial` (Tab completion) a line still short of arguments stops before its first unfilled
    slot, so the word being typed completes as that slot's parameter."""
    import shlex

    template = aliases(root).get(name)
    if template is None:
        return None
    words = shlex.split(template)
    slots = [int(n) for word in words for n in SLOT.findall(word)]
    needed = max(slots, default=0)
    if len(args) < needed and partial:
        cut = next(i for i, word in enumerate(words) if any(int(n) > len(args) for n in SLOT.findall(word)))
        return [SLOT.sub(lambda m: args[int(m.group(1)) - 1], word) for word in words[:cut]]
    if len(args) < needed:
        raise BadInput(f"alias {name} needs {needed} argument{'s' if needed != 1 else ''} ({template}); "
                       f"got {len(args)}", fix=f"for example narateer {name} " + " ".join(f"ARG{i}" for i in range(1, needed + 1)))
    filled = [SLOT.sub(lambda m: args[int(m.group(1)) - 1], word) for word in words]
    return filled + args[needed:]
