"""d20-cards' campaign as a command reads it, and the Outcome it returns.

`load_world` reads the characters and `actions/` cards of the campaign through
the session; `outcome` says what one command changed: each changed sheet
value, the clock, the encounter state, and the entry's
`state: {char: {before, after}}`. The host writes it all in one transaction,
key by key, so comments, order and unknown keys survive.
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
    line and the closest names: a misspelt `actions: [strke]` would otherwise turn into a rules refusal."""
    from narateer_cli.kit import BadInput
    from narateer_cli.kit import yamlio

    from .files import locator
    from .names import reference_problems

    fields = {k: getattr(char, k) for k in ("actions", "charges", "cooldowns", "concentrating", "companions",
                                            "owner", "cards", "prepared")}
    fields["mixed_heritage"] = {"cards": char.heritage}
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


def outcome(command, actor, declaration, result, before, after, enc=None, kind=None, state=None):
    """One command's Outcome: each changed character's changed values (sheet edits, and the entry's
    `state: {char: {before, after}}`), the clock, the encounter's new state; the host writes them all or
    none and logs them in the encounter's log, or in the campaign log when they change files outside
    one. Rendered as `kind` from the result as logged (each check's exact `chance`, recorded beforehand).
    `state`: the encounter's new state (else its state as read)."""
    from narateer_cli.kit import Outcome

    sheets, moved = {}, {}
    for cid, char in after.chars.items():
        if before.chars.get(cid) != char:
            old, new = sheet_values(before.chars[cid]), sheet_values(char)
            changed = [key for key, value in new.items() if value != old[key]]
            sheets[cid] = {(key,): new[key] for key in changed}
            moved[cid] = {"before": {k: old[k] for k in changed}, "after": {k: new[k] for k in changed}}
    if state is None and enc is not None:
        state = enc.state
    return Outcome(command, actor, declaration, result, kind=kind, sheets=sheets, extra={"state": moved}, dice_changed=True,
                   config={"clock": after.clock} if after.clock != before.clock else None,
                   encounter=None if enc is None else enc.id, state=None if enc is None else state)
