"""Open Adventure's campaign files through the host store: sheets, encounter state, log, undo.

Sheets are edited in place on the lines of the values that changed (a
`points` pool, `wounds`, `challenge_points`), so comments, key order and
unknown keys survive. Every write of one command goes into the Session's
transaction: all or none.
"""

from __future__ import annotations


class SheetFile:
    def __init__(self, cid, path, label, text, doc, sheet):
        self.id, self.path, self.label, self.text, self.doc, self.sheet = cid, path, label, text, doc, sheet
        self.original = text

    def set_list(self, key: str, values: list) -> str:
        """Replace a list; a one-line flow list is rewritten on its own line only, else a round-trip dump."""
        from narateer_cli.store import yamlio

        current = self.doc.get(key)
        if list(current or []) == list(values):
            return self.text
        spliced = self._splice_flow_list(key, values) if isinstance(current, list) else None
        if spliced is not None:
            self.text = spliced
            self.doc = yamlio.load_rt(spliced, self.label)
            return self.text
        if isinstance(current, list):
            del current[:]
            current.extend(values)
        else:
            self.doc[key] = list(values)
        self.text = yamlio.dump_rt(self.doc, self.text)
        return self.text

    def _splice_flow_list(self, key: str, values: list) -> str | None:
        from narateer_cli.store import yamlio

        try:
            line, col = self.doc.lc.value(key)
        except (AttributeError, KeyError, TypeError):
            return None
        lines = self.text.split("\n")
        row = lines[line] if line < len(lines) else ""
        end = row.find("]", col)
        if not row[col:col + 1] == "[" or end < 0 or any(ch in row[col + 1:end] for ch in "[\"'"):
            return None  # a quoted item may hold "]" itself (a condition named "a]b"): the round trip writes it
        lines[line] = row[:col] + yamlio.flow(list(values)) + row[end + 1:]
        return "\n".join(lines)

    def edit(self, changes: dict) -> str:
        """`{("points", "body"): 7, ("wounds",): 1}` -> the new text, only those lines changed."""
        from narateer_cli.store import yamlio
        from narateer_cli.store.campaign import splice_places

        places, rest = [], {}
        for keys, value in changes.items():
            node = self.doc
            for key in keys[:-1]:
                node = node.get(key) if isinstance(node, dict) else None
            old = node.get(keys[-1]) if isinstance(node, dict) else None
            if old == value:
                continue
            try:
                line, col = node.lc.value(keys[-1])
                places.append((line, col, old, value))
            except (AttributeError, KeyError, TypeError):
                rest[keys] = value
        if places:
            text, _ = splice_places(self.text, places)
            if text is None:
                rest.update({k: v for k, v in changes.items()})
            else:
                self.text = text
                self.doc = yamlio.load_rt(text, self.label)
        if rest:
            for keys, value in rest.items():
                node = self.doc
                for key in keys[:-1]:
                    if not isinstance(node.get(key), dict):
                        from ruamel.yaml.comments import CommentedMap

                        node[key] = CommentedMap()
                    node = node[key]
                node[keys[-1]] = value
            self.text = yamlio.dump_rt(self.doc, self.text)
        return self.text


def load(s, cid: str) -> SheetFile:
    """A character file as the Open Adventure sheet it holds (exit 2 when unknown or invalid)."""
    from narateer_cli.store import yamlio

    from .sheet import parse_sheet

    cache = s.__dict__.setdefault("oa_sheets", {})
    if cid in cache:
        return cache[cid]
    camp = s.campaign
    path = camp.sheet_path(cid)
    label = f"characters/{cid}.yaml"
    if not path.exists():
        from .names import unknown

        raise unknown("character", cid, camp.sheet_ids(), detail=f" (no {label})", create="narateer new ID")
    text = yamlio.read_text(path, label)
    doc = yamlio.load_rt(text, label)
    camp.system.check_sheet(doc, label, s.rules)  # the sheet schema, at its lines, as `check` (S-SYS-4)
    sheet = parse_sheet(cid, yamlio.to_plain(doc), label, s.rules, lines=doc)
    cache[cid] = SheetFile(cid, path, label, text, doc, sheet)
    return cache[cid]


