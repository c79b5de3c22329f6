"""The d20-cards encounter state: who takes part, the round, whose turn it is.

AP, HP, charges, cooldowns and Concentration live on the sheets; the state
only orders turns. `begin_turn` starts a new round when the character has
already had a turn in this one. Pure functions over plain dicts; `end_turn`
and `join` return the new state and their result record.
"""

from __future__ import annotations

from narateer_cli.kit import BadInput, Refused

from .results import Encounter, Joined, TurnEnd


def new_state(enc_id: str, participants, rules=None) -> dict:
    return {"id": enc_id, "system": "d20-cards", "round": 1, "turn": None, "acted": [],
            "participants": list(participants)}


def load_state(doc: dict, label: str, checked: bool = False) -> dict:
    """A d20-cards encounter state (the host has checked id and participants)."""
    state = dict(doc)
    for key, kind in (("round", int), ("participants", list)):
        if not isinstance(state.get(key), kind):
            raise BadInput(f"{label}: {key} must be a {'whole number' if kind is int else 'list'}",
                           fix="restore it from git")
    state.setdefault("turn", None)
    state.setdefault("acted", [])
    state.setdefault("system", "d20-cards")
    return state


def as_record(state: dict | None) -> Encounter | None:
    if state is None:
        return None
    return Encounter(state["id"], state["round"], state.get("turn"), tuple(state["participants"]))


def require_participant(state: dict, char: str):
    """BadInput, with "did you mean", when CHAR does not take part in the encounter."""
    if char not in state["participants"]:
        from narateer_cli.kit import closest, did_you_mean

        near = closest(char, state["participants"])
        raise BadInput(f"{char} is not in encounter {state['id']}" + did_you_mean(char, state["participants"]),
                       fix=f"name {near[0]}" if near else "narateer encounter join " + char)


def begin_turn(state: dict, char: str) -> dict:
    """`turn start CHAR`: CHAR's turn; a second turn in the same round starts the next round."""
    require_participant(state, char)
    acted = list(state.get("acted") or [])
    round_no = state["round"]
    if char in acted:
        round_no, acted = round_no + 1, []
    return {**state, "round": round_no, "turn": char, "acted": [*acted, char]}


def end_turn(state: dict) -> tuple[dict, TurnEnd]:
    """`turn end`: nobody's turn until the next `turn start`; with no turn going there is nothing to end."""
    if not state.get("turn"):
        raise Refused(f"no turn is going in encounter {state['id']}", rule="R-CARD-ACT-1",
                      fix="start one with `narateer turn start CHAR`")
    return {**state, "turn": None}, TurnEnd(state["id"], state.get("turn"), state["round"])


def join(state: dict, char: str) -> tuple[dict, Joined]:
    """`encounter join CHAR`: CHAR takes part from now on."""
    if char in state["participants"]:
        raise BadInput(f"{char} is already in encounter {state['id']}", fix="nothing to do")
    return {**state, "participants": [*state["participants"], char]}, Joined(state["id"], char)
