"""The project stands alone (K-6): every rule id that the code, the tests, the docs, the README or the
scripts cite is defined in the project's own docs: a game's rules in `docs/rules/<game>.md`, the host's
contract in `docs/design.md`.

The files are scanned when the test runs, so an id added anywhere tomorrow is checked too.

What counts as a cited id:
- in any text, a word such as `R-CHK-10`, `G-PRIV-3`, `T2-RULES`, `A-REACTBOOST` or a family such as
  `R-PAY`: one of the prefixes below, then dash-separated parts in capitals or digits. A range
  `S-SYS-7..12` or `W-1..W-15` cites every id in it. Words that only look alike (`UTF-8`, `SHA-256`,
  `ID-1`, `2d6`, `[A-Z0-9]`) have no such prefix or stand inside brackets;
- in a test's name, the same id with underscores, at the start of the name: `test_R_CHK_10_...`,
  `test_T2_FACES_...`, `test_V8_...` (V-8), or in lower case `test_g_priv_6_...` when its words before the
  number spell a numbered family the docs define (so `test_a_26_line_...` is no citation);
- every string constant given as a rule in `narateer_cli` (`rule="R-ACT-3"`, `rule = ...`, a `"rule"` key):
  the id a refusal carries to `--json`; such a string that is no id at all is a failure too.

What counts as a definition, in `docs/rules/*.md` and `docs/design.md`: a list entry that starts with the
id in bold and says the rule (`- **R-CHK-10**: ...`), or a heading that names the id (`### Paying costs
(R-PAY)`). A worked case `W-n` is defined per game: cited inside a game's folder, it must be in that game's
file.
"""

from __future__ import annotations

import ast
import os
import re
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RULES = REPO / "docs" / "rules"
DESIGN = REPO / "docs" / "design.md"

# Every prefix an id of the project starts with (the three games' rules and the host's contract, docs/).
PREFIXES = ("SP4", "D20", "OA", "R2", "T2", "T3", "P2", "H2", "R", "A", "G", "S", "T", "P", "V", "B", "H", "K", "W")
_PART = r"(?:[A-Z][A-Z0-9]*|[0-9]+)"
ID = re.compile(r"(?<![\w\[\-./$])(?:" + "|".join(PREFIXES) + r")(?:-" + _PART + r")+(?!\w|-(?!\*))")
ID_ONLY = re.compile(r"(?:" + "|".join(PREFIXES) + r")(?:-" + _PART + r")+")
RANGE_END = re.compile(r"\.\.(?:([A-Z][A-Z0-9-]*?)-)?([0-9]+)\b")
GIVES_RULE = re.compile(r"""\brule\s*(?:=[^=]|:)|["']rule["']""")
TEST_NAME = re.compile(r"^\s*(?:async\s+)?def test_(\w+)", re.M)

SCANNED = ("narateer_cli", "tests", "docs", "scripts", "examples")
TEXT = {".py", ".md", ".txt", ".yaml", ".yml", ".json", ".sh", ".html", ".js", ".css", ".toml", ".cfg"}
GAMES = {"narateer": "narateer", "open_adventure": "open-adventure", "d20_cards": "d20-cards"}


def files():
    """Every text file the project's people read or run: code, tests, docs, scripts, examples, README."""
    yield REPO / "README.md"
    for top in SCANNED:
        for folder, dirs, names in os.walk(REPO / top):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__" and not d.endswith("-info")]
            for name in names:
                if os.path.splitext(name)[1] in TEXT:
                    yield Path(folder, name)


def ids_in_text(text: str):
    """(id, line) for each id a text cites, ranges spelled out."""
    for m in ID.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        yield m.group(), line
        end = RANGE_END.match(text, m.end())
        if end and m.group()[-1].isdigit():
            family, first = m.group().rsplit("-", 1)
            if end.group(1) in (None, family) and int(first) < int(end.group(2)) <= int(first) + 50:
                for n in range(int(first) + 1, int(end.group(2)) + 1):
                    yield f"{family}-{n}", line


