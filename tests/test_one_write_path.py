"""S-SYS-7: one write path. A game computes an Outcome; the host alone writes, logs, seals and commits it.

The scan reads every game module (the three built-in games, the example package, the coin toy) and finds
no file write, no git, no transaction and no import of the host's write functions. `store/edit.py`, the
one key-by-key edit every game's sheet changes go through, is tested on its own below.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from narateer_cli.outcome import REMOVED, Outcome
from narateer_cli.store import yamlio
from narateer_cli.store.edit import edit

REPO = Path(__file__).resolve().parents[1]
GAMES = [REPO / "narateer_cli" / "systems", REPO / "examples" / "narateer-moves", REPO / "tests" / "systems" / "toy"]

WRITING_CALLS = {"write_text", "write_bytes", "unlink", "rmdir", "mkdir", "rename", "replace", "remove",
                 "symlink_to", "touch", "set_sheet", "edit_sheet", "commit", "append", "atomic_write", "put"}
WRITING_ATTRS = {"txn"}  # the transaction belongs to the host
HOST_WRITERS = {
    "narateer_cli.commands.apply": None,  # every name
    "narateer_cli.store.txn": None,
    "narateer_cli.store.cache": None,
    "narateer_cli.commands.encounter_ops": {"log_action", "append_entry", "autocommit", "log_undo", "restore_last",
                                            "logged_fields"},
}
FORBIDDEN_MODULES = {"subprocess", "shutil", "tempfile"}


def offences(source: str, label: str) -> list[str]:
    """What in this module writes or reaches for the host's writing: one line each."""
    out = []
    for node in ast.walk(ast.parse(source)):
        where = f"{label}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            out += [f"{where}: imports {a.name}" for a in node.names if a.name.split(".")[0] in FORBIDDEN_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in FORBIDDEN_MODULES:
                out.append(f"{where}: imports {node.module}")
            names = HOST_WRITERS.get(node.module, set())
            out += [f"{where}: imports {node.module}.{a.name}" for a in node.names if names is None or a.name in names]
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in WRITING_CALLS and not _list_append(node):
                out.append(f"{where}: calls {name}()")
            if name == "open" and _opens_for_writing(node):
                out.append(f"{where}: opens a file for writing")
        elif isinstance(node, ast.Attribute) and node.attr in WRITING_ATTRS:
            out.append(f"{where}: uses .{node.attr}")
    return out


def _list_append(call: ast.Call) -> bool:
    """`items.append(x)`, `names.remove(x)`, `text.replace(a, b)`, `record.replace(key=value)`: the same names
    on lists, strings and records."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return isinstance(func, ast.Name) and func.id in {"append", "remove", "replace", "put"}  # replace(rec, k=v)
    if func.attr not in {"append", "remove", "replace", "put"}:
        return False
    if func.attr == "replace":
        return len(call.args) != 1 or bool(call.keywords)  # str.replace(a, b), record.replace(k=v); Path's takes one
    if func.attr in {"append", "remove"}:
        return True  # a list's; the host's log append is `txn.append`, caught by `.txn`
    return False


def _opens_for_writing(call: ast.Call) -> bool:
    modes = [a for a in call.args[1:2]] + [k.value for k in call.keywords if k.arg == "mode"]
    return any(isinstance(m, ast.Constant) and isinstance(m.value, str) and set(m.value) & set("wax+")
               for m in modes)


def game_modules():
    for top in GAMES:
        for path in sorted(top.rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield path


def test_S_SYS_7_no_game_module_writes_or_imports_the_host_write_path():
    found = []
    for path in game_modules():
        found += offences(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))
    assert found == []


@pytest.mark.parametrize("snippet, what", [
    ('from pathlib import Path\nPath("notes.txt").write_text("x")\n', "calls write_text()"),
    ('def f(s):\n    s.txn.write("characters/a.yaml", "x")\n', "uses .txn"),
    ("from narateer_cli.commands.encounter_ops import log_action\n", "imports narateer_cli.commands.encounter_ops"),
    ("from narateer_cli.commands.apply import apply\n", "imports narateer_cli.commands.apply.apply"),
    ("import subprocess\n", "imports subprocess"),
    ('with open("x", "w") as fh:\n    pass\n', "opens a file for writing"),
    ('def f(s):\n    s.set_sheet("a", dice={})\n', "calls set_sheet()"),
    ('from pathlib import Path\nPath("a").replace("b")\n', "calls replace()"),
])
def test_the_scan_finds_each_kind_of_write(snippet, what):
    assert any(what in line for line in offences(snippet, "probe.py")), offences(snippet, "probe.py")


def test_the_scan_lets_reading_and_list_work_through():
    clean = 'items = []\nitems.append(1)\nitems.remove(1)\ntext = "a".replace("a", "b")\nopen("x").read()\n'
    assert offences(clean, "probe.py") == []


# -- the one key-by-key edit (S-SYS-10) ----------------------------------------------------------------

SHEET = """\
# Selka's sheet
name: Selka   # the hero
action_dice:
  ready: 5    # before the fight
  used: 0
