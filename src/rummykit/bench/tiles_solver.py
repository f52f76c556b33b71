"""Benchmark of the tile-rummy solver: `rummykit bench tiles-solver --json`.

Five families of seeded positions:

- **game positions**: positions met in real games (two ``greedy`` players, standard rules, two
  jokers), each taken at a turn of a player who has made the first meld, with at most 20 tiles
  on the rack and 60 on the table;
- **random positions**: a table of valid sets (0 to 60 tiles, built set by set from a shuffled
  standard set), a rack of 1 to 20 tiles, at most 2 jokers in all (on the table, standing for
  a tile, or on the rack), jokers far more often than in play;
- **two rack jokers**: a table of 40 to 60 tiles and both jokers on a rack of 3 to 20 tiles,
  the hardest positions for the solver;
- **first melds**: a rack of 6 to 16 tiles and 0 to 2 jokers, solved as a first meld (new sets
  from the rack worth at least 30);
- **large puzzles**: the classic puzzle (empty table, no first meld) with numbers up to 100 and
  300 or more tiles.

Each position is solved for the most tiles (the objective the reference solver optimises) and for
the most value; the positions of the first four families are also solved by the outside package
``rummikub-solver`` (an integer program) in the same run, when it is installed, and the optima
are compared: they must be equal on positions without jokers. With jokers the two do not solve
the same problem: that package keeps table jokers free to move (the rules here keep a joker
standing for its tile unless a rack tile frees it) and its list of sets leaves out a few with
jokers (four tiles in a group, a joker at the end of a run of four or five), so there the
comparison is reported, not required to match; where the reference lays more, the same dynamic
program run under its reading (table jokers free) is checked to reach at least as much. The
reference is timed in its most-tiles mode, or its first-meld mode for the first melds.
"""

from __future__ import annotations

import contextlib
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import Any

from rummykit.core import JSON
from rummykit.tiles.model import JokerMeaning, TableSet, read_set
from rummykit.tiles.rules import Colour, Rules, Tile
from rummykit.tiles.solver import solve
from rummykit.tiles.solver_dp import CountProblem, solve_counts

Position = tuple[list[Tile], list[TableSet]]


def random_position(
    rng: random.Random,
    rules: Rules,
    *,
    table_size: int,
    rack_size: int,
    table_jokers: int = 0,
    rack_jokers: int = 0,
) -> Position:
    """A rack and a valid table drawn from ``rules``' tiles.

    The table is built one random set at a time (runs of 3 to 6, groups of 3 or 4) until it
    holds about ``table_size`` tiles; up to ``table_jokers`` of its sets get one tile replaced by
    a joker. The rack takes ``rack_size`` other naturals and ``rack_jokers`` jokers.
    """
    free = {t for t in rules.pool() if not t.is_joker}
    by_face: dict[tuple[int, Colour], list[Tile]] = {}
    for tile in sorted(free, key=lambda t: t.sort_key):
        assert tile.number is not None and tile.colour is not None
        by_face.setdefault((tile.number, tile.colour), []).append(tile)
    jokers = [Tile.joker(i) for i in range(rules.jokers)]
    rng.shuffle(jokers)
    table: list[TableSet] = []
    size = tries = 0
    while size < table_size and tries < 400:
        tries += 1
        if rng.random() < 0.5:
            colour = rng.choice(list(Colour))
            length = rng.randint(3, min(6, rules.numbers))
            start = rng.randint(1, rules.numbers - length + 1)
            faces = [(n, colour) for n in range(start, start + length)]
        else:
            number = rng.randint(1, rules.numbers)
            faces = [(number, c) for c in rng.sample(list(Colour), rng.choice((3, 4)))]
        if size + len(faces) > table_size + 2 or not all(by_face.get(f) for f in faces):
            continue
        tiles = [by_face[f].pop(rng.randrange(len(by_face[f]))) for f in faces]
        meanings: list[JokerMeaning | None] = []
        if table_jokers and jokers and rng.random() < 0.5:
            table_jokers -= 1
            spot = rng.randrange(len(tiles))
            face = faces[spot]
            by_face[face].append(tiles[spot])
            tiles[spot] = jokers.pop()
            group = len({n for n, _ in faces}) == 1
            meanings = [JokerMeaning(face[0], None if group else face[1])]
        table.append(read_set(tiles, rules, meanings))
        size += len(faces)
    rest = [t for tiles in by_face.values() for t in tiles]
    rng.shuffle(rest)
    rack = rest[:rack_size] + jokers[:rack_jokers]
    rng.shuffle(rack)
    return rack, table