def id_of_test_name(name: str, numbered: set[str]) -> str | None:
    """The id a test's name starts with, if any (see the module's text)."""
    words = name.split("_")
    if re.fullmatch(r"[A-Z]+[0-9]+", words[0]) and words[0] not in PREFIXES and len(words) > 1:
        letters = re.match(r"[A-Z]+", words[0]).group()  # test_V8_... is V-8
        return f"{letters}-{words[0][len(letters):]}" if letters in PREFIXES else None
    if words[0] in PREFIXES and len(words) > 1 and re.fullmatch(_PART, words[1]):
        parts = [words[0]]
        for word in words[1:]:
            if not re.fullmatch(_PART, word) or (parts[-1].isdigit() and not word.isdigit()):
                break  # the id ends at a lower-case word, or at a number (test_R_PAY_2_R_PAY_3_...)
            parts.append(word)
        return "-".join(parts)
    lower = re.match(r"((?:[a-z]+[0-9]?_){1,4}?)([0-9]+)(?:_|$)", name)
    if lower:
        family = lower.group(1).rstrip("_").replace("_", "-").upper()
        if family in numbered:
            return f"{family}-{lower.group(2)}"
    if re.match(r"[a-z][0-9]+(?:_|$)", name):  # test_v6_... is V-6
        family = name[0].upper()
        return f"{family}-{re.match(r'[a-z]([0-9]+)', name).group(1)}" if family in numbered else None
    return None


def rule_strings(path: Path, source: str):
    """(string, line) for each constant string `narateer_cli` gives as a rule: `rule=`, `rule = `, `"rule":`."""
    if not GIVES_RULE.search(source):
        return  # most files never name a rule: leave them unparsed
    for node in ast.walk(ast.parse(source, str(path))):
        values = []
        if isinstance(node, ast.Call):
            values = [k.value for k in node.keywords if k.arg == "rule"]
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [getattr(t, "id", getattr(t, "attr", None)) for t in targets]
            values = [node.value] if "rule" in names else []
        elif isinstance(node, ast.Dict):
            values = [v for k, v in zip(node.keys, node.values)
                      if isinstance(k, ast.Constant) and k.value == "rule" and v is not None]
        for value in values:
            yield from _given(value)


def _given(value: ast.expr):
    """The strings an expression can give: a constant, either side of `a if c else b`, `a or b`."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        yield value.value, value.lineno
    elif isinstance(value, ast.IfExp):
        yield from _given(value.body)
        yield from _given(value.orelse)
    elif isinstance(value, ast.BoolOp):
        for part in value.values:
            yield from _given(part)


def definitions() -> dict[str, set[str]]:
    """Each defining file's name -> the ids it defines."""
    out = {}
    for path in [*sorted(RULES.glob("*.md")), DESIGN]:
        defined = set()
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                defined.update(m.group() for m in ID.finditer(line))
            entry = re.match(r"\s*[-*]\s+\*\*(\S+?)\*\*:?\s+(.*)", line)
            if entry and ID_ONLY.fullmatch(entry.group(1)) and len(entry.group(2).split()) >= 4:
                defined.add(entry.group(1))
        out[path.stem] = defined
    return out


def game_of(path: Path) -> str | None:
    return next((GAMES[part] for part in path.relative_to(REPO).parts if part in GAMES), None)


def citations(numbered: set[str]):
    """(id, path, line) for every id cited anywhere scanned."""
    for path in files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for cited, line in ids_in_text(text):
            yield cited, path, line
        if path.suffix == ".py" and path.relative_to(REPO).parts[0] == "tests":
            for m in TEST_NAME.finditer(text):
                cited = id_of_test_name(m.group(1), numbered)
                if cited:
                    yield cited, path, text.count("\n", 0, m.start()) + 1


def test_every_cited_id_is_defined_in_the_docs():
    defs = definitions()
    everywhere = set().union(*defs.values())
    numbered = {d.rsplit("-", 1)[0] for d in everywhere if re.search(r"-[0-9]+$", d)}
    missing = defaultdict(list)
    for cited, path, line in citations(numbered):
        game = game_of(path)
        if cited.startswith("W-") and game and path.parent != RULES:
            known = defs.get(game, set())  # a worked case is the game's own
        else:
            known = everywhere
        if cited not in known:
            missing[cited].append(f"{path.relative_to(REPO)}:{line}")
    report = [f"{cited}: {', '.join(where[:4])}{' ...' if len(where) > 4 else ''}"
              for cited, where in sorted(missing.items())]
    assert not missing, ("ids cited but defined in neither docs/rules/*.md nor docs/design.md "
                         "(define each there in words, or say the rule in words instead):\n" + "\n".join(report))


