"""The best play of a rack onto a table that may be reworked, found exactly.

`solve` answers: which tiles of the rack to play, and how to arrange the whole table afterwards,
so that every set is valid, every tile that was on the table stays there, and the tiles played
are worth the most (``objective="value"``) or are the most (``"count"``). With
``first_meld=True`` the table is left as it is and only new sets made from the rack count; they
must be worth at least ``rules.opening_min``.

>>> from rummykit.tiles import Rules, parse_table, parse_tiles, format_table
>>> best = solve(parse_tiles("r8 b5 y9"), parse_table("r5 r6 r7 | k5 y5 r5"), Rules())
>>> format_table(best.sets), best.value
('r5#1 b5 k5 y5 | r5 r6 r7 r8', 13)
>>> solve(parse_tiles("k10 k11 k12 r1"), (), Rules(), first_meld=True).value
33

Values: a natural is worth its number and a joker from the rack the number it stands for (as in
the spec's first meld). Among the best plays the solver keeps as many table sets untouched as it
can: it fixes the sets that a best arrangement leaves as they were, then tries to fix each other
set in turn, keeping it whenever the optimum stays reachable (so no single changed set could have
stayed as it was). Next come, as a last tie-break, the other objective (the most value among the
plays of most tiles, and the reverse), then the fewest jokers taken back.

Table jokers follow the engine's rule (`rummykit.tiles.turn`): a joker that is not freed keeps
standing for the same tile in a run, or for the same number in a group (where it may stand for
no colour in particular, or for its own colour); it is freed only by a rack tile it could stand
for, played in the same turn (for ``joker_retrieval="end_only"`` only a joker at the end of a run
or in a group), and a freed joker must go back on the table.

The arrangement is found by the dynamic program of `rummykit.tiles.solver_dp` over the numbers
(exact; positions met in play take about a millisecond), once for each way of freeing table
jokers, on the primary objective alone; the tie-break by the other objective is searched once,
for the final choice of untouched sets. The searches of one call share what they found on the
lowest numbers, where their positions agree. A count solution may come from the problem read
from the lowest number up (`rummykit.tiles.solver_dp.mirrored`); its arrangement is turned
back to the real numbers.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from typing import Literal

from rummykit.core import IllegalAction
from rummykit.tiles.model import JokerMeaning, TableSet, parse_table, read_set
from rummykit.tiles.rules import Colour, Rules, Tile, parse_tiles
from rummykit.tiles.solver_dp import (
    A3,
    COLOURS,
    SCALE,
    CountProblem,
    CountSolution,
    GroupStep,
    Memory,
    collector_paused,
    group_layout,
    solve_counts,
)

Objective = Literal["value", "count"]


@dataclass(frozen=True)
class Solution:
    """A play: the whole table after it, the rack tiles it plays and what they are worth.

    ``sets`` lists the table sets left untouched first (in their order), then the new or changed
    ones; it can be given as is to ``Play(table=...)``. ``value`` counts each played natural at
    its number and each played joker at the number it stands for; ``count`` is how many tiles are
    played; ``changed`` how many of the former table sets are no longer on the table as they
    were. With nothing to play, ``played`` is empty and ``sets`` is the table unchanged.
    """

    sets: tuple[TableSet, ...]
    played: tuple[Tile, ...]
    value: int
    count: int
    changed: int = 0

    @property
    def is_play(self) -> bool:
        """Whether the solution plays at least one tile."""
        return bool(self.played)

    def score(self, objective: Objective) -> int:
        """The objective's figure: ``value`` or ``count``."""
        return self.value if objective == "value" else self.count


# --------------------------------------------------------------------------------------------
# Preparing a position


@dataclass(frozen=True)
class _TableJoker:
    """A joker on the table: its set, position and meaning, and the tiles that may free it."""

    joker: Tile
    set_index: int
    meaning: JokerMeaning
    in_group: bool
    retrievable: bool
    colours: tuple[Colour, ...]


