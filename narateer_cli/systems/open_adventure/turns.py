"""Turn order by Reaction and the Major/Minor Action budget of a Turn."""

from __future__ import annotations

from typing import Any, overload

from narateer_cli.kit import BadInput, Refused

from .names import suggest
from narateer_cli.kit import Record, computed, field


class TurnState(Record, kw_only=True):
    """One encounter's turn state: fixed order, the Round, whose Turn it is and what it has spent."""
    encounter: str
    round: int = 1
    order: Any
    acted: Any = ()
    actor: Any = None
    major: bool = False
    minor: bool = False
    maintaining: Any = None
    spent: Any = ()
    reactions: Any = {}
    durations: Any = {}


class TurnReport(Record):
    """What `turn start|end`, `encounter show|join` print: the Round, whose Turn, the Actions it has left
    (`major`, `minor`: True while unspent), the order, timed conditions and those that ended."""
    system: Any
    encounter: Any
    round: Any
    actor: Any
    major: Any
    minor: Any
    order: Any
    rounds_left: Any = field(default={}, skip=lambda r: not r.rounds_left)  # only while a timer runs
    expired: Any = field(default=(), skip=lambda r: not r.expired)  # only when one ended
    participants: Any = field(default=(), skip=lambda r: not r.participants)


class Participant(Record):
    """One row of `encounter show`'s table: a participant's current pools, Wounds, Challenge Points (NPCs)
    and conditions, with the Rounds left on those the state times."""
    id: Any
    npc: Any
    points: Any
    wounds: Any
    challenge_points: Any = field(skip=lambda p: not p.npc)  # NPCs only
    conditions: Any
    rounds_left: Any = field(skip=lambda p: not p.rounds_left)  # only while a timer runs


def participants(state: TurnState, sheets: dict) -> tuple:
    """`encounter show`: each participant in Reaction order, read from its sheet (`sheets`: id -> Sheet)."""
    return tuple(Participant(id=cid, npc=sheets[cid].npc, points=dict(sheets[cid].points), wounds=sheets[cid].wounds or 0,
                             challenge_points=sheets[cid].challenge_points if sheets[cid].npc else None,
                             conditions=tuple(sheets[cid].conditions or ()), rounds_left=rounds_left(state, cid))
                 for cid in state.order)


class MinorSpent(Record):
    """`turn minor`: the actor spent this Turn's Minor Action, on `what` when told."""
    system: Any
    encounter: Any
    round: Any
    actor: Any
    major: Any
    minor: Any
    order: Any
    what: Any = None

    message = computed(lambda r: f"{r.actor} spends the Minor Action{f': {r.what}' if r.what else ''} "
                                 f"({'Major Action left' if r.major else 'nothing left'})")


class EncounterCreated(Record):
    """`encounter new`: the encounter and its Reaction order."""
    system: Any
    encounter: Any
    order: Any
    round: Any

    message = computed(lambda r: f"encounter {r.encounter}: order {', '.join(r.order)}")


def order(members, reactions: dict, sheets: dict, rules) -> tuple:
    """Turn order: highest Reaction first; ties PCs first, then naming order. NPCs use their statblock."""
    scores = {}
    for cid in reactions:  # a misspelt name first: it explains the PC left without a total
        if cid not in members:
            raise BadInput(f"--reaction {cid}: not in this encounter", fix=suggest(cid, members))
    for cid in members:
        sheet = sheets[cid]
        if sheet.npc:
            if cid in reactions:
                raise BadInput(f"--reaction {cid}: an NPC acts on its statblock Reaction", rule="R-OA-NPC-1",
                               fix="drop it, or edit the statblock's reaction")
            scores[cid] = sheet.reaction or 0
        elif rules.turn_order == "reaction":
            if cid not in reactions:
                raise BadInput(f"{cid} has no Reaction Check total", fix=f"give --reaction {cid}=N")
            scores[cid] = reactions[cid]
    if rules.turn_order == "actor_chooses":
        return tuple(members)
    index = {cid: i for i, cid in enumerate(members)}
    return tuple(sorted(members, key=lambda c: (-scores[c], sheets[c].npc, index[c])))


def report(state: TurnState, expired=()) -> TurnReport:
    """The turn state as the players read it."""
    from narateer_cli.kit import durations

    left = {c: durations.left(timed(state), c) for c in state.durations}
    return TurnReport(system="open-adventure", encounter=state.encounter, round=state.round, actor=state.actor,
                      major=not state.major, minor=not state.minor, order=tuple(state.order), rounds_left=left,
                      expired=tuple(expired))


