"""The campaign on disk: finding it, its ruleset, and character sheets.

Sheets are loaded with the round-trip loader (or from their cached parse);
`SheetFile.render` edits dice counts in place on their own lines, and
`SheetFile.edit` sets any key path through the one key-by-key edit
(store/edit.py), so a command changes only the lines whose values changed.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from ..errors import BadInput
from ..readonly import view
from . import cache, yamlio

CONFIG = "narateer.yaml"
CACHE_VERSION = 2
ID_RE = re.compile(r"\A[A-Za-z0-9_-]{1,64}\Z")  # \Z: `$` would let a trailing newline through (ids are matched whole)


def find_root(start: str | None) -> Path:
    """The campaign folder: --campaign DIR, NARATEER_CAMPAIGN, or the nearest narateer.yaml upwards."""
    given = start or os.environ.get("NARATEER_CAMPAIGN")
    if given:
        root = Path(given)
        if not (root / CONFIG).is_file():
            raise BadInput(f"{given}: no {CONFIG} there", fix="run `narateer init` in that folder first")
        return check_folders(root.resolve())
    here = Path.cwd()
    for folder in (here, *here.parents):
        if (folder / CONFIG).is_file():
            return check_folders(folder)
    raise BadInput("not inside a narateer campaign (no narateer.yaml here or above)",
                   fix="run `narateer init`, or pass --campaign DIR")


FOLDERS = ("characters", "encounters")  # the private folder is checked where it is made


def _system_folders(root: Path) -> tuple:
    """The campaign's game's own data folders (the host names none); none for an unknown game,
    which the command reports itself."""
    from ..systems import load_system, system_name

    try:
        return load_system(system_name(root)).folders
    except NarateerError:
        return ()


def check_folders(root: Path) -> Path:
    """A data folder (or narateer.yaml) that is a symlink leading outside the campaign is bad input."""
    for name in (*FOLDERS, *_system_folders(root), CONFIG):
        path = root / name
        if path.is_symlink():
            try:
                real = path.resolve(strict=True)
                inside = real != root and str(real).startswith(str(root.resolve()) + os.sep)
            except (OSError, RuntimeError):
                inside = False
            if not inside:
                what = name if name == CONFIG else f"{name}/"
                raise BadInput(f"{what} is a symlink leading outside the campaign (or nowhere)", rule="G-TRUST-4",
                               fix=f"replace the link with the real {what}")
    return root


def check_id(text: str, what: str = "character") -> str:
    if not isinstance(text, str) or not ID_RE.fullmatch(text):
        raise BadInput(f"{what} id {text!r} is not valid",
                       fix="use 1 to 64 letters, digits, - and _ (the file name without .yaml)")
    return text


_DEFAULT_RULES: dict = {}  # system name -> its shipped ruleset data


def default_rules(system=None) -> dict:
    """A system's shipped ruleset data (Narateer's when none is named)."""
    if system is None:
        from ..systems import load_system

        system = load_system(None)
    if system.name not in _DEFAULT_RULES:
        _DEFAULT_RULES[system.name] = view(system.rules_data(), "the rules")
    return _DEFAULT_RULES[system.name]


class Campaign:
    def __init__(self, root: Path):
        self.root = root
        self._config = None
        self._rules = None
        self._system = None
        self.rules_key = None  # what the ruleset was built from (rules file, narateer.yaml): see _cached_config
        self._rules_checked = False  # the config cache says these files built a valid ruleset before

    def reload(self):
        """Forget narateer.yaml and the ruleset read so far (a writer reads them again under the
        lock, after any replay). The system stays: the command was chosen by it."""
        self._config = None
        self._rules = None
        self.rules_key = None
        self._rules_checked = False

    @property
    def system(self):
        """The rule system this campaign plays: `system:` in narateer.yaml, default narateer."""
        if self._system is None:
            from ..systems import DEFAULT, load_system

            name = self.config().get("system", DEFAULT)
            if not isinstance(name, str) or not name.strip():
                raise BadInput(f"{CONFIG}: system must be a name, not {name!r}", rule="S-SYS-1",
                               fix="write for example `system: narateer`, or remove the line")
            self._system = load_system(name.strip())
        return self._system

    @property
    def config_path(self) -> Path:
        return self.root / CONFIG

    def config(self) -> dict:
        """Narateer.yaml as plain data (read-only), from the private cache while the file is unchanged."""
        if self._config is None:
            self._config = view(self._cached_config(), CONFIG)
        return self._config

    def config_doc(self):
        """narateer.yaml as a round-trip document and its text, for commands that rewrite it."""
        text = yamlio.read_text(self.config_path, CONFIG)
        doc = yamlio.load_rt(text, CONFIG) if text.strip() else None
        if doc is None:
            from ruamel.yaml.comments import CommentedMap

            doc = CommentedMap()
        if not isinstance(doc, dict):
            raise BadInput(f"{CONFIG}: must be a mapping", fix="see the README's campaign section")
        return doc, text

    def _cache_key(self) -> list:
        from ..systems import load_system, system_name

        system = load_system(system_name(self.root))
        out = [CACHE_VERSION, system.name]
        for path in (system.rules_path, self.config_path):
            with open(path, "rb") as fh:
                st = os.fstat(fh.fileno())
                out.append(yamlio.file_key(st, yamlio.read_upto(fh, yamlio.MAX_BYTES, st.st_size)))
        return out

    def _cached_config(self) -> dict:
        """Parsing YAML is the slowest part of a command: the parsed ruleset defaults and
        narateer.yaml are kept in the private cache config/narateer.json (store/cache.py)."""
        try:
            key = self._cache_key()
        except OSError:
            key = None
        self.rules_key = key
        data = cache.get(self.root, "config", "narateer", key) if key is not None else None
        if data is not None and isinstance(data.get("config"), dict):
            _DEFAULT_RULES.setdefault(key[1], view(data["default"], "the rules"))
            self._rules_checked = data.get("checked") is True
            return data["config"]
        doc, _ = self.config_doc()
        config = yamlio.to_plain(doc)
        if key is not None:
            from ..systems import load_system

            cache.put(self.root, "config", "narateer", {"default": default_rules(load_system(key[1])),
                                                        "config": config}, key)
        return config

    @property
    def rules(self):
        if self._rules is None:
            overrides = self.config().get("rules") or {}
            system = self.system
            self._rules = view(system.ruleset(overrides, CONFIG, data=default_rules(system), checked=self._rules_checked),
                               "the rules")
            if not self._rules_checked and self.rules_key is not None:  # built and checked: say so in the cache
                cache.put(self.root, "config", "narateer", {"default": default_rules(system), "config": self._config,
                                                            "checked": True}, self.rules_key)
        return self._rules

    @property
    def counters(self) -> tuple[str, tuple[str, ...]]:
        """The sheet block holding the counters the log tracks, and its keys (from SYSTEM.counters)."""
        return counter_block(self.system.counters)

    def sheet_path(self, char_id: str) -> Path:
        check_id(char_id)
        path = self.root / "characters" / f"{char_id}.yaml"
        if path.is_symlink():
            try:
                real = path.resolve()
            except (OSError, RuntimeError):  # a symlink loop
                raise BadInput(f"characters/{char_id}.yaml is a symlink loop",
                               fix="replace the link with the file itself") from None
            if not str(real).startswith(str((self.root / "characters").resolve()) + os.sep):
                raise BadInput(f"characters/{char_id}.yaml links outside the campaign",
                               fix="replace the link with the file itself")
        return path

    def sheet_ids(self) -> list[str]:
        folder = self.root / "characters"
        if not folder.is_dir():
            return []
        return sorted(p.stem for p in folder.glob("*.yaml") if ID_RE.match(p.stem))

    def real_id(self, text: str) -> str:
        """A character id as the campaign files it: `text` when a sheet has exactly that name, else the one
        sheet whose id is `text` but for case (`Selka` is `selka`); two such sheets are bad input naming both.
        Any other text is returned as it is, for the caller's own message."""
        if not isinstance(text, str) or not ID_RE.match(text) or (self.root / "characters" / f"{text}.yaml").exists():
            return text
        same = [cid for cid in self.sheet_ids() if cid.lower() == text.lower()]
        if len(same) > 1:
            raise BadInput(f"{text!r} names {' and '.join(same)}, ids that differ only by case",
                           fix=f"write the id exactly: {' or '.join(same)}")
        return same[0] if same else text

    def case_twins(self, char_id: str) -> list[str]:
        """The sheets whose ids are `char_id` but for case, itself excepted (a new id must have none)."""
        return [cid for cid in self.sheet_ids() if cid.lower() == char_id.lower() and cid != char_id]

    def load(self, char_id: str) -> "SheetFile":
        path = self.sheet_path(char_id)
        label = f"characters/{char_id}.yaml"
        if not path.exists() and self.real_id(char_id) != char_id:
            return self.load(self.real_id(char_id))
        if not path.exists():
            from ..suggest import unknown

            raise unknown("character", char_id, self.sheet_ids(), detail=f" (no {label})", create="narateer new ID")
        text, key = yamlio.read_text(path, label, with_key=True)
        cached = cache.get(self.root, "sheets", char_id, key)
        if cached is not None:
            try:  # a parse cached under this ruleset passed its schema then: only a new ruleset checks it again
                rules = self.rules  # also sets rules_key
                checked = self.rules_key is not None and cached.get("rules") == self.rules_key
                doc = view(cached["doc"], label)  # what a game reads is read-only
                sheet = self.system.parse_sheet(char_id, self._applied(doc, text, label), label, rules,
                                                checked=checked)
                sf = SheetFile(path, label, text, None, sheet, cached["dice"], doc, self.counters)
                sf.numbers = numbers_from(cached.get("numbers"))
                if not checked and self.rules_key is not None:  # it passed under these rules: say so, once
                    cache.put(self.root, "sheets", char_id, {**cached, "rules": self.rules_key}, key)
                return sf
            except (BadInput, KeyError, TypeError, AttributeError, ValueError):
                pass  # parse the text again, for messages with line numbers
        doc = yamlio.load_rt(text, label)
        plain = view(yamlio.to_plain(doc), label)  # the game reads the sheet, the host keeps the document
        try:
            sheet = self.system.parse_sheet(char_id, self._applied(plain, text, label), label, self.rules)
        except BadInput:  # read again from the document that knows its lines, for the message's line number
            self.system.parse_sheet(char_id, doc, label, self.rules)
            raise
        sf = SheetFile(path, label, text, doc, sheet, dice_places(doc, self.counters), plain, self.counters)
        sf.numbers = number_places(doc)
        self.remember(sf, key)
        return sf

    def _applied(self, doc, text: str, label: str):
        """The sheet a game reads: its sealed values (store/sealed.py) as this machine can read them, the value
        where it holds the secret action's record, else a value that refuses to be read. The document the
        host edits keeps each commitment."""
        from .sealed import PREFIX

        if PREFIX not in text:
            return doc
        from .sealed import Opened, applied

        found, _, _ = applied(doc, Opened(self.root))
        return doc if found is doc else view(found, label)

    # Parsing a sheet is most of a command's own time, so each parse is kept in
    # the private cache sheets/ID.json (store/cache.py). A command that edits a sheet's dice in
    # place stores the parse of the text it wrote.

    def remember(self, sf: "SheetFile", key=None, text: str | None = None):
        """Keep a sheet's parse for the next command (after a write: of `text`, just written)."""
        if sf.plain is not None:  # no places (counters not in one block, or no block yet): edits parse the text
            data = {"doc": sf.plain, "dice": sf.places, "rules": self.rules_key}
            if _text_keys(sf.plain):  # JSON gives the parse back exactly: `check` may read it (store/checked.py)
                data["exact"] = True
            if sf.numbers is not None:
                data["numbers"] = [[list(path), line, col] for path, (line, col) in sf.numbers.items()]
            cache.put(self.root, "sheets", sf.id, data, key, sf.path, text)


