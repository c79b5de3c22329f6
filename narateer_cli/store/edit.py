"""The one key-by-key edit of a YAML document, the host's for every game: every game's sheet edits go through here.

`edit(text, doc, edits)` takes {key path: new value} and returns the new text
with only the lines of changed values rewritten: a whole number that stands
on its own is replaced where it stands, a one-line flow list is rewritten on
its line, and anything else is merged into the round-trip document (a
mapping key by key, a list item by item) so comments, key order and unknown
keys survive.
"""

from __future__ import annotations

from ..outcome import REMOVED
from . import yamlio

_ABSENT = object()


def edit(text: str, doc, edits: dict, label: str, explicit_null: bool = False, skip_zero=frozenset()):
    """(new text, new document) after `edits`; the same objects when nothing changed. `skip_zero`: paths
    whose 0 is not written when the key is absent (a counter that is not there counts 0)."""
    places, lists, rest = _sorted_edits(doc, edits, skip_zero)
    if not (places or lists or rest):
        return text, doc
    # a dump rewrites the whole document, so then every edit goes into it (comments keep their columns)
    spliced = None if rest else _spliced(text, places, lists)
    if spliced is None:  # a dump, or a number or list not where the document says: merge every edit
        rest.update({path: value for path, value in edits.items() if path not in rest and value is not REMOVED})
    else:
        return (spliced, yamlio.load_rt(spliced, label)) if spliced != text else (text, doc)
    for path, value in rest.items():
        if value is REMOVED:
            del _parent(doc, path)[path[-1]]
        else:
            _merge(_parent(doc, path, make=True), path[-1], value)
    return yamlio.dump_rt(doc, text, explicit_null=explicit_null), doc


def _spliced(text: str, places: list, lists: list) -> str | None:
    """The text with each number and one-line list replaced where it stands; None when one is not there."""
    from .campaign import splice_places

    if places:
        text, _ = splice_places(text, places)
    if text is not None and lists:
        text = _splice_lists(text, lists)
    return text


def _sorted_edits(doc, edits: dict, skip_zero) -> tuple[list, list, dict]:
    """The edits that change something, by how they are made: whole numbers replaced where they stand
    [(line, col, old, new)], one-line lists [(path, (line, col), values)], and the rest {path: value}."""
    places, lists, rest = [], [], {}
    for path, value in edits.items():
        parent = _parent(doc, path)
        old = parent.get(path[-1], _ABSENT) if isinstance(parent, dict) else _ABSENT
        if old is _ABSENT:
            if not (value is REMOVED or value in ({}, [], None) or (value == 0 and path in skip_zero)):
                rest[path] = value
            continue
        place = _place(parent, path[-1])
        if value is not REMOVED and same(old, value):
            continue
        if place is not None and _whole(old) and _whole(value):
            places.append((*place, old, value))
        elif place is not None and isinstance(old, list) and isinstance(value, list):
            lists.append((path, place, value))
        else:
            rest[path] = value
    return places, lists, rest


def same(old, new) -> bool:
    """Equal values; lists of names compare without case (a sheet may spell a condition `Stunned`)."""
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(_key(a) == _key(b) for a, b in zip(old, new))
    return type(old) is type(new) and old == new if isinstance(old, bool) or isinstance(new, bool) else old == new


def _key(item):
    return item.lower() if isinstance(item, str) else item


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parent(doc, path: tuple, make: bool = False):
    node = doc
    for key in path[:-1]:
        child = node.get(key) if isinstance(node, dict) else None
        if not isinstance(child, dict):
            if not make or not isinstance(node, dict):
                return None
            from ruamel.yaml.comments import CommentedMap

            child = node[key] = CommentedMap()
        node = child
    return node


def _place(parent, key):
    try:
        line, col = parent.lc.value(key)
    except (AttributeError, KeyError, TypeError):
        return None
    return line, col


def _splice_lists(text: str, lists) -> str | None:
    """Rewrite each one-line flow list `[a, b]` on its own line; None when one is not such a list."""
    lines = text.split("\n")
    for _path, (line, col), values in sorted(lists, key=lambda item: (item[1][0], -item[1][1])):
        row = lines[line] if line < len(lines) else ""
        end = row.find("]", col)
        if row[col:col + 1] != "[" or end < 0 or any(ch in row[col + 1:end] for ch in "[{\"'"):
            return None  # a quoted item may hold "]" itself: the round trip writes it
        if any(not isinstance(v, (str, int)) or isinstance(v, bool) for v in values):
            return None
        lines[line] = row[:col] + yamlio.flow(list(values)) + row[end + 1:]
    return "\n".join(lines)


def _merge(parent, key, value):
    """Set parent[key] to value, editing nested mappings and lists in place (comments survive)."""
    current = parent.get(key) if hasattr(parent, "get") else None
    if isinstance(value, dict) and isinstance(current, dict):
        return _merge_mapping(current, value)
    if isinstance(value, list) and isinstance(current, list):
        return _merge_list(current, value)
    if key not in parent and value in ({}, [], None):
        return
    parent[key] = _node(value)


def _merge_mapping(current, value: dict):
    if not current and hasattr(current, "fa"):
        current.fa.set_flow_style()  # an empty mapping was written `{}`: keep it a flow mapping
    for k in [k for k in current if k not in value]:
        del current[k]
    for k, v in value.items():
        if not same(current.get(k, _ABSENT), v):
            _merge(current, k, v)


def _merge_list(current, value: list):
    wanted = [_key(v) for v in value]
    for item in [c for c in current if _key(c) not in wanted]:
        current.remove(item)
    have = [_key(c) for c in current]
    for item in value:
        if _key(item) not in have:
            current.append(_node(item))
    if hasattr(current, "fa") and not current:
        current.fa.set_flow_style()


def _node(value):
    """A new small mapping is written in flow style, as the sheet formats show it."""
    if not isinstance(value, dict):
        return value
    from ruamel.yaml.comments import CommentedMap

    node = CommentedMap((k, _node(v)) for k, v in value.items())
    node.fa.set_flow_style()
    return node
