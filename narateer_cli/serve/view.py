"""The players' view of the current encounter as plain data, filtered for the party on the server.

`snapshot(root, guide)` reads the campaign (narateer.yaml, the current
encounter's state, its participants' sheets and only the tail of its log) and
returns the view model the page draws. For the party (`guide=False`) the
hidden-information filter runs here, on the server, before anything is
rendered or sent:

- the party is `party: [ids]` in narateer.yaml plus every sheet with `pc: true`;
- a creature hidden from every party member in the encounter is left out of the
  order, the acting slot and the log (any entry naming it, its `encounter new`
  line included);
- recorded Hide totals and secret results never appear: the state's totals are
  not copied, and each log entry passes the system's `public_entry` hook.

What is common to every system (round, order, names, conditions, counters) is
read here; the system's `view` hook adds or replaces per-participant fields
(Narateer's dice as ready / used / wounded dots). This module imports no web
framework: the server and the benchmark call it alike.
"""

from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path

from ..errors import NarateerError
from ..render import display_name

RECENT = 12  # log entries shown


def signature(root: Path, guide: bool = False) -> tuple:
    """A cheap change detector: the stat signatures of narateer.yaml and of every file in
    characters/ and encounters/ (replaced files change inode; appended logs change size). The Guide's
    also covers the private records of secret rolls, which only the Guide's view reads; the party's
    never looks at the private folder."""
    sig = []
    folders = [root, root / "characters", root / "encounters"]
    if guide:
        folders.append(_secrets_folder(root))
    for folder in folders:
        if folder is None:
            continue
        try:
            with os.scandir(folder) as it:
                for entry in it:
                    if entry.name.endswith((".yaml", ".json")) and entry.is_file(follow_symlinks=False):
                        st = entry.stat(follow_symlinks=False)
                        sig.append((folder.name, entry.name, st.st_ino, st.st_size, st.st_mtime_ns))
        except OSError:
            continue
    return tuple(sorted(sig))


def _secrets_folder(root: Path) -> Path | None:
    """Where this machine keeps its secret rolls' records, or None when it cannot say (a link there)."""
    from ..store import secrets

    try:
        return secrets.folder(root)
    except NarateerError:
        return None


def snapshot(root: Path, guide: bool = False) -> dict:
    """The view model of the campaign's current encounter (filtered for the party unless `guide`)."""
    from ..store.campaign import Campaign

    campaign = Campaign(root)
    system = campaign.system
    config = campaign.config()
    out = {"view": "guide" if guide else "party", "system": system.name, "title": system.title,
           "encounter": None, "round": None, "actor": None, "next": None, "order": [], "last_check": None,
           "log": [], "problem": None}
    enc_id = config.get("encounter")
    if not isinstance(enc_id, str) or not enc_id:
        return out
    try:
        _fill(out, campaign, enc_id, guide)
    except NarateerError as exc:  # a campaign mid-edit: say so on the page, keep serving
        out["problem"] = exc.message
    return out


