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
    """The `narateer` console script (and `python -m narateer_cli`): `cli.main`, with the cyclic garbage
    collector paused while click and the command's modules load. `cli.main` resumes it once the command
    is known, with everything loaded so far frozen (never scanned again), so a long-running command
    (serve, shell) collects as usual.

    Kept because it saves more than the 5 ms a start-up measure must save to stay.
    Start-up makes tens of thousands of objects that live as long as the process, and Python 3.11
    scans them again and again while they are made and while the command parses YAML. Measured
    whole-process, regular install, bytecode cached, 41 interleaved runs: every everyday command of
    every game spent 0.16-0.31x the import floor's CPU time more without it (roll 1.29x -> 1.06x,
    OA roll 1.38x -> 1.07x, d20 act 1.34x -> 1.05x), i.e. 7 ms or more at the floor's 42-56 ms."""
    import gc

    gc.disable()
    from . import cli

    cli.GC_PAUSED = True
    return cli.main()
