"""The conformance kit over Pool: one test per check, played through the command line."""

from narateer_cli.testing import test_conformance  # noqa: F401  one test per check

NARATEER_SYSTEMS = ["pool"]
