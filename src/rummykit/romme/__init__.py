"""Rommé: 110 cards, groups and runs, opening at 30, lay-offs and joker exchanges.

``rules`` holds the options, card values and the meld readings every other module builds on.
"""

from __future__ import annotations

from rummykit.romme.rules import (
    CARD_MELDS,
    DEFAULT_RULES,
    Rules,
    TableMeld,
    card_value,
    hand_penalty,
    joker_stands_for,
    meld_kind,
    meld_value,
    piece,
    pieces,
    read_cards,
    reading_value,
)

__all__ = [
    "CARD_MELDS",
    "DEFAULT_RULES",
    "Rules",
    "TableMeld",
    "card_value",
    "hand_penalty",
    "joker_stands_for",
    "meld_kind",
    "meld_value",
    "piece",
    "pieces",
    "read_cards",
    "reading_value",
]
