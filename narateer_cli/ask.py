"""Faces typed at the table when they are needed, one die at a time.

`--faces ask` asks for every face; once some faces are given for a command
and stdin is a terminal, any face the command line left out is asked instead
of refused (nothing is rolled silently; `ask_faces: false` in narateer.yaml refuses it instead). Each
prompt says what it is for (the initial roll, or the Edge Phase with the dice it rerolls), so the faces are
typed only once the dice are known. Prompts go to stderr; stdout keeps the result. Without a terminal a
missing face stays bad input (exit 2) that names the option to give. Any system's dice source can take the
asker.
"""

from __future__ import annotations

import sys

from .errors import BadInput, Refused

WORD = "ask"
# Whether a terminal may be asked, and the faces a page's player typed so far (serve --act: one text per
# die in the order asked; a die beyond them stops the command, FacesWanted, nothing written, so the page can
# ask for it) are the running call's own: its sink holds them (`prompts`, `asked`). A program calling the
# Python API types no faces at a prompt.


class FacesWanted(BadInput):
    """Faces asked on the page: the next die the command needs. Nothing was written; the page asks for the face
    and runs the same words again with every face typed so far."""

    def __init__(self, what: str, option: str, number: int, count: int):
        super().__init__(f"{what}: die {number} of {count} ({option})", fix="type the face it shows")
        self.wanted = {"what": what, "option": option, "number": number, "count": count}


class NotTheirs(BadInput):
    """A face typed on a player's page for a die that is not that player's (another creature's save, a
    Concentration check, a defender's dice): the request is refused whole, nothing written."""

    def __init__(self, option: str):
        super().__init__(f"{option} is another creature's die: it is rolled for them, never typed on a player's page",
                         fix="type only your own dice")
        self.option = option


class GuideWanted(BadInput):
    """On a player's page, another creature's die that the game (or the campaign) leaves to the Guide: the next
    one the Guide has not typed yet. Nothing was written; the action waits on the Guide's screen, and runs again
    with the Guide's face once it is typed."""

    def __init__(self, what: str, option: str, number: int, count: int):
        super().__init__(f"{what}: die {number} of {count} ({option}) is the Guide's to roll",
                         fix="wait for the Guide to roll it")
        self.wanted = {"what": what, "option": option, "number": number, "count": count}


def from_guide(parse, count: int, option: str, what: str) -> list[int] | None:
    """Another creature's `count` dice on a player's page: None when they are rolled here (the default), else
    the faces the Guide typed for them (the call's `guided`, taken in order; `parse(text, option)` reads one),
    GuideWanted for the first die the Guide has not typed yet."""
    from .sink import current

    call = current()
    flag = option.split(" ", 1)[0]
    if call.own is None or flag in call.own or flag not in call.waits:
        return None
    faces = []
    for number in range(1, count + 1):
        if not call.guided:
            raise GuideWanted(what, option, number, count)
        given, text = call.guided.pop(0)
        if given.split(" ", 1)[0] != flag:
            raise BadInput(f"the face the Guide typed for {given} reached {what} ({option})",
                           fix="dismiss the action and let the player act again")
        value = parse(text, option)
        if not value or len(value) != 1:
            raise BadInput(f"die {number} of {count} ({option}) takes one face", fix="type one face")
        faces.append(value[0])
    return faces


def interactive() -> bool:
    from .sink import current

    call = current()
    if not call.prompts:
        return call.asked is not None
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
        from .sink import current

        typed = current().asked
        if typed is not None:
            return _from_page(parse, typed, count, option, what)
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


def _from_page(parse, typed: list, count: int, option: str, what: str) -> list[int]:
    """The faces of `count` dice from the page's answers (`typed`, taken in order); FacesWanted for the first
    die it has not answered yet."""
    from .sink import current

    own = current().own
    if own is not None and option not in own:  # the dice sources roll these; a game that asks anyway is refused
        raise NotTheirs(option)
    faces = []
    for number in range(1, count + 1):
        if not typed:
            raise FacesWanted(what, option, number, count)
        face = typed.pop(0)
        if isinstance(face, tuple):  # (the option the face was typed for, the face)
            if face[0] != option:
                raise BadInput(f"the face typed for {face[0]} reached {what} ({option})",
                               fix="type the faces again, die by die, as they are asked")
            face = face[1]
        value = parse(face, option)
        if not value or len(value) != 1:
            raise BadInput(f"die {number} of {count} ({option}) takes one face", fix="type one face")
        faces.append(value[0])
    return faces


class Hopeless(Refused):
    """A check with no chance to succeed, not rolled: nothing was written. `confirm` names the check and its
    chance, the question a page asks before it sends the same words again with `--force`."""

    def __init__(self, what: str, prefix: str = ""):
        super().__init__(f"{prefix}no chance to succeed (0%): {what}", rule="T3-ZERO",
                         fix="check the numbers, or add --force to roll anyway")
        self.confirm = f"No chance to succeed (0%): {what}. Roll anyway?"


FORCE_HELP = "Roll even when the check has no chance to succeed (no question asked)."


def zero_gate(app):
    """What a command's dice do before a check with no chance to succeed rolls (`Dice.gate`), or None
    for a command that checks nothing (it has no `--force`). With `--force` the check rolls; on a terminal the
    question is asked first; otherwise (a script, the Python API, a page) it is refused, nothing written."""
    if not getattr(app, "checks", False):
        return None
    force = bool(getattr(app, "force", False))

    def gate(what: str):
        if force:
            return
        if _can_confirm():
            import click

            from .safetext import printable

            if click.confirm(f"No chance to succeed (0%): {printable(what)}. Roll anyway?", default=False, err=True):
                return
            raise Hopeless(what, "not rolled, ")
        raise Hopeless(what)

    return gate


def _can_confirm() -> bool:
    """A person at a terminal can answer a question (never the Python API or a page)."""
    from .sink import current

    if not current().prompts:
        return False
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