def _fill(out: dict, campaign, enc_id: str, guide: bool):
    from ..store import encounters

    root, system = campaign.root, campaign.system
    state = encounters.load_state(root, enc_id, system)
    ids = [str(p) for p in state.get("participants") or []]
    sheets = {cid: _sheet(root, cid) for cid in ids}
    if guide:  # the Guide's screen reads the sealed values this machine holds (a secret Hide's total)
        state, sheets = _unsealed(root, state, sheets)
    extra = _system_view(system, state, sheets, campaign)
    hidden = extra.get("hidden", default_hidden(state))
    party = party_ids(campaign.config(), sheets, system)
    concealed = set() if guide else concealed_from(party, ids, hidden)
    acting = extra.get("actor", state.get("actor"))
    out.update(encounter=enc_id, round=state.get("round"),
               actor=_shown(acting, concealed), next=_shown(extra.get("next", state.get("next")), concealed),
               party=sorted(party))
    people = extra.get("participants") or {}
    npc_hp = party_sees(campaign.config())
    from ..durations import left

    for cid in ids:
        if cid in concealed:
            continue
        row = default_participant(cid, sheets[cid], system)
        row.update(people.get(cid) or {})
        row["name"] = display_name(cid, row.get("name"))
        row["conditions"] = with_rounds_left(row.get("conditions") or [], left(state, cid))
        row["acting"] = cid == acting
        row["hidden_from"] = _hidden_from(hidden.get(cid), guide, concealed)
        if not guide and cid not in party:
            _as_party_sees(row, npc_hp)
        out["order"].append(row)
    out["legend"] = legend(out["order"], extra.get("legend") or {})
    entries = recent_entries(root, enc_id, concealed, system, guide)
    out["log"] = log_rows(entries, system, guide)
    out["last_check"] = last_check(entries, system, campaign, out["log"])
    if guide:
        out["guide"] = {"hidden": _plain(hidden), "recorded": _plain(state.get("recorded")),
                        "concealed_from_party": sorted(concealed_from(party, ids, hidden))}


def _as_party_sees(row: dict, npc_hp: str):
    """A creature outside the party as the party sees it: its pools by `party_sees`, and no game's marks (a d20
    Critical Condition) when its pools are hidden, since a mark would tell what they hide."""
    row["pools"] = npc_pools(row.get("pools") or [], npc_hp)
    if npc_hp == "hidden":
        row["marks"] = []


def _shown(cid, concealed):
    return None if cid in concealed else cid


def _hidden_from(observers, guide: bool, concealed: set):
    """Whom a visible creature hides from: names only for the party (never the totals)."""
    if not observers:
        return {} if guide else []
    if guide:
        return _plain(observers) if isinstance(observers, dict) else {o: None for o in observers}
    return sorted(o for o in observers if o not in concealed)


def _plain(value):
    return json.loads(json.dumps(value, default=str)) if value is not None else None


_SHEETS: dict = {}  # path -> (stat signature, parsed sheet): a long-running server parses a sheet once


def _sheet(root: Path, cid: str) -> dict:
    from ..store import yamlio

    label = f"characters/{cid}.yaml"
    path = root / label
    try:
        st = os.stat(path)
        sig = (st.st_ino, st.st_size, st.st_mtime_ns)
        hit = _SHEETS.get(path)
        if hit is not None and hit[0] == sig:
            return hit[1]
        doc = yamlio.load_safe(yamlio.read_text(path, label), label)
    except (NarateerError, OSError):
        return {}
    doc = doc if isinstance(doc, dict) else {}
    if len(_SHEETS) > 4096:
        _SHEETS.clear()
    _SHEETS[path] = (sig, doc)
    return doc


def _unsealed(root: Path, state, sheets: dict):
    """The state and sheets with each sealed value this machine holds applied (store/sealed.py); a value it
    does not hold stays sealed. The party's view never calls this."""
    from ..readonly import Withheld
    from ..store import sealed

    opened = sealed.Opened(root)

    def read(data):
        out, _, values = sealed.applied(data, opened)
        if not any(type(v) is Withheld for v in values.values()):
            return out
        return sealed.resealed(out, data, {})  # what is not here stays as the file holds it

    return read(state), {cid: read(doc) for cid, doc in sheets.items()}


def _system_view(system, state, sheets, campaign) -> dict:
    hook = system.hook("view")
    if hook is None:
        return {}
    return hook(state, sheets, campaign.rules) or {}


def whole_party(campaign) -> set:
    """The party among every character of the campaign (each gets a player's link)."""
    ids = sorted(p.stem for p in (campaign.root / "characters").glob("*.yaml"))
    return party_ids(campaign.config(), {cid: _sheet(campaign.root, cid) for cid in ids}, campaign.system)