def new_encounter(enc_id: str, chars, reactions: dict, sheets: dict, rules) -> tuple[TurnState, EncounterCreated]:
    """`encounter new`: the characters in Reaction order, Round 1, no Turn going."""
    if len(set(chars)) != len(chars):
        raise BadInput("a character is named twice", fix="name each once")
    state = TurnState(encounter=enc_id, order=order(list(chars), reactions, sheets, rules), reactions=dict(reactions))
    return state, EncounterCreated(system="open-adventure", encounter=enc_id, order=state.order, round=state.round)


def start_turn(state: TurnState, who: str | None = None) -> tuple[TurnState, TurnReport]:
    """`turn start`: the Turn begins and the actor's timed conditions that end now are reported."""
    state, expired = expire(start(state, who))
    return state, report(state, expired)


def end_turn(state: TurnState, next_id: str | None = None) -> tuple[TurnState, TurnReport]:
    """`turn end [--next CHAR]`: the Turn ends; with CHAR, CHAR's Turn starts as `turn start CHAR` would."""
    if next_id is not None and next_id not in state.order:  # bad input is reported before any refusal
        raise BadInput(f"{next_id} is not in encounter {state.encounter}", fix=suggest(next_id, state.order))
    state = end(state)
    if next_id is not None:
        return start_turn(state, next_id)
    return state, report(state)


def spend_minor(state: TurnState, who: str | None, what: str | None) -> tuple[TurnState, MinorSpent]:
    """`turn minor [CHAR]`: CHAR (default: the actor) spends this Turn's Minor Action; refused when it is not
    CHAR's Turn or the Minor Action is spent. A Minor Action never takes a check."""
    if who is None and state.actor is None:
        raise Refused("no Turn is going", rule="R-OA-ACT-2", fix="run `turn start` first")
    state = spend(state, who or state.actor, "minor")
    return state, MinorSpent(system="open-adventure", encounter=state.encounter, round=state.round, actor=state.actor,
                             major=not state.major, minor=not state.minor, order=tuple(state.order), what=what)


def join_turns(state: TurnState, cid: str, reaction: int | None, sheets: dict, rules) -> tuple[TurnState, TurnReport]:
    state = join(state, cid, reaction, sheets, rules)
    return state, report(state)


def start(state: TurnState, who: str | None = None) -> TurnState:
    """`turn start [CHAR]`: the next in order by default; a new Round once everyone has acted."""
    if state.actor is not None:
        raise Refused(f"{state.actor}'s Turn is still going", rule="R-OA-ACT-2", fix="run `turn end` first")
    acted, rnd = state.acted, state.round
    if len(acted) >= len(state.order):
        acted, rnd = (), rnd + 1
    if who is None:
        who = next(c for c in state.order if c not in acted)
    elif who not in state.order:
        raise BadInput(f"{who} is not in encounter {state.encounter}", fix=suggest(who, state.order))
    elif who in acted:
        raise Refused(f"{who} already took a Turn in Round {rnd}", rule="R-OA-ACT-2",
                      fix="wait for the next Round, or start another character's Turn")
    return state.replace(round=rnd, acted=acted + (who,), actor=who, major=who in state.spent, minor=False,
                         spent=tuple(c for c in state.spent if c != who))


def end(state: TurnState) -> TurnState:
    if state.actor is None:
        raise Refused("no Turn is going", rule="R-OA-ACT-2", fix="run `turn start` first")
    return state.replace(actor=None, major=False, minor=False)


@overload
def spend(state: TurnState, who: str, kind: str = "major") -> TurnState: ...
@overload
def spend(state: TurnState | None, who: str, kind: str = "major") -> TurnState | None: ...


def spend(state: TurnState | None, who: str, kind: str = "major") -> TurnState | None:
    """A check (or holding a success) spends the actor's Major Action."""
    if state is None:
        return None
    if state.actor != who:
        now = f"it is {state.actor}'s Turn" if state.actor else "no Turn is going"
        raise Refused(f"not {who}'s Turn: {now}", rule="R-OA-ACT-2", fix=f"run `turn start {who}` first")
    if getattr(state, kind):
        raise Refused(f"{who} has spent this Turn's {kind.title()} Action", rule="R-OA-ACT-2",
                      fix="run `turn end`, and act on the next Turn")
    return state.replace(**{kind: True})


