"""Reading d20-cards YAML: line numbers for problems, and a campaign folder as a `World`.

This is the system's file side (the engine never opens a file): `locator`
maps a key path of a round-trip document to its line, `load_world` reads
`characters/*.yaml` and `actions/*.yaml` of a folder. ruamel is imported
only when a file is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from narateer_cli.kit import BadInput

if TYPE_CHECKING:  # the cards module is imported when a card is first read
    from .cards import Card


def locator(doc):
    """`path -> line` (1-based) for a ruamel round-trip document; None when unknown."""
    def locate(path):
        node = doc
        try:
            for part in path[:-1]:
                node = node[part]
            last = path[-1]
            lc = node.lc  # a round-trip node's lines (a plain list or mapping has none: AttributeError)
            pos = lc.item(last) if isinstance(last, int) and isinstance(node, list) else lc.key(last)
            return pos[0] + 1
        except (KeyError, IndexError, TypeError, AttributeError):
            return None
    return locate


def load_doc(path: Path, label: str):
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    try:
        return YAML(typ="rt").load(path.read_text(encoding="utf-8"))
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        raise BadInput(f"{label}:{line}: not valid YAML", fix="correct the YAML syntax") from None


def read_card(path: Path, root: Path | None = None):
    """One `actions/<id>.yaml` card: the plain loader first, the round trip only for line numbers. With the
    campaign `root`, a valid card's plain data is read through the host's private cache (cards/ID.json,
    used while the file is unchanged, as sheets are); a broken card is read the old way, for its line."""
    from .cards import card_problems, parse_card

    label = f"actions/{path.name}"
    if root is not None:
        from narateer_cli.kit import data_file

        doc = data_file(root, "cards", path, lambda text: _valid_card(path, text))
        if isinstance(doc, dict) and not card_problems(path.stem, doc, label):
            return parse_card(path.stem, doc, label, checked=True)
    from ruamel.yaml import YAML  # ruamel's loader module is imported only to parse
    from ruamel.yaml.error import YAMLError

    try:
        doc = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    except YAMLError:
        doc = load_doc(path, label)  # raises with the line
    if card_problems(path.stem, doc, label):
        doc = load_doc(path, label)  # again, for the problem's line
    return parse_card(path.stem, doc, label)


def _valid_card(path: Path, text: str):
    """A card file's plain data when it is a valid card (to keep), else None (read again the old way)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    from .cards import card_problems

    if "\r" in text:
        return None  # the old way reads it with newlines translated
    try:
        doc = YAML(typ="safe", pure=True).load(text)
    except YAMLError:
        return None
    if not isinstance(doc, dict) or card_problems(path.stem, doc, f"actions/{path.name}"):
        return None
    return doc


class CardShelf(Mapping):
    """The campaign's `actions/` cards by id, each read the first time it is asked for."""

    def __init__(self, root: Path):
        folder = root / "actions"
        self._root = root
        self._paths = {p.stem: p for p in sorted(folder.glob("*.yaml"))} if folder.is_dir() else {}
        self._cards: dict[str, Card] = {}

    def __getitem__(self, card_id):
        if card_id not in self._cards:
            self._cards[card_id] = read_card(self._paths[card_id], self._root)
        return self._cards[card_id]

    def __iter__(self):
        return iter(self._paths)

    def __len__(self):
        return len(self._paths)

    def __contains__(self, card_id):
        return card_id in self._paths

    def regular(self, card_id) -> bool:
        """Whether the card's file is a regular file (a FIFO or a device is never read by a lookup)."""
        return card_id in self._paths and self._paths[card_id].is_file()


def load_cards(root: Path) -> CardShelf:
    return CardShelf(root)


def load_world(root: Path, rules, encounter=None, clock: int = 0):
    from .results import World
    from .sheet import parse_sheet

    chars = {}
    for path in sorted((root / "characters").glob("*.yaml")):
        label = f"characters/{path.name}"
        doc = load_doc(path, label)
        chars[path.stem] = parse_sheet(path.stem, doc, label, rules)
    return World(chars, load_cards(root), encounter, clock)


def check_files(root: Path, rules=None) -> list:
    """The `check_files` hook: every problem of every `actions/*.yaml` card, shown as `file:line: message`:
    a card's own as a host `Problem` (its rule kept for --json) without the fix its commands add. What a
    card's bytes give is kept in the host's per-file problem cache (store/checked.py)."""
    from narateer_cli.kit import Folder

    folder = root / "actions"
    problems = []
    cached = Folder(root, "actions", [], _PACKAGE)
    for path in sorted(folder.iterdir()) if folder.is_dir() else []:
        label = f"actions/{path.name}"
        if path.suffix != ".yaml":
            continue
        try:  # read_text refuses a FIFO or a device in a card's place: the campaign is untrusted
            problems += cached.problems(label, path, _card_problems(path.stem, label))
        except BadInput as exc:
            problems.append(_unreadable(label, exc))
    cached.keep()
    return problems + _sheet_references(root, folder) + _build_problems(root, rules)


_PACKAGE = __name__.rpartition(".")[0]


