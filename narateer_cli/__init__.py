"""narateer: a command-line toolkit for the Narateer tabletop role-playing game."""

import sys

__version__ = "0.1.0"


def _interrupted(kind, value, tb, _default=sys.excepthook):
    """Ctrl-C outside cli.main's handler (while click is imported, or while exiting): one line, no traceback."""
    if not issubclass(kind, KeyboardInterrupt):
        return _default(kind, value, tb)
    saved = getattr(sys.modules.get("narateer_cli.store.txn"), "COMMITS", 0)
    sys.stderr.write("narateer: interrupted after the action was saved whole\n" if saved
                     else "narateer: interrupted; nothing was written\n")


def _unraisable(args, _default=sys.unraisablehook):
    """Ctrl-C landing in a callback Python cannot raise from (an import lock's, say) is lost: no traceback."""
    if not isinstance(args.exc_value, KeyboardInterrupt):
        _default(args)


sys.excepthook = _interrupted
sys.unraisablehook = _unraisable


def run():
    """The `narateer` console script (and `python -m narateer_cli`): `cli.main`."""
    from . import cli

    return cli.main()
