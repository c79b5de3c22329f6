"""Hide and Search.

One Stealth roll is compared with every observer separately: a non-searching
observer by its Observation Readiness, a searching one by its own
Observation check. Every payment is settled before anyone rolls.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import Record, field

from .character import Sheet, possessive
from .check import CheckResult, Declaration, Streams, Target, afford, plan, read_check, roll
from .dice import DiceSource, beats
from narateer_cli.kit import BadInput, Refused
from .ruleset import Ruleset

STEALTH, OBSERVATION = "stealth", "observation"  # the skills Hide and Search roll


def observer_streams(obs_id: str) -> Streams:
    return Streams(f"obs:{obs_id}", f"obs_reroll:{obs_id}", f"obs_power:{obs_id}",
                   f"--observer-faces {obs_id}=", f"--observer-reroll-faces {obs_id}=", "--power-faces")


class Observer(Record):
    sheet: Any
    searching: Any
    boost: Any = 0


def observation_readiness(sheet: Sheet, rules: Ruleset, why: str) -> int:
    off = rules.readiness_off_by(sheet.conditions)
    if off:
        raise Refused(f"{sheet.id} is {off} and cannot notice anyone", rule="R-HIDE-4",
                      fix=f"leave {sheet.id} out ({why}): no check is needed against it")
    return sheet.readiness("observation", rules)


class ObserverResult(Record):
    """One observer of a Hide: compared by Readiness, or by its own Observation check."""

    id: Any = field(public=True)
    searching: Any = field(public=True)
    target: Any
    hidden: Any
    check: Any = field(public=CheckResult, load=read_check)
    fell_back: Any = field(public=True)


class HideResult(Record):
    """The result of `hide` (its JSON shape: these fields, built by render.plain)."""

    actor: str = field(public=True)  # a secret entry shows neither the total nor who saw
    check: Any = field(public=CheckResult, load=CheckResult.from_json)
    recorded_total: Any
    total: Any
    hidden_from: Any
    observers: Any = field(public=ObserverResult, load=lambda rows: [ObserverResult.from_json(r) for r in rows])


class SearchResult(Record):
    """The result of `search`."""

    searcher: str = field(public=True)  # a secret entry: never the Hide total, nor whether it was found
    hider: str = field(public=True)
    target: Any
    check: Any = field(public=CheckResult, load=CheckResult.from_json)
    found: Any
    # the condition that keeps a found hider unseen (invisible): its place is known, it is still unseen
    invisible: Any = field(default=None, skip=lambda r: r.invisible is None)


def hide(hider: Sheet, decl: Declaration, observers: list[Observer], rules: Ruleset,
         dice: DiceSource, refuse_first=None) -> tuple[HideResult, dict]:
    """One Stealth roll, its total kept, against each observer; returns the result and dice after.
    Every payment (the hider's, each searching observer's) is settled before anyone rolls (`refuse_first`: the
    caller's own refusals, an encounter's, made before a hopeless Hide asks anything)."""
    _hide_input(hider, observers, dice)
    payment = plan(hider, decl, rules, dice=dice, check_afford=False)
    planned = [(obs, _plan_observer(obs, rules, dice)) for obs in observers]
    afford(payment, hider)
    fell_back = _fall_backs(planned, rules)
    if refuse_first is not None:
        refuse_first()
    _ask_if_hopeless(dice, payment, planned, fell_back, rules)
    stealth = roll(payment, Target(None, "observers", "each observer"), rules, dice)
    total = stealth.total
    rows = []
    after = {hider.id: payment.dice_after}
    for obs, op in planned:
        oid = obs.sheet.id
        if op is not None and oid not in fell_back:
            check = roll(op, Target(total, "stealth", f"{possessive(hider.id)} Stealth"), rules, dice)
            target = check.total
            after[oid] = op.dice_after
        else:
            target, check = observation_readiness(obs.sheet, rules, "it is not aware"), None
        rows.append(ObserverResult(oid, obs.searching, target, beats(total, target), check, oid in fell_back))
    dice.finish()
    hidden_from = [row.id for row in rows if row.hidden]
    return HideResult(hider.id, stealth, total if hidden_from else None, total, hidden_from, rows), after


def _ask_if_hopeless(dice, payment, planned, fell_back: set, rules: Ruleset):
    """A Hide that can escape no observer (each one's Readiness, or its own check, beyond the Stealth
    roll's reach) asks first."""
    from .check import ask_if_hopeless, chance

    targets = []
    for obs, op in planned:
        if op is not None and obs.sheet.id not in fell_back:
            targets.append((Target(None, "stealth", ""), op))
        else:
            targets.append((Target(observation_readiness(obs.sheet, rules, "it is not aware"), "readiness", ""), None))
    if targets and all(chance(payment, target, rules, op) == 0 for target, op in targets):
        readiness = [target.value for target, op in targets if op is None]
        against = "every observer"
        ask_if_hopeless(dice, payment, Target(max(readiness) if readiness else None, "observers", against), rules,
                        None if readiness else targets[0][1], against)


def _hide_input(hider: Sheet, observers: list[Observer], dice: DiceSource):
    """Bad input of a Hide: no observer, one named twice or the hider itself, faces for a non-searcher."""
    if not observers:
        raise BadInput("hide needs at least one observer", fix="name them with --from OBS")
    ids = [o.sheet.id for o in observers]
    if hider.id in ids or len(set(ids)) != len(ids):
        raise BadInput("each observer must be named once, and not the hider", fix="check --from and --searching")
    for stream in dice.physical:
        if stream.startswith("obs:") and stream[4:] not in {o.sheet.id for o in observers if o.searching}:
            raise BadInput(f"--observer-faces given for {stream[4:]}, who is not searching",
                           fix=f"add --searching {stream[4:]}, or drop its faces")


def _plan_observer(obs: Observer, rules: Ruleset, dice: DiceSource):
    """A searching observer's own Observation check; None for one compared by Readiness."""
    if obs.searching:
        od = Declaration(skill=OBSERVATION, boost=obs.boost, reaction=False, label="Observation check")
        return plan(obs.sheet, od, rules, observer_streams(obs.sheet.id), dice=dice, check_afford=False)
    if obs.boost:
        raise BadInput(f"--observer-boost given for {obs.sheet.id}, who is not searching",
                       fix=f"add --searching {obs.sheet.id}, or drop its boost")
    return None


def _fall_backs(planned, rules: Ruleset) -> set:
    """Searchers who cannot pay fall back to Readiness (or the whole Hide is refused)."""
    fell_back = set()
    for obs, op in planned:
        if op is not None and op.paid > obs.sheet.dice.get("ready", 0):
            if rules.search_pay == "refuse":
                afford(op, obs.sheet)
            fell_back.add(obs.sheet.id)
    return fell_back


def search(searcher: Sheet, hider_id: str, recorded: int, decl: Declaration, rules: Ruleset,
           dice: DiceSource) -> tuple[SearchResult, dict]:
    """Observation check vs the recorded Hide total; exceeding it finds the hider for this searcher.
    Returns the result and the dice after."""
    payment = plan(searcher, decl, rules, dice=dice)
    check = roll(payment, Target(recorded, "recorded", f"{possessive(hider_id)} recorded Stealth {recorded}"), rules, dice)
    dice.finish()
    return SearchResult(searcher.id, hider_id, recorded, check, bool(check.success)), {searcher.id: payment.dice_after}


class JoinComparison(Record):
    """A creature joining the encounter, compared with one hider's recorded total."""

    hider: Any = field(public=True)
    observer: Any = field(public=True)
    searching: Any = field(public=True)
    target: Any
    hidden: Any
    check: Any = field(public=CheckResult, load=read_check)
    fell_back: Any = field(public=True)
    recorded: Any


def new_observer(observer: Sheet, hider_id: str, recorded: int, searching: bool, boost: int, rules: Ruleset,
                 dice: DiceSource) -> tuple[JoinComparison, dict | None]:
    """A creature that could newly notice is compared with the recorded total.
    Returns the comparison and the observer's dice after (None when it paid nothing)."""
    if searching:
        decl = Declaration(skill=OBSERVATION, boost=boost, label="Observation check")
        payment = plan(observer, decl, rules, observer_streams(observer.id), dice=dice, check_afford=False)
        if payment.paid <= observer.dice.get("ready", 0):
            check = roll(payment, Target(recorded, "recorded", f"{possessive(hider_id)} recorded Stealth"), rules, dice)
            return (JoinComparison(hider_id, observer.id, True, check.total, beats(recorded, check.total), check,
                                   False, recorded), payment.dice_after)
        if rules.search_pay == "refuse":
            afford(payment, observer)
    target = observation_readiness(observer, rules, "it cannot notice")
    return JoinComparison(hider_id, observer.id, searching, target, beats(recorded, target), None, searching,
                          recorded), None


class Joined(Record):
    """`encounter join`: the newcomer and its comparison with each hider."""

    encounter: Any = field(public=True)
    observer: Any = field(public=True)
    compared: Any = field(public=JoinComparison, load=lambda rows: [JoinComparison.from_json(r) for r in rows])


def join(state: dict, observer: Sheet, searching: bool, boost: int, rules: Ruleset, dice: DiceSource):
    """A creature joining the encounter is compared with every hider's recorded total, with no
    new Stealth roll. Returns (state, Joined, the observer's dice after)."""
    from .encounter import add_participant, set_hidden

    if observer.id in state["participants"]:
        raise BadInput(f"{observer.id} is already in encounter {state['id']}", fix="nothing to do")
    state = add_participant(state, observer.id)
    compared = []
    for hider, recorded in sorted(state["recorded"].items()):
        row, after = new_observer(observer, hider, recorded, searching, boost, rules, dice)
        if after is not None:
            observer = observer.with_dice(after)
        compared.append(row)
        state = set_hidden(state, hider, {observer.id: recorded if row.hidden else None})
    dice.finish()
    return state, Joined(state["id"], observer.id, compared), observer.dice



def hide_in(state: dict, hider: Sheet, observers: list[Observer], rules: Ruleset, dice: DiceSource,
            boost: int = 0, advantage: bool = False, disadvantage: bool = False) -> tuple[dict, HideResult, dict]:
    """A Hide in an encounter: the Stealth roll against each observer, the
    proactive use, who the hider is now hidden from. Returns (new state, result, dice after)."""
    from .encounter import record_action, set_hidden, use_skill

    decl = Declaration(skill=STEALTH, boost=boost, advantage=advantage, disadvantage=disadvantage,
                       label="Stealth check")
    used = []  # the state once the Hide takes its use: the encounter refuses before anything is rolled
    result, after = hide(hider, decl, observers, rules, dice,
                         lambda: used.append(use_skill(state, hider.id, STEALTH, "Hide")))
    state = used[0]
    results = {row.id: (result.total if row.hidden else None) for row in result.observers}
    state = set_hidden(state, hider.id, results, result.total if result.hidden_from else None)
    return record_action(state, hider.id, "hide"), result, after


def search_in(state: dict, searcher: Sheet, hider_id: str, rules: Ruleset, dice: DiceSource, boost: int = 0,
              advantage: bool = False, disadvantage: bool = False, changed: str | None = None,
              unseen: str | None = None) -> tuple[dict, SearchResult, dict]:
    """A Search in an encounter: bad input first, then the refusals (nothing hidden
    from the searcher, a repeated search), then the Observation check; a success reveals the hider to this
    searcher only, and a hider that `unseen` names a condition of (invisible) stays unseen. Returns (new state,
    result, dice after)."""
    from .encounter import is_hidden, note_search, record_action, reveal, search_allowed, use_skill

    decl = Declaration(skill=OBSERVATION, boost=boost, advantage=advantage, disadvantage=disadvantage, label="Search")
    plan(searcher, decl, rules, dice=dice, check_afford=False)  # bad input before any refusal
    if not is_hidden(state, hider_id, searcher.id):
        raise Refused(f"{hider_id} is not hidden from {searcher.id}", rule="R-SRCH-1", fix="there is nothing to find")
    search_allowed(state, searcher.id, hider_id, changed)
    result, after = search(searcher, hider_id, state["hidden"][hider_id][searcher.id], decl, rules, dice)
    new = use_skill(state, searcher.id, OBSERVATION, "Search")
    if result.found:
        new, _ = reveal(new, hider_id, [searcher.id])
        if unseen:
            result = result.replace(invisible=unseen)
    else:
        new = note_search(new, searcher.id, hider_id, changed or "")
    return record_action(new, searcher.id, "search"), result, after
