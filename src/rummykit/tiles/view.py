"""What one seat of a game of tile rummy may see: the `View` bots and pages get instead of the
state.

>>> from rummykit.tiles.game import State
>>> view = State(seed=3).view(1)
>>> len(view.rack), view.rack_sizes, View.from_json(view.to_json()) == view
(10, (10, 10), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rummykit.core import Event, json_form
from rummykit.core.codec import PhasedView
from rummykit.tiles.actions import CODEC, SEEN_TABLE
from rummykit.tiles.model import TableSet
from rummykit.tiles.rules import Rules, Tile
from rummykit.tiles.turn import TurnCheck, check_turn

Phase = Literal["play", "round_over", "game_over"]


@dataclass(frozen=True)
class View(PhasedView):
    """What one seat may see: its own rack (and the tile it drew last), the sizes of the
    others' racks, the table, the pool size, who has made the first meld, the scores, whose turn,
    the rules and the public log (a draw never names the tile; at the end of a round the racks
    are shown, as players do when they count them)."""

    seat: int | None
    players: int
    rules: Rules
    round: int
    phase: Phase
    to_move: int | None
    rack: tuple[Tile, ...]
    last_drawn: Tile | None
    rack_sizes: tuple[int, ...]
    opened: tuple[bool, ...]
    table: tuple[TableSet, ...] = field(metadata=json_form(SEEN_TABLE))
    pool_size: int
    passes: int
    scores: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]
    log: tuple[Event, ...]

    codec = CODEC

    def check(self, table: Sequence[TableSet]) -> TurnCheck:
        """Judge, for the seat on move, the turn that leaves ``table`` (what a bot asks)."""
        seat = self.seat_on_move()
        return check_turn(self.rules, self.table, self.rack, table, opened=self.opened[seat])
