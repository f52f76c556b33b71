"""The exact Rommé meld solver: the best melds, openings, lay-offs and joker exchanges of a hand.

Exact means optimal: the search (`rummykit.romme.solver.search`) is a dynamic program over the
hand's count vector, and every meld it returns is checked by the shared validator. The answers
are `Arrangement` values made of physical cards, ready to become a ``Play``.
"""

from __future__ import annotations

from rummykit.romme.solver.arrange import (
    Arrangement,
    best_melds,
    best_opening,
    best_turn,
    can_use_card,
    going_out,
)
from rummykit.romme.solver.search import OBJECTIVES, Objective, SearchTimeout, deadline

__all__ = [
    "OBJECTIVES",
    "Arrangement",
    "Objective",
    "SearchTimeout",
    "best_melds",
    "best_opening",
    "best_turn",
    "can_use_card",
    "deadline",
    "going_out",
]