def _text_keys(value) -> bool:
    """Whether every mapping key in `value` is text (JSON turns a number, true or null key into text)."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _text_keys(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_text_keys(v) for v in value)
    return True


def data_file(root: Path, kind: str, path: Path, parse):
    """A game's own data file (a d20-cards card) as plain data, through the private cache kind/ID.json
    (store/cache.py) keyed by the file's stat and checksums: `parse(text)` gives the data of a valid file,
    or None for one not to keep. The data is kept (once the command succeeds) when JSON gives it back
    exactly. None when the file is not one to cache (an id that is not one, a file that cannot be read
    here): the game reads it its own way, for its own message."""
    import json

    if not ID_RE.fullmatch(path.stem):
        return None
    try:
        text, key = yamlio.read_text(path, f"{path.parent.name}/{path.name}", with_key=True)
    except (BadInput, OSError):
        return None
    cached = cache.get(root, kind, path.stem, key)
    if cached is not None and "data" in cached:
        return cached["data"]
    data = parse(text)
    try:
        exact = data is not None and json.loads(json.dumps(data)) == data
    except (TypeError, ValueError):
        exact = False
    if exact:
        cache.put(root, kind, path.stem, {"data": data}, key)
    return data


def counters_of(sheet) -> dict:
    """A sheet record's counters (the game interface's `.counters`; `.dice`, its older name, for a game that has only
    that; Narateer's counters are its Action Dice)."""
    counters = getattr(sheet, "counters", None)
    return counters if counters is not None else sheet.dice


