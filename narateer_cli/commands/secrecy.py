"""Secret rolls and luck, for every system: `unveil` (publish a secret roll's salt and result) and
`stats` (successes against the exact odds)."""

from __future__ import annotations

import click

from .common import Session, command, emit


def find_secret(root, entry_id: str):
    """(log id, the secret entry, "unveiled" / "undone" / None) for ENTRY_ID, each log streamed; BadInput when
    unknown."""
    from ..luck import campaign_entries
    from ..store.loglines import entry_id as id_of

    found = None
    for log_id, entry in campaign_entries(root):
        if found is None and id_of(entry) == entry_id:
            found = (log_id, entry)
        elif found is not None and found[0] == log_id and entry.get("unveils") == entry_id:
            return found[0], found[1], "unveiled"
        elif found is not None and found[0] == log_id and _undoes(entry) == entry_id:
            return found[0], found[1], "undone"
    if found is None:
        from ..errors import BadInput

        raise BadInput(f"no log entry has id {entry_id}", rule="P-SECRET-3",
                       fix="copy the id from `narateer encounter log`, or use `narateer unveil --all`")
    return found[0], found[1], None


def _undoes(entry) -> str | None:
    """The id an undo entry takes back (None for any other entry)."""
    if entry.get("command") != "undo":
        return None
    declaration = entry.get("declaration")
    return str(declaration.get("undoes")) if isinstance(declaration, dict) else None


def sealed(root) -> list[tuple[str, dict]]:
    """(log id, entry) of every secret entry not yet unveiled nor undone, in log order."""
    from ..luck import campaign_entries
    from ..store.loglines import entry_id as id_of

    pending = {}
    for log_id, entry in campaign_entries(root):
        if entry.get("commitment") is not None:
            pending[id_of(entry)] = (log_id, entry)
        elif "unveils" in entry:
            pending.pop(entry.get("unveils"), None)
        elif _undoes(entry) is not None:  # an undone roll is taken back: nothing to publish
            pending.pop(_undoes(entry), None)
    return list(pending.values())


@command(help="""Publish secret rolls: log the salt and result of ENTRY_ID (or of every sealed roll, --all).

Anyone can then check that they hash to the commitment logged when the roll was made
(`narateer verify`, or by hand: docs/secret-rolls.md).

\b
Examples:
  narateer unveil 3f9a0c21b7de
  narateer unveil --all""")
@click.argument("entry_id", required=False)
@click.option("--all", "all_", is_flag=True, help="Unveil every sealed roll whose private record is here.")
def unveil_cmd(app, entry_id, all_):
    from ..errors import BadInput, Refused
    from .encounter_ops import autocommit

    if bool(entry_id) == bool(all_):
        raise BadInput("give one ENTRY_ID or --all", rule="P-SECRET-3", fix="for example `narateer unveil --all`")
    with Session(app) as s:
        targets = _targets(s.campaign.root, entry_id, all_)
        unveiled, lost = unveil_all(s, targets, strict=not all_)
        changed = s.txn.changed()
        s.commit()
        autocommit(s, changed, "unveil", None, {}, {"unveiled": unveiled})
    from ..render import HostKind

    emit(app, HostKind.unveil, {"unveiled": unveiled, "lost": lost})


def _targets(root, entry_id, all_) -> list:
    """The (log id, entry) pairs `unveil` publishes: every sealed roll here with --all, else ENTRY_ID's, refused
    when it is no secret roll, is already unveiled or was undone (an undone action publishes nothing)."""
    from ..errors import Refused

    if all_:
        return sealed(root)
    log_id, entry, done = find_secret(root, entry_id)
    if entry.get("commitment") is None:
        raise Refused(f"entry {entry_id} is not a secret roll", rule="P-SECRET-3", fix="nothing to unveil")
    if done == "unveiled":
        raise Refused(f"entry {entry_id} is already unveiled", rule="P-SECRET-3", fix="nothing to unveil")
    if done == "undone":
        raise Refused(f"entry {entry_id} was undone: it was taken back and publishes nothing",
                      rule="P2-SEAL-4", fix="nothing to unveil")
    return [(log_id, entry)]