@dataclass(frozen=True)
class _Take:
    """Taking a table joker back with a rack tile (which goes where the joker was)."""

    joker: _TableJoker
    tile: Tile


@dataclass
class _Plan:
    """One way to play: which joker takes, which sets stay fixed, and the count solution."""

    takes: tuple[_Take, ...]
    fixed: frozenset[int]
    counts: CountSolution
    bonus_value: int
    bonus_count: int
    arranged: list[tuple[bool, list[Slot]]] | None = None


def _table_jokers(table: Sequence[TableSet], rules: Rules) -> list[_TableJoker]:
    out: list[_TableJoker] = []
    for index, table_set in enumerate(table):
        in_group = table_set.kind == "group"
        natural_colours = {t.colour for t in table_set.tiles if t.colour is not None}
        stated = {m.colour for m in table_set.jokers if m.colour is not None}
        for tile, (position, meaning) in table_set.joker_meanings().items():
            at_end = position in (0, len(table_set.tiles) - 1)
            retrievable = rules.joker_retrieval == "anywhere" or in_group or at_end
            if meaning.colour is not None:
                colours: tuple[Colour, ...] = (meaning.colour,)
            else:
                colours = tuple(c for c in Colour if c not in natural_colours and c not in stated)
            out.append(_TableJoker(tile, index, meaning, in_group, retrievable, colours))
    return out


def _take_choices(
    jokers: Sequence[_TableJoker], rack: Sequence[Tile]
) -> Iterator[tuple[_Take, ...]]:
    """Every way of taking table jokers back with rack tiles: keeping them all first.

    The jokers of one group are taken back all together or not at all (a group keeping a joker
    stays as it is, and one whose joker goes gets the rack tile in its place).
    """
    naturals: dict[tuple[int, Colour], list[Tile]] = defaultdict(list)
    for tile in rack:
        if tile.number is not None and tile.colour is not None:
            naturals[(tile.number, tile.colour)].append(tile)
    options: list[list[Tile | None]] = []
    for joker in jokers:
        choice: list[Tile | None] = [None]
        if joker.retrievable:
            for colour in joker.colours:
                tiles = naturals.get((joker.meaning.number, colour), [])
                choice.extend(tiles[:1])
        options.append(choice)
    for pick in product(*options):
        if len({t for t in pick if t is not None}) != sum(1 for t in pick if t is not None):
            continue
        yield tuple(
            _Take(joker, tile) for joker, tile in zip(jokers, pick, strict=True) if tile is not None
        )


def _grid(numbers: int) -> list[list[int]]:
    return [[0] * COLOURS for _ in range(numbers + 1)]


@dataclass
class _Position:
    """A position ready for the count solver, with the tiles behind every count."""

    rules: Rules
    table: tuple[TableSet, ...]
    rack: tuple[Tile, ...]
    jokers: list[_TableJoker]
    memory: Memory = field(default_factory=dict)

    def problem(
        self,
        takes: Sequence[_Take],
        fixed: frozenset[int],
        objective: Objective,
        target: int | None = None,
    ) -> tuple[CountProblem, int, int]:
        """The count problem for these joker takes and fixed sets, with the value and count
        the takes play by themselves (their rack tiles are mandatory in the problem)."""
        numbers = self.rules.numbers
        table, rack, kept = _grid(numbers), _grid(numbers), _grid(numbers)
        group_kept = [0] * (numbers + 1)
        group_fixed: list[list[int]] = [[] for _ in range(numbers + 1)]
        taken = {take.joker.joker: take for take in takes}
        used = {take.tile for take in takes}
        table_jokers = 0
        for index, table_set in enumerate(self.table):
            if index in fixed:
                continue
            for tile, meaning in zip(_jokers_of(table_set), table_set.jokers, strict=True):
                take = taken.get(tile)
                if take is None:
                    if table_set.kind == "run":
                        assert meaning.colour is not None
                        kept[meaning.number][meaning.colour] += 1
                    elif meaning.colour is None:
                        group_kept[meaning.number] += 1
                    else:
                        group_fixed[meaning.number].append(int(meaning.colour))
                else:
                    table_jokers += 1
                    assert take.tile.number is not None and take.tile.colour is not None
                    table[take.tile.number][take.tile.colour] += 1
            for tile in table_set.tiles:
                if tile.number is not None and tile.colour is not None:
                    table[tile.number][tile.colour] += 1
        rack_jokers = 0
        for tile in self.rack:
            if tile in used:
                continue
            if tile.number is None or tile.colour is None:
                rack_jokers += 1
            else:
                rack[tile.number][tile.colour] += 1
        bonus_value = sum(take.tile.number or 0 for take in takes)
        problem = CountProblem(
            numbers,
            table,
            rack,
            kept,
            rack_jokers,
            table_jokers,
            objective,
            0,
            target,
            group_kept,
            [tuple(sorted(f)) for f in group_fixed],
        )
        return problem, bonus_value, len(takes)


