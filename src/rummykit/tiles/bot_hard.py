"""The strong computer players of tile rummy: ``greedy`` and ``hard``. Both see only a `View`.

``greedy`` is the standard baseline: every turn it plays the solver's move that lays the most
tiles (the most value among those), its first meld as soon as it can, and draws otherwise.

``hard`` plays to go out first. It keeps reserves: when it can lay tiles it often lays only a
few (one tile that fits the table, or the first meld just above the minimum) and keeps the
others for later turns, so that it draws less often; it keeps its jokers until they let it go
out or lay much more. Before choosing it looks at the opponents' side by determinized
sampling: it deals the unseen tiles (pool and other racks, which it cannot tell apart) at
random into racks of the opponents' sizes, several times, and for each candidate play measures
how many tiles the next opponent could then lay and how often he would go out; a play that
hands the opponent a finish is avoided, and when an opponent is close to going out, or the pool
is empty, it lays as much as it can. When it can empty its rack, it does.

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

from rummykit.core import IllegalAction
from rummykit.tiles.game import Action, Draw, NextRound, Play, View
from rummykit.tiles.model import Rules, TableSet, Tile
from rummykit.tiles.solver import Solution, lays_all, solve


def _my_turn(view: View) -> int:
    if view.seat is None or view.to_move != view.seat:
        raise IllegalAction("not_your_turn", seat=view.seat, to_move=view.to_move)
    return view.seat


class GreedyBot:
    """Lays the most tiles it can every turn (the solver's answer); draws when it cannot."""

    level = "greedy"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        if view.phase == "round_over":
            return NextRound()
        seat = _my_turn(view)
        found = solve(view.rack, view.table, view.rules, "count", first_meld=not view.opened[seat])
        return Play(found.sets) if found.is_play else Draw()


class HardBot:
    """Keeps reserves, holds its jokers, and races when sampled opponent racks show that the
    opponent may go out (see the module docstring)."""

    level = "hard"

    samples = 8
    """Opponent racks dealt from the unseen tiles to judge the danger."""
    watch = 8
    """Opponent racks larger than this are not sampled: they cannot go out next turn."""
    threat = 0.2
    """Race (lay as much as possible) when the opponent goes out in this share of the samples."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        if view.phase == "round_over":
            return NextRound()
        seat = _my_turn(view)
        rules, rack, table = view.rules, list(view.rack), list(view.table)
        if not view.opened[seat]:
            return self._first_meld(rules, rack, table)
        most = solve(rack, table, rules, "count")
        if not most.is_play:
            return Draw()
        if most.count == len(rack) or view.pool_size == 0:
            return Play(most.sets)  # going out, or no more draws: lay all it can
        if self._danger(view, seat) >= self.threat:
            return Play(most.sets)
        return Play(self._trickle(rules, rack, table, most).sets)

    def _danger(self, view: View, seat: int) -> float:
        """The share of sampled racks with which the next opponent goes out on this table."""
        nxt = (seat + 1) % view.players
        size = view.rack_sizes[nxt]
        if size > self.watch:
            return 0.0
        unseen = _unseen(view)
        if len(unseen) < size:
            return 0.0
        out = 0
        for _ in range(self.samples):
            rack = self.rng.sample(unseen, size)
            if lays_all(rack, view.table, view.rules, first_meld=not view.opened[nxt]):
                out += 1
        return out / self.samples

    def _trickle(
        self, rules: Rules, rack: list[Tile], table: list[TableSet], most: Solution
    ) -> Solution:
        """Lay little and keep the rest for later turns: one natural that the table takes alone
        (the highest), else the smallest new set of rack naturals that the most-tiles play
        makes, else the most tiles without jokers, else the most tiles."""
        for tile in sorted(most.played, key=lambda t: -(t.number or 0)):
            if tile.is_joker:
                continue
            alone = solve([tile], table, rules, "count")
            if alone.is_play:
                return alone
        own = set(rack)
        new_sets = [s for s in most.sets if all(t in own and not t.is_joker for t in s.tiles)]
        if new_sets:
            smallest = min(new_sets, key=lambda s: (len(s.tiles), -sum(n for n, _ in s.meanings())))
            return solve(list(smallest.tiles), table, rules, "count")
        naturals = [t for t in rack if not t.is_joker]
        if len(naturals) < len(rack):
            plain = solve(naturals, table, rules, "count")
            if plain.is_play:
                return plain
        return most

    # --- the first meld --------------------------------------------------------------------

    def _first_meld(self, rules: Rules, rack: list[Tile], table: list[TableSet]) -> Action:
        """Open with sets worth just enough, keeping the other rack tiles (and the jokers when
        the naturals suffice)."""
        naturals = [t for t in rack if not t.is_joker]
        found = solve(naturals, table, rules, "value", first_meld=True)
        if not found.is_play:
            found = solve(rack, table, rules, "value", first_meld=True)
            if not found.is_play:
                return Draw()
        new_sets = [s for s in found.sets if s not in table]
        new_sets.sort(key=lambda s: -sum(n for n, _ in s.meanings()) / len(s.tiles))
        chosen: list[TableSet] = []
        total = 0
        for table_set in new_sets:
            chosen.append(table_set)
            total += sum(n for n, _ in table_set.meanings())
            if total >= rules.opening_min:
                break
        if len(chosen) == len(new_sets) or len(rack) - sum(len(s.tiles) for s in chosen) <= 2:
            return Play(found.sets)
        return Play((*table, *chosen))


def _unseen(view: View) -> list[Tile]:
    """The tiles this seat cannot see: neither on its rack nor on the table."""
    seen = Counter(view.rack) + Counter(t for s in view.table for t in s.tiles)
    return [t for t in view.rules.pool() if t not in seen]
