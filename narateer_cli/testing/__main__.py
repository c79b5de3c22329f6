"""`python -m narateer_cli.testing NAME [CHECK...]`: run the conformance kit over an installed game.

Exit 0 when every check passes (a check the game's script does not provide for is skipped and says so);
exit 1 with one line per failed check otherwise; exit 2 for bad arguments.
"""

from __future__ import annotations

import sys
import tempfile

from .checks import CHECKS, conform


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help") or any(a not in CHECKS for a in args[1:]):
        print(__doc__.strip() + "\n\nchecks: " + " ".join(CHECKS), file=sys.stderr)
        return 0 if args and args[0] in ("-h", "--help") else 2
    name = args[0]
    with tempfile.TemporaryDirectory(prefix="narateer-kit-") as workdir:
        verdicts = conform(name, workdir, args[1:] or None)
    return report(name, verdicts)


def report(name: str, verdicts: list) -> int:
    """Skipped checks, then failed ones, one line each (or how many passed); 1 when any failed."""
    failed = [v for v in verdicts if v.status == "fail"]
    for v in [v for v in verdicts if v.status == "skip"] + failed:
        print(v.line(name))
    if not failed:
        print(f"{name}: {sum(v.status == 'pass' for v in verdicts)} checks passed")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