def _jokers_of(table_set: TableSet) -> list[Tile]:
    return [t for t in table_set.tiles if t.is_joker]


# --------------------------------------------------------------------------------------------
# Solving


def solve(
    rack: Iterable[Tile] | str,
    table: Iterable[TableSet] | str = (),
    rules: Rules | None = None,
    objective: Objective = "value",
    first_meld: bool = False,
    keep_table: bool = True,
) -> Solution:
    """The best play of ``rack`` onto ``table`` (see the module docstring).

    ``keep_table=False`` skips the choice among the best plays (untouched sets, then the other
    objective): the play has the same score, the table arranged as the search first found it,
    in about a third of the time on large tables with jokers (what a player needs; an analysis
    that wants only the optimum need not wait for it).

    Raises ``IllegalAction("bad_tiles")`` when a tile is not of these rules or appears twice.
    """
    rules = rules or Rules()
    rack_tiles = tuple(parse_tiles(rack) if isinstance(rack, str) else rack)
    table_sets = tuple(parse_table(table, rules) if isinstance(table, str) else table)
    if objective not in ("value", "count"):
        raise IllegalAction("bad_objective", objective=objective)
    every = [*rack_tiles, *(t for s in table_sets for t in s.tiles)]
    if len(set(every)) != len(every) or not all(rules.has_tile(t) for t in every):
        raise IllegalAction("bad_tiles", tiles=" ".join(t.code for t in every))
    if not rack_tiles:
        return Solution(table_sets, (), 0, 0)
    with collector_paused():
        if first_meld:
            return _solve_first_meld(rack_tiles, table_sets, rules, objective)
        position = _Position(rules, table_sets, rack_tiles, _table_jokers(table_sets, rules))
        plan = _best_plan(position, objective)
        if plan is None:
            return Solution(table_sets, (), 0, 0)
        if keep_table:
            plan = _fewest_changes(position, plan, objective)
        return _build(position, plan)


def lays_all(
    rack: Sequence[Tile], table: Sequence[TableSet], rules: Rules, first_meld: bool = False
) -> bool:
    """Whether some play lays every tile of ``rack`` (the player would go out).

    Cheaper than `solve`: the search keeps only the branches that can still lay everything.

    >>> from rummykit.tiles import parse_table, parse_tiles
    >>> lays_all(parse_tiles("r8 b5"), parse_table("r5 r6 r7 | k5 y5 r5"), Rules())
    True
    """
    rack, table = tuple(rack), tuple(table)
    if not rack:
        return False
    with collector_paused():
        return _lays_all(rack, table, rules, first_meld)


