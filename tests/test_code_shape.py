"""The shape every function in narateer_cli keeps (its size limits), checked on each run.

- a function is at most 60 lines long, its docstring not counted;
- a click command's body (a function decorated with `@command`, `@click.command`, `@click.group` or
  `@<group>.command`) is at most 25 lines, its docstring not counted;
- no function, method or class has more than 15 branches: a cyclomatic complexity over 16 (well inside
  radon's grade C, which ends at 20), computed here the way `radon cc` computes it, so radon is no dependency.

Lengths are counted from the first statement after the docstring to the function's last line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "narateer_cli"

MAX_LINES = 60
MAX_COMMAND_LINES = 25
MAX_COMPLEXITY = 16  # 15 branches + 1

# Functions allowed to break the shape while they are being made smaller: none today, and nothing may be
# added. A listed name must still offend (the test fails when one no longer does, so the set cannot go stale).
KNOWN_OFFENDERS: set[str] = set()


# -- cyclomatic complexity, by radon's rules (radon/visitors.py, ComplexityVisitor) -------------

DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _points(node: ast.AST) -> int:
    """Decision points in `node` and below; a nested def or class counts on its own, not here."""
    if isinstance(node, DEFS + (ast.ClassDef,)):
        return 0
    if isinstance(node, ast.Assert):  # radon counts an assert and does not look inside it
        return 1
    if isinstance(node, ast.Try):
        n = len(node.handlers) + bool(node.orelse)
    elif isinstance(node, ast.BoolOp):
        n = len(node.values) - 1
    elif isinstance(node, (ast.If, ast.IfExp)):
        n = 1
    elif isinstance(node, ast.Match):
        wildcard = any(getattr(case.pattern, "pattern", False) is None for case in node.cases)
        n = max(0, len(node.cases) - wildcard)
    elif isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
        n = 1 + bool(node.orelse)
    elif isinstance(node, ast.comprehension):
        n = 1 + len(node.ifs)
    else:
        n = 0
    return n + sum(_points(child) for child in ast.iter_child_nodes(node))


def _inner_defs(node: ast.AST):
    """The defs directly inside a statement (a method under an `if` in a class body)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, DEFS):
            yield child
        elif not isinstance(child, ast.ClassDef):
            yield from _inner_defs(child)


def complexity(node: ast.AST) -> int:
    """radon's cc of a function (1 + its body's decision points) or a class (its methods' average + 1)."""
    if isinstance(node, DEFS):
        return 1 + sum(_points(child) for child in node.body)
    real, methods = 1, 0
    for child in node.body:
        defs = [child] if isinstance(child, DEFS) else list(_inner_defs(child))
        real += _points(child) + sum(complexity(d) for d in defs)
        methods += len(defs)
    return int(real / methods) + (methods > 1) if methods else real


# -- lengths ----------------------------------------------------------------------------------

def body_lines(node: ast.AST) -> int:
    """Lines from the first statement after the docstring to the last line of the function."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return node.end_lineno - body[0].lineno + 1 if body else 0


def _decorator_name(decorator: ast.AST) -> str:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    if isinstance(target, ast.Attribute):
        return target.attr
    return target.id if isinstance(target, ast.Name) else ""


def is_command(node: ast.AST) -> bool:
    return any("command" in name or "group" in name for name in map(_decorator_name, node.decorator_list))


# -- the walk ---------------------------------------------------------------------------------

def _blocks(tree: ast.AST, prefix: str = ""):
    """(qualified name, node) of every function, method and class, nested ones too."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, DEFS + (ast.ClassDef,)):
            name = prefix + node.name
            yield name, node
            yield from _blocks(node, name + ".")
        else:
            yield from _blocks(node, prefix)


def offences(source: str, path: str) -> dict[str, list[str]]:
    """`path:qualname` -> what is wrong with it, each problem as `path:line: name ...` text."""
    found: dict[str, list[str]] = {}
    for name, node in _blocks(ast.parse(source, path)):
        where = f"{path}:{node.lineno}: {name}"
        problems = []
        cc = complexity(node)
        if cc > MAX_COMPLEXITY:
            problems.append(f"{where} has cyclomatic complexity {cc} (over {MAX_COMPLEXITY}: more than 15 branches)")
        if isinstance(node, DEFS):
            lines = body_lines(node)
            if lines > MAX_LINES:
                problems.append(f"{where} is {lines} lines long (over {MAX_LINES})")
            if is_command(node) and lines > MAX_COMMAND_LINES:
                problems.append(f"{where} is a command whose body is {lines} lines (over {MAX_COMMAND_LINES})")
        if problems:
            found.setdefault(f"{path}:{name}", []).extend(problems)
    return found


def package_offences() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for file in sorted(PACKAGE.rglob("*.py")):
        path = file.relative_to(ROOT).as_posix()
        found.update(offences(file.read_text(encoding="utf-8"), path))
    return found


# -- the package --------------------------------------------------------------------------------

def new_problems(found: dict[str, list[str]], known: set[str]) -> list[str]:
    return [problem for key in sorted(found) if key not in known for problem in found[key]]


def stale(found: dict[str, list[str]], known: set[str]) -> list[str]:
    return sorted(known - set(found))


