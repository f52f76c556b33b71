"""Two table jokers that stand for the same tile.

The count steps do not tell such jokers apart. A play that takes one back with its tile may end
with the other standing where the first stood, and the set that gave its joker back then looks
as it was. Such a set must still count as changed. On random positions with such a pair (a run
ending in the joker's tile, the tile itself often on the rack), the full solve once stopped on an
assertion about one play in nine. Each position must give the same optimum with and without
the choice of untouched sets, and a play the engine accepts.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.bench.tiles_solver import Position, random_position
from rummykit.tiles import Rules, Tile, solve
from rummykit.tiles.model import JokerMeaning, read_set
from rummykit.tiles.rules import Colour

from .test_solver_exact import accepted

RULES = Rules()


def with_twin_jokers(rng: random.Random) -> Position | None:
    """A random position plus two runs through the same tile, each with a joker in its place;
    the rack usually holds that tile. None when the tiles for the runs are not free."""
    rack, table = random_position(
        rng, RULES, table_size=rng.randint(10, 36), rack_size=rng.randint(3, 10)
    )
    used = {t for s in table for t in s.tiles} | set(rack)
    number = rng.randint(1, RULES.numbers)
    for colour in rng.sample(list(Colour), len(Colour)):
        free = [t for t in RULES.pool() if not t.is_joker and t not in used]
        runs = [_run_through(rng, free, number, colour, copy) for copy in range(2)]
        if None not in runs:
            break
    else:
        return None
    table += [read_set(tiles, RULES, [JokerMeaning(number, colour)]) for tiles in runs if tiles]
    own = [t for t in free if t.number == number and t.colour == colour]
    if own and rng.random() < 0.8:
        rack.append(own[0])
    return rack, table


def _run_through(
    rng: random.Random, free: list[Tile], number: int, colour: Colour, copy: int
) -> list[Tile] | None:
    """A run of ``colour`` with joker ``copy`` in place of ``number``, its other tiles taken
    from ``free`` (None when they are not there)."""
    length = rng.randint(3, 5)
    start = rng.randint(max(1, number - length + 1), min(number, RULES.numbers - length + 1))
    tiles: list[Tile] = []
    for n in range(start, start + length):
        tile = (
            Tile.joker(copy)
            if n == number
            else next((t for t in free if t.number == n and t.colour == colour), None)
        )
        if tile is None:
            return None
        if not tile.is_joker:
            free.remove(tile)
        tiles.append(tile)
    return tiles


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_twin_table_jokers_give_the_optimum_and_a_play_the_engine_accepts(seed: int) -> None:
    position = with_twin_jokers(random.Random(seed))
    if position is None:
        return
    rack, table = position
    for objective in ("count", "value"):
        found = solve(rack, table, RULES, objective)
        anyhow = solve(rack, table, RULES, objective, keep_table=False)
        assert found.score(objective) == anyhow.score(objective)
        accepted(rack, table, RULES, found, first_meld=False)
