"""narateer_cli/startup.py: click and tabulate imported without the standard modules a command never uses
(`inspect`, `dataclasses`, `html`), through stand-ins that answer as the real modules do (SPEC Part 9,
speed). Each import is checked in a fresh interpreter, as a command starts."""

from __future__ import annotations

import dataclasses
import inspect
import subprocess
import sys

from hypothesis import given, strategies as st

from narateer_cli import startup


def fresh(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_a_command_runs_without_inspect_dataclasses_or_html(tmp_path):
    code = ("import sys\nsys.argv = ['narateer', '--campaign', %r, 'init', %r, '--example']\n"
            "from narateer_cli import run\ntry:\n    run()\nexcept SystemExit:\n    pass\n"
            "sys.argv = ['narateer', '--campaign', %r, 'show', 'selka']\n"
            "try:\n    run()\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('inspect', 'dataclasses', 'html', 'ast') if m in sys.modules))")
    camp = str(tmp_path / "camp")
    assert fresh(code % (camp, camp, camp)).splitlines()[-1] == "[]"


def test_after_the_import_the_real_modules_are_imported_as_usual():
    code = ("from narateer_cli.startup import import_click, import_tabulate\nimport_click(); import_tabulate()\n"
            "import sys, inspect, dataclasses, html\n"
            "print(type(inspect).__name__, type(dataclasses).__name__, hasattr(inspect, 'signature'),"
            " 'startup' in type(sys.modules['click.core'].inspect).__module__)")
    assert fresh(code) == "module module True True"


def test_the_stand_ins_forward_everything_else_to_the_real_module():
    code = ("from narateer_cli.startup import import_click\nclick = import_click()\nimport sys\n"
            "stand_in = sys.modules['click.core'].inspect\nimport inspect\n"
            "print(stand_in.signature is inspect.signature, stand_in.isfunction(print))")
    assert fresh(code) == "True False"


@given(st.text(alphabet=st.sampled_from(" \t\nab\u00e9\r\f"), max_size=30))
def test_cleandoc_answers_as_inspect_does(text):
    assert startup._cleandoc(text) == inspect.cleandoc(text)


@dataclasses.dataclass
class _Row:
    a: int


def test_is_dataclass_answers_as_dataclasses_does():
    for value in (_Row, _Row(1), 3, int, "x", [1], None, dataclasses.field):
        assert startup._is_dataclass(value) == dataclasses.is_dataclass(value), value


def test_tabulate_with_its_stand_ins_prints_html_and_dataclass_rows():
    code = ("from narateer_cli.startup import import_tabulate\nt = import_tabulate()\n"
            "import sys\nprint(sorted(m for m in ('dataclasses', 'html', 'inspect') if m in sys.modules))\n"
            "print(t.tabulate([[1, '<a>']], headers=['x', 'y'], tablefmt='html').count('&lt;a&gt;'))\n"
            "import dataclasses\n@dataclasses.dataclass\nclass P:\n    a: int\n"
            "print(t.tabulate([P(7)], headers='keys').split())")
    assert fresh(code).splitlines() == ["[]", "1", "['a', '---', '7']"]