def test_no_new_function_breaks_the_shape():
    new = new_problems(package_offences(), KNOWN_OFFENDERS)
    assert not new, "make these smaller (split out helpers; keep output byte-identical):\n" + "\n".join(new)


def test_every_known_offender_still_offends():
    fixed = stale(package_offences(), KNOWN_OFFENDERS)
    assert not fixed, ("these no longer break the shape: take them out of KNOWN_OFFENDERS in "
                       "tests/test_code_shape.py:\n" + "\n".join(fixed))


# -- the checker itself can fail ------------------------------------------------------------------

def _function(name: str, body: list[str], decorator: str | None = None, docstring: bool = True) -> str:
    lines = [decorator] if decorator else []
    lines.append(f"def {name}(x):")
    if docstring:
        lines += ['    """A docstring', "", '    of three lines."""']
    lines += ["    " + line for line in body]
    return "\n".join(lines) + "\n"


def _assignments(n: int) -> list[str]:
    return [f"x = x + {i}" for i in range(n - 1)] + ["return x"]


def test_a_known_offender_is_let_through_only_while_it_offends():
    found = offences(_function("f", _assignments(61)), "m.py")
    assert new_problems(found, {"m.py:f"}) == [] and stale(found, {"m.py:f"}) == []
    assert new_problems(found, set()) == ["m.py:1: f is 61 lines long (over 60)"]
    assert stale(offences(_function("f", _assignments(60)), "m.py"), {"m.py:f"}) == ["m.py:f"]


def test_a_61_line_function_offends_and_a_60_line_one_does_not():
    assert offences(_function("f", _assignments(60)), "m.py") == {}
    found = offences(_function("f", _assignments(61)), "m.py")
    assert found == {"m.py:f": ["m.py:1: f is 61 lines long (over 60)"]}


def test_the_docstring_is_not_counted():
    assert offences(_function("f", _assignments(60), docstring=True), "m.py") == {}
    assert body_lines(ast.parse(_function("f", _assignments(60))).body[0]) == 60


@pytest.mark.parametrize("decorator", ["@command(name='x')", "@click.command()", "@click.group(name='g')",
                                       "@encounter_cmd.command(name='show')", "@command"])
def test_a_26_line_command_offends_and_a_25_line_one_does_not(decorator):
    assert offences(_function("show_cmd", _assignments(25), decorator), "c.py") == {}
    found = offences(_function("show_cmd", _assignments(26), decorator), "c.py")
    assert found == {"c.py:show_cmd": ["c.py:2: show_cmd is a command whose body is 26 lines (over 25)"]}


def test_a_26_line_function_that_is_no_command_is_fine():
    assert offences(_function("helper", _assignments(26), "@property"), "c.py") == {}


def _branches(n: int) -> list[str]:
    return [line for i in range(n) for line in (f"if x == {i}:", f"    x = {i}")] + ["return x"]


def test_complexity_17_offends_and_16_does_not():
    assert offences(_function("f", _branches(15)), "m.py") == {}
    found = offences(_function("f", _branches(16)), "m.py")
    assert found == {"m.py:f": ["m.py:1: f has cyclomatic complexity 17 (over 16: more than 15 branches)"]}


def test_nested_functions_and_methods_are_named_by_their_path():
    source = "class Site:\n" + "".join("    " + line + "\n" for line in _function("full", _assignments(61)).splitlines())
    assert list(offences(source, "s.py")) == ["s.py:Site.full"]


@pytest.mark.parametrize("code, expected", [
    ("pass", 1),
    ("if x:\n    pass\nelif y:\n    pass\nelse:\n    pass", 3),
    ("for a in x:\n    pass\nelse:\n    pass", 3),
    ("while x:\n    pass", 2),
    ("try:\n    pass\nexcept A:\n    pass\nexcept B:\n    pass\nelse:\n    pass\nfinally:\n    pass", 4),
    ("with x:\n    pass", 1),
    ("return a and b and c or d", 4),
    ("return [a for a in x if a if not a] + [b for b in x for c in b]", 6),
    ("return a if b else c", 2),
    ("assert x and y", 2),
    ("f = lambda: a if b else c", 2),
    ("def inner():\n    if x:\n        pass\nreturn inner", 1),
    ("match x:\n    case 1:\n        pass\n    case 2:\n        pass\n    case _:\n        pass", 3),
])
def test_complexity_counts_as_radon_does(code, expected):
    tree = ast.parse("def f(x):\n" + "".join("    " + line + "\n" for line in code.splitlines()))
    assert complexity(tree.body[0]) == expected


def test_complexity_equals_radon_on_the_package():
    """Where radon is installed, every function's and class's number is radon's own."""
    radon = pytest.importorskip("radon.complexity")
    checked = 0
    for file in sorted(PACKAGE.rglob("*.py")):
        source = file.read_text(encoding="utf-8")
        ours = {(node.lineno, name.rpartition(".")[2]): complexity(node) for name, node in _blocks(ast.parse(source))}
        for block in radon.cc_visit(source):
            blocks = [block] + list(getattr(block, "methods", ()))
            for b in blocks:
                assert ours[(b.lineno, b.name)] == b.complexity, f"{file}:{b.lineno} {b.name}"
                checked += 1
    assert checked > 500
