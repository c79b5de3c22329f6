"""Sneaking: hide, search, reveal, and moving while hidden."""

from __future__ import annotations

import click

from narateer_cli.kit import command, declared, nonneg, split_pairs
from narateer_cli.kit import current_encounter

from ..declarations import HIDE, HIDE_FORM, SEARCH, SEARCH_FORM
from .checks import dice_source
from .checks import told


# a comparison with a secret Hide total hides what would show that total (the state keeps only its commitment)
SEALED_KEYS = ("target", "target_label", "chance")

# What a secret Hide shows the table and what it seals: each observer knows whether they see the hider (who it
# is hidden from, and whom a Search of theirs is spent on); the Stealth total recorded against them is a secret
HIDE_SECRECY = {"shows": ("state.uses", "state.last_action", "state.searches"),
                "seals": ("state.hidden.*.*", "state.recorded.*")}
# A Search compared with a secret total: the searcher knows whether it found the hider (and the hider is then
# revealed to it); the total stays sealed
SEARCH_SECRECY = {"shows": ("state.uses", "state.last_action", "state.searches", "state.hidden", "state.recorded")}


def _in_encounter(s, *ids):
    from ..engine.encounter import require_participant

    enc = current_encounter(s, required=True)
    for cid in ids:
        require_participant(enc.state, cid)
    return enc


@command(rolls=True, checks=True, writes=True, form=HIDE_FORM, **HIDE_SECRECY, help="""Hide from observers: one Stealth roll compared with each, its total kept for later searches.

Non-searching observers are compared by Observation Readiness; each one named
with --searching rolls its own Observation check (its own cost and faces).

\b
Example:
  narateer hide selka --from sentry --from bandit --searching bandit --boost 1 --faces 2,1 --observer-faces bandit=2""")
@click.argument("char")
@declared(HIDE)
def hide_cmd(s, char, declared):
    from ..engine.stealth import Observer, hide_in

    d = declared
    observers, searching, boost = d.observers, d.searching, d.boost
    advantage, disadvantage = d.advantage, d.disadvantage
    names = list(dict.fromkeys([*observers, *searching]))
    boosts, streams = _observer_options(names, d.observer_boost, d.observer_faces, d.observer_reroll_faces)
    enc = _in_encounter(s, char, *names)
    dice = dice_source(s.app, s.rules, faces=(d.faces, "--faces"), reroll=(d.reroll_faces, "--reroll-faces"), **streams)
    obs = [Observer(s.sheet(who), who in searching, boosts.get(who, 0)) for who in names]
    state, data, after = hide_in(enc.state, s.sheet(char), obs, s.rules, dice, boost, advantage, disadvantage)
    # a secret Hide (--secret, or the Guide's) has its recorded total sealed by the host, as HIDE_SECRECY says
    return told("hide", "hide", char, {"from": names, **HIDE.logged(d)}, data, after, enc, state=state,
                private=SEALED_KEYS)


def _observer_options(names, observer_boost, observer_faces, observer_reroll_faces) -> tuple[dict, dict]:
    """--observer-boost / --observer-faces / --observer-reroll-faces OBS=...: boosts, and the dice streams."""
    from narateer_cli.kit import BadInput

    boosts = split_pairs(observer_boost, "--observer-boost", "sentry=1")
    faces_by = split_pairs(observer_faces, "--observer-faces", "sentry=2,1")
    rerolls_by = split_pairs(observer_reroll_faces, "--observer-reroll-faces", "sentry=1")
    for who in [*boosts, *faces_by, *rerolls_by]:
        if who not in names:
            raise BadInput(f"{who} is not an observer of this Hide", fix=f"add --from {who} --searching {who}")
    streams = {f"obs:{who}": (text, f"--observer-faces {who}=") for who, text in faces_by.items()}
    streams.update({f"obs_reroll:{who}": (text, f"--observer-reroll-faces {who}=") for who, text in rerolls_by.items()})
    numbers = {}
    for who, text in boosts.items():
        try:
            numbers[who] = int(text)
        except ValueError:
            raise BadInput(f"--observer-boost {who}={text} is not a number", fix="give a whole number") from None
        nonneg(f"--observer-boost {who}", numbers[who])
    return numbers, streams


@command(rolls=True, writes=True, form=SEARCH_FORM, **SEARCH_SECRECY, help="""Search for a hidden creature: Observation vs its recorded Hide total (a tie fails).

\b
Example:
  narateer search sentry --for selka --faces 2,2 --boost 1""")