def unveil_all(s, targets, strict: bool):
    """Unveil each (log id, entry): returns the unveiled records and the ids whose record is lost."""
    from ..errors import Refused
    from ..render import summary
    from ..store import encounters, secrets

    unveiled, lost = [], []
    for log_id, entry in targets:
        eid = entry["id"]
        record = secrets.read_record(s.campaign.root, eid)
        if record is None or not secrets.matches(entry["commitment"], record.get("salt"), record.get("result")):
            if strict:
                raise Refused(f"entry {eid}: its private record is lost on this machine (or does not match its "
                              "commitment)", rule="P-SECRET-3",
                              fix="unveil it from the machine that rolled it; it stays a commitment")
            lost.append(eid)
            continue
        fields = {"command": "unveil", "actor": entry.get("actor"), "unveils": eid, "of": entry.get("command"),
                  "salt": record["salt"], "result": record["result"]}
        if isinstance(entry.get("seals"), dict):  # each sealed effect, published with its salt
            kept = record.get("sealed") if isinstance(record.get("sealed"), dict) else {}
            fields["sealed"] = {c: kept[c] for c in dict.fromkeys(entry["seals"].values()) if c in kept}
            _published(s, eid, fields["sealed"])
        log = encounters.log_path(s.campaign.root, log_id)
        text, appended = encounters.new_entry(log, fields, s.txn.pending(log))
        s.txn.append(log, text)
        unveiled.append({"entry": eid, "log": log_id, "unveil": appended["id"], "result": record["result"],
                         "words": summary(appended, s.campaign.system)})
    return unveiled, lost


def _published(s, entry_id: str, sealed_values: dict):
    """Unveiled, a secret action's sealed values are no secret: every encounter state and sheet that holds one of
    them gets the value itself in place of its commitment, in the unveil's transaction."""
    from ..store import encounters, sealed

    root = s.campaign.root
    values = {sealed.token(entry_id, c): kept["value"] for c, kept in sealed_values.items()}

    def opened(data):
        return [(path, text) for path, text in sealed.tokens_in(data) if text in values]

    folder = root / "encounters"
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else ():
        if path.name.endswith(".log.yaml") or f"{sealed.PREFIX}{entry_id}:" not in path.read_text(encoding="utf-8"):
            continue
        enc_id = path.name[:-len(".yaml")]
        state = encounters.load_state(root, enc_id, s.campaign.system)
        found = opened(state)
        if found:
            from ..readonly import thaw

            new = thaw(state)
            for where, text in found:
                sealed.sealed_at(new, where, values[text])
            s.txn.write(path, encounters.state_text(new))
    for cid in s.campaign.sheet_ids():
        if f"{sealed.PREFIX}{entry_id}:" not in s.campaign.sheet_path(cid).read_text(encoding="utf-8"):
            continue
        found = opened(s.load(cid).plain)
        if found:
            s.edit_sheet(cid, {where: values[text] for where, text in found}, s.campaign.system.explicit_null)


@command(help="""How lucky each character was: checks, expected and actual successes, the
percentile (Poisson-binomial: exact for short logs, within 0.05 points past them, docs/luck.md), dice
spent and top faces against the die model.

\b
Examples:
  narateer stats
  narateer stats --since 2026-11-01 --json""")
@click.option("--actor", metavar="X", help="Only this character.")
@click.option("--encounter", metavar="E", help="Only this encounter's log (`campaign`: the campaign log).")
@click.option("--since", metavar="DATE", help="Only entries logged at or after DATE (YYYY-MM-DD).")
def stats_cmd(app, actor, encounter, since):
    from ..luck_scan import campaign_stats

    since = _date(since)
    with Session(app, write=False) as s:
        if actor is not None:
            s.campaign.load(actor)  # an unknown name is exit 2 with the closest names
        if encounter is not None:
            _known_log(s.campaign.root, encounter)
        data = campaign_stats(s.campaign.root, s.campaign.system, s.rules, actor, encounter, since)
    from ..render import HostKind

    emit(app, HostKind.stats, data)


def _date(text):
    import re

    from ..errors import BadInput

    from .encounters import real_time

    if text is not None and not (re.fullmatch(r"\d{4}-\d{2}-\d{2}(T[\d:]+Z?)?", text) and real_time(text)):
        raise BadInput(f"--since {text!r} is not a date", fix="give it as YYYY-MM-DD, e.g. --since 2026-11-01")
    return text


def _known_log(root, enc_id: str):
    """An encounter (its state or its log) or `campaign`; else exit 2 with the closest names."""
    from ..store import encounters
    from ..suggest import unknown

    names = {p.name.split(".")[0] for p in (root / "encounters").glob("*.yaml")} | {encounters.CAMPAIGN}
    if enc_id not in names:
        raise unknown("encounter", enc_id, sorted(names))