def write_sheet(s, sf: SheetFile, changes: dict, lists: dict | None = None):
    text = sf.edit(changes)
    for key, values in (lists or {}).items():
        text = sf.set_list(key, values)
    if text != sf.original:
        s.txn.write(sf.path, text)


# -- encounters -------------------------------------------------------------------------------------

def current_encounter(s) -> str | None:
    app = s.app
    if getattr(app, "encounter_id", None) is not None:
        return app.encounter_id
    value = s.campaign.config().get("encounter")
    return str(value) if value else None


def load_state(s, enc_id: str):
    """encounters/ID.yaml as a TurnState, read by the host: an unknown id names the closest known ones
    (S-SYS-5), another game's encounter is refused (S-SYS-1)."""
    from narateer_cli.store import encounters

    from .turns import state_from_data

    data = encounters.load_state(s.campaign.root, enc_id, s.campaign.system)
    return state_from_data(data, f"encounters/{enc_id}.yaml")


def state_text(state) -> str:
    from narateer_cli.store import yamlio

    from .turns import state_data

    return "# open-adventure encounter state; its log is the .log.yaml beside this file\n" + yamlio.emit_text(state_data(state))


def counter_moves(s, created: dict | None = None) -> dict:
    """Each character whose sheet this command rewrites: (counters before, counters after), the values
    SYSTEM.counters names (`points.*`, `wounds`, `challenge_points`). `created`: new sheets' counters."""
    from narateer_cli.store import yamlio

    from .sheet import parse_sheet

    moves = {cid: ({}, dict(after)) for cid, after in (created or {}).items()}
    for cid, sf in s.__dict__.get("oa_sheets", {}).items():
        if sf.text != sf.original:
            after = parse_sheet(cid, yamlio.to_plain(sf.doc), sf.label, s.rules).dice
            if after != sf.sheet.dice:
                moves[cid] = (dict(sf.sheet.dice), dict(after))
    return moves


def finish(s, command: str, actor, declaration: dict, result, enc_id: str | None = None, state=None,
           created: dict | None = None) -> dict:
    """Write sheets (already in the transaction), the state, one log entry and the undo record: all or none.
    The entry goes to the encounter's log, or to the campaign log when the command changed files outside
    an encounter (G-LOG-5); it carries each moved counter (`dice: {id: {before, after}}`) for verify,
    undo and merges, and the host's seq, id and parent (G-LOG-1). Returns the result's JSON shape as
    logged (with the exact `chance` of each check, P-LUCK-1): what `--json` prints."""
    from narateer_cli.commands.encounter_ops import log_action, say_sealed, wants_secret
    from narateer_cli.render import plain
    from narateer_cli.store import encounters

    result = plain(result)
    secret = wants_secret(s, actor, result, False)
    s.txn.action = f"the {command} action"
    root = s.campaign.root
    if enc_id is not None and state is not None:
        s.txn.write(encounters.state_path(root, enc_id), state_text(state))
    # G-LOG-5, P-SECRET-1: a change or a secret roll outside an encounter goes to the campaign log
    log_id = enc_id if enc_id is not None else (encounters.CAMPAIGN if s.txn.changed() or secret else None)
    if log_id is not None:
        log_action(s, log_id, command, actor, declaration, result, counter_moves(s, created), secret)
    changed = s.txn.changed()
    s.commit()
    say_sealed(s)
    autocommit(s, changed, command, actor, result)
    return result


def autocommit(s, changed, command, actor, result):
    """--commit (or `autocommit: true`): commit this action's files with a one-line message."""
    from narateer_cli.commands.encounter_ops import wants_commit

    if not wants_commit(s):
        return
    import subprocess

    from narateer_cli.store.private import TAG

    from .render import commit_message

    files = [f for f in changed if not f.startswith(TAG)]
    if not files:
        return
    try:
        subprocess.run(["git", "add", "--", *files], cwd=s.campaign.root, check=True, capture_output=True)
        subprocess.run(["git", "commit", "-q", "-m", commit_message(command, actor, result), "--", *files],
                       cwd=s.campaign.root, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        import sys

        sys.stderr.write("narateer: warning: saved, but git commit failed; commit the files by hand\n")
