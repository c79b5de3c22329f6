"""Encounters: rounds, activations, proactive uses, movement and who is hidden from whom.

The encounter state is a plain dict (it is the tool's own file) and every
function here returns a new one; nothing is mutated in place. The actor names
who acts next, dice refresh as an activation begins, a Skill gives SL + 1
proactive uses per activation, one way of moving per turn, and a Hide total is
kept per observer for later searches.
"""

from __future__ import annotations

from typing import Any

from narateer_cli.kit import Record, field

from .character import Sheet, refresh, possessive
from narateer_cli.kit import durations
from narateer_cli.kit import BadInput, Refused
from .ruleset import Ruleset


def new_state(enc_id: str, participants: list[str], rules: Ruleset) -> dict:
    return {
        "id": enc_id,
        "round": rules.first_round,
        "actor": None,
        "next": None,
        "acted": [],
        "participants": list(participants),
        "uses": {},
        "mode": None,
        "movement_left": None,
        "last_action": None,
        "hidden": {},
        "recorded": {},
        "searches": {},
        "durations": {},
    }


def _copy(state: dict) -> dict:
    import copy

    return copy.deepcopy(state)


def require_participant(state: dict, char_id: str):
    if char_id not in state["participants"]:
        raise BadInput(f"{char_id} is not in encounter {state['id']}",
                       fix="participants: " + ", ".join(state["participants"]))


def add_participant(state: dict, char_id: str) -> dict:
    out = _copy(state)
    if char_id not in out["participants"]:
        out["participants"].append(char_id)
    return out


def start_turn(state: dict, sheet: Sheet, rules: Ruleset) -> tuple[dict, dict, int]:
    """Begin an activation (dice refreshed, uses reset); returns (state, dice after, dice refreshed)."""
    require_participant(state, sheet.id)
    if state["actor"]:
        raise Refused(f"{state['actor']} is still acting", rule="A-TURN", fix=f"run `narateer turn end` first")
    if sheet.id in state["acted"]:
        raise Refused(f"{sheet.id} has already acted in round {state['round']}", rule="A-TURN",
                      fix="start someone who has not acted: " + ", ".join(waiting(state)))
    if state["next"] and state["next"] != sheet.id:
        raise Refused(f"{state['next']} was named to act next, not {sheet.id}", rule="A-TURN",
                      fix=f"run `narateer turn start {state['next']}`")
    out = _copy(state)
    out["actor"] = sheet.id
    out["next"] = None
    out["uses"] = {name: skill.uses for name, skill in sorted(sheet.skills.items())}
    out["mode"] = None
    out["movement_left"] = None
    dice, moved = (refresh(sheet.dice, rules) if rules.refresh_timing == "activation_start" else (dict(sheet.dice), 0))
    return out, dice, moved


def waiting(state: dict) -> list[str]:
    return [p for p in state["participants"] if p not in state["acted"] and p != state["actor"]]


def end_turn(state: dict, next_id: str | None) -> dict:
    """The actor names who acts next among those who have not acted; a full round starts a new one."""
    if next_id is not None:
        require_participant(state, next_id)  # bad input is reported before any refusal
    if not state["actor"]:
        raise Refused("nobody is acting", rule="A-TURN", fix="start an activation with `narateer turn start CHAR`")
    out = _copy(state)
    out["acted"].append(out["actor"])
    out["actor"] = None
    out["uses"] = {}
    out["mode"] = None
    out["movement_left"] = None
    left = waiting(out)
    if next_id is not None and left and next_id not in left:
        raise Refused(f"{next_id} has already acted this round", rule="A-TURN", fix="name one of: " + ", ".join(left))
    if not left:  # everyone has acted: a new round, and anyone may be named
        out["round"] += 1
        out["acted"] = []
    out["next"] = next_id
    return out


