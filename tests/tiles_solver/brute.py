"""Exhaustive references for the tile-rummy solver, written independently of its method.

`best_counts` searches every arrangement of a small position given as counts (the same input as
the dynamic program): it takes the lowest piece left, and either leaves it on the rack (when it
may) or tries every set that can hold it. Exponential, so only for small positions.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations, product

from rummykit.tiles.solver_dp import NEG, SCALE, CountProblem

Cell = tuple[int, int, int]  # table naturals, rack naturals, kept jokers


def best_counts(problem: CountProblem) -> tuple[int, int] | None:
    """(primary, secondary) of the best arrangement, or ``None`` when none places every
    mandatory piece; first-meld value needs are honoured."""
    numbers = problem.numbers
    start: dict[tuple[int, int], Cell] = {}
    for n in range(1, numbers + 1):
        for c in range(4):
            cell = (problem.table[n][c], problem.rack[n][c], problem.kept[n][c])
            if any(cell):
                start[(n, c)] = cell
    value_mode = problem.objective == "value"
    group_kept = list(problem.group_kept) or [0] * (numbers + 1)
    for n in range(1, numbers + 1):
        if group_kept[n]:
            start[(n, 4)] = (0, 0, group_kept[n])  # colour 4: jokers kept for a group of n

    def score(value: int, count: int) -> int:
        return value * SCALE + count if value_mode else count * SCALE + value

    @cache
    def search(cells: tuple[tuple[tuple[int, int], Cell], ...], rj: int, tj: int, need: int) -> int:
        if not cells:
            return 0 if tj == 0 and need == 0 else NEG
        pieces = dict(cells)
        (n, c), (tm, ro, kp) = cells[0]
        best = NEG
        if c == 4:
            return NEG  # a joker kept for a group of n with no natural of n left
        if ro:
            left = _put(pieces, (n, c), (tm, ro - 1, kp))
            best = search(left, rj, tj, need)
        for used, value, count, rj2, tj2 in _sets_through(pieces, n, c, numbers, rj, tj):
            rest = search(used, rj2, tj2, max(0, need - value))
            if rest > NEG:
                best = max(best, rest + score(value, count))
        return best

    result = search(
        tuple(sorted(start.items())),
        problem.rack_jokers,
        problem.table_jokers,
        problem.need_value,
    )
    if result == NEG:
        return None
    return divmod(result, SCALE)


def _put(
    pieces: dict[tuple[int, int], Cell], where: tuple[int, int], cell: Cell
) -> tuple[tuple[tuple[int, int], Cell], ...]:
    out = dict(pieces)
    if any(cell):
        out[where] = cell
    else:
        del out[where]
    return tuple(sorted(out.items()))


def _sets_through(
    pieces: dict[tuple[int, int], Cell], n: int, c: int, numbers: int, rj: int, tj: int
) -> Iterator[tuple[tuple[tuple[tuple[int, int], Cell], ...], int, int, int, int]]:
    """Every set holding a piece at (n, c): the pieces left, rack value and count it plays, and
    the free jokers left."""
    # Runs of colour c through n.
    for start in range(max(1, n - (rj + tj)), n + 1):
        for end in range(max(n, start + 2), numbers + 1):
            positions = [(i, c) for i in range(start, end + 1)]
            yield from _fill(pieces, positions, (n, c), rj, tj, allow_kept=True)
    # Groups at n holding colour c, with or without jokers kept for a group of n.
    others = [d for d in range(4) if d != c]
    group_jokers = pieces.get((n, 4), (0, 0, 0))[2]
    for size in (3, 4):
        for rest in combinations(others, size - 1):
            positions = sorted([(n, c), *((n, d) for d in rest)])
            for held in range(min(group_jokers, size - 1) + 1):
                for filled in _fill(
                    pieces, positions, (n, c), rj, tj, allow_kept=False, group_jokers=held
                ):
                    left = dict(filled[0])
                    if held:
                        cell = left[(n, 4)]
                        cell = (0, 0, cell[2] - held)
                        if any(cell):
                            left[(n, 4)] = cell
                        else:
                            del left[(n, 4)]
                    yield (tuple(sorted(left.items())), *filled[1:])


def _fill(
    pieces: dict[tuple[int, int], Cell],
    positions: list[tuple[int, int]],
    anchor: tuple[int, int],
    rj: int,
    tj: int,
    allow_kept: bool,
    group_jokers: int = 0,
) -> Iterator[tuple[tuple[tuple[tuple[int, int], Cell], ...], int, int, int, int]]:
    choices: list[list[str]] = []
    for pos in positions:
        tm, ro, kp = pieces.get(pos, (0, 0, 0))
        options: list[str] = []
        if tm or ro:
            options.append("real")
        if kp and allow_kept:
            options.append("kept")
        if pos != anchor:
            options += ["rack_joker", "table_joker", "group_joker"]
        choices.append(options)
    for pick in product(*choices):
        if "real" not in pick:
            continue
        if pick.count("rack_joker") > rj or pick.count("table_joker") > tj:
            continue
        if pick.count("group_joker") != group_jokers:
            continue
        left = dict(pieces)
        value = count = 0
        for pos, what in zip(positions, pick, strict=True):
            if what == "real":
                tm, ro, kp = left[pos]
                if tm:
                    cell = (tm - 1, ro, kp)
                else:
                    cell = (tm, ro - 1, kp)
                    value += pos[0]
                    count += 1
            elif what == "kept":
                tm, ro, kp = left[pos]
                cell = (tm, ro, kp - 1)
            else:
                if what == "rack_joker":
                    value += pos[0]
                    count += 1
                continue
            if any(cell):
                left[pos] = cell
            else:
                del left[pos]
        yield (
            tuple(sorted(left.items())),
            value,
            count,
            rj - pick.count("rack_joker"),
            tj - pick.count("table_joker"),
        )
