"""narateer_cli/startup.py: click and tabulate imported without the standard modules a command never uses
(`inspect`, `dataclasses`, `html`), through stand-ins that answer as the real modules do (SPEC Part 9,
speed). Each import is checked in a fresh interpreter, as a command starts."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

from narateer_cli import startup


def fresh(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


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
