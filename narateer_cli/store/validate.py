"""`narateer check`: every problem in a campaign, as structured values (store.schema.Problem: file,
line, key or entry id, message); the render layer shows each as `file:line: message`.

Problems are collected, not raised, so one run lists them all.
"""

from __future__ import annotations

import re

from ..errors import NarateerError
from . import yamlio
from .schema import Problem

_PLACE = re.compile(r"^([^\s:]+):(\d+): (.*)$", re.S)
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _place(label: str, exc: NarateerError, root=None) -> Problem:
    """An error raised while reading a file, as a problem at its file and line (the line of the key
    it names when the error does not say)."""
    from .gitops import Unmerged

    if isinstance(exc, Unmerged):  # an unmerged file: one problem line, not a parser message
        return unmerged_problem(exc.names[0])
    text = exc.line()
    placed = _PLACE.match(text)
    if placed:
        return Problem(placed.group(1), int(placed.group(2)), "", placed.group(3), rule=exc.rule)
    if text.startswith(label + ": "):
        text = text[len(label) + 2:]
    return Problem(label, _key_line(root, label, text), "", text, rule=exc.rule)


def unmerged_problem(name: str) -> Problem:
    """In `check`, a file git left unmerged (writers refuse it meanwhile), or holding its conflict markers."""
    from .gitops import FINISH

    return Problem(name, 1, "", "unmerged: finish the merge first", FINISH.replace(", then run the command again", ""))


def _key_line(root, label: str, message: str) -> int:
    """The line of the key a message names (`rules.tiers[1].name` -> its `name:`), else 1."""
    match = re.search(r"rules\.([\w.\[\]]+)", message) or re.match(r"(\w+)", message)
    if root is None or match is None:
        return 1
    key = re.sub(r"\[\d+\]", "", match.group(1)).split(".")[-1]

    try:  # a FIFO or a device in a file's place must not hang check
        lines = yamlio.read_text(root / label, label).splitlines()
    except NarateerError:
        return 1
    start = next((i for i, line in enumerate(lines) if line.startswith("rules:")), 0) if "rules." in message else 0
    for number, line in enumerate(lines[start:], start + 1):
        if re.match(rf"\s*(- )?{re.escape(key)}\s*:", line) or re.search(rf"[{{,]\s*{re.escape(key)}\s*:", line):
            return number
    return 1


def validate_campaign(campaign) -> list[Problem]:
    from . import encounters

    problems = []
    try:
        rules = campaign.rules
    except NarateerError as exc:
        return [_place("narateer.yaml", exc, campaign.root)]
    root = campaign.root
    sheets = _check_sheets(campaign, problems)
    problems.extend(_system_files(campaign, rules))
    folder = root / "encounters"
    logged = {}  # char -> [(at, dice, log label, line, entry id)]: the logs that last logged its dice
    own = set(encounters.own_logs(root, campaign.system))
    from .history import Bridges

    bridges = Bridges(root)  # the other logs, read once when some log has a gap (a character moved elsewhere)
    ends: dict = {}  # char -> [(log label, its last dice there, line, entry id)]
    logs, scans = _log_cache(campaign, own)
    try:
        for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
            label = f"encounters/{path.name}"
            try:
                if path.name.endswith(".log.yaml"):
                    if path.name[: -len(".log.yaml")] in own:  # another game's log: its state is the problem named
                        read = logs.cached(label, None, lambda: _check_log(path, label, campaign, bridges,
                                                                           scans.get(path.name)), *_LOG_RECORD)
                        _merge_log(read, problems, logged, ends)
                    continue
                state = encounters.load_state(root, path.stem, campaign.system)
                for name in state["participants"]:
                    if name not in sheets:
                        problems.append(Problem(label, 1, name, f"participant {name!r} has no valid characters/{name}.yaml"))
            except NarateerError as exc:
                problems.append(_place(label, exc, root))
    finally:
        for scan in scans.values():
            scan.close()
    logs.keep()
    _compare_dice(sheets, logged, problems, campaign.system)
    _dangling(sheets, ends, bridges, problems)
    problems.extend(_config_problems(campaign))
    problems.extend(_git_problems(root, problems))
    return list(dict.fromkeys(problems))  # one unmerged file may be met by two readers: named once


# The keys narateer.yaml may hold for the host (the game's name in `system`, rules, command aliases, asking for
# missing faces, the party the players' page shows and what it sees of the others, who rolls another
# creature's dice in a player's action, the current encounter, autocommit), beside the game's own `config_keys` (the host names no game's keys). Others are kept; a near
# miss is reported.
CONFIG_KEYS = ("system", "rules", "encounter", "aliases", "ask_faces", "autocommit", "party", "party_sees",
               "others_dice")