conditions: [Stunned, prone]
skills:
  stealth: 2
notes: kept as written
"""


def run(edits, text=SHEET, **kw):
    doc = yamlio.load_rt(text, "characters/selka.yaml")
    new, _ = edit(text, doc, {tuple(k.split(".")): v for k, v in edits.items()}, "characters/selka.yaml", **kw)
    return new


def changed_lines(a: str, b: str) -> list[tuple[str, str]]:
    return [(x, y) for x, y in zip(a.split("\n"), b.split("\n")) if x != y]


def test_a_number_is_replaced_where_it_stands_and_nothing_else_moves():
    new = run({"action_dice.ready": 3, "action_dice.used": 2})
    assert changed_lines(SHEET, new) == [("  ready: 5    # before the fight", "  ready: 3    # before the fight"),
                                         ("  used: 0", "  used: 2")]


def test_a_one_line_list_is_rewritten_on_its_line_and_names_compare_without_case():
    assert run({"conditions": ["stunned", "prone"]}) == SHEET  # the same names: no change at all
    new = run({"conditions": ["prone", "slowed"]})
    assert changed_lines(SHEET, new) == [("conditions: [Stunned, prone]", "conditions: [prone, slowed]")]


def test_a_new_key_is_merged_with_comments_and_order_kept():
    new = run({"skills.melee": 1, "readiness.stealth": 3})
    assert "# Selka's sheet" in new and "name: Selka   # the hero" in new and "notes: kept as written" in new
    data = yamlio.to_plain(yamlio.load_rt(new, "x"))
    assert data["skills"] == {"stealth": 2, "melee": 1} and data["readiness"] == {"stealth": 3}
    assert list(data) == ["name", "action_dice", "conditions", "skills", "notes", "readiness"]


def test_removed_takes_the_key_out_and_an_absent_key_is_no_change():
    new = run({"notes": REMOVED})
    assert "notes" not in yamlio.to_plain(yamlio.load_rt(new, "x")) and "# Selka's sheet" in new
    assert run({"missing": REMOVED}) == SHEET


def test_a_counter_at_zero_is_not_written_where_it_is_absent():
    assert run({"action_dice.wounded": 0}, skip_zero={("action_dice", "wounded")}) == SHEET
    assert "wounded: 1" in run({"action_dice.wounded": 1}, skip_zero={("action_dice", "wounded")})


def test_explicit_null_is_spelt_as_the_game_asks():
    assert "notes: null" in run({"notes": None}, explicit_null=True)
    assert "notes: null" not in run({"notes": None})


def test_an_outcome_takes_dotted_paths_and_tuples_alike():
    o = Outcome("roll", "selka", {}, {}, sheets={"selka": {"action_dice.ready": 3, ("skills", "melee"): 1}})
    assert o.sheets == {"selka": {("action_dice", "ready"): 3, ("skills", "melee"): 1}}
