"""Where one command's output goes: a `Sink` per call.

The command line's sink prints a result on stdout and a note (a warning, a secret roll's pointer) on
stderr. The Python API's (`Kept`) keeps the results as (kind, value) and the notes as lines, and prints
nothing, so two calls at once in one process (two threads, or two players of `serve --act`) never see
each other's output. A call's sink also holds what belongs to that call alone: the warnings already given
(each is said once per command), the parse caches to store once the command has succeeded, and the faces
a page's player has typed so far.

The command's App carries its sink (`App.sink`) to the rendering. Code below the commands that has no App
at hand (storage naming a damaged log line, a game's hook that failed) writes to `current()`: the sink of
the call running in this thread (or asyncio task), held in a context variable, never in a module global.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys


class Sink:
    """The command line's: results on stdout, notes on stderr (each looked up when written, so a redirected
    `sys.stdout` is honoured); a terminal may be asked for faces."""

    kept: list | None = None  # the results of a call that keeps them (the API); None: printed
    asked: list | None = None  # the faces a page's player typed so far, one text per die (serve --act)
    own: frozenset | None = None  # the options whose dice this call's table may give (a player's); None: every one
    waits: frozenset = frozenset()  # of another creature's dice on a player's page, the options that wait for the Guide
    guided: list | None = None  # the faces the Guide typed for those, each (the option it answers, the text)
    prompts = True  # whether faces may be asked at a terminal

    def __init__(self):
        self.warned: set = set()  # what this call has warned of already (said once per command)
        self.pending: list = []  # parse caches to store once the command has succeeded (store/cache.py)

    def out(self, text: str):
        """Text for stdout: the result a person or a script reads."""
        sys.stdout.write(text)

    def note(self, text: str):
        """One line for stderr (`text` ends with its newline)."""
        sys.stderr.write(text)


class Kept(Sink):
    """The Python API's: every result kept as (kind, value), every note as a line; nothing printed, and no
    terminal is ever asked for a face. `asked`: the faces typed so far on a page (None: there is no page
    to ask either), each a text or (the option it answers, the text); `own`: the options of the dice a
    player's page may give (another creature's dice are rolled here, never asked of that player); `waits`: the
    options of another creature's dice that wait for the Guide instead, `guided` the faces the Guide typed for
    them so far, each (the option it answers, the text)."""

    prompts = False

    def __init__(self, asked: list | None = None, own=None, waits=(), guided=None):
        super().__init__()
        self.kept = []
        self.asked = None if asked is None else [face if isinstance(face, tuple) else str(face) for face in asked]
        self.own = None if own is None else frozenset(own)
        self.waits = frozenset(waits)
        self.guided = list(guided or [])
        self.printed: list[str] = []
        self.notes: list[str] = []

    def out(self, text: str):
        self.printed.append(text)

    def note(self, text: str):
        self.notes.extend(line for line in text.splitlines() if line)


_CURRENT: contextvars.ContextVar[Sink] = contextvars.ContextVar("narateer_sink", default=Sink())


def current() -> Sink:
    """The sink of the call running here (the command line's when no call set one)."""
    return _CURRENT.get()


def begin(sink: Sink) -> Sink:
    """Make `sink` this context's from now on (the command line: one fresh sink per command)."""
    _CURRENT.set(sink)
    return sink


@contextlib.contextmanager
def using(sink: Sink):
    """`with using(sink):` the calls made inside write to `sink`; the one before is back afterwards."""
    token = _CURRENT.set(sink)
    try:
        yield sink
    finally:
        _CURRENT.reset(token)


def note(text: str):
    """A line for the current call's stderr."""
    current().note(text)


def warn_once(key, text: str) -> bool:
    """`text` on the current call's stderr unless this call said it already (by `key`); whether it was said."""
    said = current().warned
    if key in said:
        return False
    said.add(key)
    current().note(text)
    return True