def party_ids(config: dict, sheets: dict, system=None) -> set:
    """The party: `party: [ids]` in narateer.yaml, and every sheet the game marks as one of the party
    (its `in_party`: `pc: true` unless the game says otherwise)."""
    listed = config.get("party") or []
    party = {str(p) for p in listed} if isinstance(listed, list) else set()
    marks = (system.hook("in_party") if system is not None else None) or (lambda doc: doc.get("pc") is True)
    party |= {cid for cid, doc in sheets.items() if isinstance(doc, dict) and marks(doc)}
    return party


def default_hidden(state: dict) -> dict:
    """Who is hidden from whom, as the state records it: `hidden: {creature: {observer: total}}`
    (or a list of observers). A system whose state says it differently gives `hidden` in its view hook."""
    found = state.get("hidden")
    if not isinstance(found, dict):
        return {}
    return {str(c): obs for c, obs in found.items() if isinstance(obs, (dict, list)) and obs}


def concealed_from(party: set, ids: list, hidden: dict) -> set:
    """Creatures hidden from every party member taking part. With no party member in the
    encounter, a creature hidden from anyone is concealed (nothing leaks by default)."""
    present = party & set(ids)
    out = set()
    for cid, observers in hidden.items():
        if cid in present:
            continue  # the party always sees itself
        seen_by = set(observers)
        if (present and present <= seen_by) or (not present and seen_by):
            out.add(cid)
    return out


BANDS = ("unhurt", "hurt", "bloodied", "down")


def party_sees(config: dict) -> str:
    """What the party's page shows of the pools (hit points, points) of a creature outside the party:
    narateer.yaml's `party_sees: {npc_hp: exact | band | hidden}`, `band` when it says nothing it knows
    (`check` names a wrong value)."""
    from ..store.validate import NPC_HP

    sees = config.get("party_sees")
    chosen = sees.get("npc_hp") if isinstance(sees, dict) else None
    return chosen if chosen in NPC_HP else "band"


def band(value: int, top: int) -> str:
    """A pool with a maximum in words: unhurt when full, hurt above half, bloodied at half or below,
    down at 0 or below."""
    if value <= 0:
        return "down"
    if value >= top:
        return "unhurt"
    return "hurt" if 2 * value > top else "bloodied"


def npc_pools(pools: list, npc_hp: str) -> list:
    """A creature's pools as the party sees them when it is not one of the party: as they are (`exact`),
    each pool with a maximum as its band and no numbers (`band`; a pool without a maximum cannot be put
    in a band and is not shown), or none (`hidden`). A pool that measures no harm (`"harm": False`: action
    points spent and refreshed each turn in plain sight) is shown as it is, whatever the choice. The Guide's
    screen always shows them all."""
    if npc_hp == "exact":
        return pools
    out = []
    for p in pools:
        if p.get("harm") is False:
            out.append(p)
        elif npc_hp != "hidden" and isinstance(p.get("max"), int) and not isinstance(p.get("max"), bool) \
                and p["max"] > 0:
            out.append({"name": p["name"], "band": band(p.get("value") or 0, p["max"]), "draw": "band"})
    return out


def default_participant(cid: str, doc: dict, system) -> dict:
    """What every system has: id, name, conditions (with rounds left when the sheet gives them)
    and the system's counters as pools."""
    name = doc.get("name") if isinstance(doc.get("name"), str) else cid
    return {"id": cid, "name": name, "dice": None, "pools": _pools(doc, system.counters),
            "conditions": conditions(doc.get("conditions"))}


def _pools(doc: dict, counters) -> list:
    """The system's counters as pools drawn with dots (a system's `view` hook may draw them otherwise)."""
    out = []
    for path in counters:
        value = doc
        for key in path.split("."):
            value = value.get(key) if isinstance(value, dict) else None
        if isinstance(value, int) and not isinstance(value, bool):
            out.append({"name": path.replace("_", " ").replace(".", " "), "value": value, "draw": "dots"})
    return out


