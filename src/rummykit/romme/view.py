"""What one seat of a Rommé game may see: the `View` bots and pages get instead of the state.

>>> from rummykit.romme.game import State
>>> view = State(Rules.preset("computer"), players=3, seed=7).view(0)
>>> len(view.hand), view.hand_sizes, View.from_json(view.to_json()) == view
(13, (13, 13, 14), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rummykit.cards import Card
from rummykit.core import Event
from rummykit.core.codec import PhasedView
from rummykit.romme.actions import CODEC
from rummykit.romme.rules import Rules, TableMeld
from rummykit.romme.turn import TurnContext

Phase = Literal["draw", "play", "discard", "round_over", "game_over"]
"""``draw``: the player on move draws. ``play``: may play (once) or discard. ``discard``: has
played, must discard. ``round_over``: the round is counted, `NextRound` deals the next.
``game_over``: nothing more."""


@dataclass(frozen=True)
class View(PhasedView):
    """What one seat may see: its own hand, the sizes of the others', the table, the whole
    discard pile, the stock size, the scores, whose turn and what phase, the rules and the
    public log (a draw from the stock never names the card; a pickup does)."""

    seat: int | None
    players: int
    rules: Rules
    round: int
    dealer: int
    to_move: int | None
    phase: Phase
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    opened: tuple[bool, ...]
    table: tuple[TableMeld, ...]
    discard_pile: tuple[Card, ...]
    stock_size: int
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    picked: Card | None
    """The card the player on move took from the discard pile this turn."""
    can_take_discard: bool
    """For the seat on move before drawing: whether taking the discard is legal."""
    next_meld_id: int
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    log: tuple[Event, ...]

    codec = CODEC

    def turn_context(self) -> TurnContext:
        """The context `check_play` needs, for the seat on move."""
        seat = self.seat_on_move()
        return TurnContext(
            self.hand,
            {m.id: m for m in self.table},
            self.rules,
            seat,
            self.opened[seat],
            self.picked,
            self.next_meld_id,
        )