def counter_block(counters) -> tuple[str, tuple[str, ...]]:
    """("action_dice", ("ready", "used", "wounded")) from ("action_dice.ready", ...): the one block of
    counters a command edits in place (a system whose counters are not in one block gets ("", ())). A counter
    path with `*` (Narateer's `magic_dice.*` and `traits.*.uses.left`) is edited key by key like any other value,
    not here: it still adds up across two clones (store/merge.py), and the everyday block keeps its fast path."""
    counters = [c for c in counters if "*" not in c.split(".")]
    blocks = {c.partition(".")[0] for c in counters if "." in c}
    if len(blocks) != 1:
        return "", ()
    return blocks.pop(), tuple(c.partition(".")[2] for c in counters)


def dice_places(doc, counters) -> dict | None:
    """Where each counter stands in the text: {state: [line, col, value]}."""
    name, states = counters
    block = doc.get(name) if isinstance(doc, dict) and name else None
    if not isinstance(block, dict):
        return None
    out = {}
    for state in states:
        if state in block:
            try:
                line, col = block.lc.value(state)
            except Exception:
                return None
            out[state] = [line, col, block[state]]
    return out


def number_places(doc) -> dict | None:
    """{key path: (line, col)} of every whole number in a round-trip document's mappings (where a
    one-value edit can replace it in the text); None when the document does not know its lines."""
    if not isinstance(doc, dict) or not hasattr(doc, "lc"):
        return None
    out = {}

    def walk(node, path):
        for key, value in node.items():
            if not isinstance(key, str):
                continue
            if isinstance(value, dict):
                walk(value, (*path, key))
            elif isinstance(value, int) and not isinstance(value, bool):
                try:
                    line, col = node.lc.value(key)
                except Exception:
                    continue
                out[(*path, key)] = (line, col)

    walk(doc, ())
    return out


