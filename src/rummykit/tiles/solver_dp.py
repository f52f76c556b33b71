"""The exact dynamic program behind the tile-rummy solver, on plain counts of pieces.

This module knows nothing of tile identities: it sees, for every number ``n`` and colour ``c``,
how many natural pieces lie on the table (they must all be placed again), how many wait on the
rack (each may be played or kept), and how many table jokers keep standing for ``(n, c)``; plus
how many free jokers there are (from the rack: optional; freed from the table: mandatory). It
finds the arrangement of every mandatory piece and a best choice of optional ones into valid sets
(runs of 3 or more consecutive numbers of one colour, groups of 3 or 4 pieces of one number in
distinct colours, each set holding at least one natural tile).

The method is the one of van Rijn, Takes and Vis ("The complexity of Rummikub problems", 2015):
scan the numbers (here from the highest down) keeping, per colour, how many runs are in progress
and how long each is so far (1, 2, or 3 and more). At each number, each run in progress either
takes a piece of its colour (a natural, a kept table joker or a free joker) or, if it is at least
3 long, ends; new runs may start; the pieces left over go into groups of that number or stay on
the rack. A run that starts with a natural may carry free jokers above it (``* r5 r6`` is the run
5..7 started at 6 with a joker on top), so every run holds a natural; a run that starts with a
kept table joker is tracked as "unanchored" until a natural joins it.

Colours are processed one at a time within a number (a profile dynamic program), with the number
of groups ``k`` at that number fixed first; the groups then need only the running total of
naturals put into them. Free jokers are two counters: rack jokers, valued at the number they stand
for, and freed table jokers, which must all be placed and score nothing.

The scores are integers ``primary * SCALE + secondary`` so that ties on the primary objective
(value or tile count) are broken by the other one.

Two searches walk these moves. Breadth first, the numbers are scanned keeping every state of a
number but the dominated ones; with a target, the states that cannot reach it are dropped too.
Without free jokers there are few states (some forty per number on a table of 60 tiles), but
free jokers multiply them (a joker lets runs live across gaps, so every colour keeps many more
shapes of runs: two rack jokers on such a table gave about a thousand). Depth first, with branch
and bound and a memory per number, stage and state, the moves of most gain are tried first, what
is still to come is bounded by the rack pieces left (with ties broken, also by the best
secondary scores those pieces allow), and the search stops at the first play that reaches the
bound. Free jokers without a target go depth first within a budget of stages; past it, a narrow
breadth-first scan (the best few states per number; eight times as many if those all die out)
finds a good play, and the exact scan, with a target one above that play, proves that nothing
beats it or finds what does: a target above the optimum lets it drop nearly every state within a
few numbers, where one that some play reaches keeps them all. Before each state is searched, its
runs in progress must be able to reach three pieces with the pieces below and the jokers in
hand.

A scan with a target drops what cannot reach it only once it has met the rack pieces that
cannot all be played, so when those lie low it keeps nearly every state down to them. For the
most tiles (a tile counts one whatever its number) the problem read from the lowest number up
has the same optimum: scans with a target then run both ways at once, a number at a time to the
one that has spent less, and the first to finish answers (`_race`). Where any play reaching the
target is a best one, a narrow scan looks for such a play first; until it drops a state its
states are the exact scan's, which starts from them when it must run after all (and ends at
once when the narrow scan died out before dropping anything).
"""

from __future__ import annotations

import gc
import heapq
import math
import sys
import time
from bisect import bisect_right
from collections.abc import Generator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, product
from typing import Any, Literal, NamedTuple

Objective = Literal["value", "count"]

SCALE = 1 << 20
"""Weight of the primary objective in a score; the secondary objective stays below it."""
NEG = -(1 << 62)
"""The score of an impossible arrangement."""

COLOURS = 4
MAX_GROUP = 4

# Run classes: anchored (holding a natural) of length 1, 2, 3+; unanchored of length 1, 2, 3+.
A1, A2, A3, U1, U2, U3 = range(6)
_AFTER_NATURAL = (A2, A3, A3, A2, A3, A3)
_AFTER_JOKER = (A2, A3, A3, U2, U3, U3)

_STATE_BITS = 10
_STATE_MASK = (1 << _STATE_BITS) - 1
_S_SHIFT = COLOURS * _STATE_BITS
_JR_SHIFT = _S_SHIFT + 12
_S_MASK = (1 << 12) - 1
_JT_SHIFT = _JR_SHIFT + 4
_NEED_SHIFT = _JT_SHIFT + 4


# --------------------------------------------------------------------------------------------
# Per-colour states and what one colour may do at one number


_STATES: list[tuple[int, ...]] = [(0, 0, 0, 0, 0, 0)]
_STATE_IDS: dict[tuple[int, ...], int] = {_STATES[0]: 0}
_NEEDS: list[tuple[int, int]] = [(0, 0)]
"""Per state: how many runs need a piece at the next number, and how many at the one after."""


def _state_id(counts: tuple[int, ...]) -> int:
    found = _STATE_IDS.get(counts)
    if found is None:
        found = len(_STATES)
        if found > _STATE_MASK:  # pragma: no cover - needs absurdly many runs of one colour
            raise OverflowError("too many run states")
        _STATES.append(counts)
        _STATE_IDS[counts] = found
        _NEEDS.append((sum(counts) - counts[A3], counts[A1] + counts[U1]))
    return found


@lru_cache(maxsize=4096)
def _upgrades(state: int) -> tuple[int, ...]:
    """States that are at least as good as ``state`` with the same score: one run longer, one
    run anchored, or one more run that may end at once."""
    counts = _STATES[state]
    out: list[int] = []
    for low, high in (
        (A1, A2),
        (A2, A3),
        (A1, A3),
        (U1, U2),
        (U2, U3),
        (U1, A1),
        (U2, A2),
        (U3, A3),
    ):
        if counts[low]:
            better = list(counts)
            better[low] -= 1
            better[high] += 1
            out.append(_state_id(tuple(better)))
    more = list(counts)
    more[A3] += 1
    out.append(_state_id(tuple(more)))
    return tuple(out)


def _closable(state: int) -> bool:
    """Whether every run in progress may end here (all anchored and at least 3 long)."""
    counts = _STATES[state]
    return sum(counts) == counts[A3]


class Move(NamedTuple):
    """What the runs of one colour do at one number.

    ``cont[i]`` gives, for the runs of class ``i`` that continue, how many take a natural, a kept
    joker and a free joker; ``ends`` runs of class A3 end (their last piece was the number above);
    ``new`` lists the runs that start here: ``(starts_with_kept_joker, free_jokers_on_top)``.
    """

    ends: int
    cont: tuple[tuple[int, int, int], ...]
    new: tuple[tuple[bool, int], ...]


class Option(NamedTuple):
    """One way for a colour to go through one number: the resulting state, the naturals the runs
    use, the free jokers they use with their heights above the number (highest first)."""

    state: int
    naturals: int
    jokers: int
    slots: tuple[int, ...]
    move: Move


