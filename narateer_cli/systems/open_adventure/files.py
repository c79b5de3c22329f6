"""Open Adventure's campaign files as a command reads them, and the Outcome it returns.

Sheets and encounter states are read through the host store. A command notes
the values it changes (a `points` pool, `wounds`, `challenge_points`,
conditions) and returns them in one Outcome; the host writes them, only the
lines of the values that changed, with the state and one log entry: all or none.
"""

from __future__ import annotations


class SheetFile:
    def __init__(self, cid, path, label, text, doc, sheet):
        self.id, self.path, self.label, self.text, self.doc, self.sheet = cid, path, label, text, doc, sheet
        self.original = text


def load(s, cid: str) -> SheetFile:
    """A character file as the Open Adventure sheet it holds (exit 2 when unknown or invalid).

    Read through the host (`Session.load`): its cached parse while the file is unchanged (store/cache.py),
    and the same loaded file the host edits when it writes this command's Outcome."""
    from narateer_cli.kit import BadInput

    cache = s.__dict__.setdefault("oa_sheets", {})
    if cid in cache:
        return cache[cid]
    camp = s.campaign
    path = camp.sheet_path(cid)
    label = f"characters/{cid}.yaml"
    if not path.exists():
        from .names import unknown

        raise unknown("character", cid, camp.sheet_ids(), detail=f" (no {label})", create="narateer new ID")
    try:
        hf = s.load(cid)
    except BadInput:
        return _load_text(s, cid, path, label)  # the problem, said at its line exactly as before
    sheet = hf.sheet
    if hf._doc is not None:  # parsed just now (no cache): the sheet from its plain data, its lines from the text
        from .sheet import parse_sheet

        sheet = parse_sheet(cid, hf.plain, label, s.rules, lines=hf._doc)
    cache[cid] = SheetFile(cid, path, label, hf.original, hf._doc, sheet)
    return cache[cid]


def _load_text(s, cid: str, path, label: str) -> SheetFile:
    from narateer_cli.kit import yamlio

    from .sheet import parse_sheet

    text = yamlio.read_text(path, label)
    doc = yamlio.load_rt(text, label)
    s.campaign.system.check_sheet(doc, label, s.rules)  # the sheet schema, at its lines, as `check` reads it
    sheet = parse_sheet(cid, yamlio.to_plain(doc), label, s.rules, lines=doc)
    cache = s.__dict__.setdefault("oa_sheets", {})
    cache[cid] = SheetFile(cid, path, label, text, doc, sheet)
    return cache[cid]


def note_edits(s, sf: SheetFile, changes: dict, lists: dict | None = None):
    """Note sheet edits ({key path: value}, and whole lists by key) for this command's Outcome; the host
    writes them; the game only computes."""
    edits = s.__dict__.setdefault("oa_edits", {}).setdefault(sf.id, {})
    edits.update(changes)
    edits.update({(key,): list(values) for key, values in (lists or {}).items()})


# -- encounters -------------------------------------------------------------------------------------

def current_encounter(s) -> str | None:
    app = s.app
    if getattr(app, "encounter_id", None) is not None:
        return app.encounter_id
    value = s.campaign.config().get("encounter")
    return str(value) if value else None


def load_state(s, enc_id: str):
    """encounters/ID.yaml as a TurnState, read by the host: an unknown id names the closest known ones,
    another game's encounter is refused."""
    from narateer_cli.kit import load_encounter_state

    from .turns import state_from_data

    data = load_encounter_state(s.campaign.root, enc_id, s.campaign.system)
    return state_from_data(data, f"encounters/{enc_id}.yaml")


def outcome(s, command: str, actor, declaration: dict, result, enc_id: str | None = None, state=None,
            created: dict | None = None):
    """The Outcome of one command: the sheet edits noted so far, the new state, one log entry. The host
    logs it to the encounter's log, or to the campaign log when it changed files outside an encounter,
    with each moved counter (`dice: {id: {before, after}}`) for verify, undo and merges."""
    from narateer_cli.kit import Outcome

    from .turns import state_data

    return Outcome(command, actor, declaration, result, sheets=s.__dict__.get("oa_edits"), dice_changed=True,
                   created=created, encounter=enc_id,
                   state=state_data(state) if enc_id is not None and state is not None else None)
