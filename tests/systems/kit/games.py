"""Plug-in games on the path for the kit's tests, as installed distributions would be (S-SYS-2).

The example game (examples/narateer-moves) is tested by path, as the coin toy is: a dist-info made in a
temporary folder registers its entry point, so the real `narateer.systems` lookup finds it while the
developer's environment (and `narateer systems` in every other test) stays as it is.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from narateer_cli import systems

REPO = Path(__file__).resolve().parents[3]
TOY = REPO / "tests" / "systems" / "toy"
MOVES = REPO / "examples" / "narateer-moves"
POOL = REPO / "examples" / "narateer-pool"  # written from docs/write-a-game.md alone
FORGE = REPO / "examples" / "narateer-forge"  # so was this one


def register(folder: Path, name: str, package: str):
    """A dist-info in `folder` whose entry point `name` is `package:SYSTEM`."""
    info = folder / f"{package}-0.1.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[narateer.systems]\n{name} = {package}:SYSTEM\n")


def forget(names, packages):
    for name in names:
        systems._LOADED.pop(name, None)
    for module in [m for m in sys.modules if m.split(".")[0] in packages]:
        del sys.modules[module]
    importlib.invalidate_caches()


def variant(folder: Path, name: str, edits: dict) -> str:
    """A copy of the example game as package `<name>_game` registered as `name`, each file's text edited by
    `edits` ({file: [(old, new), ...]}); every `old` must be there."""
    package = name.replace("-", "_") + "_game"
    source = MOVES / "narateer_moves"
    target = folder / package
    for path in source.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            text = path.read_text()
            rel = str(path.relative_to(source))
            for old, new in edits.get(rel, ()):
                assert old in text, (rel, old)
                text = text.replace(old, new)
            if rel == "__init__.py":
                text = text.replace('name="moves"', f'name="{name}"')
            out = target / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text)
    register(folder, name, package)
    return package