def _lays_all(
    rack: tuple[Tile, ...], table: tuple[TableSet, ...], rules: Rules, first_meld: bool
) -> bool:
    if first_meld:
        position = _Position(rules, (), rack, [])
        problem, _, _ = position.problem((), frozenset(), "count")
        problem = replace(
            problem,
            need_value=rules.opening_min,
            target=len(rack),
            ceiling=len(rack),
            tie_break=False,
        )
        found = solve_counts(problem)
        return found.feasible and found.primary >= len(rack)
    position = _Position(rules, table, rack, _table_jokers(table, rules))
    for takes in _take_choices(position.jokers, rack):
        problem, _, _ = position.problem(takes, frozenset(), "count")
        goal = len(rack) - len(takes)
        found = solve_counts(
            replace(problem, target=goal, ceiling=goal, tie_break=False), position.memory
        )
        if found.feasible and found.primary >= goal:
            return True
    return False


def _solve_first_meld(
    rack: tuple[Tile, ...], table: tuple[TableSet, ...], rules: Rules, objective: Objective
) -> Solution:
    position = _Position(rules, (), rack, [])
    problem, _, _ = position.problem((), frozenset(), objective)
    if objective == "count":
        problem = replace(problem, need_value=rules.opening_min)
    counts = solve_counts(problem)
    if not counts.feasible or counts.primary == 0:
        return Solution(table, (), 0, 0)
    built = _build(position, _Plan((), frozenset(), counts, 0, 0))
    if built.value < rules.opening_min:
        return Solution(table, (), 0, 0)
    return Solution((*table, *built.sets), built.played, built.value, built.count, 0)


def _solve_plan(
    position: _Position,
    takes: tuple[_Take, ...],
    fixed: frozenset[int],
    objective: Objective,
    target: int | None = None,
    tie_break: bool = True,
) -> _Plan | None:
    """Solve with these takes and fixed sets; the score includes the takes' own tiles.

    With a ``target`` (the optimum, known), any play reaching it ends the search; without
    ``tie_break`` only the primary objective counts."""
    problem, bonus_value, bonus_count = position.problem(takes, fixed, objective)
    bonus = _score(objective, bonus_value, bonus_count)
    problem = replace(problem, tie_break=tie_break)
    if target is not None:
        goal = target - bonus // SCALE
        problem = replace(problem, target=goal, ceiling=goal)
    counts = solve_counts(problem, position.memory)
    if not counts.feasible:
        return None
    return _Plan(takes, fixed, counts, bonus_value, bonus_count)


def _taken(takes: Iterable[_Take]) -> set[Tile]:
    return {take.joker.joker for take in takes}


def _score(objective: Objective, value: int, count: int) -> int:
    return value * SCALE + count if objective == "value" else count * SCALE + value


def _plan_score(plan: _Plan, objective: Objective) -> int:
    return plan.counts.score + _score(objective, plan.bonus_value, plan.bonus_count)


def _best_plan(position: _Position, objective: Objective) -> _Plan | None:
    """The best plan over every way of taking jokers back, on the primary objective only
    (the other one breaks ties at the end, see `_fewest_changes`); fewest takes on ties."""
    best: _Plan | None = None
    for takes in sorted(_take_choices(position.jokers, position.rack), key=len):
        plan = _solve_plan(position, takes, frozenset(), objective, tie_break=False)
        if plan is None:
            continue
        if best is None or _plan_score(plan, objective) > _plan_score(best, objective):
            best = plan
    if best is None or _plan_score(best, objective) // SCALE == 0:
        return None
    return best


def _fewest_changes(position: _Position, plan: _Plan, objective: Objective) -> _Plan:
    """Keep as many table sets untouched as the optimum allows (see the module docstring).

    The sets that the plan's arrangement leaves as they were can all stay fixed together; each
    other set is then tried in turn, fixed along with them, and kept fixed when the optimum is
    still reached (with the sets that the new arrangement leaves as they were). Last, with
    those sets fixed, the ways of taking jokers back that reach the optimum are solved again
    with ties broken by the other objective, and the best is kept (fewest takes on ties).
    """
    goal = _plan_score(plan, objective) // SCALE
    untouched = _unchanged_sets(position, plan)
    emptied = {take.joker.set_index for take in plan.takes}
    for index in range(len(position.table)):
        if index in untouched or index in emptied:
            continue
        trial = _solve_plan(
            position, plan.takes, untouched | {index}, objective, target=goal, tie_break=False
        )
        if trial is not None and _plan_score(trial, objective) // SCALE >= goal:
            plan = trial
            untouched = _unchanged_sets(position, trial)
    final = _solve_plan(position, plan.takes, untouched, objective, target=goal)
    assert final is not None and _plan_score(final, objective) // SCALE >= goal
    return final


