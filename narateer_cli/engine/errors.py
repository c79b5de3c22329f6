"""Kept so older imports work; the error family lives in `narateer_cli.errors`."""

from ..errors import BadInput, NarateerError, Refused  # noqa: F401
