"""The game kit: the one host module a game imports.

Everything a rule-system package needs from the host is named here, and nothing else of the host is
promised to stay put: a game (built in, an example or a plug-in) imports `narateer_cli.kit` and its own
package, never another host module and never another game. import-linter holds that line (the contracts
in `pyproject.toml`, run by `make test`), and mypy type-checks the kit and the games against it.

`KIT_VERSION` is the contract's version: the minor part grows when a name is added, the major part when a
name changes or goes, so a game can say which kit it was written for.

The light names (errors, `GameFault` and `ReadOnly` among them, records, outcomes, the dice source, the
system record, suggestions, timed conditions, a verb's table of declared fields) are imported with the kit.
The rest (the command decorator and session, storage readers, text helpers) are imported the first time a
game reads them, so `narateer --help` and a game's `__init__` pay only for what they use.
`docs/write-a-game.md` says what each name is for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import durations
from .declare import FACES, Declared, Given, Option, declared
from .dice import Dice
from .errors import BadInput, NarateerError, Refused
from .outcome import REMOVED, Outcome, Show, check_headline
from .readonly import GameFault, ReadOnly
from .record import Record, computed, factory, field, replace
from .suggest import closest, did_you_mean, unknown
from .systems.base import HOST_COMMAND, System, entrywise, merge_rules
from .systems.interface import Game, SystemHooks

KIT_VERSION = "3.2"  # 3.2: command(form=...) lays out a verb's form on the acting page; 3.1: bounds and state_counters; 3.0: a game's kinds in Game.formatters; 2.4: command(shows=..., seals=...), an encounter's .sealed, GameFault and ReadOnly exported

# name -> (host module, attribute; None for the module itself): imported on first use
_LATER: dict[str, tuple[str, str | None]] = {
    # writing a command: the decorator, the session it is given, output and option helpers
    "command": ("narateer_cli.commands.common", "command"),
    "Group": ("narateer_cli.commands.common", "Group"),
    "Session": ("narateer_cli.commands.common", "Session"),
    "emit": ("narateer_cli.commands.common", "emit"),
    "faces_options": ("narateer_cli.commands.common", "faces_options"),
    "nonneg": ("narateer_cli.commands.common", "nonneg"),
    "split_pairs": ("narateer_cli.commands.common", "split_pairs"),
    "split_ref": ("narateer_cli.commands.common", "split_ref"),
    "sheet_copies": ("narateer_cli.commands.copying", "sheet_copies"),
    "ask": ("narateer_cli.ask", None),
    # encounters
    "current_encounter": ("narateer_cli.commands.encounter_ops", "current_encounter"),
    "encounter_for": ("narateer_cli.commands.encounter_ops", "encounter_for"),
    "secret_asked": ("narateer_cli.commands.encounter_ops", "secret_asked"),
    "encounter_group": ("narateer_cli.commands.encounters", "encounter_group"),
    "pick_encounter": ("narateer_cli.commands.encounters", "pick"),
    "host_command": ("narateer_cli.commands.encounters", "host_command"),
    "CAMPAIGN_LOG": ("narateer_cli.store.encounters", "CAMPAIGN"),
    "load_encounter_state": ("narateer_cli.store.encounters", "load_state"),
    "encounter_state_path": ("narateer_cli.store.encounters", "state_path"),
    "read_log": ("narateer_cli.store.encounters", "read_log"),
    "read_sealed": ("narateer_cli.store.secrets", "read_record"),
    "new_id": ("narateer_cli.store.loglines", "new_id"),
    "LOG_ENTRY": ("narateer_cli.store.entry", "ENVELOPE"),
    "log_entry_problem": ("narateer_cli.store.entry", "problem"),
    # files: YAML, ids, the campaign's own data files
    "yamlio": ("narateer_cli.store.yamlio", None),
    "line_of": ("narateer_cli.store.yamlio", "line_of"),
    "check_id": ("narateer_cli.store.campaign", "check_id"),
    "data_file": ("narateer_cli.store.campaign", "data_file"),
    "default_rules": ("narateer_cli.store.campaign", "default_rules"),
    "Folder": ("narateer_cli.store.checked", "Folder"),
    "kept_sheet": ("narateer_cli.store.checked", "kept_sheet"),
    # schemas of sheets, cards and rules
    "schema": ("narateer_cli.store.schema", None),
    "problems": ("narateer_cli.store.schema", "problems"),
    "Problem": ("narateer_cli.store.schema", "Problem"),
    "Anything": ("narateer_cli.store.schema", "Anything"),
    "Choice": ("narateer_cli.store.schema", "Choice"),
    "Either": ("narateer_cli.store.schema", "Either"),
    "Int": ("narateer_cli.store.schema", "Int"),
    "Map": ("narateer_cli.store.schema", "Map"),
    "Name": ("narateer_cli.store.schema", "Name"),
    "Nullable": ("narateer_cli.store.schema", "Nullable"),
    "Num": ("narateer_cli.store.schema", "Num"),
    "Or": ("narateer_cli.store.schema", "Or"),
    "Seq": ("narateer_cli.store.schema", "Seq"),
    "Text": ("narateer_cli.store.schema", "Text"),
    # words: text helpers and luck
    "plain": ("narateer_cli.render", "plain"),
    "table": ("narateer_cli.render", "table"),
    "flat_text": ("narateer_cli.render", "flat_text"),
    "fraction_text": ("narateer_cli.luck", "fraction_text"),
    "mappings": ("narateer_cli.luck", "mappings"),
    "load_system": ("narateer_cli.systems", "load_system"),
}

if TYPE_CHECKING:  # the same names, for type checkers (a test holds this list to `_LATER`)
    from . import ask
    from .store import yamlio
    from .commands.common import Group, Session, command, emit, faces_options, nonneg, split_pairs, split_ref
    from .commands.copying import sheet_copies
    from .commands.encounter_ops import current_encounter, encounter_for, secret_asked
    from .commands.encounters import encounter_group, host_command
    from .commands.encounters import pick as pick_encounter
    from .luck import fraction_text, mappings
    from .render import flat_text, plain, table
    from .store import schema
    from .store.campaign import check_id, data_file, default_rules
    from .store.checked import Folder, kept_sheet
    from .store.encounters import CAMPAIGN as CAMPAIGN_LOG
    from .store.encounters import load_state as load_encounter_state
    from .store.encounters import read_log
    from .store.encounters import state_path as encounter_state_path
    from .store.loglines import new_id
    from .store.entry import ENVELOPE as LOG_ENTRY
    from .store.entry import problem as log_entry_problem
    from .store.schema import (Anything, Choice, Either, Int, Map, Name, Nullable, Num, Or, Problem, Seq, Text,
                               problems)
    from .store.secrets import read_record as read_sealed
    from .store.yamlio import line_of
    from .systems import load_system

__all__ = ["FACES", "HOST_COMMAND", "KIT_VERSION", "BadInput", "Declared", "Dice", "Game", "GameFault", "Given",
           "NarateerError", "Option", "Outcome", "REMOVED", "ReadOnly", "Record", "Refused", "Show", "System",
           "SystemHooks", "check_headline", "closest", "computed", "declared", "did_you_mean", "durations", "entrywise", "factory", "field",
           "merge_rules", "replace", "unknown", *_LATER]


def __getattr__(name: str) -> Any:
    try:
        module, attr = _LATER[name]
    except KeyError:
        raise AttributeError(f"narateer_cli.kit has no {name!r}: a game reads only the names in kit.__all__ "
                             f"(docs/write-a-game.md)") from None
    loaded = importlib.import_module(module)
    value = loaded if attr is None else getattr(loaded, attr)
    globals()[name] = value
    return value
