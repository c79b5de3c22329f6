"""Saving d20-cards changes through the host's store: only changed values, key by key.

`load_world` reads the characters and `actions/` cards of the campaign through
the session; `save` writes each changed sheet (merging new values into its
round-trip document so comments, order and unknown keys survive), the clock,
the encounter state, one log entry with `state: {char: {before, after}}` and
the undo record, all in the session's one transaction.
"""

from __future__ import annotations

from .sheet import sheet_values


def load_world(session, enc_state=None, ids=None):
    """The characters named in `ids` (all when None) and their companions, the cards, the clock."""
    from .encounter import as_record
    from .files import load_cards
    from .results import World

    roster = tuple(session.campaign.sheet_ids())
    wanted = [c for c in (roster if ids is None else dict.fromkeys(ids)) if c in roster]
    chars = {cid: sheet(session, cid) for cid in wanted}
    for char in list(chars.values()):
        for cid in (*char.companions, char.owner):
            if cid and cid in roster and cid not in chars:
                chars[cid] = sheet(session, cid)
    clock = session.campaign.config().get("clock") or 0
    return World(chars, load_cards(session.campaign.root), as_record(enc_state), int(clock), roster)


CACHE = "d20-sheets"


def sheet(session, cid):
    """A character through the session, from its cached parse while the file is unchanged.

    Parsing a sheet with the round-trip loader is most of a command's time; the
    plain data of each file version is kept in .narateer/d20-sheets/ (the host's
    cache). The round-trip document is loaded only when the sheet is written.
    """
    from narateer_cli.errors import BadInput
    from narateer_cli.store import cache, yamlio
    from narateer_cli.store.campaign import SheetFile

    from .sheet import parse_sheet

    if cid in session.sheets:
        return session.sheets[cid].sheet
    camp = session.campaign
    path, label = camp.sheet_path(cid), f"characters/{cid}.yaml"
    if path.is_file():
        text, key = yamlio.read_text(path, label, with_key=True)
        plain = cache.get(camp.root, CACHE, cid, key)
        if plain is not None:
            try:
                record = parse_sheet(cid, plain, label, camp.rules)
            except BadInput:
                record = None  # parse the text again, for messages with line numbers
            if record is not None:
                session.sheets[cid] = SheetFile(path, label, text, None, record, None, plain)
                return record
        sf = session.load(cid)
        cache.put(camp.root, CACHE, cid, yamlio.to_plain(sf.doc), key)
        return sf.sheet
    return session.sheet(cid)  # the store's message for an unknown character


def _merge(parent, key, value):
    """Set parent[key] to value, editing nested mappings and lists in place (comments survive)."""
    current = parent.get(key) if hasattr(parent, "get") else None
    if isinstance(value, dict) and isinstance(current, dict):
        if not current and hasattr(current, "fa"):
            current.fa.set_flow_style()  # an empty mapping was written `{}`: keep it a flow mapping
        for k in [k for k in current if k not in value]:
            del current[k]
        for k, v in value.items():
            if current.get(k) != v:
                _merge(current, k, v)
        return
    if isinstance(value, list) and isinstance(current, list):
        for item in [c for c in current if c not in value]:
            current.remove(item)
        for item in value:
            if item not in current:
                current.append(item)
        if hasattr(current, "fa") and not current:
            current.fa.set_flow_style()
        return
    if key not in parent and value in ({}, [], None):
        return
    parent[key] = _node(value)


def _node(value):
    """A new small mapping is written in flow style, as the sheet format shows it."""
    if not isinstance(value, dict):
        return value
    from ruamel.yaml.comments import CommentedMap

    node = CommentedMap((k, _node(v)) for k, v in value.items())
    node.fa.set_flow_style()
    return node


def dump(doc, original: str) -> str:
    """The host's round-trip dump, but with `null` written out (the sheet format spells it)."""
    import io

    from narateer_cli.store import yamlio

    y = yamlio._yaml("rt")
    y.representer.add_representer(type(None), lambda rep, _: rep.represent_scalar("tag:yaml.org,2002:null", "null"))
    seq_indent, offset = yamlio.guess_indent(original)
    y.indent(mapping=yamlio.guess_map_indent(original), sequence=seq_indent, offset=offset)
    out = io.StringIO()
    y.dump(doc, out)
    text = out.getvalue()
    if original.startswith("---") and not text.startswith("---"):
        text = "---\n" + text
    if "\r\n" in original:
        text = text.replace("\r\n", "\n").replace("\n", "\r\n")
    return text


def write_sheet(session, before, after):
    sf = session.load(after.id)
    old, new = sheet_values(before), sheet_values(after)
    doc = sf.doc
    for key, value in new.items():
        if value != old[key]:
            _merge(doc, key, value)
    text = dump(doc, sf.text)
    sf.text = text
    session.txn.write(sf.path, text)
    session.d20_written = {**getattr(session, "d20_written", {}), after.id: (sf, text)}
    return {k: v for k, v in old.items() if v != new[k]}, {k: v for k, v in new.items() if v != old[k]}


def save(session, command, actor, declaration, result, before, after, enc=None):
    """Write every change of one command, all or none, and log it: in its encounter's log, or in the
    campaign log when it changed files outside one (G-LOG-5)."""
    from narateer_cli.commands.encounter_ops import autocommit
    from narateer_cli.store import encounters

    session.txn.action = f"the {command} action"
    state = {}
    for cid, char in after.chars.items():
        if before.chars.get(cid) != char:
            b, a = write_sheet(session, before.chars[cid], char)
            state[cid] = {"before": b, "after": a}
    if after.clock != before.clock:
        doc, text = session.campaign.config_doc()
        doc["clock"] = after.clock
        session.txn.write(session.campaign.config_path, dump(doc, text))
    root = session.campaign.root
    state_text = None
    if enc is not None:
        state_text = encounters.state_text(enc.new_state)
        session.txn.write(encounters.state_path(root, enc.id), state_text)
    log_id = enc.id if enc is not None else (encounters.CAMPAIGN if session.txn.changed() else None)
    if log_id is not None:
        writes = dict(session.txn.writes)
        undo_before = session.txn.before()
        entry = append(session, log_id, command, actor, declaration, result, state)
        session.txn.write(encounters.undo_dir(root, log_id) / f"{entry['seq']:08d}.json",
                          encounters.undo_record(undo_before, writes, entry["seq"], entry["id"], entry["resumes"]))
        for old in encounters.old_undo_records(root, log_id):
            session.txn.write(old, None)
    changed = session.txn.changed()
    session.commit()
    _remember(session)
    if enc is not None:
        encounters.remember_state(root, enc.new_state, state_text)
    autocommit(session, changed, command, actor, declaration, result)
    return state


def _remember(session):
    """Keep the parse of each sheet just written for the next command."""
    from narateer_cli.store import cache, yamlio

    for cid, (sf, text) in getattr(session, "d20_written", {}).items():
        cache.put(session.campaign.root, CACHE, cid, yamlio.to_plain(sf.doc), path=sf.path, text=text)


def append(session, log_id, command, actor, declaration, result, state) -> dict:
    """One log entry (the host's seq, id, parent and time) with each changed character's sheet values
    under `state`; returns the entry."""
    from narateer_cli.store import encounters

    log = encounters.log_path(session.campaign.root, log_id)
    from narateer_cli.commands.encounter_ops import logged_fields

    fields = {"command": command, "actor": actor, "declaration": declaration, "result": result, "state": state}
    text, entry = encounters.new_entry(log, logged_fields(session, log_id, fields))  # P-SECRET-1: --secret
    session.txn.append(log, text)
    return entry
