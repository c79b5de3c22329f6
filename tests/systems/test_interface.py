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
from tests.conftest import REPO, run

GOOD_HOOKS = """{
        "ruleset": __name__ + ".engine:ruleset",
        "parse_sheet": __name__ + ".engine:parse_sheet",
        "log_checker": __name__ + ".engine:log_checker",
    }"""
ENGINE = """
def ruleset(data, overrides, where, checked=False):
    return {}

def parse_sheet(char_id, doc, label, rules):
    return None

def log_checker(rules, continuity):
    return lambda entry: None

def chance(check):  # one parameter short: the host passes (check, rules)
    return None

SCRIPT = "roll a --secret"  # a text, not a script
"""


def plugin(root: Path, name: str, init: str, engine: str = ENGINE):
    """A distribution `name` registering `name = <package>:SYSTEM` in narateer.systems."""
    package = f"fake_{name}"
    (root / package).mkdir(parents=True)
    (root / package / "__init__.py").write_text(init.replace("NAME", name))
    (root / package / "engine.py").write_text(engine)
    info = root / f"{package}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[narateer.systems]\n{name} = {package}:SYSTEM\n")
    return package


def system_source(hooks: str = GOOD_HOOKS) -> str:
    return ("from narateer_cli.systems.base import System\n\n"
            f"SYSTEM = System(name='NAME', title='Fake', summary='A fake game.', package=__name__, verbs={{}},\n"
            f"                hooks={hooks})\n")


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
                     "narateer_cli.systems.base.System; fix fake_fakenot, or reinstall it\n")
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


@pytest.mark.parametrize("hooks, part", [
    ("{'ruleset': __name__ + '.engine:ruleset', 'parse_sheet': __name__ + '.engine:parse_sheet'}",
     "hooks['log_checker'] is missing (a required hook)"),
    (GOOD_HOOKS[:-1] + "    'chanse': __name__ + '.engine:chance'}",
     "hooks['chanse'] is not a hook (did you mean chance?)"),
    (GOOD_HOOKS[:-1] + "    'verify_log': __name__ + '.engine:log_checker'}", "hooks['verify_log'] is not a hook"),
    (GOOD_HOOKS[:-1] + "    'beats': __name__ + '.engine:log_checker'}", "hooks['beats'] is not a hook"),
    (GOOD_HOOKS[:-1] + "    'chance': 42}", "hooks['chance'] must be a 'module:attr' text, not 42"),
])
def test_S_SYS_9_hook_names_are_checked_when_the_system_loads(plugins, tmp_path, hooks, part):
    plugin(plugins, "fakehooks", system_source(hooks))
    r = init_with(tmp_path, "fakehooks")
    assert r.code == 2
    assert r.err.startswith(f"narateer: the rule system fakehooks (package fake_fakehooks) is broken: {part}")


def test_S_SYS_9_a_system_under_another_name_is_refused(plugins, tmp_path):
    plugin(plugins, "fakename", system_source().replace("name='NAME'", "name='other'"))
    r = init_with(tmp_path, "fakename")
    assert r.code == 2 and "name must be 'fakename', the name it is installed under" in r.err


def test_S_SYS_9_a_hook_is_checked_when_first_imported_not_at_load(plugins):
    hooks = GOOD_HOOKS[:-1] + """    'chance': __name__ + '.engine:chance',
        'conformance': __name__ + '.engine:SCRIPT',
        'summary': __name__ + '.missing:summary',
        'face_names': __name__ + '.engine:nothing_here'}"""
    plugin(plugins, "fakesig", system_source(hooks))
    system = systems.load_system("fakesig")  # names only: no hook module imported yet
    assert "fake_fakesig.engine" not in sys.modules
    assert system.hook("ruleset") is not None and system.hook("log_checker") is not None
    cases = {"chance": "fake_fakesig.engine:chance must take (check, rules)",
             "conformance": "fake_fakesig.engine:SCRIPT must be a mapping of script keys",
             "summary": "names fake_fakesig.missing:summary, which does not import (ModuleNotFoundError",
             "face_names": "names fake_fakesig.engine:nothing_here, which does not import (AttributeError"}
    for name, problem in cases.items():
        with pytest.raises(BadInput) as exc:
            system.hook(name)
        assert exc.value.exit_code == 2
        assert exc.value.message.startswith(f"the rule system fakesig (package fake_fakesig) is broken: "
                                            f"hooks[{name!r}] {problem}"), exc.value.message


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
    for hook in system.hooks:
        assert system.hook(hook) is not None, hook
        assert interface.check_target(hook, system.hook(hook)) is None, hook
    assert set(interface.required()) <= set(system.hooks)


def test_S_SYS_9_the_interface_names_what_the_host_calls_and_nothing_else():
    """Every hook is called by the host (none listed and never called), and every name the host asks
    for is in the interface."""
    host = "\n".join(p.read_text() for p in (REPO / "narateer_cli").rglob("*.py")
                     if "systems" not in p.relative_to(REPO / "narateer_cli").parts[:1])
    asked = set(re.findall(r"system\.(?:hook|get|require)\(\"([a-z_]+)\"\)", host))
    asked |= {"log_checker"} if "system.log_checker(" in host else set()
    asked |= {"parse_sheet"} if ".parse_sheet(" in host else set()
    asked |= {"ruleset"} if ".ruleset(" in host else set()
    asked |= {"render"} if ".formatter(" in host else set()
    asked |= {"sheet_schema"} if ".check_sheet(" in host or "hook(\"sheet_schema\")" in host else set()
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
