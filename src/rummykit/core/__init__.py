"""What every game engine shares: errors, the generator, records, the JSON codec and the
engine contract (`GameState`, `GameDescriptor`).

>>> from rummykit.core import IllegalAction, Record
>>> Record("romme", {}, 7, ["Ann", "easy"]).seats
['Ann', 'easy']
"""

from __future__ import annotations

from rummykit.core.codec import Codec, Leaf, json_form
from rummykit.core.descriptor import Bot, Computers, Encodable, GameDescriptor, Hint, describe
from rummykit.core.records import (
    JSON,
    IllegalAction,
    Record,
    RulesBase,
    new_rng,
    options_from_json,
    seat_names,
)
from rummykit.core.state import Event, GameState, RulesLike
from rummykit.core.values import freeze, thaw

__all__ = [
    "JSON",
    "Bot",
    "Codec",
    "Computers",
    "Encodable",
    "Event",
    "GameDescriptor",
    "GameState",
    "Hint",
    "IllegalAction",
    "Leaf",
    "Record",
    "RulesBase",
    "RulesLike",
    "describe",
    "freeze",
    "json_form",
    "new_rng",
    "options_from_json",
    "seat_names",
    "thaw",
]