def numbers_from(cached) -> dict | None:
    """`number_places` as the sheet cache keeps it ([[path, line, col], ...])."""
    if not isinstance(cached, list):
        return None
    try:
        return {tuple(path): (int(line), int(col)) for path, line, col in cached}
    except (TypeError, ValueError):
        return None


_ABSENT = object()


class SheetFile:
    """A loaded character file: the engine's Sheet, its text, and (loaded when needed) the round-trip document."""

    def __init__(self, path, label, text, doc, sheet, places=None, plain=None, counters=("", ())):
        self.path = path
        self.label = label
        self.original = text  # the file as read
        self.text = text  # the file with this command's edits so far
        self._doc = doc
        self.sheet = sheet
        self.places = places  # {state: [line, col, value]}: where each counter stands
        self.plain = plain if plain is not None else (yamlio.to_plain(doc) if doc is not None else None)
        self.block, self.states = counters  # the sheet block of counters (action_dice) and its keys
        self.numbers = None  # {key path: (line, col)} of the whole numbers in `text` (number_places), when known

    @property
    def plain(self):
        """The sheet as plain data, read-only: a game that changes it in memory is stopped at once."""
        return self._plain

    @plain.setter
    def plain(self, value):
        self._plain = None if value is None else view(value, self.label)

    @property
    def doc(self):
        if self._doc is None:
            self._doc = yamlio.load_rt(self.text, self.label)
        return self._doc

    @property
    def id(self) -> str:
        return self.sheet.id

    def render(self, dice: dict) -> str:
        """New file text with the counters `dice` set: edited where they stand on their own lines (the parse
        kept for the next command), else through the one key-by-key edit (`edit`)."""
        spliced = self._splice_dice(dice)
        if spliced is not None:
            return spliced
        paths = {(self.block, state): dice.get(state, 0) for state in self.states}
        return self.edit(paths, skip_zero=frozenset(paths))

    def edit(self, edits: dict, explicit_null: bool = False, skip_zero=frozenset()) -> str:
        """New file text with each {key path: value} of `edits` set, only their lines changed (store/edit.py);
        the parse is kept up to date for the next command."""
        from .edit import edit

        spliced = self._splice_numbers(edits)
        if spliced is not None:
            return spliced
        before = self._doc
        text, doc = edit(self.text, self.doc, edits, self.label, explicit_null, skip_zero)
        if text != self.text:
            self.text, self._doc = text, doc
            self.plain = yamlio.to_plain(doc)
            self.places = dice_places(doc, (self.block, self.states)) if self.block else None
            # a document parsed from the new text knows its lines; one merged and dumped does not
            self.numbers = number_places(doc) if doc is not before else None
        return self.text

    def _splice_numbers(self, edits: dict) -> str | None:
        """The edit without the round-trip document, when every value it changes is a whole number that
        stands where the cached parse says (a mapping edit goes key by key when its keys stay the same):
        the number is replaced on its line, as store/edit.py would, and the parse kept up to date for the
        next command. None: the caller makes the one key-by-key edit. Counters in one block (Narateer's
        dice) have their own place-keeping (`render`), so such sheets always take the key-by-key edit."""
        if self.numbers is None or self.plain is None or self.block:
            return None
        changes = number_changes(self.plain, self.numbers, edits)
        if changes is None:
            return None
        if not changes:
            return self.text
        text, shifts = splice_places(self.text, [(*self.numbers[path], old, new) for path, old, new in changes])
        if text is None:
            return None
        numbers = {path: (line, col + sum(d for at, c, d in shifts if at == line and c < col))
                   for path, (line, col) in self.numbers.items()}
        plain = self.plain
        for path, _old, new in changes:
            plain = _with(plain, path, new)
        self.text, self._doc, self.plain, self.numbers = text, None, plain, numbers
        return text

    def _splice_dice(self, dice: dict) -> str | None:
        """Edit the counters in place, so only their lines change; keep the parse
        up to date for the next command. None: the caller falls back to a round-trip dump."""
        if self.places is None or self.plain is None:
            return None
        places = {state: list(place) for state, place in self.places.items()}
        edits = []
        for state in self.states:
            value = dice.get(state, 0)
            if state in places:
                if places[state][2] != value:
                    edits.append((state, value))
            elif value:
                return None  # a new key: leave it to the dump
        if not edits:
            return self.text
        text, shifts = splice_places(self.text, [(*places[state], value) for state, value in edits])
        if text is None:
            return None
        for state, value in edits:
            places[state][2] = value
        for place in places.values():  # later numbers on an edited line move with it
            place[1] += sum(delta for line, col, delta in shifts if line == place[0] and col < place[1])
        plain = dict(self.plain)
        plain[self.block] = {**plain[self.block], **dict(edits)}
        self.places, self.plain = places, plain
        self.text, self._doc = text, None  # a later round-trip edit starts from this text
        return text


