"""S-SYS-10: the host knows no game. No module outside `narateer_cli/systems/` names a built-in
system, its own verbs or its sheet keys in code (comments and docstrings aside): config keys, completion
parameters, the page's drawing of a character, log sentences and pointers come from each system.
"""

from __future__ import annotations

import ast
import io
import re
import token
import tokenize

from narateer_cli import systems
from narateer_cli.store.schema import Either, Map, Nullable, Or, Seq
from narateer_cli.systems.base import HOST_OWNED
from tests.conftest import REPO

# Words a game uses that are also the host's own, each for a reason the host has without any game.
GENERIC = {
    "narateer": "the program's own name (prog name, merge driver, state folder), not the game",
    "name": "every sheet and participant has a name the host shows",
    "conditions": "the shared `condition` verb (S-SYS-3) and the page's condition chips (V-1)",
    "rounds": "timed conditions (T-DURATION) and the report's sections are the host's",
    "faces": "every logged roll's faces: the host reads them for luck, serve and secrets",
    "version": "the format version of the transaction manifest (G-TEST)",
    "time": "the time column of the log and report tables",
    "current": "the current encounter (narateer.yaml `encounter:`)",
    "check": "the host's `check` command, and the checks every game logs (a Narateer spell's `check:` too)",
    "skill": "the skill a logged check names, which the page shows in every game (a Narateer spell's check too)",
    "max": "a pool's maximum on the players' screen",
    "type": "ASGI scope and message types in the server",
    "source": "`new --from SOURCE` (T-COPY) is the host's copying",
    "turn": "the shared `turn start` / `turn end` commands are the host's",
    "left": "what is left of a pool (the page's bars, a merge's sides), as a Narateer trait's uses left",
    "text": "a text field or body (a file's text, the page's text parts), as a Narateer trait's text",
    "attributes": "`git-setup --json` names the .gitattributes file it wrote (JSON output stays as it is)",
}


def _keys(node, out: set):
    if isinstance(node, Map):
        for key, value in (node.keys or {}).items():
            out.add(key)
            _keys(value, out)
        if node.values is not None:
            _keys(node.values, out)
    elif isinstance(node, Seq):
        _keys(node.item, out)
    elif isinstance(node, Nullable):
        _keys(node.node, out)
    elif isinstance(node, Either):
        _keys(node.mapping, out)
    elif isinstance(node, Or):
        for sub in node.nodes:
            _keys(sub, out)


def game_words() -> dict[str, str]:
    """word -> the built-in system it belongs to: its name, own verbs, sheet keys, counters, config keys
    and the top-level keys of its ruleset (a verb the host owns, such as `heal`, is the host's word)."""
    words = {}
    for name in systems.BUILTIN:
        system = systems.load_system(name)
        found = {name, *system.config_keys, *system.rules_data()}
        found |= {verb for verb in system.verbs if verb not in systems.SHARED and verb not in HOST_OWNED}
        found |= {part for counter in system.counters for part in counter.split(".") if part != "*"}
        _keys(system.hook("sheet_schema"), found)
        words.update(dict.fromkeys(found, name))
    return {word: owner for word, owner in words.items() if word not in GENERIC}


def code_strings(text: str):
    """(line, value) of each string literal that is not a docstring (comments never reach here)."""
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    before = token.NEWLINE
    for i, tok in enumerate(tokens):
        if tok.type == token.STRING:
            after = tokens[i + 1].type if i + 1 < len(tokens) else token.ENDMARKER
            docstring = before in (token.NEWLINE, token.INDENT, token.DEDENT, token.ENCODING) and \
                after in (token.NEWLINE, token.ENDMARKER)
            if not docstring:
                try:
                    value = ast.literal_eval(tok.string)
                except (ValueError, SyntaxError):  # an f-string: its literal text is what matters
                    value = tok.string
                if isinstance(value, str):
                    yield tok.start[0], value
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            before = tok.type


def hits(text: str, words: dict) -> list[tuple[int, str]]:
    out = []
    spaced = {w.replace("_", " "): w for w in words if "_" in w}
    for line, value in code_strings(text):
        found = {value.strip()} & set(words)  # a key as a string: "wounded", "clock"
        found |= {w for w in re.findall(r"[\w-]+", value) if w in words and ("_" in w or "-" in w)}
        found |= {key for phrase, key in spaced.items() if phrase in value.lower()}  # "action dice"
        out += [(line, word) for word in sorted(found)]
    return out


def test_S_SYS_10_no_host_module_names_a_game_or_its_keys():
    words = game_words()
    assert {"wounded", "action_dice", "clock", "hp", "ap", "open-adventure", "d20-cards", "move"} <= set(words)
    found = []
    for path in sorted((REPO / "narateer_cli").rglob("*.py")):
        if path.relative_to(REPO / "narateer_cli").parts[0] == "systems":
            continue
        found += [f"{path.relative_to(REPO)}:{line}: {word} ({words[word]})"
                  for line, word in hits(path.read_text(encoding="utf-8"), words)]
    assert found == []


def test_S_SYS_10_the_grep_sees_what_it_should():
    words = {"wounded": "narateer", "action_dice": "narateer", "d20-cards": "d20-cards"}
    text = '''"""A docstring may say wounded."""
x = "wounded"  # a comment may say action_dice
y = f"{x} action dice"
z = "plays d20-cards"
'''
    assert hits(text, words) == [(2, "wounded"), (3, "action_dice"), (4, "d20-cards")]