OTHERS_DICE = ("server", "guide")  # who gives another creature's dice in a player's action (`Game.others_dice`)
NPC_HP = ("exact", "band", "hidden")  # what the party's page shows of a pool of a creature outside the party


def _config_problems(campaign) -> list[Problem]:
    """narateer.yaml itself: near-miss top-level keys (`sytem:` would silently play the default game)
    and aliases that could never run (an alias never hides a verb). Kept in the private problem cache
    (store/checked.py) under the file's bytes, the encounters there are and the code."""
    from .checked import Folder

    label = "narateer.yaml"
    known = sorted(p.name[:-5] for p in (campaign.root / "encounters").glob("*.yaml")
                   if not p.name.endswith(".log.yaml"))
    current = campaign.config().get("encounter")
    plain = not current or (isinstance(current, str) and _ID.fullmatch(current) is not None)  # a name in `known`
    cached = Folder(campaign.root, "config", [known] if plain else None, campaign.system.package)
    try:
        found = cached.problems(label, campaign.root / label, lambda text: _config_text_problems(campaign, text, known))
    except NarateerError as exc:
        return [_place(label, exc, campaign.root)]
    cached.keep()
    return found


def _config_text_problems(campaign, text: str, known: list) -> list[Problem]:
    from ..suggest import did_you_mean
    from . import schema

    label = "narateer.yaml"
    doc = yamlio.load_rt(text, label)
    if not isinstance(doc, dict):
        return []
    keys = (*CONFIG_KEYS, *campaign.system.config_keys)
    table = schema.Map(keys={key: schema.Anything() for key in keys}, open=True)
    table.keys["party_sees"] = schema.Map(keys={"npc_hp": schema.Choice(*NPC_HP)}, open="strict")
    declared = campaign.system.hook("others_dice")
    table.keys["others_dice"] = schema.Map(keys={str(option): schema.Choice(*OTHERS_DICE)
                                                 for option in (declared if isinstance(declared, dict) else {})})
    found = schema.problems(doc, table, label, {})
    current = doc.get("encounter")
    if current and not (campaign.root / "encounters" / f"{current}.yaml").exists():
        found.append(Problem(label, yamlio.line_of(doc, "encounter") or 1, "encounter",
                             f"current encounter {current!r} has no encounters/{current}.yaml"
                             + did_you_mean(str(current), known)))
    aliases = doc.get("aliases")
    return found + (_alias_problems(campaign, aliases, label) if isinstance(aliases, dict) else [])


def _alias_problems(campaign, aliases, label) -> list[Problem]:
    """An alias must start with one of this system's commands, and a verb's name never runs one."""
    import shlex

    from .. import systems
    from ..suggest import did_you_mean

    verbs = sorted((set(systems.HOST_VERBS) - set(systems.HOST_ONLY)) | {"unveil"} | set(campaign.system.verbs))
    out = []
    for name, text in aliases.items():
        line = yamlio.line_of(aliases, name) or 1
        try:
            first = (shlex.split(text) if isinstance(text, str) else [""])[0]
        except (ValueError, IndexError):
            first = ""
        if str(name) in verbs:
            out.append(Problem(label, line, f"aliases.{name}", f"alias {name} is never used: {name} is a command",
                               "rename the alias", "warning"))
        elif first not in verbs:
            out.append(Problem(label, line, f"aliases.{name}",
                               f"alias {name} runs {first!r}, which is not a {campaign.system.name} command"
                               + did_you_mean(first, verbs), "start it with one of: " + ", ".join(verbs)))
    return out


def _check_sheets(campaign, problems) -> dict:
    """Every character file, through the parse caches; returns id -> (SheetFile). The system's sheet
    schema lists every problem of a sheet, near-miss top-level keys included; what it finds is
    kept per file in the private cache (store/checked.py), so an unchanged sheet is not parsed again."""
    from .campaign import ID_RE
    from .checked import Folder

    root = campaign.root
    schema_of = _schema_of(campaign)
    files = Folder(root, "characters", campaign.rules_key, campaign.system.package)
    sheets = {}
    for path in sorted((root / "characters").glob("*")) if (root / "characters").is_dir() else []:
        label = f"characters/{path.name}"
        if path.suffix != ".yaml":
            continue
        if not ID_RE.match(path.stem):
            problems.append(Problem(label, 1, "", "file name is not a valid character id (letters, digits, - and _)"))
            continue
        try:
            found = _sheet_problems(campaign, files, label, path, schema_of)
            problems.extend(found)
            if not any(p.severity == "error" for p in found):
                sheets[path.stem] = campaign.load(path.stem)
        except _NoSchema as failed:  # the system's hook itself: the command fails, as when it was loaded first
            raise failed.args[0] from None
        except NarateerError as exc:
            problems.append(_place(label, exc, root))
    files.keep()
    return sheets