def _unchanged_sets(position: _Position, plan: _Plan) -> frozenset[int]:
    """The table sets that the plan's arrangement has as they were (by faces and meanings).

    A set whose joker the plan takes back is never one of them, even when another table joker
    of the same meaning stands where that joker stood: the count steps do not tell kept jokers
    apart, but the set loses its own joker, so it cannot stay fixed."""
    built = _arrange(position, plan)
    found: Counter[tuple[object, ...]] = Counter(_signature(s) for s in built)
    out: set[int] = set(plan.fixed)
    emptied = {take.joker.set_index for take in plan.takes}
    for index, table_set in enumerate(position.table):
        if index in out or index in emptied:
            continue
        key = _signature_of_set(table_set)
        if found[key] > 0:
            found[key] -= 1
            out.add(index)
    return frozenset(out)


# --------------------------------------------------------------------------------------------
# From count steps back to tiles

Kind = Literal["natural", "kept", "group_kept", "group_fixed", "rack_joker", "table_joker"]
Slot = tuple[int, int | None, Kind]
"""One place in a set being built: number, colour (``None`` for a group's joker) and kind."""


@dataclass
class _OpenRun:
    pieces: list[Slot]  # from the top down
    anchored: bool

    @property
    def run_class(self) -> int:
        length = min(len(self.pieces), 3) - 1
        return length if self.anchored else 3 + length


def _arrange(position: _Position, plan: _Plan) -> list[tuple[bool, list[Slot]]]:
    """The new sets of the plan's arrangement (fixed sets left out) as ``(is_group, slots)``,
    runs in ascending order."""
    if plan.arranged is None:
        plan.arranged = _arrange_steps(plan)
        mirror = plan.counts.mirror
        if mirror:
            # Steps of the mirrored problem: number n stands for mirror + 1 - n, so every run
            # comes out descending and is turned round.
            plan.arranged = [
                (
                    is_group,
                    [(mirror + 1 - n, c, kind) for n, c, kind in slots[:: 1 if is_group else -1]],
                )
                for is_group, slots in plan.arranged
            ]
    return [(is_group, list(slots)) for is_group, slots in plan.arranged]


def _arrange_steps(plan: _Plan) -> list[tuple[bool, list[Slot]]]:
    runs: list[list[_OpenRun]] = [[] for _ in range(COLOURS)]
    done: list[tuple[bool, list[Slot]]] = []
    for step in plan.counts.steps:
        if isinstance(step, GroupStep):
            done.extend(_groups(step))
            continue
        n, c, move = step.number, step.colour, step.move
        by_class: dict[int, list[_OpenRun]] = defaultdict(list)
        for run in runs[c]:
            by_class[run.run_class].append(run)
        ending = by_class[A3][: move.ends]
        by_class[A3] = by_class[A3][move.ends :]
        done.extend((False, run.pieces[::-1]) for run in ending)
        still: list[_OpenRun] = []
        joker_slots: list[tuple[int, list[Slot], int]] = []
        for cls, (nat, kep, jok) in enumerate(move.cont):
            members = by_class[cls]
            assert len(members) == nat + kep + jok
            for i, run in enumerate(members):
                if i < nat:
                    run.pieces.append((n, c, "natural"))
                    run.anchored = True
                elif i < nat + kep:
                    run.pieces.append((n, c, "kept"))
                else:
                    run.pieces.append((n, c, "table_joker"))
                    joker_slots.append((0, run.pieces, len(run.pieces) - 1))
                still.append(run)
        for kept_start, tops in move.new:
            pieces: list[Slot] = []
            for p in range(tops, 0, -1):
                pieces.append((n + p, c, "table_joker"))
                joker_slots.append((p, pieces, len(pieces) - 1))
            pieces.append((n, c, "kept" if kept_start else "natural"))
            still.append(_OpenRun(pieces, not kept_start))
        # The rack's jokers take the highest places (they count what they stand for).
        joker_slots.sort(key=lambda slot: -slot[0])
        for _, pieces, index in joker_slots[: step.rack_jokers]:
            number, colour, _ = pieces[index]
            pieces[index] = (number, colour, "rack_joker")
        runs[c] = still
    for open_runs in runs:
        done.extend((False, run.pieces[::-1]) for run in open_runs)
    return done


