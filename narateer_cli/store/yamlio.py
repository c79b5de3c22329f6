"""YAML in and out: round-trip loads that keep comments, and a small emitter.

Character files and narateer.yaml are people's files: they are loaded with
ruamel's round-trip loader and written back with only changed values edited,
so comments, key order and unknown keys survive. Encounter state and log
entries are the tool's own: `emit` writes them with a fixed key order and no
YAML library at all, which keeps appends cheap and diffs stable.
"""

from __future__ import annotations

import json
import os
import re
import stat

from ..errors import BadInput

MAX_NODES = 100_000
MAX_BYTES = 16 * 1024 * 1024


def _yaml(typ="rt"):
    from ruamel.yaml import YAML

    y = YAML(typ=typ, pure=True)
    if typ == "rt":
        y.preserve_quotes = True
        y.width = 4096
    return y


def read_upto(fh, limit: int, size: int) -> bytes:
    """At most `limit` bytes of an open file whose size was `size`. `fh.read(limit)` would allocate `limit`
    bytes (16 MiB) for every small sheet; this reads the size, and on only should the file have grown."""
    data = fh.read(min(size, limit - 1) + 1)
    if len(data) > size and len(data) < limit:
        data += fh.read(limit - len(data))
    return data


def read_text(path, label: str, with_key: bool = False, nofollow: bool = False):
    """A file's text (UTF-8, a regular file, not binary); with `with_key`, also its
    identity [inode, size, mtime_ns] taken from the very file object that was read.
    `nofollow`: a symlink in the file's own place is not followed (private records)."""
    extra = os.O_NONBLOCK | (os.O_NOFOLLOW if nofollow else 0)
    try:
        # O_NONBLOCK: a FIFO in a file's place must not hang the command (with the lock held)
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | extra)) as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise BadInput(f"{label}: not a regular file", fix="replace it with the YAML file (or restore it from git)")
            data = read_upto(fh, MAX_BYTES + 1, st.st_size)
    except FileNotFoundError:
        raise BadInput(f"{label}: no such file", fix="check the name, or create it first") from None
    except IsADirectoryError:
        raise BadInput(f"{label}: is a directory, not a file", fix="remove or rename it") from None
    except OSError as exc:
        raise BadInput(f"{label}: cannot read ({exc.strerror})", fix="check the file's permissions") from None
    if len(data) > MAX_BYTES:
        raise BadInput(f"{label}: larger than {MAX_BYTES // (1024 * 1024)} MiB", fix="this is not a narateer file")
    if b"\0" in data:
        raise BadInput(f"{label}: binary data, not YAML", fix="restore the file from git")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{label}: not UTF-8 text (byte {exc.start})", fix="save the file as UTF-8") from None
    return (text, file_key(st, data)) if with_key else text


def file_key(st, data: bytes) -> list:
    """What identifies one version of a file for the private caches: inode, size and mtime
    (which a quick rewrite can repeat) plus two checksums of the bytes themselves."""
    import zlib

    return [st.st_ino, st.st_size, st.st_mtime_ns, zlib.crc32(data), zlib.adler32(data)]


def load_rt(text: str, label: str):
    """Round-trip load; YAML errors become one line naming the file and line."""
    return _load(text, label, "rt")


def _load(text: str, label: str, typ: str):
    from ruamel.yaml.error import YAMLError

    try:
        doc = _yaml(typ).load(text)
    except (YAMLError, ValueError, TypeError, RecursionError) as exc:
        _refuse_unmerged(text, label)
        raise _yaml_error(exc, label) from None
    check_size(doc, label)
    return doc


def _refuse_unmerged(text: str, label: str):
    """A file that fails to parse because git left its conflict markers in it is reported
    as writers report it (unmerged; finish the merge), not as a YAML parser message."""
    from .gitops import Unmerged, has_conflict_markers

    if has_conflict_markers(text):
        raise Unmerged([label]) from None


def _yaml_error(exc, label: str) -> BadInput:
    """A YAML error as one line naming the file (and its line, when the parser knows it)."""
    from ruamel.yaml.error import MarkedYAMLError

    if isinstance(exc, MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        return BadInput(f"{label}{line}: {problem}", fix="fix the YAML there (or restore the file from git)")
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return BadInput(f"{label}: invalid YAML ({first})", fix="fix the file (or restore it from git)")


def check_size(doc, label: str):
    """Refuse alias bombs and absurd nesting before anything walks the tree."""
    seen = 0
    stack = [(doc, 0)]
    ids = set()
    while stack:
        node, depth = stack.pop()
        seen += 1
        if seen > MAX_NODES or depth > 64:
            raise BadInput(f"{label}: too large or too deeply nested (aliases expand past {MAX_NODES} values)",
                           fix="this is not a narateer file; restore it from git")
        if isinstance(node, dict):
            if id(node) in ids:
                seen += len(node)
            ids.add(id(node))
            stack.extend((v, depth + 1) for v in node.values())
            stack.extend((k, depth + 1) for k in node.keys() if isinstance(k, (dict, list)))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)