def _sheet_problems(campaign, files, label, path, schema_of) -> list:
    """A sheet's schema problems: cached for its bytes, else found in the parse a command kept of exactly these
    bytes (store/cache.py, what a write leaves for the next command), else in a round-trip parse. Only a clean
    sheet is settled on the kept parse: problems are named from the round-trip parse, which knows their lines."""
    if schema_of is None:
        return []
    from .checked import kept_sheet

    find = schema_of(label)

    def compute(text, key):
        return find(text, kept_sheet(campaign.root, path.stem, key))
    return files.problems(label, path, compute, keyed=True)


class _NoSchema(Exception):
    """The system's `sheet_schema` hook failed to load (its BadInput is args[0])."""


def _schema_of(campaign):
    """label -> the function from a sheet's text to its problems under the system's sheet schema (imported
    only when a sheet is parsed); None when the system has no `sheet_schema`."""
    system = campaign.system
    if not system.gives("sheet_schema"):
        return None

    def table():
        try:
            return system.hook("sheet_schema")
        except NarateerError as exc:
            raise _NoSchema(exc) from None

    return lambda label: lambda text, kept=None: _schema_problems(text, label, table(), campaign.rules, kept)


def _system_files(campaign, rules) -> list[str]:
    """The system's own data files (its `check_files` hook, e.g. d20-cards' `actions/*.yaml`), every problem
    as `file:line: message`."""
    hook = campaign.system.hook("check_files")
    if hook is None:
        return []
    try:
        found = hook(campaign.root, rules)
    except NarateerError as exc:
        return [_place("narateer.yaml", exc, campaign.root)]
    return [p if isinstance(p, (str, Problem)) else p.text() if hasattr(p, "text") else str(p) for p in found]


def _schema_problems(text, label, table, rules, kept=None) -> list:
    """The problems of a sheet's text under its schema; `kept`: the plain parse of exactly this text, when a
    command kept one (a clean sheet needs no round-trip parse)."""
    from . import schema

    if kept is not None and not schema.problems(kept, table, label, rules):
        return []
    doc = yamlio.load_rt(text, label)
    return schema.problems(doc, table, label, rules) if isinstance(doc, dict) else []


def _check_log(path, label, campaign, bridges=None, scan=None) -> tuple:
    """One log, line by line: each entry re-checked by its system's own verify, continuity and
    merges (each merge's sums) by the history reader, in flat memory; from where the last check of the same
    bytes ended when one was kept (store/resume.py; `scan`: the log as `_log_cache` read it). (its problem, or
    None and [(character, at, dice, label, line, entry id, forked)] for the last dice it logs of each character)."""
    from . import history
    from .encounters import log_path
    from .resume import Resumed, Scan

    system, rules = campaign.system, campaign.rules
    path = log_path(path.parent.parent, path.name[: -len(".log.yaml")])  # no link leading outside
    from .secrets import checker

    def fresh(bridge):
        found = checker(campaign.root, system, rules, history.is_campaign_log(label))[1]
        return history.start(label, found, bridge), found

    hist = Resumed(campaign, scan or Scan(campaign, path, label), fresh, bridges).history()
    if hist.problem:
        return hist.problem, []
    final = hist.final_dice() or {}
    forked = len(hist.tips) > 1  # git joined branches of play and no writer has reconciled them yet
    return None, [(cid, at, final.get(cid, dice), label, line, eid, forked and cid in final)
                  for cid, (dice, line, eid, at) in hist.last_after.items()]


def _merge_log(read: tuple, problems: list, logged: dict, ends: dict):
    """A log's outcome (`_check_log`) into `problems`, `logged` and `ends`, in the order the logs are read."""
    problem, moves = read
    if problem:
        problems.append(problem)
        return
    for cid, at, dice, label, line, eid, forked in moves:
        if not forked:
            ends.setdefault(cid, []).append((label, dice, line, eid))
        newest = logged.get(cid, [("",)])[0][0]
        if cid not in logged or at > newest:  # an entry from before ids has no time: "" is still its place
            logged[cid] = []
        if at >= newest:
            logged[cid].append((at, dice, label, line, eid, forked))