def _groups(step: GroupStep) -> list[tuple[bool, list[Slot]]]:
    """``step.groups`` groups from the naturals of each colour and the jokers of the step."""
    n = step.number
    wild: list[Kind] = ["rack_joker"] * step.rack_jokers
    wild += ["table_joker"] * (step.jokers - step.rack_jokers)
    wild += ["group_kept"] * step.kept_jokers
    groups: list[list[Slot]] = [[] for _ in range(step.groups)]
    if step.fixed_jokers:
        layout = group_layout(step.groups, step.naturals, len(wild), step.fixed_jokers)
        assert layout is not None
        for group, (colours, jokers, fixed) in zip(groups, layout, strict=True):
            group.extend((n, colour, "natural") for colour in colours)
            group.extend((n, colour, "group_fixed") for colour in fixed)
            group.extend((n, None, wild.pop(0)) for _ in range(jokers))
        return [(True, g) for g in groups]
    order = sorted(range(COLOURS), key=lambda c: -step.naturals[c])
    for colour in order:
        targets = sorted(range(step.groups), key=lambda g: len(groups[g]))
        for g in targets[: step.naturals[colour]]:
            groups[g].append((n, colour, "natural"))
    for kind in wild:
        short = [g for g in groups if len(g) < 3] or [g for g in groups if len(g) < 4]
        min(short, key=len).append((n, None, kind))
    return [(True, g) for g in groups]


def _signature(built: tuple[bool, list[Slot]]) -> tuple[object, ...]:
    is_group, slots = built
    if any(kind in ("rack_joker", "table_joker") for _, _, kind in slots):
        return ("free", id(slots))  # a freed or rack joker: never a former set
    if is_group:
        faces = sorted(
            (c, kind == "group_fixed") if kind != "group_kept" else (-1, False)
            for _, c, kind in slots
        )
        return ("group", slots[0][0], tuple(faces))
    return ("run", tuple((n, c, kind == "kept") for n, c, kind in slots))


def _signature_of_set(table_set: TableSet) -> tuple[object, ...]:
    if table_set.kind == "group":
        faces: list[tuple[int, bool]] = []
        jokers = iter(table_set.jokers)
        for tile in table_set.tiles:
            if tile.colour is not None:
                faces.append((int(tile.colour), False))
            else:
                meaning = next(jokers)
                faces.append((-1, False) if meaning.colour is None else (int(meaning.colour), True))
        return ("group", table_set.meanings()[0][0], tuple(sorted(faces)))
    run: list[tuple[int, int | None, bool]] = []
    for tile, (number, colour) in zip(table_set.tiles, table_set.meanings(), strict=True):
        assert colour is not None
        run.append((number, int(colour), tile.is_joker))
    return ("run", tuple(run))


