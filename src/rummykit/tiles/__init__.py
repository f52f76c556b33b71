"""Tile rummy (the Rummikub family): tiles, rules, sets and the engine that checks each turn.

>>> from rummykit.tiles import Rules, parse_tiles, read_set
>>> read_set(parse_tiles("r5 b5 k5 y5"), Rules()).kind
'group'
"""

from __future__ import annotations

from rummykit.core import GameDescriptor, describe
from rummykit.tiles import bots
from rummykit.tiles.actions import (
    Action,
    Draw,
    NextRound,
    Play,
    action_from_json,
    parse_action,
    resolve_play,
)
from rummykit.tiles.game import Start, State, new_game, replay, replay_states
from rummykit.tiles.hint import hint
from rummykit.tiles.model import (
    JokerMeaning,
    TableSet,
    format_table,
    parse_table,
    read_set,
    set_value,
    table_tiles,
)
from rummykit.tiles.rules import (
    MAX_COPIES,
    MAX_JOKERS,
    MAX_NUMBER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Colour,
    Rules,
    Tile,
    format_tiles,
    parse_tiles,
    sort_tiles,
)
from rummykit.tiles.solver import Solution, solve
from rummykit.tiles.turn import TurnCheck, check_turn, describe_rework
from rummykit.tiles.view import View

__all__ = [
    "GAME",
    "MAX_COPIES",
    "MAX_JOKERS",
    "MAX_NUMBER",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "Action",
    "Colour",
    "Draw",
    "JokerMeaning",
    "NextRound",
    "Play",
    "Rules",
    "Solution",
    "Start",
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

GAME: GameDescriptor[Rules, State, View, Action] = describe(
    State, title="Tile rummy", computers=bots.COMPUTERS, hint=hint, parse_action=parse_action
)
"""Tile rummy as the play layer, the command line and the arena see it."""
