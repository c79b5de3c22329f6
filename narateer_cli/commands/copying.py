"""`new ID --from OTHER [--count N]` copies a sheet with fresh counters, in every system.

The host copies the document (comments and key order kept) and names the
copies; the system's `fresh_sheet` hook says what "fresh" means in its game
(Narateer: every Action Die Ready, no conditions).
"""

from __future__ import annotations

from ..errors import BadInput


def copy_ids(char_id: str, count: int | None) -> list[str]:
    """ID alone, or ID-1..ID-N with --count N."""
    from ..store.campaign import check_id

    if count is not None and not 1 <= count <= 50:
        raise BadInput(f"--count {count} is out of range", fix="give --count from 1 to 50")
    ids = [char_id] if count is None else [f"{char_id}-{n}" for n in range(1, count + 1)]
    for cid in ids:
        check_id(cid)
    return ids


def sheet_copies(session, other: str, char_id: str, count: int | None, name: str | None = None) -> dict:
    """The copies of OTHER's sheet, {id: text}, for an Outcome's `created` (the host writes them)."""
    from ..store import yamlio

    ids = copy_ids(char_id, count)
    source = session.load(other)
    fresh = session.campaign.system.hook("fresh_sheet")
    out = {}
    for number, cid in enumerate(ids, 1):
        path = session.campaign.sheet_path(cid)
        if path.exists():
            raise BadInput(f"characters/{cid}.yaml already exists", fix="edit it, or choose another id")
        doc = yamlio.load_rt(source.original, f"characters/{other}.yaml")
        if fresh is not None:
            doc = fresh(doc, session.rules)
        base = name or str(doc.get("name", other))
        doc["name"] = base if count is None else f"{base} {number}"
        out[cid] = yamlio.dump_rt(doc, source.original)
    return out