@lru_cache(maxsize=65536)
def colour_options(
    state: int, naturals: int, kept: int, jokers: int, top: int
) -> tuple[Option, ...]:
    """Every way the runs of one colour can take the pieces of one number.

    ``naturals`` pieces are available (table and rack), ``kept`` table jokers standing for this
    number and colour must all go into runs, at most ``jokers`` free jokers may be used, and runs
    may rise at most ``top`` numbers above this one. Dominated options are dropped: a run that
    ends while a new run starts from a natural could simply have continued.
    """
    counts = _STATES[state]
    found: dict[tuple[int, int, int], list[Option]] = {}
    conts: list[tuple[int, int, int]] = [(0, 0, 0)] * 6

    def classes(
        i: int, used_nat: int, used_kept: int, used_jok: int, ends: int, nxt: list[int]
    ) -> None:
        if i == 6:
            starts(used_nat, used_kept, used_jok, ends, nxt)
            return
        have = counts[i]
        if not have:
            conts[i] = (0, 0, 0)
            classes(i + 1, used_nat, used_kept, used_jok, ends, nxt)
            return
        for end in range(have + 1 if i == A3 else 1):
            going = have - end
            for nat in range(min(going, naturals - used_nat) + 1):
                for kep in range(min(going - nat, kept - used_kept) + 1):
                    jok = going - nat - kep
                    if used_jok + jok > jokers:
                        continue
                    after = nxt.copy()
                    after[_AFTER_NATURAL[i]] += nat
                    after[_AFTER_JOKER[i]] += kep + jok
                    conts[i] = (nat, kep, jok)
                    classes(
                        i + 1, used_nat + nat, used_kept + kep, used_jok + jok, ends + end, after
                    )

    def starts(used_nat: int, used_kept: int, used_jok: int, ends: int, nxt: list[int]) -> None:
        spare = jokers - used_jok
        height = min(top, spare)
        must_kept = kept - used_kept
        kept_tops = list(_tops(must_kept, height, spare))
        for new_nat in range(naturals - used_nat + 1):
            for nat_tops in _tops(new_nat, height, spare):
                if ends and 0 in nat_tops:
                    continue
                left = spare - sum(nat_tops)
                for kep_tops in kept_tops:
                    if sum(kep_tops) > left:
                        continue
                    after = nxt.copy()
                    slots: list[int] = [0] * (jokers - spare)
                    for p in nat_tops:
                        after[min(p, 2)] += 1
                        slots.extend(range(1, p + 1))
                    for p in kep_tops:
                        after[U1 + min(p, 2)] += 1
                        slots.extend(range(1, p + 1))
                    slots.sort(reverse=True)
                    move = Move(
                        ends,
                        tuple(conts),
                        tuple((False, p) for p in nat_tops) + tuple((True, p) for p in kep_tops),
                    )
                    option = Option(
                        _state_id(tuple(after)),
                        used_nat + new_nat,
                        len(slots),
                        tuple(slots),
                        move,
                    )
                    _keep(found, option)

    classes(0, 0, 0, 0, 0, [0] * 6)
    return tuple(option for options in found.values() for option in options)


def _tops(runs: int, height: int, spare: int) -> list[tuple[int, ...]]:
    """The ways to put free jokers on top of ``runs`` new runs (each at most ``height``)."""
    return [
        tops
        for tops in combinations_with_replacement(range(height + 1), runs)
        if sum(tops) <= spare
    ]


def _keep(found: dict[tuple[int, int, int], list[Option]], option: Option) -> None:
    """Keep ``option`` unless another with the same effect has joker slots at least as high."""
    key = (option.state, option.naturals, option.jokers)
    kept = found.setdefault(key, [])
    for i, other in enumerate(kept):
        if _dominates(other.slots, option.slots):
            return
        if _dominates(option.slots, other.slots):
            kept[i] = option
            kept[:] = [o for o in kept if o is option or not _dominates(option.slots, o.slots)]
            return
    kept.append(option)


