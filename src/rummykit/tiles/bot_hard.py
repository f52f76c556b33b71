"""The strong computer players of tile rummy: ``greedy`` and ``hard``. Both see only a `View`.

``greedy`` is the standard baseline: every turn it plays the solver's move that lays the most
tiles (the most value among those), its first meld as soon as it can, and draws otherwise.

``hard`` plays to go out first, and differs from ``greedy`` where measured matches showed it
pays (`rummykit simulate tiles --mirror`):

- it holds its jokers back: it lays the most tiles it can *without* them, and draws rather than
  lay a joker, unless the joker lets it empty its rack (or the pool is empty). A joker kept on
  the rack is what later turns two stuck tiles into a set, or the last tiles into a finish;
- near the end it weighs the unseen tiles: when the next player holds few tiles it deals the
  tiles it cannot see (the pool and the other racks, which it cannot tell apart) at random into
  racks of that size, several times (determinized sampling), and for its play and for the same
  play with one tile held back it measures how often that player could then go out; it holds a
  tile back when laying it would hand over a finish that the table did not offer before.

Laying fewer tiles to keep reserves (one tile a turn while several fit) was measured too and
loses to ``greedy``: tiles on the table are what later draws attach to.

>>> from rummykit.tiles.game import State
>>> state = State(players=2, seed=4)
>>> bots = [GreedyBot(1), HardBot(2)]
>>> while not state.is_over:
...     seat = state.to_move if state.to_move is not None else 0
...     state.apply(bots[seat].choose(state.view(seat)))
>>> state.view(None).log[-1]["code"]
'game_end'
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from rummykit.tiles.actions import Action, Draw, NextRound, Play
from rummykit.tiles.model import TableSet
from rummykit.tiles.rules import Tile
from rummykit.tiles.solver import Solution, lays_all, solve
from rummykit.tiles.view import View


class TurnBot:
    """A computer player of tile rummy, with its own seeded generator: between rounds it
    starts the next one; otherwise its seat must be on move, and it plays its turn."""

    level = ""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        if view.phase == "round_over":
            return NextRound()
        return self.turn(view, view.seat_on_move())

    def turn(self, view: View, seat: int) -> Action:
        """The action of the seat on move."""
        raise NotImplementedError


class GreedyBot(TurnBot):
    """Lays the most tiles it can every turn (the solver's answer); draws when it cannot."""

    level = "greedy"

    def turn(self, view: View, seat: int) -> Action:
        found = solve(view.rack, view.table, view.rules, "count", first_meld=not view.opened[seat])
        return Play(found.sets) if found.is_play else Draw()


class HardBot(TurnBot):
    """Holds its jokers back and, near the end, avoids plays that let the next player go out
    on sampled racks (see the module docstring)."""

    level = "hard"

    samples = 10
    """Racks dealt from the unseen tiles for each judgement of the danger."""
    near = 5
    """The next player is watched when holding this many tiles or fewer."""
    weight = 6.0
    """Tiles of our own that one finish handed to the opponent is worth giving up."""
    held_back = 6
    """How many single tiles are tried for holding back."""

    def turn(self, view: View, seat: int) -> Action:
        rules, rack, table = view.rules, list(view.rack), list(view.table)
        naturals = [t for t in rack if not t.is_joker]
        first = not view.opened[seat]
        most = solve(rack, table, rules, "count", first_meld=first)
        if not most.is_play:
            return Draw()
        if most.count == len(rack) or view.pool_size == 0:
            return Play(most.sets)  # going out, or no more draws: lay all it can
        plain = most
        if len(naturals) < len(rack):
            plain = solve(naturals, table, rules, "count", first_meld=first)
            if not plain.is_play:
                # Only a joker would lay something: draw and keep it, unless it opens the game.
                return Play(most.sets) if first else Draw()
        if first:
            return Play(plain.sets)
        return Play(self._guarded(view, seat, naturals, plain).sets)

    def _guarded(self, view: View, seat: int, naturals: list[Tile], play: Solution) -> Solution:
        """``play``, or the same with one tile held back when laying that tile would let the
        next player go out (judged on sampled racks) and holding it back would not."""
        nxt = (seat + 1) % view.players
        size = view.rack_sizes[nxt]
        if size > self.near or not view.opened[nxt]:
            return play
        unseen = _unseen(view)
        if len(unseen) < size:
            return play
        racks = [self.rng.sample(unseen, size) for _ in range(self.samples)]
        rules, table = view.rules, list(view.table)

        def danger(sets: Sequence[TableSet]) -> float:
            return sum(lays_all(r, sets, rules) for r in racks) / len(racks)

        before = danger(table)
        best, best_score = play, play.count - self.weight * max(0.0, danger(play.sets) - before)
        if best_score >= play.count:
            return play
        for tile in list(play.played)[: self.held_back]:
            less = solve([t for t in naturals if t != tile], table, view.rules, "count")
            if not less.is_play or less.count >= play.count:
                continue
            score = less.count - self.weight * max(0.0, danger(less.sets) - before)
            if score > best_score:
                best, best_score = less, score
        return best


def _unseen(view: View) -> list[Tile]:
    """The tiles this seat cannot see: neither on its rack nor on the table."""
    seen = Counter(view.rack) + Counter(t for s in view.table for t in s.tiles)
    return [t for t in view.rules.pool() if t not in seen]
