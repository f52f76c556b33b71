"""Exhaustive references for the tile-rummy solver, written independently of its method.

`best_counts` searches every arrangement of a small position given as counts (the same input as
the dynamic program): it takes the lowest piece left, and either leaves it on the rack (when it
may) or tries every set that can hold it. Exponential, so only for small positions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import suppress
from functools import cache
from itertools import combinations, permutations, product

from rummykit.core import IllegalAction
from rummykit.tiles.model import JokerMeaning, TableSet, read_set
from rummykit.tiles.rules import Rules, Tile
from rummykit.tiles.solver_dp import NEG, SCALE, CountProblem
from rummykit.tiles.turn import check_turn

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
    group_fixed = list(problem.group_fixed) or [()] * (numbers + 1)
    for n in range(1, numbers + 1):
        if group_kept[n]:
            start[(n, 4)] = (0, 0, group_kept[n])  # "colour" 4: jokers kept for a group of n
        for f in set(group_fixed[n]):  # 5 + f: those standing for colour f in a group
            start[(n, 5 + f)] = (0, 0, list(group_fixed[n]).count(f))

    def score(value: int, count: int) -> int:
        return value * SCALE + count if value_mode else count * SCALE + value

    @cache
    def search(cells: tuple[tuple[tuple[int, int], Cell], ...], rj: int, tj: int, need: int) -> int:
        if not cells:
            return 0 if tj == 0 and need == 0 else NEG
        pieces = dict(cells)
        (n, c), (tm, ro, kp) = cells[0]
        best = NEG
        if c >= 4:
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
    yield from _groups_through(pieces, n, c, rj, tj)


def _groups_through(
    pieces: dict[tuple[int, int], Cell], n: int, c: int, rj: int, tj: int
) -> Iterator[tuple[tuple[tuple[tuple[int, int], Cell], ...], int, int, int, int]]:
    """Every group of n holding a natural of colour c, its other places filled by naturals, free
    jokers or the table jokers kept for groups of n (a joker standing for colour f must still
    stand for f, or for no colour in particular: then the group has at most 2 naturals)."""
    if not (pieces.get((n, c), (0, 0, 0))[0] or pieces.get((n, c), (0, 0, 0))[1]):
        return
    held = {key: pieces.get((n, key), (0, 0, 0))[2] for key in range(4, 9)}
    others = [d for d in range(4) if d != c]
    for size in (3, 4):
        for rest in combinations(others, size - 1):
            colours = [c, *rest]
            options: list[list[object]] = [["real"]]
            for d in rest:
                opts: list[object] = ["rack_joker", "table_joker"]
                if any(pieces.get((n, d), (0, 0, 0))[:2]):
                    opts.append("real")
                opts += [key for key in range(4, 9) if held[key]]
                options.append(opts)
            for pick in product(*options):
                naturals = pick.count("real")
                if pick.count("rack_joker") > rj or pick.count("table_joker") > tj:
                    continue
                if any(pick.count(key) > held[key] for key in range(4, 9)):
                    continue
                if any(
                    isinstance(p, int) and p >= 5 and naturals == 3 and d != p - 5
                    for p, d in zip(pick, colours, strict=True)
                ):
                    continue
                left = dict(pieces)
                value = count = 0
                for what, d in zip(pick, colours, strict=True):
                    if what == "real":
                        tm, ro, kp = left[(n, d)]
                        if tm:
                            cell = (tm - 1, ro, kp)
                        else:
                            cell, value, count = (tm, ro - 1, kp), value + n, count + 1
                        where = (n, d)
                    elif isinstance(what, int):
                        where = (n, what)
                        cell = (0, 0, left[where][2] - 1)
                    else:
                        if what == "rack_joker":
                            value, count = value + n, count + 1
                        continue
                    if any(cell):
                        left[where] = cell
                    else:
                        del left[where]
                yield (
                    tuple(sorted(left.items())),
                    value,
                    count,
                    rj - pick.count("rack_joker"),
                    tj - pick.count("table_joker"),
                )


def _fill(
    pieces: dict[tuple[int, int], Cell],
    positions: list[tuple[int, int]],
    anchor: tuple[int, int],
    rj: int,
    tj: int,
    allow_kept: bool,
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
            options += ["rack_joker", "table_joker"]
        choices.append(options)
    for pick in product(*choices):
        if "real" not in pick:
            continue
        if pick.count("rack_joker") > rj or pick.count("table_joker") > tj:
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


# ------------------------------------------------------------------------------------------
# Tile positions, judged by the engine itself


def set_readings(tiles: Sequence[Tile], rules: Rules) -> list[TableSet]:
    """Every valid set made of exactly ``tiles`` (each way of reading its jokers, each order
    of distinct jokers)."""
    naturals = [t for t in tiles if not t.is_joker]
    jokers = [t for t in tiles if t.is_joker]
    if not naturals:
        return []
    found: dict[tuple[object, ...], TableSet] = {}
    numbers = {t.number for t in naturals}
    colours = {t.colour for t in naturals}
    for order in set(permutations(jokers)):
        if len(numbers) == 1 and len(colours) == len(naturals) and len(tiles) <= 4:
            number = naturals[0].number
            assert number is not None
            laid = [*naturals, *order]
            with suppress(IllegalAction):
                s = read_set(laid, rules, [JokerMeaning(number, None)] * len(order))
                found[(s.tiles, s.jokers)] = s
        if len(colours) == 1 and len(numbers) == len(naturals):
            colour = naturals[0].colour
            assert colour is not None
            by_number = {t.number: t for t in naturals}
            low, high, size = min(by_number), max(by_number), len(tiles)  # type: ignore[type-var]
            for start in range(max(1, high - size + 1), min(low, rules.numbers - size + 1) + 1):
                spare = list(order)
                laid, meanings = [], []
                for number in range(start, start + size):
                    if number in by_number:
                        laid.append(by_number[number])
                    elif spare:
                        laid.append(spare.pop(0))
                        meanings.append(JokerMeaning(number, colour))
                    else:
                        break
                if len(laid) != size or spare:
                    continue
                with suppress(IllegalAction):
                    s = read_set(laid, rules, meanings)
                    found[(s.tiles, s.jokers)] = s
    return list(found.values())


def arrangements(tiles: Sequence[Tile], rules: Rules) -> Iterator[list[TableSet]]:
    """Every way to split ``tiles`` into valid sets."""
    if not tiles:
        yield []
        return
    first, rest = tiles[0], list(tiles[1:])
    for size in range(2, len(rest) + 1):
        for others in combinations(rest, size):
            for table_set in set_readings([first, *others], rules):
                left = [t for t in rest if t not in others]
                for more in arrangements(left, rules):
                    yield [table_set, *more]


def best_tiles(
    rack: Sequence[Tile],
    table: Sequence[TableSet],
    rules: Rules,
    objective: str = "value",
    first_meld: bool = False,
) -> int:
    """The best value (or count) of a play the engine accepts: every subset of the rack, every
    arrangement, judged by `check_turn`. 0 when no play is accepted."""
    best = 0
    table_tiles = [t for s in table for t in s.tiles]
    for size in range(1, len(rack) + 1):
        for subset in combinations(rack, size):
            if first_meld:
                layouts: Iterator[list[TableSet]] = (
                    [*table, *sets] for sets in arrangements(list(subset), rules)
                )
            else:
                layouts = arrangements([*table_tiles, *subset], rules)
            for layout in layouts:
                try:
                    check = check_turn(rules, table, rack, layout, opened=not first_meld)
                except IllegalAction:
                    continue
                score = check.value if objective == "value" else len(check.played)
                best = max(best, score)
    return best
