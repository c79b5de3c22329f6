"""d20 action cards: the third rule system, whose actions are cards kept as data.

The engine modules (`act`, `gates`, `effects`, `timeflow`, `odds`) are pure
functions over frozen records; `render` formats their results; `cards` and
`sheet` parse the YAML mappings a store hands over. Nothing is imported
here beyond what the name needs, so listing systems stays cheap.
"""

from __future__ import annotations

from pathlib import Path

NAME = "d20-cards"
HERE = Path(__file__).resolve().parent
EXAMPLE_DIR = HERE / "example"


def rules_data() -> dict:
    """The shipped ruleset (`rules.yaml`) as plain data."""
    from ruamel.yaml import YAML

    return YAML(typ="safe").load((HERE / "rules.yaml").read_text(encoding="utf-8"))


def ruleset(overrides=None, where: str = "narateer.yaml"):
    from .ruleset import build_ruleset

    return build_ruleset(rules_data(), overrides, where)
