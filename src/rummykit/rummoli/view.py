"""What one seat of a Rummoli game may see: the `View` bots and pages get instead of the state.

>>> from rummykit.rummoli.game import State
>>> view = State(Rules(), 4, seed=7).view(0)
>>> view.phase, len(view.hand), View.from_json(view.to_json()) == view
(<Phase.WIDOW: 'widow'>, 10, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from rummykit.cards import Card
from rummykit.core import JSON, Leaf, json_form
from rummykit.core.codec import SeatView
from rummykit.rummoli.actions import CODEC, Action
from rummykit.rummoli.rules import Box, Rules, board_from_json, board_to_json

Event = dict[str, JSON]
"""A public event: ``{"code": …, params…}``."""


class Phase(StrEnum):
    """What the game waits for."""

    PLAYING = "playing"
    """The engine is making forced moves (seen only by listeners, between two decisions)."""
    WIDOW = "widow"
    AUCTION = "auction"
    BETTING = "betting"
    LEAD = "lead"
    OVER = "over"


_BOARD = Leaf(board_to_json, lambda data, context: board_from_json(data))


@dataclass(frozen=True)
class View(SeatView):
    """What one seat may see, as plain data (``seat`` None: a spectator, who sees no hand).

    ``hand``: the seat's own cards. ``widow``: the dead widow's cards only for the seat that
    knows them (the player whose hand it was, after taking the widow); otherwise None.
    ``plays``: this hand's sequence so far, ``(seat, card)``. ``legal``: the actions open to the
    seat when it is the one awaited. ``log``: public events from ``log_start`` on. A ``stop``
    event names the card that was missing: at a real table everyone sees that nobody can play
    it, so whether it lies in the widow or was played is public knowledge. ``shown``: the best
    five cards each player put face up at this hand's showdown, ``(seat, cards)`` (none before
    it, nor when a single player was left).
    """

    seat: int | None
    players: int
    rules: Rules
    phase: Phase
    to_move: int | None
    hand_number: int
    dealer: int
    in_game: tuple[bool, ...]
    in_hand: tuple[int, ...]
    chips: tuple[int, ...]
    board: tuple[int, ...] = field(metadata=json_form(_BOARD))
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    widow_count: int
    widow: tuple[Card, ...] | None
    plays: tuple[tuple[int, Card], ...]
    shown: tuple[tuple[int, tuple[Card, ...]], ...]
    high_bid: int
    high_bidder: int | None
    passed: tuple[int, ...]
    contributed: tuple[int, ...]
    folded: tuple[int, ...]
    bet_level: int
    raises: int
    choices: tuple[Card, ...]
    legal: tuple[Action, ...]
    log: tuple[Event, ...]
    log_start: int
    is_over: bool

    codec = CODEC

    def box(self, box: Box | str) -> int:
        """Chips on one box."""
        return self.board[Box(box).slot]
