"""Forge on the path for its own tests, installed or not.

Installed (`pip install -e examples/narateer-forge`), the game is found as any plug-in is. narateer's own
suite runs these tests without installing it: the package's folder goes on the path, and for as long as a
test module runs a `narateer.systems` entry point is registered in a temporary folder (a dist-info), in
this process and for the `narateer` commands its tests start.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[1]

if importlib.util.find_spec("narateer_forge") is None:  # the test modules import the package as they load
    sys.path.insert(0, str(HERE))


@pytest.fixture(scope="module", autouse=True)
def forge_registered(tmp_path_factory):
    from importlib.metadata import entry_points

    if any(ep.name == "forge" for ep in entry_points(group="narateer.systems")):
        yield
        return
    folder = tmp_path_factory.mktemp("forge-dist")
    info = folder / "narateer_forge-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: narateer-forge\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text("[narateer.systems]\nforge = narateer_forge:SYSTEM\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(folder))
        paths = (str(HERE), str(folder), os.environ.get("PYTHONPATH"))
        patch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
        yield
    from narateer_cli import systems

    systems._LOADED.pop("forge", None)
    importlib.invalidate_caches()
