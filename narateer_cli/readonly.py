"""Read-only views of what a game reads: a parsed sheet, an encounter state, the settings and the rules.

A game computes from what the host hands it and returns every change in its outcome; the host alone
writes. What it reads is therefore read-only: `view(data, what)` gives the same data as a `ReadOnlyDict`
(a `dict`) and `ReadOnlyList` (a `list`) all the way down, so a game's `isinstance(doc, dict)`, `json`,
`dict(doc)`, `list(doc["conditions"])` and `copy.deepcopy(doc)` (a plain copy) work as before, while
`doc["hp"] = 3`, `doc["conditions"].append(...)` or `.pop()` raise `ReadOnly` at once, naming the game's
function that tried and what it tried to change. Without this, a change made in memory reached the
host's parse cache, `show` displayed it, and the next real edit wrote it with no log entry.

The views are dict and list subclasses rather than `Mapping` wrappers because games test
`isinstance(x, dict)` and put what they read into results that are written as JSON and YAML. A view
is made once per value the host keeps (a sheet's parse, a state, the ruleset data, narateer.yaml), not
per read: an already read-only value is returned as it is, so a view over a view costs nothing, and
reading through one costs what reading a dict costs.
"""

from __future__ import annotations

import os
import sys

from .errors import NarateerError


class GameFault(NarateerError):
    """A game broke the contract between host and game (exit 2); the message names the game's function."""

    exit_code = 2


class ReadOnly(GameFault, TypeError):
    """A game changed, in memory, something it only reads (a TypeError too, as for any immutable value)."""


def _refusing(method: str):
    """The body of a changing method (`__setitem__`, `append`, `pop` ...) of a read-only view."""

    def refuse(self, *args, **kwargs):
        raise ReadOnly(f"{game_caller()} changes {self._what} in memory ({_said(method)}), which reaches no file",
                       rule="K-2", fix="return the change in the Outcome (sheets=..., state=..., config=...); "
                                       "to compute on a copy, take one: dict(x), list(x) or copy.deepcopy(x)")

    refuse.__name__ = method
    return refuse


def _said(method: str) -> str:
    return {"__setitem__": "item assignment", "__delitem__": "item deletion", "__iadd__": "+=",
            "__imul__": "*=", "__ior__": "|="}.get(method, f".{method}()")


class _Refusing:
    """What a read-only dict and list share: every changing method refuses (`_refusing`), and a copy is
    the plain kind (`_plain`), changeable again."""

    __slots__ = ()
    _plain: type = object

    def __copy__(self):
        return self._plain(self)

    def __deepcopy__(self, memo):
        return thaw(self)

    def __reduce_ex__(self, protocol):
        return self._plain, (thaw(self),)


class ReadOnlyDict(_Refusing, dict):
    """A dict a game may read and copy, never change."""

    __slots__ = ("_what",)
    _plain = dict
    for _name in ("__setitem__", "__delitem__", "clear", "pop", "popitem", "setdefault", "update", "__ior__"):
        locals()[_name] = _refusing(_name)
    del _name


class ReadOnlyList(_Refusing, list):
    """A list a game may read and copy, never change."""

    __slots__ = ("_what",)
    _plain = list
    for _name in ("__setitem__", "__delitem__", "append", "extend", "insert", "remove", "pop", "clear", "sort",
                  "reverse", "__iadd__", "__imul__"):
        locals()[_name] = _refusing(_name)
    del _name


def view(value, what: str):
    """`value` (plain data: dicts, lists, scalars) read-only all the way down; `what` names it in the error
    ("characters/rook.yaml", "the rules"). Mappings and lists already read-only are kept as they are."""
    kind = type(value)
    if kind in _SCALARS or kind is ReadOnlyDict or kind is ReadOnlyList:
        return value
    if isinstance(value, dict):
        out = ReadOnlyDict({k: v if type(v) in _SCALARS else view(v, what) for k, v in value.items()})
    elif isinstance(value, list):
        out = ReadOnlyList([v if type(v) in _SCALARS else view(v, what) for v in value])
    elif kind is tuple:
        return tuple(view(v, what) for v in value)
    else:
        return value
    out._what = what
    return out


_SCALARS = frozenset((str, int, float, bool, type(None)))


