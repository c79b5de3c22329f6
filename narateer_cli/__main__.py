"""`python -m narateer_cli` runs the command line."""

import sys

from . import run

sys.exit(run())