def spend_opponent(state: TurnState | None, who: str) -> TurnState | None:
    """With `opponent_uses_major`, resisting spends the opponent's Major Action (this Turn's, or its next)."""
    if state is None or who not in state.order:
        return state
    if state.actor == who:
        return spend(state, who)
    if who in state.spent:
        raise Refused(f"{who} has already spent its next Major Action resisting", rule="A-OA-OPP",
                      fix="give its total with --ds instead of --opposed")
    return state.replace(spent=state.spent + (who,))


def join(state: TurnState, cid: str, reaction: int | None, sheets: dict, rules) -> TurnState:
    """`encounter join`: CHAR takes its place in the Reaction order; the others keep theirs."""
    if cid in state.order:
        raise BadInput(f"{cid} is already in encounter {state.encounter}", fix="nothing to do")
    reactions = dict(state.reactions)
    if reaction is not None:
        reactions[cid] = reaction
    new = order(list(state.order) + [cid], reactions, sheets, rules)
    return state.replace(order=new, reactions=reactions)


STATE_KEYS = ("id", "system", "round", "order", "acted", "actor", "major", "minor", "participants", "maintaining",
              "spent", "reactions", "durations")


def state_from_data(data: dict, label: str) -> TurnState:
    """An encounter state file's data as a TurnState; anything else is bad input naming the file."""
    if not isinstance(data, dict) or data.get("system") != "open-adventure" or not isinstance(data.get("order"), list):
        raise BadInput(f"{label}: not an open-adventure encounter state", fix="restore it from git")
    try:
        state = TurnState(encounter=str(data["id"]), round=int(data["round"]), order=tuple(data["order"]),
                          acted=tuple(data.get("acted") or ()), actor=data.get("actor"),
                          major=bool(data.get("major")), minor=bool(data.get("minor")),
                          maintaining=data.get("maintaining"), spent=tuple(data.get("spent") or ()),
                          reactions=dict(data.get("reactions") or {}),
                          durations={str(c): {str(n): int(r) for n, r in (v or {}).items()}
                                     for c, v in (data.get("durations") or {}).items()})
    except (KeyError, TypeError, ValueError):
        raise BadInput(f"{label}: damaged encounter state", fix="restore it from git") from None
    return _names_in_order(state, label)


def _names_in_order(state: TurnState, label: str) -> TurnState:
    """Every character the state names (timers, acted, spent, actor) is in its order."""
    names = set(state.order)
    if not set(state.durations) <= names:
        raise BadInput(f"{label}: a timed condition names a character outside its order", fix="restore it from git")
    if not (set(state.acted) <= names and set(state.spent) <= names and (state.actor is None or state.actor in names)):
        raise BadInput(f"{label}: names a character outside its order", fix="restore it from git")
    return state


def state_data(state: TurnState) -> dict:
    return {"id": state.encounter, "system": "open-adventure", "round": state.round, "order": list(state.order),
            "acted": list(state.acted), "actor": state.actor, "major": state.major, "minor": state.minor,
            "participants": list(state.order), "maintaining": state.maintaining, "spent": list(state.spent),
            "reactions": dict(state.reactions), **({"durations": state.durations} if state.durations else {})}


def timed(state: TurnState) -> dict:
    """The state as `narateer_cli.durations` reads it."""
    return {"round": state.round, "durations": state.durations}


def add_timed(state: TurnState, cid: str, added, removed, rounds: int | None) -> TurnState:
    """`condition CHAR +NAME --rounds N` ends NAME at the start of CHAR's Turn N Rounds later;
    removing a condition forgets its timer."""
    from narateer_cli.kit import durations

    data = durations.drop(timed(state), cid, list(removed) + list(added))
    if rounds is not None:
        data = durations.add(data, cid, added, rounds)
    return state.replace(durations=data["durations"])


def expire(state: TurnState) -> tuple[TurnState, list]:
    """As the actor's Turn starts: its timed conditions that end now, and the state without them."""
    from narateer_cli.kit import durations

    if state.actor is None:
        return state, []
    due = durations.due(timed(state), state.actor)
    return state.replace(durations=durations.drop(timed(state), state.actor, due)["durations"]), due


def rounds_left(state: TurnState | None, cid: str) -> dict:
    from narateer_cli.kit import durations

    return durations.left(timed(state), cid) if state is not None else {}


def load_state(data: dict, label: str, checked: bool = False) -> dict:
    """The host's `load_state` hook: the validated state as plain data, in its key order (`checked` or not:
    the check is what builds the state)."""
    return state_data(state_from_data(data, label))