def thaw(value):
    """A plain, changeable copy of `value` (read-only views become dicts and lists, all the way down); a value
    holding no view is returned as it is."""
    if isinstance(value, dict):
        if type(value) is dict and not _holds_view(value):
            return value
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, list):
        if type(value) is list and not _holds_view(value):
            return value
        return [thaw(v) for v in value]
    if type(value) is tuple:
        return tuple(thaw(v) for v in value)
    return value


def _holds_view(value) -> bool:
    items = value.values() if isinstance(value, dict) else value
    for item in items:
        if isinstance(item, (ReadOnlyDict, ReadOnlyList)):
            return True
        if isinstance(item, (dict, list, tuple)) and _holds_view(item):
            return True
    return False


def game_caller(skip: int = 0) -> str:
    """`module.function` of the innermost frame on the stack that runs a loaded game's code (its package
    or a module inside it), else of the nearest frame outside this module: the function to name when a
    game breaks the contract."""
    packages = _game_packages()
    frame = sys._getframe(1 + skip)
    nearest = None
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module != __name__:
            if nearest is None:
                nearest = frame
            if any(module == p or module.startswith(p + ".") for p in packages):
                return _named(frame)
        frame = frame.f_back
    return _named(nearest) if nearest is not None else "the game"


def _named(frame) -> str:
    code = frame.f_code
    return f"{frame.f_globals.get('__name__', '?')}.{getattr(code, 'co_qualname', code.co_name)}"


def function_name(fn) -> str:
    """`module.qualname` of a game's function (a hook or a command)."""
    return f"{getattr(fn, '__module__', None) or '?'}.{getattr(fn, '__qualname__', None) or getattr(fn, '__name__', repr(fn))}"


def _game_packages() -> tuple:
    registry = sys.modules.get("narateer_cli.systems")
    loaded = getattr(registry, "_LOADED", {}) if registry is not None else {}
    return tuple(s.package for s in loaded.values() if getattr(s, "package", None))


# -- the rest of the contract, checked while a game's function runs ------------------------------------------

_RUNNING: list = []  # the game functions running now, innermost last (a command's function, a hook)


class running:
    """`with running(fn):` while a game's function runs, the host's writing calls refuse (`refuse_write`),
    and so does any file the game's own code opens for writing, renames or removes (`_audit`)."""

    def __init__(self, fn):
        self.fn = fn

    def __enter__(self):
        global _AUDITING
        if not _AUDITING:  # once per process, the first time a game's function runs
            sys.addaudithook(_audit)
            _AUDITING = True
        _RUNNING.append(self.fn)
        return self

    def __exit__(self, *exc):
        _RUNNING.pop()
        return False


_AUDITING = False
_WRITING = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_CHANGES_FILES = frozenset({"os.rename", "os.remove", "os.rmdir", "os.truncate", "os.link", "os.symlink",
                            "os.chmod", "os.utime", "shutil.copyfile", "shutil.move", "shutil.rmtree"})


def _audit(event: str, args: tuple):
    """The process's audit hook (`sys.addaudithook`): while a game's function runs, a file opened for
    writing (a log line appended with `open(..., "a")`, a sheet rewritten), renamed or removed by the
    game's own code is refused before it happens, naming the game's function. The host's writes on the
    way (its parse cache, a crashed action completed) are made by host code and go through, as does the
    bytecode Python caches when a game imports a module lazily: the first frame up the stack that is
    narateer's or the import system's decides whose write it is, the standard library's other frames
    (`pathlib`, `shutil`, `tempfile`) passed over."""
    if not _RUNNING:
        return
    if event == "open":
        if not (isinstance(args[2], int) and args[2] & _WRITING):
            return
    elif event not in _CHANGES_FILES:
        return
    packages = _game_packages()
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if any(module == p or module.startswith(p + ".") for p in packages):
            raise GameFault(f"{_named(frame)} writes {_path_in(event, args)} itself: a game never writes a "
                            "sheet, a log or any file", rule="K-4",
                            fix="return every change in the Outcome (sheets=..., dice=..., state=...); "
                                "the host writes it and logs it")
        if module == "narateer_cli" or module.startswith("narateer_cli.") or module.startswith("importlib."):
            return  # the host's own write, or the import system caching a module's bytecode
        frame = frame.f_back