def with_rounds_left(conds: list, left: dict) -> list:
    """Conditions with the rounds left that the encounter's timed conditions give them (`--rounds`)."""
    return [{**c, "rounds": left[c["name"]]} if c.get("rounds") is None and c.get("name") in left else c
            for c in conds]


LEFT, SPENT = "left", "spent"  # the dots of a pool: filled for what is left, hollow for what is spent


def legend(order: list, words: dict) -> list:
    """What each drawing on the page means, once per die state and once per pool, in the order they
    first appear: the system's words (its `view` hook's `legend`, or a pool's own `legend`), else the host's."""
    out, seen = [], set()
    for row in order:
        for state in (row.get("dice") or {}):
            if ("dice", state) not in seen:
                seen.add(("dice", state))
                out.append({"draw": "dot", "state": state, "text": words.get(state) or f"a die {state}"})
        for pool in row.get("pools") or []:
            text = pool.get("legend") or _pool_words(pool)
            if ("pool", text) not in seen:  # pools that share their words share one line
                seen.add(("pool", text))
                out.append({"draw": pool.get("draw") or "dots", "state": pool.get("state") or LEFT,
                            "names": [], "text": text})
            item = next(i for i in out if i["text"] == text and "names" in i)
            if pool["name"] not in item["names"]:
                item["names"].append(pool["name"])
    return out


def _pool_words(pool: dict) -> str:
    name = pool["name"]
    if pool.get("draw") == "band":
        return f"{name} of a creature outside the party: unhurt, hurt (above half), bloodied (half or less) or down"
    if pool.get("draw") == "bar":
        return f"{name}: the bar is what is left of the most, with the numbers beside it"
    return f"{name}: one filled dot for each left" + (", a hollow one for each spent" if pool.get("max") else "")


def conditions(raw) -> list:
    """Conditions as [{name, rounds}]: a list of names, or of {name, rounds} mappings, or a mapping
    name -> rounds."""
    items = raw.items() if isinstance(raw, dict) else ((c, None) for c in (raw or []))
    out = []
    for name, rounds in items:
        if isinstance(name, dict):
            name, rounds = name.get("name"), name.get("rounds", name.get("rounds_left"))
        if name is not None:
            out.append({"name": str(name), "rounds": rounds if isinstance(rounds, int) else None})
    return out


# -- the log's tail ------------------------------------------------------------------------------

def recent_entries(root: Path, enc_id: str, concealed: set, system, guide: bool, count: int = RECENT) -> list:
    """The last entries of the encounter's log, read from its tail only; for the party, an entry that
    names a concealed creature anywhere is left out and the rest pass the system's `public_entry`."""
    from ..store import encounters, loglines

    path = encounters.log_path(root, enc_id)
    lines = loglines.last_lines(path, encounters.log_label(path), count * 4 if concealed else count)
    marks = [f'"{cid}"'.encode() for cid in concealed]
    public = None if guide else system.hook("public_entry")
    out = []
    for raw in lines:
        if any(mark in raw for mark in marks):
            continue
        try:
            entry = loglines.parse_line(raw.decode("utf-8", "replace"), raw)
        except ValueError:  # not of the shape a writer writes; shown as damaged, never read
            out.append(DAMAGED)
            continue
        if guide and entry.get("commitment") is not None:
            entry = sealed_result(root, entry)
        elif public is not None:
            entry = public(entry)
        if entry is not None:
            out.append(entry)
    return out[-count:]


def sealed_result(root: Path, entry: dict) -> dict:
    """For the Guide only: a secret roll's result from this machine's private record,
    when there is one. The party's view never calls this: it shows the commitment's entry as logged."""
    try:
        from ..store import secrets
    except ImportError:
        return entry
    try:
        record = secrets.read_record(root, str(entry.get("id")))
    except NarateerError:
        return entry
    if record is None:
        return entry
    return {**entry, "result": record["result"], "secret": True}