def require_activation(state: dict, char_id: str, rule: str, hint: str = ""):
    """Inside an encounter a character initiates actions only during its own activation."""
    if state["actor"] != char_id:
        who = state["actor"] or "nobody"
        raise Refused(f"it is not {possessive(char_id)} activation ({who} is acting)", rule=rule,
                      fix=activation_way(state, char_id) + hint)


def activation_way(state: dict, char_id: str) -> str:
    """How CHAR's activation can begin, as `turn start` itself will judge it, so the advice never
    leads to a command that refuses in turn."""
    if char_id in state["acted"]:
        others = [p for p in state["participants"] if p not in state["acted"] and p != char_id]
        names = ", ".join(others[:-1]) + " and " + others[-1] if len(others) > 1 else "".join(others)
        return (f"{char_id} has acted in round {state['round']}; it acts again next round"
                + (f", once {names} {'have' if len(others) > 1 else 'has'} acted" if others else ""))
    steps = [f"`narateer turn end` ends {possessive(state['actor'])} activation"] if state["actor"] else []
    if state.get("next") and state["next"] != char_id:
        steps.append(f"{state['next']} was named to act next")
    steps.append(f"then `narateer turn start {char_id}`" if steps else f"start it with `narateer turn start {char_id}`")
    return ", ".join(steps)


def use_skill(state: dict, char_id: str, skill: str, what: str = "a proactive action") -> dict:
    """A proactive action needs the actor's activation and a use of its Skill, success or failure."""
    require_activation(state, char_id, "R-ACT-4", ", or make it a --reaction" if what == "a proactive action" else "")
    left = state["uses"].get(skill)
    if left is None:
        left = 1  # an untrained skill known to the ruleset: SL 0, one use
    if left <= 0:
        raise Refused(f"{char_id} has no proactive {skill} use left this activation", rule="R-ACT-4",
                      fix="use another skill, or wait for the next activation")
    out = _copy(state)
    out["uses"][skill] = left - 1
    return out


def record_action(state: dict, char_id: str, command: str, **extra) -> dict:
    out = _copy(state)
    out["last_action"] = {"actor": char_id, "command": command, **extra}
    return out


# ---- hiding and searching -----------------------------------------------------------



def is_hidden(state: dict, hider: str, observer: str) -> bool:
    return observer in state["hidden"].get(hider, {})


def set_hidden(state: dict, hider: str, results: dict, total: int | None = None) -> dict:
    """Record the Stealth total per observer hidden from; a spotted observer's record goes."""
    out = _copy(state)
    if total is not None:
        out["recorded"][hider] = total
    table = out["hidden"].setdefault(hider, {})
    for observer, total in results.items():
        if total is None:
            table.pop(observer, None)
        else:
            table[observer] = total
    if not table:
        out["hidden"].pop(hider, None)
        out["recorded"].pop(hider, None)
    for observer in results:
        out["searches"].get(observer, {}).pop(hider, None)
    return out


def seal_hide(state: dict, hider: str, entry_id: str) -> dict:
    """A secret Hide's total is recorded as the id of its secret entry, wherever it stands."""
    out = _copy(state)
    if hider in out["recorded"]:
        out["recorded"][hider] = entry_id
    table = out["hidden"].get(hider, {})
    for observer in table:
        table[observer] = entry_id
    return out


def sealed_hide(state: dict, hider: str) -> str | None:
    """The secret entry id a Hide's total is recorded as, or None when the total is written out."""
    values = [state["recorded"].get(hider), *state["hidden"].get(hider, {}).values()]
    return next((v for v in values if isinstance(v, str)), None)


def unseal_hide(state: dict, hider: str, total: int) -> dict:
    """The state with a secret Hide's total in place of its entry id (the engine compares with numbers)."""
    entry_id = sealed_hide(state, hider)
    out = _copy(state)
    if out["recorded"].get(hider) == entry_id:
        out["recorded"][hider] = total
    table = out["hidden"].get(hider, {})
    for observer, value in table.items():
        if value == entry_id:
            table[observer] = total
    return out