def _path_in(event: str, args: tuple) -> str:
    """The file an audited event changes: the target of a copy or move, else its first argument."""
    path = args[1] if event in ("shutil.copyfile", "shutil.move") else args[0]
    return os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else "a file"


# -- what a plug-in game imports ------------------------------------------------------------------------------

_GUARDED: set = set()  # the packages of the plug-in games loaded in this process: their imports are checked
_OWNERS: dict = {}  # module name -> its package in _GUARDED, or None (each module looked up once)
_IMPORT = None  # the interpreter's own `__import__`, once the check is in place


def guard_imports(package: str):
    """From now on, every import statement a module of `package` (a plug-in game) runs is checked, the
    first time as its module loads and each time a function of it runs one: the kit (`narateer_cli.kit`),
    the game's own package and any other library go through; another module of narateer, or another game's
    package, is a GameFault naming the game's module (or function) and what it imported. The built-in games
    are held to the same line by the project's import contracts. `importlib.import_module` is not an import
    statement and is not seen: the kit's own check reads the game's source too."""
    global _IMPORT
    _GUARDED.add(package)
    _OWNERS.clear()
    if _IMPORT is None:
        import builtins

        _IMPORT = builtins.__import__
        builtins.__import__ = _checked_import


def _checked_import(name, globals=None, locals=None, fromlist=(), level=0):
    importer = globals.get("__name__") if isinstance(globals, dict) else None
    own = _guarded_package(importer) if importer and not level else None  # a relative import stays inside
    if own is None:
        return _IMPORT(name, globals, locals, fromlist, level)
    wrong = private_import(own, name, fromlist)
    module = _IMPORT(name, globals, locals, fromlist, level) if wrong is None else None
    other = None if wrong is not None else _another_game(own, name, fromlist)
    if wrong is not None or other is not None:
        frame = sys._getframe(1)
        where = importer if frame.f_code.co_name == "<module>" else _named(frame)
        what = (f"{wrong}, a module of narateer other than its kit" if wrong is not None else
                f"{name}, the package of the game {other}")
        raise GameFault(f"{where} imports {what}: a game imports only narateer_cli.kit, its own package and "
                        "libraries", rule="K-1",
                        fix="use the names of narateer_cli.kit (docs/write-a-game.md), and copy into your own "
                            "package what you need of another game")
    return module


def _guarded_package(module: str) -> str | None:
    try:
        return _OWNERS[module]
    except KeyError:
        pass
    found = next((p for p in _GUARDED if module == p or module.startswith(p + ".")), None)
    _OWNERS[module] = found
    return found


def private_import(own: str, name: str, fromlist=()) -> str | None:
    """The host module other than the kit that `import name` (or `from name import *fromlist`) in the game
    package `own` names, else None."""
    if name == own or name.startswith(own + "."):
        return None
    if name == "narateer_cli":  # `from narateer_cli import kit`
        others = [f for f in fromlist or () if f != "kit"]
        return f"narateer_cli.{others[0]}" if others else None
    if name.startswith("narateer_cli.") and name != "narateer_cli.kit":
        return name
    return None


def _another_game(own: str, name: str, fromlist=()) -> str | None:
    """The name of the game whose package (loaded now) `import name` or `from name import ...` reaches, other
    than `own`'s, else None: a package is a game's when it defines a kit `System` as its `SYSTEM`."""
    base = sys.modules.get("narateer_cli.systems.base")
    if base is None:
        return None
    names = [name, *(f"{name}.{f}" for f in fromlist or () if isinstance(f, str))]
    for full in names:
        parts = full.split(".")
        for i in range(1, len(parts) + 1):
            prefix = ".".join(parts[:i])
            module = sys.modules.get(prefix)
            system = getattr(module, "__dict__", {}).get("SYSTEM") if module is not None else None
            if isinstance(system, base.System) and prefix != own and not own.startswith(prefix + "."):
                return system.name
    return None


def is_game(fn) -> bool:
    """Whether `fn` is a loaded game's code (its package or a module inside it)."""
    module = getattr(fn, "__module__", None) or ""
    return any(module == p or module.startswith(p + ".") for p in _game_packages())


