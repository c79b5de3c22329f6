"""Shared helpers for Open Adventure engine tests: the shipped ruleset and the example cast."""

from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

from ruamel.yaml import YAML

from narateer_cli.systems.open_adventure import ruleset, sheet
from narateer_cli.systems.open_adventure.check import Declaration, resolve
from narateer_cli.systems.open_adventure.dice import DiceSource, parse_faces

PKG = Path(__file__).resolve().parents[3] / "narateer_cli" / "systems" / "open_adventure"


@lru_cache(maxsize=1)
def default_rules_data() -> dict:
    return YAML(typ="safe").load((PKG / "rules.yaml").read_text())


def rules(**overrides):
    return ruleset.build(default_rules_data(), overrides, "test")


def cast(cid: str, r=None):
    doc = YAML(typ="safe").load((PKG / "example" / "characters" / f"{cid}.yaml").read_text())
    return sheet.parse_sheet(cid, doc, f"characters/{cid}.yaml", r or rules())


def physical(faces=None, other=None):
    return DiceSource(physical={"faces": (parse_faces(faces), "--faces"),
                                "other": (parse_faces(other, "--other-faces"), "--other-faces")})


def check(actor: str, use: str, faces=None, r=None, target=None, other=None, other_faces=None, seed=None, **decl):
    r = r or rules()
    source = DiceSource(rng=random.Random(seed)) if seed is not None else physical(faces, other_faces)
    return resolve(cast(actor, r), Declaration(use=use, **decl), r, source,
                   target=cast(target, r) if target else None, other=cast(other, r) if other else None)
