"""The registry of rule systems: the game a campaign names, the built-in games and plug-ins, and
the verbs every game shares.

Built-in systems are known by name here and imported only when used. A name
that is not built in is looked up in the entry point group `narateer.systems`
(and only then, so start-up never pays for importlib.metadata). The host's
command line asks this module which system a campaign plays and which
command a verb is.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pathlib is imported only once a campaign is found (`narateer --help` outside one never)
    from pathlib import Path

DEFAULT = "narateer"
GROUP = "narateer.systems"
CONFIG = "narateer.yaml"

BUILTIN = {
    "narateer": "narateer_cli.systems.narateer",
    "open-adventure": "narateer_cli.systems.open_adventure",
    "d20-cards": "narateer_cli.systems.d20_cards",
}

# The shared verbs: every system has them, each through its system (short help for `--help`).
SHARED = {
    "init": "Create a campaign (--system NAME picks the game; --example adds samples).",
    "new": "Create a character file.",
    "show": "Show a character sheet.",
    "check": "Validate the whole campaign; list every problem.",
    "roll": "Make one check.",
    "dice": "Roll a bare pool of dice.",
    "odds": "Exact chance and distribution.",
    "encounter": "Create, show and read encounters.",
    "turn": "Start and end activations.",
    "resolve": "Resolve a declared action.",
    "condition": "Add or remove conditions.",
    "undo": "Revert the last logged action.",
    "verify": "Re-check an encounter log.",
    "stats": "Dice statistics from the logs.",
    "report": "A summary of the campaign.",
    "shell": "An interactive prompt.",
    "serve": "The players' view in a browser.",
    "completion": "Shell completion script.",
    "git-setup": "Register the merge driver in this clone.",
    "systems": "List the installed rule systems.",
}

# Host verbs outside the shared list (help text for `narateer --help`).
HOST_ONLY = {"merge-driver": "git's merge driver for campaign YAML.",
             "unveil": "Publish secret rolls so anyone can check them.",
             "reconcile": "After a merge: set each sheet to what its log adds up to."}

# Shared verbs the host implements for every system: verb -> module (defines `<verb>_cmd`).
# A system that lists one of these in its own `verbs` replaces the host's version.
HOST_VERBS = {
    "init": "narateer_cli.commands.core",
    "check": "narateer_cli.commands.core",
    "systems": "narateer_cli.commands.core",
    "encounter": "narateer_cli.commands.encounters",
    "undo": "narateer_cli.commands.encounters",
    "verify": "narateer_cli.commands.encounters",
    "unveil": "narateer_cli.commands.secrecy",
    "stats": "narateer_cli.commands.secrecy",
    "git-setup": "narateer_cli.commands.gitcmds",
    "completion": "narateer_cli.commands.table",
    "shell": "narateer_cli.commands.table",
    "report": "narateer_cli.commands.report",
    "serve": "narateer_cli.commands.serve",
    "merge-driver": "narateer_cli.commands.gitcmds",  # run by git, not listed in help
    "reconcile": "narateer_cli.commands.gitcmds",
}

_LOADED: dict = {}


def _entry_points():
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=GROUP)}


def installed() -> list[str]:
    """Every system this installation can load: the built-in ones present, then entry points."""
    names = [name for name, module in BUILTIN.items() if present(module)]
    names += sorted(name for name in _entry_points() if name not in BUILTIN)
    return names


def present(module: str) -> bool:
    """Whether a built-in system's package is in this installation (imports it: SYSTEM is cheap)."""
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and (module == exc.name or module.startswith(exc.name + ".")):
            return False
        raise
    return True