def _build(position: _Position, plan: _Plan) -> Solution:
    """Turn the plan into sets of real tiles, reusing the former sets that are left as they
    were, and check every set with the shared validator."""
    rules = position.rules
    built = _arrange(position, plan)
    taken = {take.joker.joker: take for take in plan.takes}
    take_tiles = {take.tile for take in plan.takes}
    # Tiles available for each face: the table's first (they must all be placed), then the rack's.
    naturals: dict[tuple[int, int], list[Tile]] = defaultdict(list)
    kept: dict[tuple[int, int], list[Tile]] = defaultdict(list)
    freed: list[Tile] = []
    rack_naturals: dict[tuple[int, int], list[Tile]] = defaultdict(list)
    for index, table_set in enumerate(position.table):
        if index in plan.fixed:
            continue
        for tile, meaning in zip(_jokers_of(table_set), table_set.jokers, strict=True):
            if tile in taken:
                freed.append(tile)
            else:
                kept[_kept_key(table_set.kind, meaning)].append(tile)
        for tile in table_set.tiles:
            if tile.number is not None and tile.colour is not None:
                naturals[(tile.number, int(tile.colour))].append(tile)
    for take in plan.takes:
        tile = take.tile
        assert tile.number is not None and tile.colour is not None
        naturals[(tile.number, int(tile.colour))].append(tile)
    rack_jokers = [t for t in position.rack if t.is_joker]
    for tile in sorted(position.rack, key=lambda t: t.sort_key):
        if tile.number is not None and tile.colour is not None and tile not in take_tiles:
            rack_naturals[(tile.number, int(tile.colour))].append(tile)
    for face, tiles in rack_naturals.items():
        naturals[face].extend(tiles)

    # Sets that look exactly like a former set take that set's own tiles.
    former: dict[tuple[object, ...], list[int]] = defaultdict(list)
    for index, table_set in enumerate(position.table):
        if index not in plan.fixed and not any(t in taken for t in table_set.tiles):
            former[_signature_of_set(table_set)].append(index)
    chosen: list[tuple[TableSet | None, bool, list[Slot]]] = []
    for is_group, slots in built:
        match = former.get(_signature((is_group, slots)))
        if match:
            original = position.table[match.pop(0)]
            for tile in original.tiles:
                if tile.is_joker:
                    _remove(kept, tile)
                else:
                    assert tile.number is not None and tile.colour is not None
                    naturals[(tile.number, int(tile.colour))].remove(tile)
            chosen.append((original, is_group, slots))
        else:
            chosen.append((None, is_group, slots))

    result: list[TableSet] = [s for i, s in enumerate(position.table) if i in plan.fixed]
    kept_sets = [original for original, _, _ in chosen if original is not None]
    fresh = [(is_group, slots) for original, is_group, slots in chosen if original is None]
    owner: dict[Tile, int] = {}
    for index in (i for ids in former.values() for i in ids):
        for tile in position.table[index].tiles:
            owner[tile] = index
    prefer = _closest_former(position, fresh, [i for ids in former.values() for i in ids])
    # First every new set takes, face by face, the tiles of the former set closest to it; then
    # the other table tiles (they must all be placed), then the rack's.
    picked: list[list[Tile | None]] = []
    for (_, slots), preferred in zip(fresh, prefer, strict=True):
        row: list[Tile | None] = []
        for number, colour, kind in slots:
            pool = naturals if kind == "natural" else kept if kind == "kept" else None
            owned: Tile | None = None
            if kind in ("group_kept", "group_fixed") and preferred is not None:
                owned = _take_owned(kept[_slot_key(number, colour, kind)], owner, preferred)
            elif pool is not None and colour is not None and preferred is not None:
                owned = _take_owned(pool[(number, colour)], owner, preferred)
            row.append(owned)
        picked.append(row)
    new_sets: list[TableSet] = []
    played: list[Tile] = []
    rack_set = set(position.rack)
    for (is_group, slots), row in zip(fresh, picked, strict=True):
        tiles = []
        meanings: list[JokerMeaning | None] = []
        for (number, colour, kind), chosen_tile in zip(slots, row, strict=True):
            if chosen_tile is not None:
                tile = chosen_tile
            elif kind in ("group_kept", "group_fixed"):
                tile = kept[_slot_key(number, colour, kind)].pop(0)
            elif kind in ("natural", "kept"):
                assert colour is not None
                pool = naturals if kind == "natural" else kept
                tile = _pick(pool[(number, colour)], rack_set)
            elif kind == "rack_joker":
                tile = rack_jokers.pop(0)
            else:
                tile = freed.pop(0)
            if tile.is_joker:
                stands = None if colour is None or is_group else Colour(colour)
                meanings.append(JokerMeaning(number, stands))
            if tile in rack_set:
                played.append(tile)
            tiles.append(tile)
        new_sets.append(read_set(tiles, rules, meanings))
    if (
        freed
        or any(kept.values())
        or any(t not in rack_set for tiles in naturals.values() for t in tiles)
    ):
        raise AssertionError("the arrangement does not place every table tile")
    order = {tile: i for i, tile in enumerate(position.rack)}
    played.sort(key=lambda t: order[t])
    sets = tuple(result + kept_sets + new_sets)
    value = sum(_meaning_value(t, sets) for t in played)
    unchanged = len(result) + len(kept_sets)
    return Solution(sets, tuple(played), value, len(played), len(position.table) - unchanged)