def _log_cache(campaign, own):
    """Every log's outcome is kept in the private problem cache (store/checked.py) under the identity of
    every log of the campaign (whole-file checksums: a log's gaps are bridged by the others), the rules and
    the code; nothing is cached when one cannot be read. (That cache, and each log read once (store/resume.py),
    by file name: a log the cache misses is checked from there.)"""
    from .checked import Folder, stream_key
    from .encounters import log_path
    from .resume import Scan

    keys, scans = [], {}
    for path in sorted((campaign.root / "encounters").glob("*.log.yaml")):
        name = path.name[: -len(".log.yaml")]
        scan = None
        if name in own and campaign.rules_key is not None:
            try:
                scan = scans[path.name] = Scan(campaign, log_path(campaign.root, name), f"encounters/{path.name}")
            except NarateerError:
                scan = None
        key = scan.key if scan is not None else stream_key(path) if name not in own else None
        if key is None:
            keys = None
        elif keys is not None:
            keys.append([path.name, key])
    key = None if keys is None else [campaign.rules_key, sorted(own), keys]
    return Folder(campaign.root, "logs", key, campaign.system.package), scans


def _log_record(cached):
    """A cached log outcome as `_check_log` gives it, or None when it is not exactly one."""
    from .checked import problem_of

    if not isinstance(cached, list) or len(cached) != 2 or not isinstance(cached[1], list):
        return None
    problem = None if cached[0] is None else problem_of(cached[0])
    if (cached[0] is not None and problem is None) or not all(_move(m) for m in cached[1]):
        return None
    return problem, [tuple(m) for m in cached[1]]


def _move(item) -> bool:
    return (isinstance(item, list) and len(item) == 7 and all(isinstance(item[i], str) for i in (0, 1, 3, 5))
            and type(item[4]) is int and isinstance(item[6], bool))


_LOG_RECORD = (_log_record, lambda read: [None if read[0] is None else list(read[0]), [list(m) for m in read[1]]])


def _held(dice) -> dict:
    from .loglines import held

    return held(dice)


def _behind_text(cid: str, counters: dict, dice: dict, label: str, system=None, doc=None) -> str:
    """A sheet behind its forked log, and the command that reconciles it; or, when the branches
    left a counter's range (both spent what was there once), that no sheet is right (reconcile refuses it too)."""
    from .encounters import TAKE_BACK, spent_twice

    twice = spent_twice(cid, dice, system, doc)
    if twice:
        return f"{twice} once the branches of {label} are added up; {TAKE_BACK}"
    return (f"counters {counters} are behind the log ({label}), which gives {dice} once its merged branches are "
            "added up; run `narateer reconcile`")


def _compare_dice(sheets, logged, problems, system=None):
    """Each sheet's dice against the last dice the logs record for it. `logged` holds, per
    character, every log whose last entry for it is the newest (`at`, to the second): entries within one
    second carry no order between logs, so the sheet must equal the value of one of them (never a
    guess by file name)."""
    for cid, tied in sorted(logged.items()):
        sf = sheets.get(cid)
        if sf is None:
            continue
        from .campaign import counters_of

        held = _held(counters_of(sf.sheet))
        if all(held != _held(dice) for _, dice, *_ in tied):
            _, dice, label, line, eid, forked = tied[-1]
            where = next(iter((sf.places or {}).values()), [None])[0]  # the line of the block's first counter
            block = sf.block
            number = where + 1 if isinstance(where, int) else _key_line(sf.path.parent.parent, sf.label, block or "-")
            if forked:
                text = _behind_text(cid, counters_of(sf.sheet), dice, label, system, sf.plain)
            else:
                text = (f"counters {counters_of(sf.sheet)} differ from the last logged {dice} ({label}:{line}, entry {eid}); "
                        "a merge or a hand edit lost a change")
            problems.append(Problem(sf.label, number, block, text))


def _dangling(sheets, ends, bridges, problems):
    """A character's counters after its last entry in one log are where its sheet stands, or
    where an entry of another log starts from; else that log's last value was edited, or a change after
    it was lost. (Its last entry in the newest log is `_compare_dice`'s.)"""
    from .campaign import counters_of

    for cid, places in sorted(ends.items()):
        sf = sheets.get(cid)
        if sf is None or len(places) < 2:
            continue
        held = _held(counters_of(sf.sheet))
        for label, dice, line, eid in places:
            if _held(dice) != held and not bridges.continued(cid, dice, label):
                problems.append(Problem(label, line, eid, f"{cid}'s counters after this entry {dice} are neither its "
                                                          "sheet's nor where any later entry continues from: a hand "
                                                          "edit or a lost change"))


def _git_problems(root, problems) -> list[Problem]:
    """Tracked files in the private folder (never trusted); the merge driver not registered in this
    clone; files git reports unmerged that no problem names yet (one whose markers were removed but not added)."""
    from . import gitops

    named = {p.file for p in problems if isinstance(p, Problem) and p.message.startswith("unmerged:")}
    return [unmerged_problem(name) for name in gitops.unmerged(root) if name not in named] + gitops.check_problems(root)