def game_positions(count: int, seed: int) -> list[Position]:
    """``count`` positions met in games between two ``greedy`` players (see the module
    docstring): each turn of a player who has opened, rack <= 20 and table <= 60 tiles."""
    from rummykit.tiles.bot_hard import GreedyBot
    from rummykit.tiles.game import State

    out: list[Position] = []
    game = seed * 1000
    while len(out) < count:
        state = State(Rules(), 2, game)
        bots = [GreedyBot(game), GreedyBot(game + 1)]
        while state.phase == "play" and len(out) < count:
            seat = state.turn
            view = state.view(seat)
            table_size = sum(len(s.tiles) for s in view.table)
            if view.opened[seat] and len(view.rack) <= 20 and table_size <= 60:
                out.append((list(view.rack), list(view.table)))
            state.apply(bots[seat].choose(view), seat)
        game += 1
    return out


def random_positions(count: int, seed: int) -> list[Position]:
    """``count`` seeded random positions (see the module docstring)."""
    rng = random.Random(seed)
    rules = Rules()
    out: list[Position] = []
    for _ in range(count):
        jokers = rng.choice((0, 0, 0, 1, 1, 2))
        on_table = rng.randint(0, jokers)
        out.append(
            random_position(
                rng,
                rules,
                table_size=rng.randint(0, 60),
                rack_size=rng.randint(1, 20 - (jokers - on_table)),
                table_jokers=on_table,
                rack_jokers=jokers - on_table,
            )
        )
    return out


def two_rack_joker_positions(count: int, seed: int) -> list[Position]:
    """``count`` seeded positions with a table of 40 to 60 tiles and both jokers on the rack."""
    rng = random.Random(seed)
    rules = Rules()
    return [
        random_position(
            rng,
            rules,
            table_size=rng.randint(40, 60),
            rack_size=rng.randint(1, 18),
            rack_jokers=2,
        )
        for _ in range(count)
    ]


def first_meld_racks(count: int, seed: int) -> list[Position]:
    """``count`` seeded racks of 6 to 16 naturals and 0 to 2 jokers (the table empty)."""
    rng = random.Random(seed)
    naturals = [t for t in Rules().pool() if not t.is_joker]
    out: list[Position] = []
    for _ in range(count):
        rack = rng.sample(naturals, rng.randint(6, 16))
        rack += [Tile.joker(i) for i in range(rng.choice((0, 0, 1, 2)))]
        out.append((rack, []))
    return out


def large_puzzles(count: int, seed: int, numbers: int = 100) -> list[list[Tile]]:
    """``count`` classic puzzles: 300 to 400 tiles of the numbers 1..``numbers``, 0–2 jokers."""
    rng = random.Random(seed)
    rules = Rules(numbers=numbers)
    naturals = [t for t in rules.pool() if not t.is_joker]
    out: list[list[Tile]] = []
    for _ in range(count):
        rack = rng.sample(naturals, rng.randint(300, 400))
        rack += [Tile.joker(i) for i in range(rng.choice((0, 1, 2)))]
        out.append(rack)
    return out


Timing = tuple[float, float]
"""Wall-clock and processor seconds of one call."""