def load_system(name: str | None):
    """The `SYSTEM` of a system by name, checked against the interface; unknown -> BadInput
    listing the installed ones; a plug-in that does not load or does not fit -> BadInput naming
    its package and the part."""
    name = name or DEFAULT
    if name in _LOADED:
        return _LOADED[name]
    module = BUILTIN.get(name)
    system = None
    if module is not None and present(module):
        system = importlib.import_module(module).SYSTEM
    elif module is None:
        ep = _entry_points().get(name)
        if ep is not None:
            module = ep.value.partition(":")[0].strip()
            system = _load_entry_point(name, ep, module)
    if system is None:
        from ..errors import BadInput
        from ..suggest import closest

        names = installed()
        near = closest(name, names)
        raise BadInput(f"unknown rule system {name!r}" + (f" (did you mean {' or '.join(near)}?)" if near else ""),
                       rule="S-SYS-1", fix="installed: " + ", ".join(names))
    if name not in BUILTIN:  # a plug-in: held to the interface now; the built-ins by the tests
        from .base import validate

        assert module is not None  # a plug-in's package is its entry point's module
        system = validate(system, name, module)
    _LOADED[name] = system
    return system


def _load_entry_point(name: str, ep, module: str):
    """An entry point's SYSTEM (the object it names, or that module's SYSTEM); a module that fails to
    import is BadInput naming its package, never a traceback. What the game's modules import is checked
    from its first line on (`readonly.guard_imports`)."""
    from ..errors import NarateerError
    from ..readonly import guard_imports

    guard_imports(module)
    try:
        loaded = ep.load()
    except NarateerError:
        raise
    except Exception as exc:
        from .base import broken

        raise broken(name, module, "the package", f"does not import ({type(exc).__name__}: {exc})") from None
    return loaded.SYSTEM if isinstance(loaded, type(importlib)) and hasattr(loaded, "SYSTEM") else loaded


def loaded_systems() -> list:
    """Every installed system's SYSTEM (for help outside a campaign and for pointers); unloadable ones skipped."""
    from ..errors import NarateerError

    out = []
    for name in installed():
        try:
            out.append(load_system(name))
        except (NarateerError, ImportError, AttributeError):
            continue
    return out


# -- which campaign, which system, cheaply (no YAML parser: this runs for --help) --------------



def find_campaign(given: str | None) -> Path | None:
    """The campaign folder (--campaign DIR, NARATEER_CAMPAIGN, or the nearest narateer.yaml upwards), or None
    (no error: help works anywhere)."""
    folder = campaign_folder(given)
    if folder is None:
        return None
    from pathlib import Path

    return Path(folder)


def campaign_folder(given: str | None) -> str | None:
    """`find_campaign` as a path string, found with os.path alone (start-up time: no pathlib)."""
    given = given or os.environ.get("NARATEER_CAMPAIGN")
    if given:
        return given if os.path.isfile(os.path.join(given, CONFIG)) else None
    folder = os.getcwd()
    while True:
        if os.path.isfile(os.path.join(folder, CONFIG)):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def system_name(root: Path | str | None) -> str | None:
    """The `system:` a campaign's narateer.yaml names (DEFAULT when absent); None outside a campaign."""
    if root is None:
        return None
    import stat

    try:  # the campaign is untrusted: never block on a FIFO or read a device; the store reports such a file properly
        fd = os.open(os.path.join(root, CONFIG), os.O_RDONLY | os.O_NONBLOCK)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return DEFAULT
            text = os.read(fd, 1 << 20).decode("utf-8", "replace")
        finally:
            os.close(fd)
    except OSError:
        return DEFAULT
    for line in text.splitlines():
        if line.startswith("system") and line[6:].lstrip(" \t").startswith(":"):
            return _scalar(line.split(":", 1)[1]) or DEFAULT
    return DEFAULT


def _scalar(text: str) -> str:
    """A one-line YAML scalar: quoted, or plain up to a comment."""
    text = text.strip()
    if text[:1] in ("'", '"') and text[0] in text[1:]:
        return text[1:text.index(text[0], 1)].strip()
    return text.split(" #", 1)[0].split("\t#", 1)[0].strip()


def owner_of(verb: str, systems) -> str | None:
    """The first system (of those given) whose own verb this is."""
    for system in systems:
        if verb in system.verbs:
            return system.name
    return None