def _unreadable(label: str, exc: BadInput) -> str:
    text = exc.line().removeprefix(label + ": ")
    return text if text.startswith(label + ":") else f"{label}:1: {text}"


def _card_problems(card_id: str, label: str):
    """A card's text -> its problems as `file:line: message` (a card that does not parse: that one line)."""
    from narateer_cli.kit import yamlio

    from .cards import card_problems

    def compute(text: str) -> list:
        try:
            doc = yamlio.load_rt(text, label)
        except BadInput as exc:
            return [_unreadable(label, exc)]
        return [p._replace(fix="") for p in card_problems(card_id, doc, label)]
    return compute


def _sheet_references(root: Path, folder: Path) -> list[str]:
    """Every name on a sheet that is no known card or character, with the closest known names, as `file:line: message`;
    a sheet that cannot be read is left to the host's sheet check. Kept in the host's problem cache under the identity
    of every sheet and the names of the cards."""
    from narateer_cli.kit import yamlio
    from narateer_cli.kit import Folder

    cards = [p.stem for p in folder.glob("*.yaml")] if folder.is_dir() else []
    paths = sorted((root / "characters").glob("*.yaml")) if (root / "characters").is_dir() else []
    texts = {}
    for path in paths:
        label = f"characters/{path.name}"
        try:
            texts[path.stem] = (label, *yamlio.read_text(path, label, with_key=True))
        except BadInput:
            continue
    keys = [[stem, key] for stem, (_, _, key) in texts.items()]
    cached = Folder(root, "references", [sorted(cards), [p.stem for p in paths]], _PACKAGE)
    roster = [p.stem for p in paths]
    found = cached.cached("characters", keys, lambda: _references(root, texts, cards, roster))
    cached.keep()
    return found


def _references(root: Path, texts: dict, cards: list, roster: list) -> list[str]:
    """The references' problems: found first in the parses commands kept of these exact sheets (no round-trip
    parse when they are all kept and clean), else (and to name a problem's line) in round-trip parses."""
    from narateer_cli.kit import kept_sheet

    kept = {stem: (label, kept_sheet(root, stem, key)) for stem, (label, _, key) in texts.items()}
    if all(doc is not None for _, doc in kept.values()) and not _reference_problems(kept, cards, roster):
        return []
    from narateer_cli.kit import yamlio

    docs = {}
    for stem, (label, text, _) in texts.items():
        try:
            docs[stem] = (label, yamlio.load_rt(text, label))
        except BadInput:
            continue
    return _reference_problems(docs, cards, roster)


def _reference_problems(docs: dict, cards: list, roster: list) -> list[str]:
    from .names import reference_problems

    out = []
    for label, doc in docs.values():
        if not isinstance(doc, dict):
            continue
        owner = docs.get(str(doc.get("owner")), (None, {}))[1]
        inline = list((owner.get("cards") or {}) if isinstance(owner, dict) else ())
        for path, message in reference_problems(doc, cards + inline, roster):
            out.append(f"{label}:{locator(doc)(path) or 1}: {message}")
    return out


def _build_problems(root: Path, rules) -> list:
    """What each sheet lacks for its build (levels, prepared cards, focus slots, ancestral points) as host
    `Problem`s at the line of the key they name. Kept in the host's problem cache under each sheet's identity,
    the tiers table and each campaign card's tier and source."""
    from narateer_cli.kit import Folder, yamlio

    if rules is None:
        return []
    shelf, facts = {}, []
    folder = root / "actions"
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        if not path.is_file():
            continue  # a FIFO or a device in a card's place is never read (the cards' check names it)
        try:
            card = shelf[path.stem] = read_card(path, root)
        except BadInput:
            continue  # an unreadable card is the cards' own problem
        facts.append([card.id, card.tier, card.source])
    table = sorted([tier, *(row[k] for k in ("prerequisite", "focus_slots", "ancestral_points"))]
                   for tier, row in rules.tiers.items())
    cached = Folder(root, "builds", [table, facts], _PACKAGE)
    found: list = []
    for path in sorted((root / "characters").glob("*.yaml")) if (root / "characters").is_dir() else []:
        label = f"characters/{path.name}"
        try:
            text, key = yamlio.read_text(path, label, with_key=True)
        except BadInput:
            continue  # the host's sheet check names it
        found += cached.cached(label, key, lambda: _sheet_build(path.stem, label, text, shelf, rules))
    cached.keep()
    return found


def _sheet_build(char_id: str, label: str, text: str, shelf, rules) -> list:
    from narateer_cli.kit import Problem, yamlio

    from .names import dotted
    from .sheet import card_lookup, parse_sheet
    from .tiers import lacks

    try:
        doc = yamlio.load_rt(text, label)
        char = parse_sheet(char_id, doc, label, rules)
    except BadInput:
        return []  # a sheet that does not parse is the host's sheet check's

    where = locator(doc)
    return [Problem(label, where(lack.path) or 1, dotted(lack.path), f"{dotted(lack.path)}: {lack.message}",
                    lack.fix, rule=lack.rule) for lack in lacks(char, card_lookup(char, shelf), rules)]
