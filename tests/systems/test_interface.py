"""S-SYS-9: one typed system interface, held to when a system loads and when a hook is first imported.

A broken plug-in is exit 2 naming its package and the part, never an internal error. Each fake plug-in
here is installed as the coin toy is: a package beside a dist-info whose entry_points.txt registers it.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

from narateer_cli import systems
from narateer_cli.errors import BadInput
from narateer_cli.systems import interface
from narateer_cli.systems.base import HOST_OWNED
from tests.conftest import REPO, run

GAME = """
from narateer_cli.kit import Game


class Fake(Game):
    def ruleset(self, data, overrides, where, checked=False):
        return {}

    def parse_sheet(self, char_id, doc, label, rules):
        return None

    def log_checker(self, rules, continuity):
        return lambda entry: None
EXTRA

GAME = Fake()
"""


def game_source(extra: str = "") -> str:
    """A game module whose class gives the three required hooks, and `extra` (methods, indented)."""
    return GAME.replace("EXTRA", extra)


def plugin(root: Path, name: str, init: str, game: str | None = None):
    """A distribution `name` registering `name = <package>:SYSTEM` in narateer.systems."""
    package = f"fake_{name}"
    (root / package).mkdir(parents=True)
    (root / package / "__init__.py").write_text(init.replace("NAME", name))
    (root / package / "game.py").write_text(game_source() if game is None else game)
    info = root / f"{package}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[narateer.systems]\n{name} = {package}:SYSTEM\n")
    return package


def system_source() -> str:
    return ("from narateer_cli.kit import System\n\n"
            "SYSTEM = System(name='NAME', title='Fake', summary='A fake game.', package=__name__, verbs={},\n"
            "                game=__name__ + '.game')\n")


@pytest.fixture
def plugins(tmp_path, monkeypatch):
    """A folder on sys.path for fake distributions; what they loaded is forgotten afterwards."""
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    importlib.invalidate_caches()
    yield root
    for name in [n for n in systems._LOADED if n.startswith("fake")]:
        del systems._LOADED[name]
    for name in [m for m in sys.modules if m.startswith("fake_")]:
        del sys.modules[name]


def init_with(tmp_path, name: str):
    return run(None, "init", str(tmp_path / "camp"), "--system", name)


def test_S_SYS_9_a_SYSTEM_that_is_not_a_system_is_exit_2_naming_the_package(plugins, tmp_path):
    plugin(plugins, "fakenot", "SYSTEM = {'name': 'fakenot'}\n")
    r = init_with(tmp_path, "fakenot")
    assert r.code == 2 and "internal error" not in r.err
    assert r.err == ("narateer: the rule system fakenot (package fake_fakenot) is broken: SYSTEM is a dict, not a "
                     "narateer_cli.kit.System; fix fake_fakenot, or reinstall it\n")
    assert not (tmp_path / "camp").exists()


def test_S_SYS_9_a_package_that_fails_to_import_is_exit_2_naming_the_package(plugins, tmp_path):
    plugin(plugins, "fakeboom", "import fake_no_such_module\n")
    r = init_with(tmp_path, "fakeboom")
    assert r.code == 2 and "internal error" not in r.err and "Traceback" not in r.err
    assert r.err.startswith("narateer: the rule system fakeboom (package fake_fakeboom) is broken: the package does "
                            "not import (ModuleNotFoundError: No module named 'fake_no_such_module'); ")
    plugin(plugins, "fakeraise", "raise RuntimeError('half written')\n")
    r = init_with(tmp_path, "fakeraise")
    assert r.code == 2 and "(package fake_fakeraise)" in r.err and "RuntimeError: half written" in r.err


@pytest.mark.parametrize("extra, part", [
    ("    def chanse(self, check, rules):\n        return None\n",
     "GAME.chanse is not a hook (name a helper with a leading underscore); did you mean chance?"),
    ("    def verify_log(self, entries):\n        return None\n", "GAME.verify_log is not a hook"),
    ("    def chance(self, check):\n        return None\n", "GAME.chance must take (check, rules)"),
    ("    def summary(self, command, actor):\n        return None\n",
     "GAME.summary must take (command, actor, declaration, result)"),
])
def test_S_SYS_9_a_game_class_is_checked_when_its_module_loads(plugins, tmp_path, extra, part):
    plugin(plugins, "fakehooks", system_source(), game_source(extra))
    r = init_with(tmp_path, "fakehooks")
    assert r.code == 2
    assert r.err.startswith(f"narateer: the rule system fakehooks (package fake_fakehooks) is broken: {part}"), r.err
    assert not (tmp_path / "camp").exists()


@pytest.mark.parametrize("verbs, extra, part", [
    ("{'heal': (HOST_COMMAND, 'Heal.')}", "", "GAME.heal is needed by the host's heal command"),
    ("{'harm': (HOST_COMMAND, 'Harm.')}", "",
     "verbs['harm'] names the host's command, and the host owns none for harm: only condition, heal, turn, new, encounter, dice"),
])
def test_S_SYS_9_a_verb_left_to_the_host_needs_the_game_method_it_calls(plugins, tmp_path, verbs, extra, part):
    init = system_source().replace("import System", "import HOST_COMMAND, System").replace("verbs={}",
                                                                                           f"verbs={verbs}")
    plugin(plugins, "fakeshared", init, game_source(extra))
    r = init_with(tmp_path, "fakeshared")
    assert r.code == 2, r.err
    assert r.err.startswith(f"narateer: the rule system fakeshared (package fake_fakeshared) is broken: {part}"), r.err
    assert not (tmp_path / "camp").exists()


def test_S_SYS_9_a_game_missing_a_required_hook_is_named(plugins, tmp_path):
    plugin(plugins, "fakemissing", system_source(), game_source().replace("def log_checker", "def _log_checker"))
    r = init_with(tmp_path, "fakemissing")
    assert r.code == 2 and "internal error" not in r.err
    assert "does not import (TypeError: Can't instantiate abstract class Fake" in r.err and "log_checker" in r.err


def test_S_SYS_9_GAME_that_is_no_game_is_named(plugins, tmp_path):
    plugin(plugins, "fakeobj", system_source(), "GAME = object()\n")
    r = init_with(tmp_path, "fakeobj")
    assert r.code == 2
    assert "broken: GAME is a object, not a subclass of narateer_cli.kit.Game" in r.err


def test_S_SYS_9_a_system_under_another_name_is_refused(plugins, tmp_path):
    plugin(plugins, "fakename", system_source().replace("name='NAME'", "name='other'"))
    r = init_with(tmp_path, "fakename")
    assert r.code == 2 and "name must be 'fakename', the name it is installed under" in r.err


def test_S_SYS_9_a_hook_imports_its_module_when_first_asked_for():
    """Loading a game reads its class; each hook's module is imported by its first call (start-up time)."""
    import subprocess

    code = ("import sys\nfrom narateer_cli.systems import load_system\ns = load_system('narateer')\n"
            "game = s.game\nprint('narateer_cli.systems.narateer.render' in sys.modules)\n"
            "print(s.hook('face_names')(2), 'narateer_cli.systems.narateer.render' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["False", "Crit", "True"], out.stderr


def test_S_SYS_9_an_optional_hook_left_out_has_the_documented_default(plugins):
    plugin(plugins, "fakeplain", system_source())
    system = systems.load_system("fakeplain")
    assert system.hook("face_names") is None and system.get("face_names")(3) == "3"
    assert system.get("new_state")("e1", ("a", "b"), None) == {"id": "e1", "participants": ["a", "b"]}
    assert system.get("load_state")({"id": "e1"}, "x") == {"id": "e1"}
    assert system.get("conformance") is None


def test_S_SYS_9_signatures_fit_as_the_host_calls_them():
    def two(a, b):
        pass

    def flexible(a, *rest, **words):
        pass

    def keyword_only(data, overrides, where, *, checked=False):
        pass

    assert interface.check_target("chance", two) is None
    assert interface.check_target("chance", flexible) is None
    assert interface.check_target("ruleset", keyword_only) is None
    assert interface.check_target("ruleset", lambda data, overrides, where: None) == \
        "must take (data, overrides, where, checked=...)"  # the host passes checked= by keyword
    assert interface.check_target("checks", lambda result: ()) is None  # may leave out the declaration
    assert interface.check_target("checks", lambda result, declaration: ()) is None
    assert interface.check_target("checks", lambda: ()) == "must take (result)"
    assert interface.check_target("log_checker", len) == "must take (rules, continuity)"  # a builtin: inspect
    assert interface.check_target("view", "text") == "must be a function, not str"


@pytest.mark.parametrize("name", sorted(systems.BUILTIN))
def test_S_SYS_9_every_hook_of_a_built_in_system_imports_and_fits(name):
    """The registry trusts the built-in systems (start-up time); here they pass what a plug-in must."""
    from narateer_cli.systems.base import validate

    system = systems.load_system(name)
    assert validate(system, name, system.package) is system
    assert interface.check_game(system.game) == []
    given = [hook for hook in interface.names() if system.gives(hook)]
    assert set(interface.required()) <= set(given)
    for hook in given:
        assert system.hook(hook) is not None, hook  # each method's module imports, each value is there


def test_S_SYS_9_the_interface_names_what_the_host_calls_and_nothing_else():
    """Every hook is called by the host (none listed and never called), and every name the host asks
    for is in the interface."""
    host = "\n".join(p.read_text() for p in (REPO / "narateer_cli").rglob("*.py")
                     if "systems" not in p.relative_to(REPO / "narateer_cli").parts[:1])
    asked = set(re.findall(r"system\.(?:hook|get|require)\(\"([a-z_]+)\"\)", host))
    asked |= {"log_checker"} if "system.log_checker(" in host else set()
    asked |= {"parse_sheet"} if ".parse_sheet(" in host else set()
    asked |= {"ruleset"} if ".ruleset(" in host else set()
    asked |= {"formatters"} if ".formatter(" in host else set()
    asked |= {"results"} if ".logged_result(" in host else set()
    asked |= {"sheet_schema"} if ".check_sheet(" in host or "hook(\"sheet_schema\")" in host else set()
    shared = (REPO / "narateer_cli" / "commands" / "shared.py").read_text()
    if "system.require(method_name)" in shared:  # the host's command of each verb calls the game's methods
        asked |= {name for names in HOST_OWNED.values() for name in names}
    assert asked == set(interface.names())


def test_S_SYS_9_the_docs_table_of_hooks_is_the_interface():
    text = (REPO / "docs" / "systems.md").read_text()
    rows = {}
    for table in re.findall(r"^\| hook \|.*?\n(?:\|.*\n)+", text, flags=re.M):
        for line in table.splitlines()[2:]:
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0].strip("`")] = cells
    assert set(rows) == set(interface.names())
    for name, cells in rows.items():
        assert (cells[1] == "required") == (name in interface.required()), name