def reveal(state: dict, hider: str, observers=None) -> tuple[dict, list[str]]:
    """End hiding for the named observers (all when none)."""
    out = _copy(state)
    table = out["hidden"].get(hider, {})
    names = list(table) if not observers else [o for o in observers if o in table]
    for name in names:
        table.pop(name, None)
    if not table:
        out["hidden"].pop(hider, None)
        out["recorded"].pop(hider, None)
    return out, names


def attack_reveals(state: dict, attacker: str, target: str) -> tuple[dict, list[str]]:
    """An attack (Clash and Opportunity Attack included) reveals the attacker to its
    target once the Exchange resolves."""
    return reveal(state, attacker, [target])


def answered(state: dict, reactor: str) -> dict:
    """Note that `reactor` answered the mover's last action; the action itself stays."""
    out = _copy(state)
    last = out["last_action"]
    out["last_action"] = {**last, "answered": [*(last.get("answered") or []), reactor]}
    return out


def note_search(state: dict, searcher: str, hider: str, method: str) -> dict:
    out = _copy(state)
    out["searches"].setdefault(searcher, {})[hider] = method
    return out


def search_allowed(state: dict, searcher: str, hider: str, changed: str | None):
    """The same search with nothing changed grants no new roll."""
    previous = state["searches"].get(searcher, {}).get(hider)
    if previous is not None and (not changed or changed == previous):
        raise Refused(f"{searcher} already searched for {hider} and nothing changed", rule="R-SRCH-2",
                      fix='say what is different with --changed "new method or evidence"')


# ---- movement: one mode per turn, two metres per metre while hidden --------------------

def move_cost(metres: int, difficult: bool, hidden: bool, rules: Ruleset) -> int:
    """Metres of allowance a move spends: Difficult doubles, being hidden doubles again."""
    cost = metres
    if difficult:
        cost *= rules.difficult_factor
    if hidden:
        cost *= rules.hidden_factor
    return cost


def move(state: dict, sheet: Sheet, metres: int, mode: str, difficult: bool, rules: Ruleset) -> tuple[dict, dict]:
    """Spend movement; the first move of an activation chooses (and pays for) the mode."""
    allowance = sheet.movement.get(mode)
    if allowance is None:
        raise BadInput(f"{sheet.id} has no {mode} allowance on the sheet",
                       fix=f"add `movement: {{{mode}: METRES}}` to characters/{sheet.id}.yaml")
    require_activation(state, sheet.id, "R-ACT-3")
    out = _copy(state)
    paid = 0
    if out["mode"] is None:
        out["mode"] = mode
        out["movement_left"] = allowance
        paid = rules.mode_costs.get(mode, 0) * rules.pay_multiplier(sheet.conditions)
    elif out["mode"] != mode:
        raise Refused(f"{sheet.id} already chose {out['mode']} this activation", rule="R-ACT-3",
                      fix=f"continue with --mode {out['mode']}")
    hidden = bool(state["hidden"].get(sheet.id))
    ends_hiding = mode == "sprint" and hidden and rules.sprint_ends_hiding
    cost = move_cost(metres, difficult, hidden and not ends_hiding, rules)
    if cost > out["movement_left"]:
        raise Refused(f"moving {metres} m costs {cost} m but {sheet.id} has {out['movement_left']} m of {mode} left",
                      rule="R-HIDE-5" if hidden else "R-ACT-3", fix="move a shorter distance")
    if paid > sheet.dice.get("ready", 0):
        raise Refused(f"{sheet.id} cannot pay {paid} AD for {mode}", rule="A-MOVE", fix="choose walk or run")
    out["movement_left"] -= cost
    revealed: list[str] = []
    if ends_hiding:
        out, revealed = reveal(out, sheet.id)
    return out, {"actor": sheet.id, "mode": mode, "metres": metres, "cost": cost, "hidden": hidden and not ends_hiding,
                 "difficult": difficult, "movement_left": out["movement_left"], "paid": paid,
                 "revealed_to": revealed}


