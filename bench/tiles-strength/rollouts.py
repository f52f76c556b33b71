"""An experiment, not a player of the project: tile rummy's `hard` with endgame rollouts.

Near the end of a round (a rack of ``--from-tiles`` tiles or fewer, either side), the player
lists `hard`'s alternatives (its own play, the most tiles with jokers, the most without, each
of up to six tiles held back, the draw), deals the tiles it cannot see into the other rack and
the pool, the same deals for every alternative, and plays each deal out: itself as `hard`
without its guard, the other as `greedy`, until a rack is empty, both pass on an empty pool,
or ``--depth`` turns have gone (then the side with fewer tiles left scores 0.5 + 0.15 a tile
of difference, between 0.05 and 0.95). After ``--budget`` seconds of processor time (at least
two deals) it plays the alternative that won most, ties going to `hard`'s own.

``--fit`` says how the other rack is dealt: ``none`` uniformly; ``draws`` so that, when that
player's last move was a draw, the tiles it held before admit no play on the table; ``all``
also so that, after its play, what it holds admits no play on the table it left (`greedy`
lays all it can). Up to 40 deals are tried; then the last is taken.

The budget is processor time, so two runs of the same command need not choose alike; the
figures in this folder's README came from this code (first written as a scratch script at
commit e932517). It prints `mirror_match`'s JSON against ``--against``:

    python bench/tiles-strength/rollouts.py --games 50 --seed 2000 --fit all --budget 2
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence

from rummykit.tiles.actions import Action, Draw, Play
from rummykit.tiles.bot_hard import HardBot, _unseen
from rummykit.tiles.bots import BOTS
from rummykit.tiles.mirror import mirror_match
from rummykit.tiles.model import TableSet
from rummykit.tiles.rules import Rules, Tile
from rummykit.tiles.solver import Solution, solve
from rummykit.tiles.view import View

Policy = Callable[[list[Tile], Sequence[TableSet], Rules, bool, int], Solution | None]


def tiles_of(table: Sequence[TableSet]) -> list[Tile]:
    return [t for s in table for t in s.tiles]


def as_hard(
    rack: list[Tile], table: Sequence[TableSet], rules: Rules, opened: bool, pool: int
) -> Solution | None:
    """`hard`'s turn without its guard (the play, or None to draw)."""
    most = solve(rack, table, rules, "count", first_meld=not opened, keep_table=False)
    if not most.is_play or most.count == len(rack) or pool == 0:
        return most if most.is_play else None
    naturals = [t for t in rack if not t.is_joker]
    if len(naturals) == len(rack):
        return most
    plain = solve(naturals, table, rules, "count", first_meld=not opened, keep_table=False)
    if plain.is_play:
        return plain
    return most if not opened else None


def as_greedy(
    rack: list[Tile], table: Sequence[TableSet], rules: Rules, opened: bool, pool: int
) -> Solution | None:
    most = solve(rack, table, rules, "count", first_meld=not opened, keep_table=False)
    return most if most.is_play else None


def play_out(
    rules: Rules,
    racks: list[list[Tile]],
    table: Sequence[TableSet],
    pool: list[Tile],
    opened: list[bool],
    turn: int,
    me: int,
    depth: int,
    policies: Sequence[Policy],
) -> float:
    """One deal played on from a position: 1, 0.5 or 0 for ``me`` (a judged score when cut)."""
    racks, pool, opened = [list(r) for r in racks], list(pool), list(opened)
    passes = 0
    for _ in range(depth):
        found = policies[turn](racks[turn], table, rules, opened[turn], len(pool))
        if found is None:
            if pool:
                racks[turn].append(pool.pop())
                passes = 0
            else:
                passes += 1
                if passes >= 2:
                    break
        else:
            laid = Counter(found.played)
            racks[turn] = [t for t in racks[turn] if not _take(laid, t)]
            table, opened[turn], passes = found.sets, True, 0
            if not racks[turn]:
                return 1.0 if turn == me else 0.0
        turn = 1 - turn
    if passes >= 2:
        left = [sum(rules.penalty(t) for t in r) for r in racks]
        return 1.0 if left[me] < left[1 - me] else 0.5 if left[me] == left[1 - me] else 0.0
    ahead = len(racks[1 - me]) - len(racks[me])
    return 0.5 + max(-0.45, min(0.45, 0.15 * ahead))


def _take(counts: Counter[Tile], tile: Tile) -> bool:
    if counts[tile]:
        counts[tile] -= 1
        return True
    return False


