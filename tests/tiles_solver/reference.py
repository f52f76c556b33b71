"""Independent references for the tile-rummy solver.

- `ilp_best`: an integer program (HiGHS) over every run of 3 to 5 and every group, each with its
  jokers marked, for positions without table jokers and with at most two jokers (then every valid
  table splits into such sets: a longer run splits into parts of 3 to 5 that each keep a natural).
- `greedy_play`: what a plain player does — lay rack tiles at the ends of table sets, then make
  new sets from the rack — as a lower bound that the solver must reach.
- `counts_of`: the count form of a tile position without table jokers.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import highspy
import numpy as np

from rummykit.core import IllegalAction
from rummykit.tiles.model import JokerMeaning, TableSet, read_set
from rummykit.tiles.rules import Colour, Rules, Tile
from rummykit.tiles.solver_dp import CountProblem
from rummykit.tiles.turn import check_turn


def counts_of(
    rack: Sequence[Tile], table: Sequence[TableSet], rules: Rules, objective: str
) -> CountProblem:
    """The count problem of a position whose table holds no joker."""
    n = rules.numbers
    table_counts = [[0] * 4 for _ in range(n + 1)]
    rack_counts = [[0] * 4 for _ in range(n + 1)]
    for table_set in table:
        for tile in table_set.tiles:
            assert tile.number is not None and tile.colour is not None
            table_counts[tile.number][tile.colour] += 1
    jokers = 0
    for tile in rack:
        if tile.number is None or tile.colour is None:
            jokers += 1
        else:
            rack_counts[tile.number][tile.colour] += 1
    kept = [[0] * 4 for _ in range(n + 1)]
    return CountProblem(n, table_counts, rack_counts, kept, jokers, 0, objective)  # type: ignore[arg-type]


def ilp_best(problem: CountProblem) -> int | None:
    """The optimum of the primary objective, or ``None`` when the table cannot be arranged."""
    assert not any(map(any, problem.kept)) and not any(problem.group_kept)
    jokers = problem.rack_jokers + problem.table_jokers
    assert jokers <= 2
    n_max = problem.numbers
    # Each set: the naturals it covers and the numbers its jokers stand for.
    sets: list[tuple[list[tuple[int, int]], list[int]]] = []
    for colour in range(4):
        for length in (3, 4, 5):
            for start in range(1, n_max - length + 2):
                numbers = list(range(start, start + length))
                for holes in range(min(jokers, length - 1) + 1):
                    for mask in combinations(range(length), holes):
                        naturals = [(numbers[i], colour) for i in range(length) if i not in mask]
                        sets.append((naturals, [numbers[i] for i in mask]))
    for number in range(1, n_max + 1):
        for size in (3, 4):
            for holes in range(min(jokers, size - 1) + 1):
                for colours in combinations(range(4), size - holes):
                    sets.append(([(number, c) for c in colours], [number] * holes))
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.0)
    inf = highspy.kHighsInf
    value_mode = problem.objective == "value"

    def var(low: float, high: float, cost: float) -> int:
        h.addVar(low, high)
        index = h.getNumCol() - 1
        h.changeColIntegrality(index, highspy.HighsVarType.kInteger)
        h.changeColCost(index, cost)
        return index

    for _ in sets:  # columns 0..len(sets)-1: how many times each set is laid
        var(0, 2, 0)
    x: dict[tuple[int, int], int] = {}
    for number in range(1, n_max + 1):
        for colour in range(4):
            if problem.rack[number][colour]:
                cost = number if value_mode else 1
                x[(number, colour)] = var(0, problem.rack[number][colour], cost)
    rho = {v: var(0, inf, v if value_mode else 1) for v in range(1, n_max + 1)}
    cover: dict[tuple[int, int], list[int]] = {}
    slots: dict[int, dict[int, int]] = {}
    for index, (naturals, joker_numbers) in enumerate(sets):
        for face in naturals:
            cover.setdefault(face, []).append(index)
        for v in joker_numbers:
            slots.setdefault(v, {})
            slots[v][index] = slots[v].get(index, 0) + 1

    def row(low: float, high: float, terms: dict[int, float]) -> None:
        idx = np.array(list(terms), dtype=np.int32)
        val = np.array(list(terms.values()), dtype=np.float64)
        h.addRow(low, high, len(idx), idx, val)

    for number in range(1, n_max + 1):
        for colour in range(4):
            face = (number, colour)
            terms: dict[int, float] = {i: 1.0 for i in cover.get(face, [])}
            if face in x:
                terms[x[face]] = -1.0
            need = problem.table[number][colour]
            if terms:
                row(need, need, terms)
            elif need:
                return None
    table_slots: dict[int, float] = {}
    for v in range(1, n_max + 1):
        terms = {rho[v]: 1.0}
        for index, times in slots.get(v, {}).items():
            terms[index] = -float(times)
            table_slots[index] = table_slots.get(index, 0.0) + times
        row(-inf, 0, terms)  # rack jokers at v <= joker places at v
    row(-inf, problem.rack_jokers, {rho[v]: 1.0 for v in rho})
    table_row = dict(table_slots)
    for v in rho:
        table_row[rho[v]] = -1.0
    row(problem.table_jokers, problem.table_jokers, table_row)  # table jokers all placed
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    return round(h.getInfo().objective_function_value)


def greedy_play(
    rack: Sequence[Tile], table: Sequence[TableSet], rules: Rules
) -> tuple[list[TableSet], int] | None:
    """A plain player's play (tiles laid at the ends of sets, then new sets from the rack) and
    its value as the engine counts it, or ``None`` when it finds nothing."""
    new_table = list(table)
    left = [t for t in rack if not t.is_joker]
    changed = True
    while changed:
        changed = False
        for tile in list(left):
            for i, table_set in enumerate(new_table):
                for laid in (
                    [tile, *table_set.tiles],
                    [*table_set.tiles, tile],
                ):
                    try:
                        new = read_set(laid, rules, _meanings(laid, table_set))
                    except IllegalAction:
                        continue
                    new_table[i] = new
                    left.remove(tile)
                    changed = True
                    break
                if changed:
                    break
            if changed:
                break
    by_face = {(t.number, t.colour): t for t in left}
    used: set[Tile] = set()
    for colour in Colour:
        run: list[Tile] = []
        for number in range(1, rules.numbers + 2):
            tile = by_face.get((number, colour))
            if tile is not None and tile not in used:
                run.append(tile)
                continue
            if len(run) >= 3:
                new_table.append(read_set(run, rules))
                used.update(run)
            run = []
    for number in range(1, rules.numbers + 1):
        group = [
            by_face[(number, c)]
            for c in Colour
            if (number, c) in by_face and by_face[(number, c)] not in used
        ]
        if len(group) >= 3:
            new_table.append(read_set(group, rules))
            used.update(group)
    try:
        check = check_turn(rules, table, rack, new_table, opened=True)
    except IllegalAction:
        return None
    return new_table, check.value


def _meanings(tiles: Sequence[Tile], old: TableSet) -> list[JokerMeaning | None]:
    """Keep each joker's meaning when a tile is laid next to its set."""
    meanings = iter(old.jokers)
    return [next(meanings) for t in tiles if t.is_joker]
