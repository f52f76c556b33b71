"""Tile rummy (the Rummikub family): tiles, rules, sets and the engine that checks each turn.

>>> from rummykit.tiles import Rules, parse_tiles, read_set
>>> read_set(parse_tiles("r5 b5 k5 y5"), Rules()).kind
'group'
"""

from __future__ import annotations

from rummykit.tiles.actions import (
    Action,
    Draw,
    NextRound,
    Play,
    action_from_json,
    parse_action,
    resolve_play,
)
from rummykit.tiles.game import State, View, new_game, replay, replay_states
from rummykit.tiles.model import (
    MAX_COPIES,
    MAX_JOKERS,
    MAX_NUMBER,
    Colour,
    JokerMeaning,
    Rules,
    TableSet,
    Tile,
    format_table,
    format_tiles,
    parse_table,
    parse_tiles,
    read_set,
    set_value,
    sort_tiles,
    table_tiles,
)
from rummykit.tiles.solver import Solution, solve
from rummykit.tiles.turn import TurnCheck, check_turn, describe_rework

__all__ = [
    "MAX_COPIES",
    "MAX_JOKERS",
    "MAX_NUMBER",
    "Action",
    "Colour",
    "Draw",
    "JokerMeaning",
    "NextRound",
    "Play",
    "Rules",
    "Solution",
    "State",
    "TableSet",
    "Tile",
    "TurnCheck",
    "View",
    "action_from_json",
    "check_turn",
    "describe_rework",
    "format_table",
    "format_tiles",
    "new_game",
    "parse_action",
    "parse_table",
    "parse_tiles",
    "read_set",
    "replay",
    "replay_states",
    "resolve_play",
    "set_value",
    "solve",
    "sort_tiles",
    "table_tiles",
]