def test_every_rule_a_refusal_carries_to_json_is_an_id_the_docs_define():
    everywhere = set().union(*definitions().values())
    wrong = []
    for path in sorted((REPO / "narateer_cli").rglob("*.py")):
        for value, line in rule_strings(path, path.read_text(encoding="utf-8")):
            where = f"{path.relative_to(REPO)}:{line}"
            if not ID_ONLY.fullmatch(value):
                wrong.append(f"{where}: rule {value!r} is no rule id")
            elif value not in everywhere:
                wrong.append(f"{where}: rule {value} is not defined in the docs")
    assert not wrong, "\n".join(wrong)


def test_the_scan_finds_what_it_should():
    """The extraction itself: ids, ranges and test names found; look-alikes left alone."""
    text = "R-CHK-10, (A-REACTBOOST) S-SYS-7..12 W-1..W-3 UTF-8 SHA-256 ID-1 [A-Z0-9] 2d6 R-CARD-RANGE-* R-PAY"
    assert [i for i, _ in ids_in_text(text)] == [
        "R-CHK-10", "A-REACTBOOST", "S-SYS-7", "S-SYS-8", "S-SYS-9", "S-SYS-10", "S-SYS-11", "S-SYS-12",
        "W-1", "W-2", "W-3", "R-CARD-RANGE", "R-PAY"]
    numbered = {"G-PRIV", "V", "R-CHK"}
    names = ["R_CHK_10_contested_tie", "R_PAY_2_R_PAY_3_discounts", "R_PAY_payment", "V8_a_legend",
             "T2_FACES_ask", "g_priv_6_limits", "v6_the_socket", "a_26_line_command", "exit_code_1",
             "A_REACTBOOST_false", "the_SYSTEM_is"]
    assert [id_of_test_name(n, numbered) for n in names] == [
        "R-CHK-10", "R-PAY-2", "R-PAY", "V-8", "T2-FACES", "G-PRIV-6", "V-6", None, None, "A-REACTBOOST", None]
    found = dict(rule_strings(Path("x.py"), 'f(rule="R-HIDE-5" if kind == "hide" else "R-ACT-3")\nd = {"rule": "K-1"}'))
    assert found == {"R-HIDE-5": 1, "R-ACT-3": 1, "K-1": 2}


PROSE = ("narateer_cli", "examples")  # the code whose comments and docstrings say rules in words


def prose_of(path: Path, source: str):
    """(text, line) for each comment and docstring of a Python file; each comment of a script or style sheet."""
    if path.suffix in (".js", ".css"):
        for m in re.finditer(r"//[^\n]*|/\*.*?\*/", source, re.S):
            yield m.group(), source.count("\n", 0, m.start()) + 1
        return
    import io
    import tokenize

    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.string, token.start[0]
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(getattr(first.value, "value", None), str):
                yield first.value.value, first.lineno


def test_the_codes_comments_and_docstrings_say_rules_in_words():
    """A comment or docstring of the package or of an example game says the rule, not its id: the ids stay
    in `rule=` (what `--json` carries), in test names and in the docs that define them."""
    cited = []
    for top in PROSE:
        for path in sorted((REPO / top).rglob("*")):
            parts = path.relative_to(REPO).parts
            if path.suffix not in (".py", ".js", ".css") or "__pycache__" in parts or "tests" in parts:
                continue  # an example game's tests are tests: their prose may cite ids the docs define
            for text, line in prose_of(path, path.read_text(encoding="utf-8")):
                cited += [f"{'/'.join(parts)}:{line + text.count(chr(10), 0, m.start())}: {m.group()}"
                          for m in ID.finditer(text)]
    assert not cited, "say these rules in words instead of citing their ids:\n" + "\n".join(cited)


def test_the_prose_scan_finds_comments_and_docstrings():
    source = '"""Module (R-CHK-10)."""\nx = "S-SYS-8"  # G-PRIV-3: a comment\ndef f():\n    """UTF-8 only."""\n'
    found = [(m.group(), line) for text, line in prose_of(Path("x.py"), source) for m in ID.finditer(text)]
    assert sorted(found) == [("G-PRIV-3", 2), ("R-CHK-10", 1)]
    script = "var a = 'T-ASK'; // B-2: the Guide\n/* V-8:\n bars */"
    assert [m.group() for text, _ in prose_of(Path("x.js"), script) for m in ID.finditer(text)] == ["B-2", "V-8"]