SECRET = "the Guide rolled in secret"  # all the party reads of a secret entry


def is_secret(entry: dict) -> bool:
    """A secret roll's entry: its log line holds a commitment to the result, not the result."""
    return entry.get("commitment") is not None


class _Damaged(dict):
    """A line of the log that is not of the shape a writer writes: the page lists it as damaged."""


DAMAGED = _Damaged()
DAMAGED_WORDS = "a damaged line of the log, not shown (`narateer verify` names it)"


def log_rows(entries: list, system, guide: bool) -> list:
    """The entries as the page lists them, each in the words `encounter log` prints; a damaged line as
    DAMAGED_WORDS."""
    undone = undone_ids([entry for entry in entries if entry is not DAMAGED])
    rows, earlier = [], {}
    for entry in entries:
        if entry is DAMAGED:
            rows.append({"seq": None, "command": None, "actor": None, "at": None, "undone": False, "secret": False,
                         "text": DAMAGED_WORDS, "damaged": True})
            continue
        row = log_row(entry, system, entry.get("id") in undone, guide, earlier)
        earlier[str(entry.get("id"))] = {**row, "command": entry.get("command")}
        rows.append(row)
    return rows


def log_row(entry: dict, system, undone: bool = False, guide: bool = True, earlier: dict | None = None) -> dict:
    """One entry in words. For the party a secret entry is only SECRET (no actor, skill or target), and an
    undo names the entry it undid by its number and by the words the party was shown for it, never by a
    text written when it was undone (that text may name what the party must not see). The Guide's undo
    reads the same way when the undone entry is shown, else as `encounter log` says it."""
    secret = is_secret(entry)
    row = {"seq": entry.get("seq"), "command": entry.get("command"), "actor": entry.get("actor"),
           "at": entry.get("at"), "undone": undone, "secret": secret}
    if secret and not guide:
        return {**row, "command": None, "actor": None, "text": SECRET}
    undid = (entry.get("declaration") or {}).get("undoes") if entry.get("command") == "undo" else None
    if undid is not None and (not guide or str(undid) in (earlier or {})):
        return {**row, "text": undo_words(entry, earlier or {})}
    if entry.get("unveils") is not None:
        return {**row, "text": unveil_words(entry, system, earlier or {})}
    if secret and entry.get("secret") is True:  # the Guide's: the whole result, read from the private record
        entry = {key: value for key, value in entry.items() if key != "commitment"}
    return {**row, "text": words(entry, system)}


def words(entry: dict, system) -> str:
    """The sentence `encounter log` prints for the entry (render.summary, made printable as it is there)."""
    from ..render import shown_entry, summary

    return summary(shown_entry(entry), system)


def unveil_words(entry: dict, system, earlier: dict) -> str:
    """An unveiled roll in words: the sentence its command's entry would have had, now that the result is
    public, after the number of the secret entry it unveils (when that entry is among the rows shown)."""
    before = earlier.get(str(entry.get("unveils")))
    if before is None:
        return words(entry, system)
    said = words({**entry, "command": before["command"]}, system)
    return f"unveiled entry {before['seq']}: {said}"


def undo_words(entry: dict, earlier: dict) -> str:
    """`undid entry N`, with the party's own words for entry N when it is among the rows shown."""
    decl = entry.get("declaration") if isinstance(entry.get("declaration"), dict) else {}
    before = earlier.get(str(decl.get("undoes")))
    result = entry.get("result") if isinstance(entry.get("result"), dict) else {}
    seq = before["seq"] if before is not None else result.get("undone")
    text = f"undid entry {seq}" if isinstance(seq, int) and not isinstance(seq, bool) else "undid an entry"
    return text + (f": {before['text']}" if before is not None else "")