def _dominates(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    total_a = total_b = 0
    for x, y in zip(a, b, strict=True):
        total_a += x
        total_b += y
        if total_a < total_b:
            return False
    return True


# --------------------------------------------------------------------------------------------
# The problem and its solution


@dataclass(frozen=True)
class CountProblem:
    """A position as counts. Index ``[n][c]`` for ``n`` in ``1..numbers`` (row 0 is unused).

    ``table``: natural pieces that must be placed; ``rack``: natural pieces that may be;
    ``kept``: table jokers that keep standing for ``(n, c)`` (placed in runs only);
    ``rack_jokers``: optional free jokers, worth what they stand for; ``table_jokers``: free
    jokers that must be placed and score nothing; ``need_value``: the rack pieces played must be
    worth at least this much; ``target``: only plays whose primary objective reaches it matter
    (a bound that lets the search drop hopeless branches; ``None`` keeps everything).
    ``group_kept[n]``: table jokers that keep standing for "an ``n``" and must go into a group
    of ``n``; ``group_fixed[n]``: the colours of table jokers standing for one colour of ``n``
    in a group, which must stay in a group of ``n`` where they stand for that colour or for no
    colour in particular (both empty: none). ``tie_break``: whether ties on the primary
    objective are broken by the other one (else the secondary part of the score is 0).
    ``ceiling``: a primary score known to be out of reach beyond (the search stops at the first
    play reaching it; ``None``: no such knowledge).
    """

    numbers: int
    table: Sequence[Sequence[int]]
    rack: Sequence[Sequence[int]]
    kept: Sequence[Sequence[int]]
    rack_jokers: int = 0
    table_jokers: int = 0
    objective: Objective = "value"
    need_value: int = 0
    target: int | None = None
    group_kept: Sequence[int] = ()
    group_fixed: Sequence[Sequence[int]] = ()
    tie_break: bool = True
    ceiling: int | None = None


@dataclass(frozen=True)
class GroupStep:
    """The groups at one number: how many, the naturals of each colour in them, the free
    jokers in them (how many come from the rack) and the table jokers kept in groups."""

    number: int
    groups: int
    naturals: tuple[int, ...]
    jokers: int
    rack_jokers: int
    kept_jokers: int = 0
    fixed_jokers: tuple[int, ...] = ()


@dataclass(frozen=True)
class ColourStep:
    """What one colour does at one number: the run move, for its free jokers how many come from
    the rack (they take the highest slots), and how many naturals go into groups."""

    number: int
    colour: int
    move: Move
    slots: tuple[int, ...]
    rack_jokers: int
    grouped: int


@dataclass(frozen=True)
class CountSolution:
    """The best score (``NEG`` when no arrangement places every mandatory piece) and the steps
    that reach it, from the highest number down."""

    score: int
    steps: tuple[ColourStep | GroupStep, ...]
    mirror: int = 0
    """Nonzero when the steps are those of the mirrored problem (`mirrored`): their number n
    stands for ``mirror + 1 - n``, and they run from the lowest number up."""

    @property
    def feasible(self) -> bool:
        return self.score > NEG

    @property
    def primary(self) -> int:
        return self.score // SCALE

    @property
    def secondary(self) -> int:
        return self.score % SCALE


Memory = dict[object, dict[int, Any]]
"""What searches found, by the numbers up to which positions agree (see `solve_counts`)."""


def solve_counts(problem: CountProblem, memory: Memory | None = None) -> CountSolution:
    """The best arrangement of ``problem``, exactly (see the module docstring).

    With a target, or without free jokers, the numbers are scanned breadth first
    (`_solve_wide`). Without a target, free jokers are searched depth first (`_solve_deep`),
    which finds a play that reaches its bound without building every state; past `DEEP_BUDGET`
    stages a narrow scan finds a good play and the breadth-first scan only proves that nothing
    beats it (`_solve_free`). ``memory`` lets searches of positions that agree on the lowest or
    on the highest numbers (the same rack and table but for some sets kept aside) share what
    they found there; it may be any dict, kept for as long as such positions are solved.
    """
    with collector_paused():
        if not problem.rack_jokers + problem.table_jokers or problem.target is not None:
            return _solve_wide(problem, memory)
        if problem.tie_break:
            try:
                return _solve_deep(problem, memory, DEEP_BUDGET)
            except _OverBudget:
                return _solve_wide(problem, memory)
        return _solve_free(problem, memory)


DEEP_BUDGET = 3000
"""Stages the depth-first search may expand before the breadth-first scans take over."""
BEAM = 16
"""Entries kept after each number by the narrow scan that looks for a good play first."""
WIDEN = 4
"""How many times `BEAM` entries the narrow scan keeps after each colour within a number."""
WIDER = 8
"""How many times `BEAM` entries a second narrow scan keeps when the first one died out."""


class _OverBudget(Exception):
    """The depth-first search has expanded more stages than it is worth."""


def _solve_free(problem: CountProblem, memory: Memory | None) -> CountSolution:
    """Free jokers, no target, ties unbroken: depth first within a budget, then a good play
    and a proof that nothing beats it.

    Free jokers let every colour keep many more shapes of runs (two rack jokers on a table of
    60 tiles: about a thousand entries per number against some forty without), and a scan
    that must reach a score some play reaches keeps nearly all of them, since a bound from the
    rack pieces left cannot tell them apart; one that asks for more than the optimum mostly
    dies out within a few numbers. So a narrow scan (`BEAM` entries per number, the best
    scores with the rack jokers in hand counted) finds a play: when it reaches the ceiling
    (every rack piece played, jokers at their best) it is the answer, and otherwise the exact
    scan looks only for a better one, with a target one above it.

    A narrow scan can die out (every entry it kept had runs that the numbers below could not
    finish): a wider one is tried before the exact scan without a target, which keeps every
    state. On the bench's 200 two-rack-joker positions, 6 of the 248 narrow scans run for
    both objectives, with and without `keep_table`, died out; on the slowest position the
    exact scan took 150 ms, the wider one 44 ms.
    """
    try:
        return _solve_deep(problem, memory, DEEP_BUDGET)
    except _OverBudget:
        pass
    quick = _solve(problem, BEAM)
    if not quick.feasible:
        quick = _solve(problem, BEAM * WIDER)
    if not quick.feasible:
        return _solve(problem, memory=memory)
    if quick.primary >= _ceiling(problem):
        return quick
    # A scan with a target may end on a play below it, when none reaches it.
    better = replace(problem, target=quick.primary + 1)
    found = _race(better, memory) if _mirror_helps(better) else _solve(better, memory=memory)
    return found if found.feasible and found.primary > quick.primary else quick


def _ceiling(problem: CountProblem) -> int:
    """The primary score of every rack piece played, rack jokers at their best."""
    if problem.ceiling is not None:
        return problem.ceiling
    pieces = sum(sum(row) for row in problem.rack[1:])
    if problem.objective == "count":
        return pieces + problem.rack_jokers
    value = sum(n * sum(problem.rack[n]) for n in range(1, problem.numbers + 1))
    return value + problem.rack_jokers * problem.numbers


def _narrow(
    layer: dict[int, tuple[int, object]], beam: int, joker_worth: int
) -> dict[int, tuple[int, object]]:
    """The ``beam`` entries of ``layer`` with the best score, each rack joker in hand counted
    at ``joker_worth``."""

    def promise(item: tuple[int, tuple[int, object]]) -> int:
        return item[1][0] + ((item[0] >> _JR_SHIFT) & 15) * joker_worth

    return dict(heapq.nlargest(beam, layer.items(), key=promise))


def _solve_wide(problem: CountProblem, memory: Memory | None = None) -> CountSolution:
    """Breadth first: without a target, the primary optimum is found first, ties left unbroken
    (states merge far more), then the scan runs again with ties broken and that optimum as its
    target, which lets it drop every branch that cannot reach it."""
    if problem.target is not None and _reached_is_best(problem):
        # Any play that reaches the ceiling is a best one: a narrow scan finds one quickly when
        # there is one, where the exact scan keeps every state that may still reach it.
        quick = _solve(problem, BEAM, memory)
        if quick.feasible and quick.primary >= problem.target:
            return quick
    if problem.target is not None or not problem.tie_break:
        if problem.target is not None and _mirror_helps(problem):
            return _race(problem, memory)
        return _solve(problem, memory=memory)
    first = _solve(replace(problem, tie_break=False), memory=memory)
    if not first.feasible:
        return first
    found = _solve(replace(problem, target=first.primary), memory=memory)
    return found if found.feasible and found.primary == first.primary else first


def mirrored(problem: CountProblem) -> CountProblem:
    """The same problem with the numbers read the other way (n becomes ``numbers + 1 - n``).

    Runs and groups stay runs and groups, so the arrangements match one to one and the tile
    counts are the same; values are not (see `_race`)."""
    n_max = problem.numbers

    def flip(rows: Sequence[Any]) -> list[Any]:
        return [rows[0], *(rows[n_max + 1 - n] for n in range(1, n_max + 1))]

    return replace(
        problem,
        table=flip(problem.table),
        rack=flip(problem.rack),
        kept=flip(problem.kept),
        group_kept=flip(problem.group_kept) if problem.group_kept else (),
        group_fixed=flip(problem.group_fixed) if problem.group_fixed else (),
    )


def _mirror_helps(problem: CountProblem) -> bool:
    """Whether `_race` may scan ``problem`` both ways: the most tiles with a target, ties
    unbroken, free jokers in play (without them one scan is quick), no first-meld value to
    reach, and at most `MIRROR_ROOM` rack pieces left unplayed by the target."""
    if (
        problem.objective != "count"
        or problem.tie_break
        or problem.need_value
        or problem.target is None
        or not problem.rack_jokers + problem.table_jokers
    ):
        return False
    # A scan drops the states that have left more rack pieces unplayed than the target allows:
    # with little room, the first such pieces it meets decide, and the direction matters; with
    # much room (large puzzles: 50 and more) the states fall away alike both ways.
    pieces = sum(sum(row) for row in problem.rack[1:]) + problem.rack_jokers
    return pieces - problem.target <= MIRROR_ROOM


MIRROR_ROOM = 6
"""The most rack pieces a target may leave unplayed for `_race` to scan both ways."""
RACE = (True, True)
"""Which scans `_race` runs: the straight one, the mirrored one (both but in tests)."""


def _race(problem: CountProblem, memory: Memory | None = None) -> CountSolution:
    """The exact scan of ``problem`` run from both ends at once, one number at a time to
    whichever has spent less processor time, the first to finish giving the answer.

    With a target, a scan drops what cannot reach it only once it has met the rack pieces that
    cannot all be played, so a scan runs long when those lie at its far end: the scan from the
    lowest number up meets them first. Scanning both ways costs at most about twice the quicker
    one. Only for the most tiles without tie-breaks (`_mirror_helps`): a tile counts one
    whatever its number, so the mirrored problem has the same optimum."""
    straight, mirror = RACE
    scans = [_scan(problem, 0, memory), _scan(mirrored(problem), 0, memory)]
    spent = [0.0 if straight else math.inf, 0.0 if mirror else math.inf]
    while True:
        side = 0 if spent[0] <= spent[1] else 1
        began = time.process_time()
        try:
            next(scans[side])
        except StopIteration as done:
            scans[1 - side].close()
            solution: CountSolution = done.value
            if side and solution.feasible:
                return replace(solution, mirror=problem.numbers)
            return solution
        spent[side] += time.process_time() - began


def _reached_is_best(problem: CountProblem) -> bool:
    """Whether a play reaching the target is as good as any and worth looking for with a narrow
    scan first: the most tiles (for the most value it cost more than it saved, on positions
    with two rack jokers and on random ones), ties not broken, free jokers in play (without
    them the exact scan is quick) and the target is the ceiling."""
    return (
        problem.objective == "count"
        and not problem.tie_break
        and problem.rack_jokers + problem.table_jokers > 0
        and problem.target is not None
        and problem.ceiling is not None
        and problem.ceiling <= problem.target
    )


def _solve(problem: CountProblem, beam: int = 0, memory: Memory | None = None) -> CountSolution:
    """The breadth-first scan; with a ``beam``, only that many entries of the best promise are
    kept after each number (a quick play, not a proof: see `_solve_free`).

    The entries after number n depend only on the numbers from n up (and the two below it, for
    the look-ahead): with a ``memory``, a scan of a position that agrees with an earlier one
    there (the same but for a set kept aside lower down) starts from what that one found."""
    scan = _scan(problem, beam, memory)
    while True:
        try:
            next(scan)
        except StopIteration as done:
            solution: CountSolution = done.value
            return solution


def _scan(
    problem: CountProblem, beam: int = 0, memory: Memory | None = None
) -> Generator[None, None, CountSolution]:
    """`_solve`, one number at a time: it yields after each number and returns the solution."""
    n_max = problem.numbers
    value_mode = problem.objective == "value"
    tie_break = problem.tie_break
    need0 = problem.need_value
    target = problem.target
    # What the numbers up to n can still bring (for the target prune), and the pieces of each
    # colour at each number (for the look-ahead: a run in progress needs pieces below it).
    rest_value = [0] * (n_max + 1)
    rest_count = [0] * (n_max + 1)
    pieces = [[0] * COLOURS for _ in range(n_max + 1)]
    for n in range(1, n_max + 1):
        rest_value[n] = rest_value[n - 1] + n * sum(problem.rack[n])
        rest_count[n] = rest_count[n - 1] + sum(problem.rack[n])
        for c in range(COLOURS):
            pieces[n][c] = problem.table[n][c] + problem.rack[n][c] + problem.kept[n][c]
    pieces.append([0] * COLOURS)  # so that n - 2 may be read at n = 1 (as row -1)
    group_kept_of = list(problem.group_kept) or [0] * (n_max + 1)
    group_fixed_of = [tuple(f) for f in problem.group_fixed] or [()] * (n_max + 1)

    start = (problem.rack_jokers << _JR_SHIFT) | (problem.table_jokers << _JT_SHIFT)
    start |= need0 << _NEED_SHIFT
    layer: dict[int, tuple[int, object]] = {start: (0, None)}
    states_mask = (1 << _S_SHIFT) - 1
    need_mask = (1 << _NEED_SHIFT) - 1
    first = n_max
    # A narrow scan is exact until it first drops an entry: until then its layers (under its
    # own keys, ``keys[1]``) are the exact scan's too, and are also stored under the exact
    # scan's keys (``keys[0]``), where exact scans find them. It reads only its own keys, so
    # what it finds does not depend on the exact scans run before it.
    keys: list[list[object]] = [[None] * (n_max + 1), [None] * (n_max + 1)]
    own = keys[1 if beam else 0]
    exact = True
    if memory is not None:
        head = (
            n_max,
            problem.objective,
            tie_break,
            target,
            need0,
            problem.rack_jokers,
            problem.table_jokers,
            tuple(tuple(row) for row in problem.rack),
        )
        for narrow in (0, 1) if beam else (0,):
            chain: object = ("wide", beam if narrow else 0, head)
            for n in range(n_max, 0, -1):
                chain = (
                    chain,
                    tuple(problem.table[n]),
                    tuple(problem.kept[n]),
                    group_kept_of[n],
                    group_fixed_of[n],
                )
                keys[narrow][n] = (chain, tuple(pieces[n - 1]), tuple(pieces[n - 2]))
        for n in range(1, n_max + 1):
            cached = memory.get(own[n])
            if cached is not None:
                exact = memory.get(keys[0][n]) is cached
                if not cached:
                    return CountSolution(NEG, ())
                layer, first = cached, n - 1
                break

    for n in range(first, 0, -1):
        table_n = problem.table[n]
        rack_n = problem.rack[n]
        kept_n = problem.kept[n]
        group_kept = group_kept_of[n]
        group_fixed = group_fixed_of[n]
        vector = bool(group_fixed)  # the groups then need each colour's count, not the sum
        if (
            not any(pieces[n])
            and not group_kept
            and not group_fixed
            and all(key & states_mask == 0 for key in layer)
        ):
            continue
        top = n_max - n
        below1 = pieces[n - 1]
        below2 = pieces[n - 2] if n >= 2 else pieces[-1]
        avail = [table_n[c] + rack_n[c] for c in range(COLOURS)]
        total_nat = sum(avail)
        max_jokers = max(((key >> _JR_SHIFT) & 15) + ((key >> _JT_SHIFT) & 15) for key in layer)
        k_max = min(total_nat, (total_nat + max_jokers + group_kept + len(group_fixed)) // 3)
        bound = rest_value[n - 1] if value_mode else rest_count[n - 1]
        joker_bound = min(n_max, n + 3) if value_mode else 1
        # The least score an entry must have after colour c (rack jokers left aside) to keep a
        # chance of reaching the target: what the later colours here and the numbers below can
        # still bring is at most every rack piece they hold, and a joker at most n + 4.
        floors = [NEG] * COLOURS
        joker_floor = 0
        if target is not None:
            later = bound
            for c in range(COLOURS - 1, -1, -1):
                floors[c] = (target - later) * SCALE
                later += rack_n[c] * n if value_mode else rack_n[c]
            joker_floor = (min(n_max, n + 4) if value_mode else 1) * SCALE
        new_layer: dict[int, tuple[int, object]] = {}
        # With at least as many groups as any colour has naturals here, the runs' moves no longer
        # depend on the number of groups: one pass serves every such count.
        shared_from = max(avail)
        shared: dict[int, tuple[int, object]] | None = None
        for k in range(k_max + 1):
            if shared is not None:
                partial = shared
                colours: range = range(0)
            else:
                partial = layer
                colours = range(COLOURS)
            for c in colours:
                shift = c * _STATE_BITS
                floor = floors[c]
                if not avail[c] and not kept_n[c]:
                    colour_mask = _STATE_MASK << shift
                    if not any(key & colour_mask for key in partial):
                        continue  # nothing of this colour here: every entry stays as it is
                cell = _Cell(
                    n,
                    c,
                    k,
                    table_n[c],
                    avail[c],
                    kept_n[c],
                    top,
                    below1[c],
                    below2[c],
                    value_mode,
                    vector,
                    bool(group_kept or group_fixed),
                    tie_break,
                )
                moves_of = _MOVES.setdefault(cell, {})
                nxt: dict[int, tuple[int, object]] = {}
                get = nxt.get
                for key, (score, link) in partial.items():
                    state = (key >> shift) & _STATE_MASK
                    jr = (key >> _JR_SHIFT) & 15
                    jt = (key >> _JT_SHIFT) & 15
                    moves = moves_of.get((state, jr, jt))
                    if moves is None:
                        moves = moves_of[(state, jr, jt)] = _cell_moves(cell, state, jr, jt)
                    for delta, gain, gain_v, info in moves:
                        key3 = key + delta
                        if need0:
                            need = key3 >> _NEED_SHIFT
                            left = need - gain_v if need > gain_v else 0
                            key3 = (key3 & need_mask) | (left << _NEED_SHIFT)
                        total = score + gain
                        if total < floor and (
                            total + ((key3 >> _JR_SHIFT) & 15) * joker_floor < floor
                        ):
                            continue
                        best = get(key3)
                        if best is None or best[0] < total:
                            nxt[key3] = (total, link if info is None else (link, info))
                partial = nxt
                if beam and len(partial) > WIDEN * beam:
                    partial = _narrow(partial, WIDEN * beam, joker_bound * SCALE)
                    exact = False
            if k >= shared_from:
                shared = partial
            # Close the groups of this number.
            closes: dict[tuple[int, int, int], tuple[_Move, ...]] = {}
            get = new_layer.get
            for key, (score, link) in partial.items():
                s_nat = (key >> _S_SHIFT) & _S_MASK
                jr = (key >> _JR_SHIFT) & 15
                jt = (key >> _JT_SHIFT) & 15
                moves = closes.get((s_nat, jr, jt))
                if moves is None:
                    moves = closes[(s_nat, jr, jt)] = _group_moves(
                        n, k, s_nat, jr, jt, group_kept, group_fixed, value_mode, tie_break
                    )
                for delta, gain, gain_v, info in moves:
                    key3 = key + delta
                    if need0:
                        need = key3 >> _NEED_SHIFT
                        left = need - gain_v if need > gain_v else 0
                        key3 = (key3 & need_mask) | (left << _NEED_SHIFT)
                    total = score + gain
                    if target is not None:
                        jr_left = (key3 >> _JR_SHIFT) & 15
                        if total // SCALE + bound + jr_left * joker_bound < target:
                            continue
                    best = get(key3)
                    if best is None or best[0] < total:
                        new_layer[key3] = (total, (link, info))
        layer = _drop_dominated(_completable(new_layer, n, pieces))
        if beam and len(layer) > beam:
            layer = _narrow(layer, beam, joker_bound * SCALE)
            exact = False
        if memory is not None:
            memory[own[n]] = layer
            if beam and exact:
                memory[keys[0][n]] = layer
        if len(_MOVES) > 50_000:
            _MOVES.clear()
        if not layer:
            return CountSolution(NEG, ())
        yield

    best_score = NEG
    best_link: object = None
    for key, (score, link) in layer.items():
        if (key >> _JT_SHIFT) & 15 or key >> _NEED_SHIFT:
            continue
        if not all(_closable((key >> (c * _STATE_BITS)) & _STATE_MASK) for c in range(COLOURS)):
            continue
        if score > best_score:
            best_score, best_link = score, link
    if best_score == NEG:
        return CountSolution(NEG, ())
    return CountSolution(best_score, _unwind(best_link))


def _solve_deep(
    problem: CountProblem, memory: Memory | None = None, budget: int | None = None
) -> CountSolution:
    """The same moves as `_solve`, searched depth first with branch and bound and a memory.

    ``visit`` functions return, for a stage of the scan and a key, the best score still to come
    when it is at least ``need``, and otherwise a bound below ``need``; the memory keeps, per
    stage and key, either that exact best (with the move that reaches it) or the bound. Moves
    are tried best gain first. Without a target the search asks first for the best conceivable
    score (every rack piece played, every joker at its highest) and, while nothing reaches the
    need, lowers it to the bound the failed search proved, so it ends on the optimum; a state
    reached again is not searched again unless the need fell below its bound.
    """
    n_max = problem.numbers
    value_mode = problem.objective == "value"
    tie_break = problem.tie_break
    need0 = problem.need_value
    pieces = [[0] * COLOURS for _ in range(n_max + 2)]
    for n in range(1, n_max + 1):
        for c in range(COLOURS):
            pieces[n][c] = problem.table[n][c] + problem.rack[n][c] + problem.kept[n][c]
    group_kept_of = list(problem.group_kept) or [0] * (n_max + 1)
    group_fixed_of = [tuple(f) for f in problem.group_fixed] or [()] * (n_max + 1)
    # bounds[n][c]: the most score the rack pieces of colours c.. at n and of every number
    # below can bring (c = 4: only the numbers below), the primary and secondary parts.
    bounds = [[0] * (COLOURS + 1) for _ in range(n_max + 1)]
    joker_bounds = [0] * (n_max + 1)
    rest_v = rest_c = 0
    for n in range(1, n_max + 1):
        rack_n = problem.rack[n]
        row = bounds[n]
        later_v, later_c = rest_v, rest_c
        for c in range(COLOURS, -1, -1):
            if c < COLOURS:
                later_v += n * rack_n[c]
                later_c += rack_n[c]
            row[c] = _pair(later_v, later_c, value_mode, tie_break)
        rest_v, rest_c = later_v, later_c
        high = min(n_max, n + problem.rack_jokers + problem.table_jokers)
        joker_bounds[n] = _pair(high, 1, value_mode, tie_break)
    states_mask = (1 << _S_SHIFT) - 1
    need_mask = (1 << _NEED_SHIFT) - 1
    avail_of = [
        [problem.table[n][c] + problem.rack[n][c] for c in range(COLOURS)] if n else []
        for n in range(n_max + 1)
    ]
    skip = [True] + [
        not any(pieces[n]) and not group_kept_of[n] and not group_fixed_of[n]
        for n in range(1, n_max + 1)
    ]
    # With ties broken, a play whose primary score may rise by at most P more can gain at most
    # the P best secondary scores of the pieces left (most tiles: the P highest numbers; most
    # value: as many tiles as the P lowest numbers allow); jokers count at their best.
    seconds: list[list[list[int]]] = [[[0]] * (COLOURS + 1) for _ in range(n_max + 1)]
    if tie_break:
        left: list[int] = []
        for n in range(1, n_max + 1):
            row2: list[list[int]] = [[0]] * (COLOURS + 1)
            row2[COLOURS] = _prefix(left, value_mode)
            for c in range(COLOURS - 1, -1, -1):
                left = left + [n] * problem.rack[n][c]
                row2[c] = _prefix(left, value_mode)
            seconds[n] = row2
    jokers_high = [
        min(n_max, n + problem.rack_jokers + problem.table_jokers) for n in range(n_max + 1)
    ]

    def tight(n: int, c: int, jr: int, cap: int) -> int:
        """A bound on the score still to come from stage (n, c) when it may not pass cap."""
        primary = cap // SCALE
        if primary < 0:
            return cap
        prefix = seconds[n][c]
        if value_mode:
            jokers = min(jr, primary)
            rest = primary - jokers
            count = bisect_right(prefix, rest) - 1
            return primary * SCALE + jokers + count
        jokers = min(jr, primary)
        rest = min(primary - jokers, len(prefix) - 1)
        return primary * SCALE + jokers * jokers_high[n] + prefix[rest]

    cells: dict[int, dict[tuple[int, int, int], tuple[_Move, ...]]] = {}
    cell_of: dict[int, _Cell] = {}
    # memos[n][key * 128 + stage]: (score, exact, best move) — ``exact``: the score is the best
    # there is from that stage on; else it is a bound. The stage is k * 8 + c at colour c with
    # k groups, k * 8 + 4 when they close, 7 before k is chosen. What is found at number n
    # depends only on the numbers up to n: positions alike there share it (see `Memory`).
    memory = {} if memory is None else memory
    memos: list[dict[int, tuple[int, bool, object]]] = [{}]
    prefix: object = (n_max, problem.objective, tie_break)
    for n in range(1, n_max + 1):
        prefix = (
            prefix,
            tuple(problem.table[n]),
            tuple(problem.rack[n]),
            tuple(problem.kept[n]),
            group_kept_of[n],
            group_fixed_of[n],
        )
        memos.append(memory.setdefault(prefix, {}))
    group_cache: dict[tuple[int, int, int, int, int], tuple[_Move, ...]] = {}
    spent = [0]
    limit = budget if budget is not None else 1 << 62

    def boundary(n: int, key: int, need: int, cap: int) -> int:
        """Before number n: the runs in progress last took a piece at n + 1."""
        while n >= 1 and skip[n]:
            if key & states_mask:
                break
            n -= 1
        if n == 0:
            if (key >> _JT_SHIFT) & 15 or key >> _NEED_SHIFT:
                return NEG
            for c in range(COLOURS):
                if not _closable((key >> (c * _STATE_BITS)) & _STATE_MASK):
                    return NEG
            return 0
        memo = memos[n]
        entry = memo.get(key * 128 + 7)
        if entry is not None and (entry[1] or entry[0] < need):
            return entry[0]
        jr = (key >> _JR_SHIFT) & 15
        jt = (key >> _JT_SHIFT) & 15
        bound = bounds[n][0] + jr * joker_bounds[n]
        if tie_break and cap < bound:
            bound = min(bound, tight(n, 0, jr, cap))
        if bound < need:
            return bound
        if not _can_complete(key, pieces[n], pieces[n - 1], n == 1, jr + jt):
            memo[key * 128 + 7] = (NEG, True, None)
            return NEG
        total_nat = sum(avail_of[n])
        k_max = min(
            total_nat, (total_nat + jr + jt + group_kept_of[n] + len(group_fixed_of[n])) // 3
        )
        best, choice = NEG, None
        for k in range(k_max + 1):
            floor = need if need > best + 1 else best + 1
            found = colour(n, k, 0, key, floor, cap)
            if found > best:
                best = found
                choice = k
                if best >= cap:
                    break
        memo[key * 128 + 7] = (best, best >= need, choice)
        return best

    def colour(n: int, k: int, c: int, key: int, need: int, cap: int) -> int:
        if c == COLOURS:
            return close(n, k, key, need, cap)
        shift = c * _STATE_BITS
        state = (key >> shift) & _STATE_MASK
        if not state and not pieces[n][c]:
            return colour(n, k, c + 1, key, need, cap)
        jr = (key >> _JR_SHIFT) & 15
        bound = bounds[n][c] + jr * joker_bounds[n]
        if tie_break and cap < bound:
            bound = min(bound, tight(n, c, jr, cap))
        if bound < need:
            return bound
        stage = k * 8 + c
        memo = memos[n]
        entry = memo.get(key * 128 + stage)
        if entry is not None and (entry[1] or entry[0] < need):
            return entry[0]
        spent[0] += 1
        if spent[0] > limit:
            raise _OverBudget
        jt = (key >> _JT_SHIFT) & 15
        moves_of = cells.get(n * 128 + stage)
        if moves_of is None:
            group_fixed = group_fixed_of[n]
            cell = _Cell(
                n,
                c,
                min(k, max(avail_of[n])),
                problem.table[n][c],
                avail_of[n][c],
                problem.kept[n][c],
                n_max - n,
                pieces[n - 1][c],
                pieces[n - 2][c] if n >= 2 else 0,
                value_mode,
                bool(group_fixed),
                bool(group_kept_of[n] or group_fixed),
                tie_break,
            )
            moves_of = cells[n * 128 + stage] = _MOVES.setdefault(cell, {})
            cell_of[n * 128 + stage] = cell
        moves = moves_of.get((state, jr, jt))
        if moves is None:
            moves = moves_of[(state, jr, jt)] = _cell_moves(cell_of[n * 128 + stage], state, jr, jt)
        best, choice = NEG, None
        for move in moves:
            delta, gain, gain_v, _ = move
            key3 = key + delta
            if need0:
                left = (key3 >> _NEED_SHIFT) - gain_v
                key3 = (key3 & need_mask) | ((left if left > 0 else 0) << _NEED_SHIFT)
            floor = need if need > best + 1 else best + 1
            found = colour(n, k, c + 1, key3, floor - gain, cap - gain)
            if found > NEG and found + gain > best:
                best = found + gain
                choice = (move, key3)
                if best >= cap:
                    break
        memo[key * 128 + stage] = (best, best >= need, choice)
        return best

    def close(n: int, k: int, key: int, need: int, cap: int) -> int:
        stage = k * 8 + COLOURS
        memo = memos[n]
        entry = memo.get(key * 128 + stage)
        if entry is not None and (entry[1] or entry[0] < need):
            return entry[0]
        jr = (key >> _JR_SHIFT) & 15
        jt = (key >> _JT_SHIFT) & 15
        bound = bounds[n][COLOURS] + jr * joker_bounds[n]
        if tie_break and cap < bound:
            bound = min(bound, tight(n, COLOURS, jr, cap))
        if bound < need:
            return bound
        field = (key >> _S_SHIFT) & _S_MASK
        moves = group_cache.get((n, k, field, jr, jt))
        if moves is None:
            moves = group_cache[(n, k, field, jr, jt)] = _group_moves(
                n, k, field, jr, jt, group_kept_of[n], group_fixed_of[n], value_mode, tie_break
            )
        best, choice = NEG, None
        for move in moves:
            delta, gain, gain_v, _ = move
            key3 = key + delta
            if need0:
                left = (key3 >> _NEED_SHIFT) - gain_v
                key3 = (key3 & need_mask) | ((left if left > 0 else 0) << _NEED_SHIFT)
            floor = need if need > best + 1 else best + 1
            found = boundary(n - 1, key3, floor - gain, cap - gain)
            if found > NEG and found + gain > best:
                best = found + gain
                choice = (move, key3)
                if best >= cap:
                    break
        memo[key * 128 + stage] = (best, best >= need, choice)
        return best

    if len(_MOVES) > 50_000:
        _MOVES.clear()
    start = (problem.rack_jokers << _JR_SHIFT) | (problem.table_jokers << _JT_SHIFT)
    start |= need0 << _NEED_SHIFT
    depth = 8 * n_max + 100
    if sys.getrecursionlimit() < depth:
        sys.setrecursionlimit(depth)
    ceiling = bounds[n_max][0] + problem.rack_jokers * joker_bounds[n_max]
    if problem.ceiling is not None:
        ceiling = min(ceiling, problem.ceiling * SCALE + (SCALE - 1 if tie_break else 0))
    if problem.target is not None:
        need = problem.target * SCALE
        found = boundary(n_max, start, need, ceiling)
    else:
        need = ceiling - ceiling % SCALE
        step = SCALE
        while True:
            found = boundary(n_max, start, need, ceiling)
            if found >= need or found == NEG:
                break
            # What the failed search proved, as the new ceiling; the need falls to it, or
            # faster while the proofs stay loose.
            ceiling = found if tie_break else found - found % SCALE
            need = max(0, min(found - found % SCALE, need - step))
            step *= 2
    if found < need:
        memos.clear()
        return CountSolution(NEG, ())
    # Follow the best moves from the start.
    link: object = None
    n, key = n_max, start
    while True:
        while n >= 1 and skip[n]:
            if key & states_mask:
                break
            n -= 1
        if n == 0:
            break
        k = memos[n][key * 128 + 7][2]
        assert isinstance(k, int)
        for c in range(COLOURS + 1):
            if c < COLOURS and not pieces[n][c] and not (key >> (c * _STATE_BITS)) & _STATE_MASK:
                continue
            chosen = memos[n][key * 128 + k * 8 + c][2]
            assert isinstance(chosen, tuple)
            move: _Move = chosen[0]
            key = chosen[1]
            if move[3] is not None or c == COLOURS:
                link = (link, move[3])
        n -= 1
    memos.clear()  # the search functions refer to one another: let their data go now
    cells.clear()
    cell_of.clear()
    group_cache.clear()
    return CountSolution(found, _unwind(link))


def _prefix(values: list[int], value_mode: bool) -> list[int]:
    """Prefix sums of the pieces' numbers: highest first (most tiles: the value of the best p
    tiles), or lowest first (most value: how many tiles a value budget allows)."""
    out = [0]
    for v in sorted(values, reverse=not value_mode):
        out.append(out[-1] + v)
    return out


class collector_paused:
    """Pause Python's cycle collector: the search makes a great many small tuples that form no
    cycles, and the collections their number triggers would double its time."""

    def __enter__(self) -> None:
        self.was_enabled = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.was_enabled:
            gc.enable()


def _pair(value: int, count: int, value_mode: bool, tie_break: bool) -> int:
    """A score from its value and count (the secondary part left out without tie-breaks)."""
    if value_mode:
        return value * SCALE + (count if tie_break else 0)
    return count * SCALE + (value if tie_break else 0)


def _can_complete(
    key: int, below1: Sequence[int], below2: Sequence[int], last: bool, free: int
) -> bool:
    """Whether the runs in progress can all reach 3 pieces: each run shorter than that needs a
    piece of its colour at the next number down (and the one after, if it holds one piece),
    one piece per run, and the pieces missing there must come from the free jokers."""
    missing = 0
    for c in range(COLOURS):
        state = (key >> (c * _STATE_BITS)) & _STATE_MASK
        if not state:
            continue
        r1, r2 = _NEEDS[state]
        if r2 and last:
            return False
        if r1 > below1[c]:
            missing += r1 - below1[c]
        if r2 > below2[c]:
            missing += r2 - below2[c]
    return missing <= free


_Move = tuple[int, int, int, object]
"""A transition: what to add to the key, the score gained, the value gained (for first-meld
needs) and what to remember for the reconstruction (``None``: nothing happened)."""


class _Cell(NamedTuple):
    """One colour at one number in one pass (``k`` groups at that number)."""

    number: int
    colour: int
    groups: int
    table: int
    naturals: int
    kept: int
    top: int
    below1: int
    below2: int
    value_mode: bool
    vector: bool
    tight: bool  # table jokers must join the groups here: they may need fewer naturals
    tie_break: bool


_MOVES: dict[_Cell, dict[tuple[int, int, int], tuple[_Move, ...]]] = {}
"""The transitions found so far, by cell and then by state and jokers in hand: positions
solved one after another (a game, the tie-break's re-solves) share most of their cells."""


def _cell_moves(cell: _Cell, state: int, jr: int, jt: int) -> tuple[_Move, ...]:
    """The transitions of one colour at one number from ``state`` with these jokers in hand."""
    n, c, k, tm, nat, kp = (
        cell.number,
        cell.colour,
        cell.groups,
        cell.table,
        cell.naturals,
        cell.kept,
    )
    if state == 0 and nat == 0 and kp == 0:
        return ((0, 0, 0, None),)
    shift = c * _STATE_BITS
    free = jr + jt
    out: list[_Move] = []
    for option in colour_options(state, nat, kp, free, min(cell.top, free)):
        used = option.naturals
        lm = tm - used
        if lm > k:
            continue
        av = nat - used
        hi = av if av < k else k
        lo = lm if lm > 0 else 0
        if lo > hi:
            continue
        jok = option.jokers
        r1, r2 = _NEEDS[option.state]
        if r1 > cell.below1 + free - jok or r2 > cell.below2 + free - jok:
            continue
        rho_lo = jok - jt if jok > jt else 0
        rho_hi = jok if jok < jr else jr
        if rho_lo > rho_hi:
            continue
        slots = option.slots
        high = jok - slots.count(0)  # joker slots above this number
        base = (option.state - state) << shift
        g_shift = _S_SHIFT + 3 * c if cell.vector else _S_SHIFT
        for g in range(lo if jt or cell.tight else hi, hi + 1):
            placed = used + g - tm
            for rho in range(rho_lo, rho_hi + 1):
                if rho > high and av > g:
                    # A rack joker stands for a natural of this colour and number while such a
                    # natural stays on the rack: playing the natural and keeping the joker is
                    # as good, so this option need not be explored.
                    continue
                gain_v = n * (placed + rho) + sum(slots[:rho])
                gain_c = placed + rho
                gain = gain_v * SCALE + gain_c if cell.value_mode else gain_c * SCALE + gain_v
                if not cell.tie_break:
                    gain -= gain % SCALE
                delta = base + (g << g_shift) - (rho << _JR_SHIFT) - ((jok - rho) << _JT_SHIFT)
                out.append((delta, gain, gain_v, (n, c, option, rho, g)))
    return tuple(out)


def _group_moves(
    n: int,
    k: int,
    field: int,
    jr: int,
    jt: int,
    kept: int,
    fixed: tuple[int, ...],
    value_mode: bool,
    tie_break: bool = True,
) -> tuple[_Move, ...]:
    """The ways to close the ``k`` groups of number ``n``: ``field`` holds the naturals put into
    groups (their sum, or with ``fixed`` jokers each colour's count in 3 bits), ``kept`` table
    jokers of open colour and the ``fixed`` ones (by colour) must join them, with free jokers."""
    if fixed:
        naturals = tuple((field >> (3 * c)) & 7 for c in range(COLOURS))
        s_nat = sum(naturals)
    else:
        naturals, s_nat = (), field
    if s_nat < k:
        return ()
    out: list[_Move] = []
    placed = kept + len(fixed)
    j_lo = max(0, 3 * k - s_nat - placed)
    j_hi = min(jr + jt, MAX_GROUP * k - s_nat - placed)
    for jg in range(j_lo, j_hi + 1):
        if fixed and group_layout(k, naturals, jg + kept, fixed) is None:
            continue
        rho_lo = jg - jt if jg > jt else 0
        rho_hi = jg if jg < jr else jr
        for rho in range(rho_lo, rho_hi + 1):
            gain_v = n * rho
            gain = gain_v * SCALE + rho if value_mode else rho * SCALE + gain_v
            if not tie_break:
                gain -= gain % SCALE
            delta = -(field << _S_SHIFT) - (rho << _JR_SHIFT) - ((jg - rho) << _JT_SHIFT)
            out.append((delta, gain, gain_v, _PendingGroup(n, k, jg, rho, kept, fixed)))
    return tuple(out)


Layout = tuple[tuple[tuple[int, ...], int, tuple[int, ...]], ...]
"""Groups of one number: for each, the colours of its naturals, how many jokers of any colour,
and the colours of its table jokers that must keep their colour (or stand for "an n")."""


@lru_cache(maxsize=4096)
def group_layout(
    groups: int, naturals: tuple[int, ...], wild: int, fixed: tuple[int, ...]
) -> Layout | None:
    """A way to make ``groups`` groups from ``naturals[c]`` naturals of each colour, ``wild``
    jokers and the ``fixed`` jokers, or ``None``. A fixed joker of colour ``f`` must end where
    it stands for ``f`` or for no colour in particular: in a group of at most two naturals, or of
    three naturals without ``f``."""
    if any(count > groups for count in naturals):
        return None
    choices = [list(combinations(range(groups), count)) for count in naturals]
    for spread in product(*choices):
        colours: list[list[int]] = [[] for _ in range(groups)]
        for colour, members in enumerate(spread):
            for g in members:
                colours[g].append(colour)
        if any(not members for members in colours):
            continue
        for homes in product(range(groups), repeat=len(fixed)):
            sizes = [len(members) for members in colours]
            ok = True
            for colour, g in zip(fixed, homes, strict=True):
                natural = len(colours[g])
                if natural > 3 or (natural == 3 and colour in colours[g]):
                    ok = False
                sizes[g] += 1
            if not ok or any(size > MAX_GROUP for size in sizes):
                continue
            need = sum(max(0, 3 - size) for size in sizes)
            room = sum(MAX_GROUP - size for size in sizes)
            if not need <= wild <= room:
                continue
            left = wild
            jokers = [0] * groups
            for g in range(groups):
                add = max(0, 3 - sizes[g])
                jokers[g] += add
                left -= add
            for g in range(groups):
                add = min(left, MAX_GROUP - sizes[g] - jokers[g])
                jokers[g] += add
                left -= add
            return tuple(
                (
                    tuple(colours[g]),
                    jokers[g],
                    tuple(f for f, home in zip(fixed, homes, strict=True) if home == g),
                )
                for g in range(groups)
            )
    return None


def _completable(
    layer: dict[int, tuple[int, object]], n: int, pieces: Sequence[Sequence[int]]
) -> dict[int, tuple[int, object]]:
    """Drop the entries whose runs in progress cannot all be completed: each run shorter than
    3 needs a piece of its colour at the next numbers down, one piece per run, and the pieces
    missing there must come from the free jokers still in hand."""
    if n > 2:
        below1, below2 = pieces[n - 1], pieces[n - 2]
    elif n == 2:
        below1, below2 = pieces[1], (0, 0, 0, 0)
    else:
        return layer  # the end of the scan checks that every run may close
    out: dict[int, tuple[int, object]] = {}
    cache: dict[int, int] = {}
    for key, entry in layer.items():
        free = ((key >> _JR_SHIFT) & 15) + ((key >> _JT_SHIFT) & 15)
        missing = 0
        for c in range(COLOURS):
            state = (key >> (c * _STATE_BITS)) & _STATE_MASK
            if not state:
                continue
            code = state * COLOURS + c
            lack = cache.get(code)
            if lack is None:
                r1, r2 = _NEEDS[state]
                lack = max(0, r1 - below1[c]) + max(0, r2 - below2[c])
                if n == 2 and r2:
                    lack = 1 << 8  # no number below 1
                cache[code] = lack
            missing += lack
            if missing > free:
                break
        if missing <= free:
            out[key] = entry
    return out


def _drop_dominated(layer: dict[int, tuple[int, object]]) -> dict[int, tuple[int, object]]:
    """Drop the entries that another entry matches or beats from a better position: the same
    score or more with one run longer, anchored or extra (see `_upgrades`), or one more rack
    joker still in hand."""
    if len(layer) < 2:
        return layer
    out: dict[int, tuple[int, object]] = {}
    get = layer.get
    jr_unit = 1 << _JR_SHIFT
    for key, entry in layer.items():
        score = entry[0]
        beaten = False
        for c in range(COLOURS):
            shift = c * _STATE_BITS
            state = (key >> shift) & _STATE_MASK
            base = key & ~(_STATE_MASK << shift)
            for better in _upgrades(state):
                other = get(base | (better << shift))
                if other is not None and other[0] >= score:
                    beaten = True
                    break
            if beaten:
                break
        if not beaten and (key >> _JR_SHIFT) & 15 < 15:
            other = get(key + jr_unit)
            beaten = other is not None and other[0] >= score
        if not beaten:
            out[key] = entry
    return out


class _PendingGroup(NamedTuple):
    number: int
    groups: int
    jokers: int
    rack_jokers: int
    kept_jokers: int
    fixed_jokers: tuple[int, ...]


def _unwind(link: object) -> tuple[ColourStep | GroupStep, ...]:
    """The steps from the highest number down; each group step with the naturals it takes."""
    raw: list[ColourStep | _PendingGroup] = []
    while link is not None:
        assert isinstance(link, tuple)
        if isinstance(link[1], _PendingGroup):
            link, step = link
            raw.append(step)
        else:
            link, (n, c, option, rho, g) = link
            raw.append(ColourStep(n, c, option.move, option.slots, rho, g))
    raw.reverse()
    out: list[ColourStep | GroupStep] = []
    grouped = [0] * COLOURS
    for step in raw:
        if isinstance(step, ColourStep):
            grouped[step.colour] = step.grouped
            out.append(step)
            continue
        if step.groups:
            out.append(
                GroupStep(
                    step.number,
                    step.groups,
                    tuple(grouped),
                    step.jokers,
                    step.rack_jokers,
                    step.kept_jokers,
                    step.fixed_jokers,
                )
            )
        grouped = [0] * COLOURS
    return tuple(out)