def _timed(call: Callable[[], Any]) -> tuple[Timing, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return (time.perf_counter() - wall, time.process_time() - cpu), result


def _summary(timings: Sequence[Timing]) -> dict[str, JSON]:
    """Median, 99th percentile and maximum, wall clock and processor time (which a busy machine
    disturbs less)."""
    ordered = sorted(wall for wall, _ in timings)
    cpu = sorted(c for _, c in timings)
    at99 = min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))
    return {
        "n": len(ordered),
        "median_ms": round(statistics.median(ordered) * 1000, 3),
        "p99_ms": round(ordered[at99] * 1000, 3),
        "max_ms": round(ordered[-1] * 1000, 3),
        "cpu_median_ms": round(statistics.median(cpu) * 1000, 3),
        "cpu_p99_ms": round(cpu[at99] * 1000, 3),
        "cpu_max_ms": round(cpu[-1] * 1000, 3),
    }


class ReferenceSolver:
    """The outside ``rummikub-solver`` package in tile-count mode, for comparison."""

    def __init__(self, rules: Rules) -> None:
        from rummikub_solver import RuleSet

        self.rules = rules
        self.ruleset = RuleSet(
            numbers=rules.numbers,
            repeats=rules.copies,
            jokers=rules.jokers,
            min_len=3,
            min_initial_value=min(50, max(1, rules.opening_min)),
        )
        self.joker = self.ruleset.tile_count

    def _index(self, tile: Tile) -> int:
        if tile.number is None or tile.colour is None:
            return self.joker
        return int(tile.colour) * self.rules.numbers + tile.number

    def most_tiles(self, rack: Sequence[Tile], table: Sequence[TableSet], initial: bool) -> int:
        """The number of rack tiles its best play lays (0 when it finds none)."""
        from rummikub_solver import SolverMode

        state = self.ruleset.new_game()
        state.add_rack(*(self._index(t) for t in rack))
        table_tiles = [self._index(t) for s in table for t in s.tiles]
        if table_tiles:
            state.add_table(*table_tiles)
        state.initial = initial
        mode = SolverMode.INITIAL if initial else SolverMode.TILE_COUNT
        with _quiet():  # HiGHS prints a banner once, from C
            found = self.ruleset.solve(state, mode)
        return 0 if found is None else len(found.tiles)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence the standard output at the file-descriptor level (C libraries write there)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 1)
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def run(positions: int = 300, puzzles: int = 5, seed: int = 1, reference: bool = True) -> JSON:
    """Time the solver (and the reference) and return the figures as JSON."""
    rules = Rules()
    result: dict[str, JSON] = {
        "benchmark": "tiles-solver",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "seed": seed,
    }
    checker = _reference(rules) if reference else None
    for name, family, first in (
        ("game_positions", game_positions(positions, seed), False),
        ("random_positions", random_positions(positions, seed), False),
        ("two_rack_jokers", two_rack_joker_positions(positions, seed), False),
        ("first_melds", first_meld_racks(positions, seed), True),
    ):
        ours_count: list[Timing] = []
        ours_value: list[Timing] = []
        ours_any_table: list[Timing] = []
        counts: list[int] = []
        for rack, table in family:
            timing, found = _timed(partial(solve, rack, table, rules, "count", first))
            ours_count.append(timing)
            counts.append(found.count)
            timing, _ = _timed(partial(solve, rack, table, rules, "value", first))
            ours_value.append(timing)
            timing, same = _timed(
                partial(solve, rack, table, rules, "count", first, keep_table=False)
            )
            ours_any_table.append(timing)
            if same.count != found.count:
                raise AssertionError(f"keep_table=False laid {same.count}, not {found.count}")
        entry: dict[str, JSON] = {
            "count": len(family),
            "with_jokers": sum(1 for r, t in family if _jokers(r, t)),
            "most_tiles": _summary(ours_count),
            "most_value": _summary(ours_value),
            # The same question as the reference's: the most tiles, any arrangement of the table.
            "most_tiles_any_table": _summary(ours_any_table),
        }
        if checker is not None:
            entry["reference"] = _compare(checker, family, counts, ours_count, first)
            entry["reference_against_any_table"] = _ratios(entry["reference"], ours_any_table)
        elif reference:
            entry["reference"] = {"available": False}
        result[name] = entry
    if puzzles < 1:
        return result
    big = large_puzzles(puzzles, seed)
    big_rules = Rules(numbers=100)
    big_times: list[Timing] = []
    tiles_played: list[int] = []
    for rack in big:
        timing, found = _timed(partial(solve, rack, (), big_rules, "count"))
        big_times.append(timing)
        tiles_played.append(found.count)
    result["large_puzzles"] = {
        "numbers": 100,
        "tiles": [len(r) for r in big],
        "played": tiles_played,
        **_summary(big_times),
    }
    return result