@click.argument("char")
@declared(SEARCH)
def search_cmd(s, char, declared):
    from ..engine.stealth import search_in

    d = declared
    hider, boost, advantage, disadvantage, changed = d.hider, d.boost, d.advantage, d.disadvantage, d.changed
    enc = _in_encounter(s, char, hider)
    dice = dice_source(s.app, s.rules, faces=(d.faces, "--faces"), reroll=(d.reroll_faces, "--reroll-faces"))
    state, sealed = unsealed(s, enc, [hider])
    unseen = s.rules.unseen_by(s.sheet(hider).conditions)
    state, data, after = search_in(state, s.sheet(char), hider, s.rules, dice, boost, advantage, disadvantage,
                                   changed, unseen[0] if unseen else None)
    secret = bool(sealed) or sealed_for(enc, [hider])  # compared with a sealed total: the comparison is secret too
    return told("search", "search", char, SEARCH.logged(d), data, after, enc,
                state=resealed(state, sealed), secret=secret, private=SEALED_KEYS if secret else ())


@command(writes=True, help="""End hiding for the named observers (all when none are named).

\b
Example:
  narateer reveal selka --to sentry""")
@click.argument("hider")
@click.option("--to", "observers", multiple=True, metavar="OBS")
def reveal_cmd(s, hider, observers):
    from ..engine.encounter import reveal_in

    enc = _in_encounter(s, hider, *observers)
    unseen = s.rules.unseen_by(s.sheet(hider).conditions)
    state, result = reveal_in(enc.state, hider, observers, unseen[0] if unseen else None)
    return told("reveal", "reveal", hider, {"to": list(observers)}, result, {}, enc, state=state)


@command(writes=True, help="""Spend movement in the current activation.

One mode per activation, chosen (and paid) by the first move; Difficult
terrain doubles the cost, moving while hidden doubles it again; Sprinting
ends hiding from everyone.

\b
Example:
  narateer move selka 3 --difficult""", context_settings={"ignore_unknown_options": True})
@click.argument("char")
@click.argument("metres", type=int)
@click.option("--mode", type=click.Choice(["walk", "run", "sprint"]), default="walk", show_default=True)
@click.option("--difficult", is_flag=True, help="Difficult terrain: each metre costs double.")
def move_cmd(s, char, metres, mode, difficult):
    from ..engine.encounter import move_in

    nonneg("METRES", metres, 10_000)
    enc = _in_encounter(s, char)
    state, result, dice = move_in(enc.state, s.sheet(char), metres, mode, difficult, s.rules)
    return told("move", "move", char, {"metres": metres, "mode": mode, "difficult": difficult}, result, dice, enc,
                state=state)


def sealed_for(enc, hiders) -> bool:
    """Is the Stealth total of any of these hiders sealed (a secret Hide's: read here from the Guide's private
    record, or not readable here at all)?"""
    return any(path[0] in ("hidden", "recorded") and path[1] in hiders for path in enc.sealed)


def unsealed(s, enc, hiders) -> tuple[dict, dict]:
    """The state with each secret Hide's total read back from its private record (or its unveil), for a state
    written before the host sealed such totals (it held the Hide's entry id in their place), and
    {hider: entry id} to seal again after the comparison; exit 3 when the total is nowhere here."""
    from narateer_cli.kit import Refused
    from ..engine.encounter import sealed_hide, unseal_hide

    state, sealed = enc.state, {}
    for hider in hiders:
        entry_id = sealed_hide(state, hider)
        if entry_id is None:
            continue
        total = _secret_total(s, enc.id, entry_id)
        if total is None:
            raise Refused(f"{hider}'s Hide was secret and its total is not on this machine (entry {entry_id})",
                          rule="P-SECRET-2", fix=f"unveil it first: `narateer unveil {entry_id}` where it was rolled")
        state, sealed[hider] = unseal_hide(state, hider, total), entry_id
    return state, sealed


def resealed(state: dict, sealed: dict) -> dict:
    from ..engine.encounter import seal_hide

    for hider, entry_id in sealed.items():
        state = seal_hide(state, hider, entry_id)
    return state


def _secret_total(s, enc_id: str, entry_id: str) -> int | None:
    """A secret Hide's total: its private record, else the unveil in the encounter's log."""
    from narateer_cli.kit import read_log, read_sealed

    record = read_sealed(s.campaign.root, entry_id)
    if record is not None and isinstance(record.get("result"), dict):
        return record["result"].get("total")
    for entry in read_log(s.campaign.root, enc_id):
        if entry.get("unveils") == entry_id and isinstance(entry.get("result"), dict):
            return entry["result"].get("total")
    return None