def find_checks(result) -> list:
    """The checks a result carries: the result itself when it has faces, and every check directly inside it,
    in key order (an Exchange's `attack` and `defense`, a reaction's `check`, an opposed roll)."""
    if not isinstance(result, dict):
        return []
    found = [result] if "final_faces" in result or "faces" in result else []
    for value in result.values():
        if isinstance(value, dict) and ("final_faces" in value or "faces" in value):
            found.append(value)
    return found


def find_check(result) -> dict | None:
    """The first check a result carries (see find_checks)."""
    found = find_checks(result)
    return found[0] if found else None


def undone_ids(entries: list) -> set:
    """Ids of entries that a later `undo` entry undid (its declaration's `undoes`)."""
    out = set()
    for entry in entries:
        decl = entry.get("declaration")
        if entry.get("command") == "undo" and isinstance(decl, dict) and decl.get("undoes"):
            out.add(decl["undoes"])
    return out


ROLL_KEYS = ("actor", "skill", "faces", "total", "target", "target_label", "outcome", "success", "chance")


def last_check(entries: list, system, campaign, rows: list | None = None) -> dict | None:
    """The latest entry with a roll, not undone: every roll in it (an exchange's attack and response, an
    opposed roll's two sides), each with its faces, chance beforehand and outcome, and the entry's words
    (damage and wounds included) as the log shows them. The system's `last_check` hook reads an entry when
    it has one; it gives one roll's fields or `rolls`."""
    undone = undone_ids(entries)
    said = {row["seq"]: row for row in rows or []}
    own = system.hook("last_check")
    for entry in reversed(entries):
        if entry.get("id") in undone:
            continue
        if own is not None:
            found = own(entry)
            rolls = [] if found is None else found.get("rolls") or [found]
            rolls = [_own_roll(roll, system, campaign) for roll in rolls]
        else:
            rolls = [_roll(check, entry, system, campaign) for check in find_checks(entry.get("result"))]
        if not rolls:
            continue
        row = said.get(entry.get("seq")) or {}
        first = {k: v for k, v in rolls[0].items() if k != "rolls"}
        return {**first, "seq": entry.get("seq"), "command": entry.get("command"), "rolls": rolls,
                "words": row.get("text"), "secret": is_secret(entry)}
    return None


def _own_roll(roll: dict, system, campaign) -> dict:
    """A roll as a system's `last_check` hook gives it, with every key the page reads, one row of faces and
    a logged chance (`7/12`) as a percentage."""
    chance = roll.get("chance")
    if chance is not None and not str(chance).endswith("%"):
        chance = chance_text({"chance": chance}, system, campaign)
    return {**{k: None for k in ROLL_KEYS}, "pips": True, **roll, "faces": _flat(roll.get("faces")), "chance": chance}


def _roll(check: dict, entry: dict, system, campaign) -> dict:
    outcome = check.get("outcome")
    if outcome is None and isinstance(check.get("success"), bool):
        outcome = "Success" if check["success"] else "Failure"
    return {"actor": check.get("actor") or entry.get("actor"), "skill": check.get("skill"),
            "faces": _flat(check.get("final_faces", check.get("faces"))), "total": check.get("total"),
            "target": check.get("target"), "target_label": check.get("target_label"), "outcome": outcome,
            "success": check.get("success") if isinstance(check.get("success"), bool) else None,
            "chance": chance_text(check, system, campaign)}


def _flat(faces):
    """Faces as one list (a system may log one list per die or per pool)."""
    if not isinstance(faces, list):
        return faces
    out = []
    for face in faces:
        out.extend(_flat(face) if isinstance(face, list) else [face])
    return out


def chance_text(check: dict, system, campaign) -> str | None:
    """A check's exact chance beforehand (`chance`) as a percentage: as logged, else from the system's `chance` hook."""
    value = check.get("chance")
    try:
        if value is None and system.hook("chance") is not None:
            value = system.chance(check, campaign.rules)
        if value is None:
            return None
        return f"{float(Fraction(value)) * 100:.0f}%"
    except (NarateerError, ValueError, TypeError, ZeroDivisionError, KeyError):
        return None