def line_of(node, key) -> int | None:
    """1-based line of `key` in a round-trip mapping, when known."""
    try:
        return node.lc.key(key)[0] + 1
    except Exception:
        return None


def dump_rt(doc, original: str, explicit_null: bool = False) -> str:
    """Dump a round-trip document with the original's indentation. `explicit_null`: a None value is
    written `null` (as a system's sheet format spells it) rather than left empty."""
    import io

    y = _yaml("rt")
    if explicit_null:
        y.Representer = _null_representer()
    seq_indent, offset = guess_indent(original)
    y.indent(mapping=guess_map_indent(original), sequence=seq_indent, offset=offset)
    out = io.StringIO()
    y.dump(doc, out)
    text = out.getvalue()
    if original.startswith("---") and not text.startswith("---"):
        text = "---\n" + text
    if "\r\n" in original:  # keep CRLF files CRLF, or every line would show as changed
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    return text


_NULL_REPRESENTER = []


def _null_representer():
    """A round-trip representer that writes None as `null` (a subclass: ruamel's add_representer changes
    the class it is called on, and the plain one must stay as it is)."""
    if not _NULL_REPRESENTER:
        from ruamel.yaml.representer import RoundTripRepresenter

        class NullRepresenter(RoundTripRepresenter):
            pass

        NullRepresenter.add_representer(
            type(None), lambda rep, _: rep.represent_scalar("tag:yaml.org,2002:null", "null"))
        _NULL_REPRESENTER.append(NullRepresenter)
    return _NULL_REPRESENTER[0]


def guess_map_indent(text: str) -> int:
    """Spaces by which the file indents a nested mapping (2 when it has none)."""
    lines = text.splitlines()
    for prev, line in zip(lines, lines[1:]):
        key, inner = prev.strip(), line.strip()
        if key.endswith(":") and not key.startswith(("#", "-")) and inner and not inner.startswith(("#", "-")):
            step = (len(line) - len(line.lstrip(" "))) - (len(prev) - len(prev.lstrip(" ")))
            if step > 0:
                return step
    return 2


def guess_indent(text: str) -> tuple[int, int]:
    """(sequence indent, dash offset) as the file already uses them."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        stripped = line.lstrip(" ")
        if stripped.startswith("- ") and i > 0:
            prev = lines[i - 1]
            if prev.rstrip().endswith(":"):
                parent = len(prev) - len(prev.lstrip(" "))
                offset = len(line) - len(stripped) - parent
                return offset + 2, offset
    return 2, 0


# ---- the tool's own YAML: a fixed, dependency-free emitter --------------------------

_PLAIN = r"^[A-Za-z_][A-Za-z0-9_ .\-/]*$"  # compiled on first use (start-up time)
_RESERVED = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def scalar(value) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return repr(value)
    text = str(value)
    if re.match(_PLAIN, text) and text.lower() not in _RESERVED and not text.endswith(" ") and ": " not in text:
        return text
    return json.dumps(text, ensure_ascii=False)


def flow(value) -> str:
    """Plain data as one line of YAML flow style."""
    return _flow(value)


def _flow(value) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return scalar(value)


def _is_flat(value) -> bool:
    if isinstance(value, dict):
        return all(not isinstance(v, (dict, list, tuple)) for v in value.values()) and len(value) <= 6
    if isinstance(value, (list, tuple)):
        return all(not isinstance(v, (dict, list, tuple)) for v in value)
    return True


def emit(value, indent: int = 0) -> list[str]:
    """Block YAML lines for plain data: mappings in their given key order, short leaves in flow style."""
    pad = " " * indent
    lines = []
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list, tuple)) and item and not _is_flat(item):
                lines.append(f"{pad}{scalar(key)}:")
                lines.extend(emit(item, indent + 2))
            else:
                lines.append(f"{pad}{scalar(key)}: {_flow(item)}")
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, dict) and item and not _is_flat(item):
                inner = emit(item, indent + 2)
                inner[0] = pad + "- " + inner[0][indent + 2:]
                lines.extend(inner)
            else:
                lines.append(f"{pad}- {_flow(item)}")
    else:
        lines.append(pad + scalar(value))
    return lines


def emit_text(value) -> str:
    return "\n".join(emit(value)) + "\n"


def load_safe(text: str, label: str):
    """Plain-data load of the tool's own files (no round trip needed)."""
    return _load(text, label, "safe")


def to_plain(node):
    """Round-trip containers as plain dicts and lists (ruamel types stripped)."""
    if isinstance(node, dict):
        return {str(k) if not isinstance(k, (int, bool)) else k: to_plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [to_plain(v) for v in node]
    if isinstance(node, str):
        return str(node)
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return node