def number_changes(plain: dict, numbers: dict, edits: dict) -> list | None:
    """[(key path, old, new)] for the whole numbers `edits` change, when that is all they change and each
    stands where `numbers` says; None when any edit needs the key-by-key edit (store/edit.py)."""
    changes = []
    for path, value in edits.items():
        path = tuple(path)
        if not path or not all(isinstance(k, str) for k in path):
            return None
        parent = plain
        for key in path[:-1]:
            parent = parent.get(key) if isinstance(parent, dict) else None
        if not _leaves(parent, path, value, numbers, changes):
            return None
    return changes


def _leaves(node, path: tuple, value, numbers: dict, changes: list) -> bool:
    """Note the number changes of setting node[path[-1]] to `value` (a mapping with the same keys goes key by
    key); False when the edit is not only whole numbers replaced where they stand."""
    from ..outcome import REMOVED
    from .edit import same

    old = node.get(path[-1], _ABSENT) if isinstance(node, dict) else _ABSENT
    if value is REMOVED or old is _ABSENT:
        return False
    if isinstance(value, dict):
        if not isinstance(old, dict) or set(old) != set(value) or not all(isinstance(k, str) for k in value):
            return False
        return all(_leaves(old, (*path, k), v, numbers, changes) for k, v in value.items())
    if same(old, value):
        return True
    if not (_whole(value) and _whole(old) and path in numbers):
        return False
    changes.append((path, old, value))
    return True


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _with(plain: dict, path: tuple, value) -> dict:
    """A copy of `plain` with the value at `path` replaced (the mappings on the way copied, the rest shared)."""
    out = dict(plain)
    out[path[0]] = value if len(path) == 1 else _with(plain[path[0]], path[1:], value)
    return out


_NUMBER = re.compile(r"-?[0-9]+")


def splice_places(text: str, places) -> tuple[str | None, list]:
    """Replace whole numbers at (line, col) where the old value stands; returns the new text and
    the column shifts [(line, col, delta)] the edits caused (None when a number is not there)."""
    lines = text.split("\n")
    shifts = []
    for line, col, old, new in sorted(places, key=lambda p: (p[0], -p[1])):
        if isinstance(old, bool) or not isinstance(old, int) or line >= len(lines):
            return None, []
        row = lines[line]
        match = _NUMBER.match(row, col)
        if match is None or int(match.group()) != old or row[match.end():match.end() + 1] not in ("", " ", ",", "}", "\r", "#"):
            return None, []
        lines[line] = row[:col] + str(new) + row[match.end():]
        shifts.append((line, col, len(str(new)) - (match.end() - col)))
    return "\n".join(lines), shifts
