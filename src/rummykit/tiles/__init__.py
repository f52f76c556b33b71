"""Tile rummy (the Rummikub family): tiles, rules, sets and the engine that checks each turn.

>>> from rummykit.tiles import Rules, parse_tiles, read_set
>>> read_set(parse_tiles("r5 b5 k5 y5"), Rules()).kind
'group'
"""

from __future__ import annotations

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

__all__ = [
    "MAX_COPIES",
    "MAX_JOKERS",
    "MAX_NUMBER",
    "Colour",
    "JokerMeaning",
    "Rules",
    "TableSet",
    "Tile",
    "format_table",
    "format_tiles",
    "parse_table",
    "parse_tiles",
    "read_set",
    "set_value",
    "sort_tiles",
    "table_tiles",
]