def _closest_former(
    position: _Position, fresh: Sequence[tuple[bool, list[Slot]]], candidates: Sequence[int]
) -> list[int | None]:
    """For each new set, the former set it shares the most faces with (each former set at most
    once), so that tiles stay together where they can."""
    faces = [
        Counter((n, c) for n, c, kind in slots if kind == "natural" and c is not None)
        for _, slots in fresh
    ]
    former_faces = {
        i: Counter(
            (t.number, int(t.colour))
            for t in position.table[i].tiles
            if t.number is not None and t.colour is not None
        )
        for i in candidates
    }
    pairs = sorted(
        (
            (-sum((faces[j] & former_faces[i]).values()), j, i)
            for j in range(len(fresh))
            for i in candidates
        ),
    )
    out: list[int | None] = [None] * len(fresh)
    taken: set[int] = set()
    for overlap, j, i in pairs:
        if overlap == 0:
            break
        if out[j] is None and i not in taken:
            out[j] = i
            taken.add(i)
    return out


def _kept_key(kind: str, meaning: JokerMeaning) -> tuple[int, int]:
    """Where a kept table joker waits for its place: by number and colour for a run joker, by
    number (and its colour, if it stands for one) for a group joker."""
    if kind == "run":
        assert meaning.colour is not None
        return (meaning.number, int(meaning.colour))
    return (meaning.number, -1 if meaning.colour is None else 10 + int(meaning.colour))


def _slot_key(number: int, colour: int | None, kind: Kind) -> tuple[int, int]:
    if kind == "group_kept":
        return (number, -1)
    assert colour is not None
    return (number, 10 + colour) if kind == "group_fixed" else (number, colour)


def _take_owned(pool: list[Tile], owner: dict[Tile, int], preferred: int) -> Tile | None:
    for i, tile in enumerate(pool):
        if owner.get(tile) == preferred:
            return pool.pop(i)
    return None


def _pick(pool: list[Tile], rack: set[Tile]) -> Tile:
    """A table tile while any is left (they must all be placed), else a rack tile."""
    for i, tile in enumerate(pool):
        if tile not in rack:
            return pool.pop(i)
    return pool.pop(0)


def _remove(pool: dict[tuple[int, int], list[Tile]], tile: Tile) -> None:
    for tiles in pool.values():
        if tile in tiles:
            tiles.remove(tile)
            return
    raise AssertionError(f"{tile} is not available")


def _meaning_value(tile: Tile, sets: Sequence[TableSet]) -> int:
    """What a played tile counts: its number, or for a joker the number it stands for."""
    if tile.number is not None:
        return tile.number
    for table_set in sets:
        for joker, (_, meaning) in table_set.joker_meanings().items():
            if joker == tile:
                return meaning.number
    raise AssertionError(f"{tile} is not on the table")