def _reference(rules: Rules) -> ReferenceSolver | None:
    try:
        checker = ReferenceSolver(rules)
    except ImportError:
        return None
    checker.most_tiles([Tile.parse("r1")], (), initial=False)  # builds its model, untimed
    return checker


def _jokers(rack: Sequence[Tile], table: Sequence[TableSet]) -> bool:
    return any(t.is_joker for t in rack) or any(s.jokers for s in table)


def _compare(
    reference: ReferenceSolver,
    games: Sequence[Position],
    counts: Sequence[int],
    ours: Sequence[Timing],
    initial: bool = False,
) -> JSON:
    times: list[Timing] = []
    same = differ_plain = more = fewer = explained = 0
    for (rack, table), mine in zip(games, counts, strict=True):
        timing, theirs = _timed(partial(reference.most_tiles, rack, table, initial))
        times.append(timing)
        if theirs == mine:
            same += 1
        elif not _jokers(rack, table):
            differ_plain += 1
        elif mine > theirs:
            more += 1
        else:
            fewer += 1
            if not initial and _free_jokers_count(rack, table) >= theirs:
                explained += 1
    summary = _summary(times)
    return {
        "available": True,
        "package": "rummikub-solver",
        "mode": "first meld" if initial else "most tiles",
        **summary,
        "speedup_at_median": round(
            statistics.median(w for w, _ in times) / statistics.median(w for w, _ in ours), 2
        ),
        "speedup_at_cpu_median": round(
            statistics.median(c for _, c in times) / statistics.median(c for _, c in ours), 2
        ),
        "same_optimum": same,
        "different_without_jokers": differ_plain,
        "with_jokers_ours_more": more,
        "with_jokers_ours_fewer": fewer,
        "ours_fewer_matched_with_table_jokers_free": explained,
    }


def _ratios(reference: JSON, ours: Sequence[Timing]) -> JSON:
    """The reference's median times over ours (wall clock, processor time)."""
    assert isinstance(reference, dict)
    median = statistics.median(w for w, _ in ours) * 1000
    cpu = statistics.median(c for _, c in ours) * 1000
    return {
        "speedup_at_median": round(float(reference["median_ms"]) / median, 2),
        "speedup_at_cpu_median": round(float(reference["cpu_median_ms"]) / cpu, 2),
    }


def _free_jokers_count(rack: Sequence[Tile], table: Sequence[TableSet]) -> int:
    """The most tiles under the reference's reading of the rules, where table jokers are free to
    stand for anything: the same dynamic program, every table joker a free joker to place."""
    rules = Rules()
    n = rules.numbers
    on_table = [[0] * 4 for _ in range(n + 1)]
    on_rack = [[0] * 4 for _ in range(n + 1)]
    table_jokers = 0
    for tile in (t for s in table for t in s.tiles):
        if tile.number is None or tile.colour is None:
            table_jokers += 1
        else:
            on_table[tile.number][tile.colour] += 1
    for tile in rack:
        if tile.number is not None and tile.colour is not None:
            on_rack[tile.number][tile.colour] += 1
    rack_jokers = sum(1 for t in rack if t.is_joker)
    kept = [[0] * 4 for _ in range(n + 1)]
    problem = CountProblem(
        n, on_table, on_rack, kept, rack_jokers, table_jokers, "count", tie_break=False
    )
    found = solve_counts(problem)
    return found.primary if found.feasible else 0