def refuse_write(what: str):
    """A host call that writes (`what`: `Session.edit_sheet`, `Transaction.append` ...) made by a game's own
    code while its function runs: GameFault naming the game's function; nothing is written. The
    host's own writes on the way (a crashed action completed before a sheet is read, a parse cached) are
    made by host code and go through."""
    caller = sys._getframe(2).f_globals.get("__name__", "")  # who called the writing function
    if _RUNNING and any(caller == p or caller.startswith(p + ".") for p in _game_packages()):
        raise GameFault(f"{game_caller(1)} calls {what}: a game never writes a sheet, a log or any file itself",
                        rule="K-4", fix="return every change in the Outcome (sheets=..., dice=..., state=...); "
                                        "the host writes it and logs it")


def failing_function(exc: BaseException, fallback=None) -> str:
    """`module.function` of the innermost game frame in `exc`'s traceback (where the game's code failed),
    else `fallback`'s name."""
    packages, found = _game_packages(), None
    tb = exc.__traceback__
    while tb is not None:
        module = tb.tb_frame.f_globals.get("__name__", "")
        if any(module == p or module.startswith(p + ".") for p in packages):
            found = _named(tb.tb_frame)
        tb = tb.tb_next
    return found or (function_name(fallback) if fallback is not None else "the game")


def hook_failed(exc: BaseException, role: str, fn=None) -> GameFault:
    """A game's hook that raised something other than narateer's own errors: one GameFault naming it."""
    return GameFault(f"{failing_function(exc, fn)} failed in the game's {role} ({type(exc).__name__}: {exc})",
                     rule="K-4", fix=f"fix the game's {role}; narateer's own errors (BadInput, Refused) are the "
                                     "only ones a game raises on purpose")


def warn_once(key, text: str):
    """One stderr line per command for a game's hook that failed where the host can go on (a `summary`)."""
    from .sink import warn_once as said_once

    said_once(key, f"narateer: warning: {text}\n")


SEALED = "sealed:"  # a sealed value's text in a shared file: sealed:ENTRY:COMMITMENT (store/sealed.py)
_HEX = frozenset("0123456789abcdef")
_ID_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyz-")  # an entry id (store/secrets.py)


def sealed_text(value) -> tuple[str, str] | None:
    """(entry id, commitment) of a sealed value's text, else None."""
    if type(value) is not str or not value.startswith(SEALED):
        return None
    entry, _, commit = value[len(SEALED):].partition(":")
    if not (1 <= len(entry) <= 40 and len(commit) == 64 and _HEX.issuperset(commit) and _ID_CHARS.issuperset(entry)):
        return None
    return entry, commit


class Withheld:
    """A sealed value on a machine that does not hold it (a player's clone): the shared file holds only its
    commitment (`sealed:ENTRY:COMMITMENT`), and the value is in the private folder of the machine that made
    the secret action. A game reads it where the value would be; passing it on (copying the state) is fine,
    and the host writes it back as it was. Anything that would read the value (comparing, counting, testing
    it, taking its length) refuses at once (exit 3): the Guide holds a secret that decides this. Shown, it
    reads "sealed"; as JSON, its commitment."""

    __slots__ = ("token", "entry")

    def __init__(self, token: str, entry: str):
        object.__setattr__(self, "token", token)
        object.__setattr__(self, "entry", entry)

    def __setattr__(self, key, value):
        raise AttributeError("a sealed value cannot be changed")

    def refused(self, *args, **kwargs):
        from .errors import Refused

        raise Refused(f"the Guide holds a secret that decides this (entry {self.entry}, sealed here)",
                      rule="P2-SEAL-3",
                      fix=f"ask the Guide to run it, or to publish it: `narateer unveil {self.entry}`")

    __lt__ = __le__ = __gt__ = __ge__ = refused
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = refused
    __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __pow__ = __rpow__ = __neg__ = __pos__ = __abs__ = refused
    __bool__ = __int__ = __float__ = __index__ = __len__ = __iter__ = __getitem__ = __contains__ = refused
    __round__ = __lshift__ = __rshift__ = __and__ = __or__ = __xor__ = __invert__ = refused

    def __eq__(self, other):
        if isinstance(other, Withheld):
            return self.token == other.token
        return self.refused()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.token)

    def __str__(self) -> str:
        return "sealed"

    def __format__(self, spec: str) -> str:
        return format("sealed", spec if not spec or spec[-1:] not in "dfegn%xXob" else "")

    def __repr__(self) -> str:
        return f"Withheld({self.token!r})"

    def to_json(self) -> str:
        return self.token

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self
