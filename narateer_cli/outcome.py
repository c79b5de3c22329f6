"""What one command did, as a value: a game computes it, the host alone writes it.

A game's writing command returns an `Outcome`; the host (`commands/apply.py`)
applies it in one transaction: it creates and edits sheets key by key,
rewrites the encounter state and `narateer.yaml`, logs one entry with its
`changes`, seals a secret roll, keeps the undo record, commits to git when
asked, and renders the result. A command that only shows something returns
`Show`. Nothing here touches a file.
"""

from __future__ import annotations

from typing import Any


class Outcome:
    """One action's result and every edit it implies.

    command, actor, declaration, result: the log entry's fields (`result` is the game's record, or data).
    kind: how the result is rendered (`render.out`); `show` is what is rendered when it is not the
      logged result (the logged result carries each check's exact `chance`).
    sheets: {character id: {key path: new value}}; a path is a tuple of keys or a dotted string. A mapping
      value replaces the mapping, a list is made equal item by item (names compare without case);
      REMOVED removes the key.
    dice: {character id: counters after} for a game whose entries carry `dice` (each counter named by
      SYSTEM.counters' block); None: the entry carries none, unless `dice_changed`.
    dice_changed: the entry's `dice` are the counters of every sheet whose counters the edits changed
      (for a game whose edits move counters among other keys).
    created: {character id: text} new sheets (`new`, `new --from`); an id that exists is bad input.
    encounter, state: the encounter this action belongs to (its log gets the entry) and its new state.
    config: {key: value} for narateer.yaml (a game's own keys, such as a clock).
    secret: always keep this result secret (a random DR; a result that read a sealed value, such as a Search
      compared with a secret Hide's total: `enc.sealed` names them), besides --secret and `guide: true` sheets;
      `private`: result keys this entry hides besides the result type's own.
    public: what a secret entry may show of a plain (non-record) result, as dotted key paths ("*": all),
      added to what the result type's fields declare public; `declared_public`: the declaration's keys a
      secret entry shows (None: the whole declaration, which holds no faces).
    extra: entry fields a game adds after the host's own (kept for logs that read them).
    log: False for an action that changes files but is no move of play (none today).
    exit: the exit status once rendered (`roll --exit-code`: 1 when the check fails).

    An outcome cannot be changed once made: `replace(kind=..., exit=...)` gives a new one.
    """

    command: str
    actor: Any
    declaration: dict
    result: Any
    kind: str | None
    show: Any
    sheets: dict
    dice: dict | None
    dice_changed: bool
    created: dict
    encounter: str | None
    state: Any
    config: dict
    secret: bool
    private: tuple
    public: Any
    declared_public: tuple | None
    entry_id: str | None
    extra: dict | None
    log: bool
    exit: int

    __slots__ = tuple("command actor declaration result kind show sheets dice dice_changed created encounter state "
                      "config secret private public declared_public entry_id extra log exit".split())

    def __init__(self, command: str, actor, declaration: dict, result, *, kind: str | None = None,
                 show=None, sheets: dict | None = None, dice: dict | None = None, dice_changed: bool = False,
                 created: dict | None = None, encounter: str | None = None, state: dict | None = None,
                 config: dict | None = None, secret: bool = False, private=(), public=(),
                 declared_public: tuple | None = None, entry_id: str | None = None,
                 extra: dict | None = None, log: bool = True, exit: int = 0):
        if dice is not None and not isinstance(dice, dict):
            raise TypeError(f"Outcome(dice=...) takes {{character id: counters}} or None, not {dice!r}")
        values = dict(command=command, actor=actor, declaration=declaration, result=result, kind=kind, show=show,
                      sheets={cid: {_path(k): v for k, v in edits.items()} if isinstance(edits, dict) else edits
                              for cid, edits in (sheets or {}).items()} if isinstance(sheets or {}, dict) else sheets,
                      dice=dice, dice_changed=bool(dice_changed), created=dict(created or {}), encounter=encounter,
                      state=state, config=dict(config or {}), secret=secret, private=tuple(private), public=public,
                      declared_public=declared_public, entry_id=entry_id, extra=extra, log=log, exit=exit)
        for key, value in values.items():
            object.__setattr__(self, key, value)

    def __setattr__(self, key, value):
        raise AttributeError(f"an Outcome cannot be changed once made (setting {key}): use outcome.replace({key}=...)")

    def replace(self, **changes) -> Outcome:
        """A new outcome with these fields changed."""
        fields = {name: getattr(self, name) for name in self.__slots__}
        fields.update(changes)
        command, actor, declaration, result = (fields.pop(k) for k in ("command", "actor", "declaration", "result"))
        return Outcome(command, actor, declaration, result, **fields)

    def __repr__(self):
        return f"Outcome({self.command!r}, {self.actor!r})"


class _Removed:
    """A key path's value that removes the key (`config={"encounter": REMOVED}`)."""

    __slots__ = ()

    def __repr__(self):
        return "REMOVED"


REMOVED = _Removed()


class Show:
    """A command's answer that changes nothing: rendered as `kind`."""

    __slots__ = tuple("kind data".split())

    def __init__(self, kind: str, data):
        self.kind, self.data = kind, data


def _path(key) -> tuple:
    return tuple(key.split(".")) if isinstance(key, str) else tuple(key)


def check_headline(data):
    """The outcome of a check result (or of the check inside a result), as (words, success)."""
    if not isinstance(data, dict):
        return None
    for c in (data, data.get("check")):
        if isinstance(c, dict) and isinstance(c.get("outcome"), str) and c["outcome"]:
            return c["outcome"], c.get("success")
    return None