class TurnStarted(Record):
    """The result of `turn start` (its JSON shape is these fields, in this order)."""

    encounter: Any
    round: Any
    actor: Any
    uses: Any
    refreshed: Any
    dice_before: Any
    dice_after: Any
    expired: Any


class TurnEnded(Record):
    """The result of `turn end`."""

    encounter: Any
    ended: Any
    round: Any
    next: Any
    new_round: Any
    waiting: Any


def begin_activation(state: dict, sheet: Sheet, rules: Ruleset) -> tuple[dict, TurnStarted]:
    """CHAR's activation starts (refresh, uses = SL + 1 per skill)."""
    new, dice_after, moved = start_turn(state, sheet, rules)
    new = record_action(new, sheet.id, "turn start")
    expired = durations.due(new, sheet.id)  # timed conditions end as the activation starts
    new = durations.drop(new, sheet.id, expired)
    return new, TurnStarted(state["id"], new["round"], sheet.id, new["uses"], moved, dict(sheet.dice), dice_after,
                            expired)


def end_activation(state: dict, next_id: str | None) -> tuple[dict, TurnEnded]:
    """The activation ends; `next_id` acts next, or a new round begins when all have acted."""
    actor = state["actor"]
    new = record_action(end_turn(state, next_id), actor, "turn end")
    return new, TurnEnded(state["id"], actor, new["round"], new["next"], new["round"] != state["round"], waiting(new))


class Moved(Record):
    """The result of `move`."""

    actor: Any
    mode: Any
    metres: Any
    cost: Any
    hidden: Any
    difficult: Any
    movement_left: Any
    paid: Any
    revealed_to: Any


class Revealed(Record):
    """The result of `reveal`."""

    hider: Any
    revealed_to: Any
    still_hidden_from: Any
    # the condition that keeps a revealed creature unseen (invisible): its position is known, it is still unseen
    invisible: Any = field(default=None, skip=lambda r: r.invisible is None)


def move_in(state: dict, sheet: Sheet, metres: int, mode: str, difficult: bool,
            rules: Ruleset) -> tuple[dict, Moved, dict]:
    """A move in the actor's activation (one mode per turn, costlier while hidden). Returns (new state, result, dice
    moved: the mover's dice after, when choosing the mode cost AD)."""
    from .character import spend

    new, data = move(state, sheet, metres, mode, difficult, rules)
    result = Moved(**data)
    dice = {sheet.id: spend(sheet.dice, result.paid)} if result.paid else {}
    return record_action(new, sheet.id, "move"), result, dice


def reveal_in(state: dict, hider: str, observers, invisible: str | None = None) -> tuple[dict, Revealed]:
    """Hiding ends for the named observers (all when none); an invisible creature stays invisible (`invisible`: the
    condition that makes it so)."""
    new, names = reveal(state, hider, list(observers))
    return new, Revealed(hider, names, sorted(new["hidden"].get(hider, {})), invisible if names else None)


class EncounterView(Record):
    """The result of Narateer's `encounter show`: the state and each participant's dice and conditions."""

    id: Any
    round: Any
    actor: Any
    participants: Any
    acted: Any
    next: Any
    uses: Any
    mode: Any
    movement_left: Any
    hidden: Any
    status: Any


def encounter_view(state: dict, sheets: list[Sheet]) -> EncounterView:
    status = {sheet.id: {"dice": sheet.dice, "conditions": list(sheet.conditions),
                         "rounds_left": durations.left(state, sheet.id)} for sheet in sheets}
    return EncounterView(state["id"], state["round"], state["actor"], state["participants"], state["acted"],
                         state["next"], state["uses"], state["mode"], state["movement_left"], state["hidden"], status)
