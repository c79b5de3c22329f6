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
    cards = load_cards(session.campaign.root)
    for char in chars.values():
        _require_known(session, char, cards, roster, chars.get(char.owner))
    return World(chars, cards, as_record(enc_state), int(clock), roster)


def _require_known(session, char, cards, roster, owner=None):
    """Bad input (exit 2) for the first name on CHAR's sheet that is no known card or character, with its
    line (S-SYS-4, S-SYS-5): a misspelt `actions: [strke]` would otherwise turn into a rules refusal."""
    from narateer_cli.errors import BadInput
    from narateer_cli.store import yamlio

    from .files import locator
    from .names import reference_problems

    fields = {k: getattr(char, k) for k in ("actions", "charges", "cooldowns", "concentrating", "companions",
                                            "owner", "cards")}
    found = reference_problems(fields, [*cards, *(owner.cards if owner else ())], roster)
    if found:
        path, message = found[0]
        sf = session.load(char.id)
        line = locator(yamlio.load_rt(sf.text, sf.label))(path) or 1
        raise BadInput(f"{sf.label}:{line}: {message}", fix="correct the sheet; narateer check lists every problem")


def sheet(session, cid):
    """A character through the session: the host's parse cache (.narateer/sheets/) while the file is
    unchanged; the round-trip document is loaded only when the sheet is written."""
    return session.load(cid).sheet


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
        if current.get(k) != v:
            _merge(current, k, v)


def _merge_list(current, value: list):
    for item in [c for c in current if c not in value]:
        current.remove(item)
    for item in value:
        if item not in current:
            current.append(item)
    if hasattr(current, "fa") and not current:
        current.fa.set_flow_style()


def _node(value):
    """A new small mapping is written in flow style, as the sheet format shows it."""
    if not isinstance(value, dict):
        return value
    from ruamel.yaml.comments import CommentedMap

    node = CommentedMap((k, _node(v)) for k, v in value.items())
    node.fa.set_flow_style()
    return node


def dump(doc, original: str) -> str:
    """The host's round-trip dump, with `null` written out (the sheet format spells it)."""
    from narateer_cli.store import yamlio

    return yamlio.dump_rt(doc, original, explicit_null=True)


def write_sheet(session, before, after):
    from narateer_cli.store import yamlio

    sf = session.load(after.id)
    old, new = sheet_values(before), sheet_values(after)
    doc = sf.doc
    for key, value in new.items():
        if value != old[key]:
            _merge(doc, key, value)
    text = dump(doc, sf.text)
    sf.text = text
    sf.plain, sf.places = yamlio.to_plain(doc), None  # the host's cache keeps this parse once committed
    session.rendered[after.id] = text
    session.txn.write(sf.path, text)
    return {k: v for k, v in old.items() if v != new[k]}, {k: v for k, v in new.items() if v != old[k]}


def save(session, command, actor, declaration, result, before, after, enc=None) -> dict:
    """Write every change of one command, all or none, and log it: in its encounter's log, or in the
    campaign log when it changed files outside one (G-LOG-5). `result` is the engine's record; returns its
    JSON shape as logged (with each check's exact `chance`, P-LUCK-1), which the command prints."""
    from narateer_cli.commands.encounter_ops import autocommit, log_action
    from narateer_cli.render import plain
    from narateer_cli.store import encounters

    result = plain(result)

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
    if log_id is not None:  # the host's entry and undo record; each changed character's values under `state`
        log_action(session, log_id, command, actor, declaration, result, None, extra={"state": state})
    changed = session.txn.changed()
    session.commit()
    if enc is not None:
        encounters.remember_state(root, enc.new_state, state_text)
    autocommit(session, changed, command, actor, declaration, result)
    return result