def last_move(view: View, seat: int) -> str | None:
    for event in reversed(view.log):
        if event.get("seat") == seat and event["code"] in ("draw", "play", "pass"):
            return str(event["code"])
    return None


class RolloutBot(HardBot):
    level = "rollouts"
    from_tiles = 6
    depth = 16
    budget = 0.2
    fit = "all"

    def turn(self, view: View, seat: int) -> Action:
        base = super().turn(view, seat)
        rules, rack, table = view.rules, list(view.rack), list(view.table)
        other = 1 - seat
        if view.players != 2 or min(len(rack), view.rack_sizes[other]) > self.from_tiles:
            return base
        start = time.process_time()
        first = not view.opened[seat]
        options: dict[tuple[str, ...] | None, Sequence[TableSet] | None] = {}

        def offer(sets: Sequence[TableSet] | None) -> None:
            key = None if sets is None else tuple(sorted(t.code for t in tiles_of(sets)))
            options.setdefault(key, sets)

        offer(base.table if isinstance(base, Play) else None)
        most = solve(rack, table, rules, "count", first_meld=first, keep_table=False)
        if most.is_play:
            offer(most.sets)
            naturals = [t for t in rack if not t.is_joker]
            plain = most
            if len(naturals) < len(rack):
                plain = solve(naturals, table, rules, "count", first_meld=first, keep_table=False)
            if plain.is_play:
                offer(plain.sets)
                for tile in list(plain.played)[:6] if not first else []:
                    rest = [t for t in naturals if t != tile]
                    less = solve(rest, table, rules, "count", keep_table=False)
                    if less.is_play and less.count < plain.count:
                        offer(less.sets)
        if view.pool_size > 0:
            offer(None)
        if len(options) == 1:
            return base
        unseen, size = _unseen(view), view.rack_sizes[other]
        last = last_move(view, other) if view.opened[other] else None
        held = {"draw": size - 1, "play": size if self.fit == "all" else 0}.get(last or "", 0)
        if self.fit == "none":
            held = 0
        policies: list[Policy] = [as_greedy, as_greedy]
        policies[seat] = as_hard
        keys = list(options)
        won = [0.0] * len(keys)
        deals = 0
        while time.process_time() - start < self.budget or deals < 2:
            deal = unseen[:]
            for _ in range(40):
                self.rng.shuffle(deal)
                if (
                    not held
                    or not solve(deal[:held], table, rules, "count", keep_table=False).is_play
                ):
                    break
            theirs, pool = deal[:size], deal[size : size + view.pool_size]
            for i, key in enumerate(keys):
                sets = options[key]
                racks: list[list[Tile]] = [[], []]
                racks[other] = theirs
                if sets is None:
                    rest = pool[:]
                    racks[seat] = rack + ([rest.pop()] if rest else [])
                    won[i] += play_out(
                        rules,
                        racks,
                        table,
                        rest,
                        list(view.opened),
                        other,
                        seat,
                        self.depth,
                        policies,
                    )
                    continue
                laid = Counter(tiles_of(sets)) - Counter(tiles_of(table))
                racks[seat] = [t for t in rack if not _take(laid, t)]
                if not racks[seat]:
                    return Play(tuple(sets))
                opened = list(view.opened)
                opened[seat] = True
                won[i] += play_out(
                    rules, racks, list(sets), pool, opened, other, seat, self.depth, policies
                )
            deals += 1
        best = max(range(len(keys)), key=lambda i: (won[i], i == 0))
        if best == 0 or won[best] <= won[0]:
            return base
        sets = options[keys[best]]
        return Draw() if sets is None else Play(tuple(sets))


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=2000)
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--from-tiles", type=int, default=6)
    parser.add_argument("--depth", type=int, default=16)
    parser.add_argument("--budget", type=float, default=0.2, help="processor seconds a decision")
    parser.add_argument("--fit", choices=("none", "draws", "all"), default="all")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    RolloutBot.from_tiles, RolloutBot.depth = args.from_tiles, args.depth
    RolloutBot.budget, RolloutBot.fit = args.budget, args.fit
    BOTS["rollouts"] = RolloutBot  # the worker processes are forked and see it
    began = time.time()
    result = mirror_match(
        ["rollouts", args.against], games=args.games, rounds=1, seed=args.seed, workers=args.jobs
    )
    result["experiment"] = {**vars(args), "seconds": round(time.time() - began, 1)}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
