"""T-ASK: faces typed at the table when they are needed, one die at a time.

`--faces ask` asks for every face; once some faces are given for a command
and stdin is a terminal, any face the command line left out is asked instead
of refused (T2-FACES; `ask_faces: false` in narateer.yaml refuses it instead). Each prompt says what it is for (the initial roll, or the Edge Phase
with the dice it rerolls), so the faces are typed only once the dice are known.
Prompts go to stderr; stdout keeps the result. Without a terminal a missing
face stays bad input (exit 2) that names the option to give. Any system's dice source can take the asker.
"""

from __future__ import annotations

import sys

from .errors import BadInput

WORD = "ask"
NEVER = False  # set while the Python API runs a verb: a program (or the page, B-1) types no faces at a prompt


def interactive() -> bool:
    if NEVER:
        return False
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def is_ask(text) -> bool:
    return isinstance(text, str) and text.strip().lower() == WORD


def wanted(app, texts) -> tuple[bool, bool]:
    """(ask for the faces not given, ask only when some were given) from the options and the campaign."""
    every = any(is_ask(t) for t in texts)
    if every and not interactive():
        raise BadInput("--faces ask needs a terminal to type the faces at", rule="T-ASK",
                       fix="give the faces themselves in place of `ask` (the command's --help shows how they are written)")
    missing = False
    if not every and interactive():
        try:
            missing = app.campaign.config().get("ask_faces") is not False
        except Exception:  # outside a campaign the terminal still asks
            missing = True
    return every, missing


def asker(parse):
    """A callable (count, option, what) -> faces that prompts for each die; `parse(text, option)` reads one."""
    import click

    from .safetext import printable

    def ask(count: int, option: str, what: str) -> list[int]:
        sys.stderr.write(f"{printable(what)}: {count} {'die' if count == 1 else 'dice'} to roll\n")
        faces = []
        for number in range(1, count + 1):
            while True:
                text = click.prompt(f"  die {number} of {count} ({option})", err=True, prompt_suffix=": ")
                try:
                    value = parse(text, option)
                except BadInput as exc:
                    sys.stderr.write(f"  {printable(exc.line() if hasattr(exc, 'line') else exc)}\n")
                    continue
                if value and len(value) == 1:
                    faces.append(value[0])
                    break
                sys.stderr.write("  one face, please\n")
        return faces

    return ask
