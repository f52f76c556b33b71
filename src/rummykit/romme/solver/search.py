"""The exact search: which melds, lay-offs and joker exchanges to make from a hand.

The hand is a vector of face counts plus a number of jokers. The search always looks at the
lowest face still in the hand: either one copy of it stays in the hand, or it is laid in a
meld (or a lay-off) whose lowest face it is, together with higher faces and jokers. Every
arrangement is reached this way, and the best result is memoised on the remaining hand (and
on what is still required: the opening value, a run, a card that must be used, a card to
keep for the discard, which table melds were already extended). That is a dynamic program over
count vectors: exact, and fast because a 15-card hand has few sub-hands that can still meld.

Jokers are a resource, counted in the memo key. Joker exchanges bring jokers into the hand;
since exchanges can be made first in a turn, the count may go below zero during the search
(a joker borrowed from a later exchange) and must end between zero and the jokers the hand
started with (a freed joker has to be laid again in the same turn).

Weights are integers: a primary objective (laid value, removed penalty or removed cards) and a
secondary one that breaks ties, packed as ``primary * SCALE + secondary``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rummykit.romme.solver.candidates import LOW_BITS, MeldTable, Pattern, present_mask

Objective = Literal["value", "penalty", "cards"]
OBJECTIVES: tuple[Objective, ...] = ("value", "penalty", "cards")

SCALE = 2048
NEG = -(1 << 62)

NEED_RUN = 1
KEEP_ONE = 2
MUST_USE = 4
NEED_MELD = 8


def weight(objective: Objective, value: int, penalty: int, cards: int) -> int:
    """The packed weight of laying something worth ``value`` that removes ``penalty`` points
    and ``cards`` cards from the hand."""
    if objective == "value":
        return value * SCALE + penalty
    if objective == "penalty":
        return penalty * SCALE + value
    return cards * SCALE * SCALE + penalty * SCALE + value


@dataclass(frozen=True, slots=True)
class TableOption:
    """One way to change one table meld: the hand faces it takes (``bits``), the jokers it
    takes from the hand (``jokers_in``) and gives back (``jokers_out``, exchanged), what it is
    worth, and the final meld as a layout of ``("table", i)``, ``("face", f)``, ``("joker",)``.
    """

    meld: int
    bits: int
    jokers_in: int
    jokers_out: int
    value: int
    penalty: int
    cards: int
    low_face: int
    layout: tuple[tuple[int, int], ...]


@dataclass(slots=True)
class Problem:
    """What one search is asked: the hand, the objective and the constraints.

    ``need``: value the new melds must reach; ``require_run``: a new meld must be a run;
    ``require_meld``: at least one new meld (an opening, even at a minimum of 0);
    ``keep_one``: a card must stay in hand; ``must_face``: a face of which one card must be
    laid (``-1``: none), in a new meld or, if ``must_on_table``, on the table; ``must_joker``:
    a new meld must hold a joker; ``jokers_left_max``: at most this many jokers may stay in
    hand (default: as many as the hand started with, so freed jokers are laid again).
    """

    table: MeldTable
    counts: int
    jokers: int
    objective: Objective = "value"
    need: int = 0
    require_run: bool = False
    keep_one: bool = False
    must_face: int = -1
    new_meld_jokers: bool = True
    table_options: Sequence[TableOption] = ()
    must_joker: bool = False
    require_meld: bool = False
    must_on_table: bool = True
    jokers_left_max: int | None = None


@dataclass(slots=True)
class Solution:
    weight: int
    melds: list[Pattern] = field(default_factory=list)
    options: list[TableOption] = field(default_factory=list)


Row = tuple[tuple[int, int, int, int, bool, Pattern], ...]


@functools.lru_cache(maxsize=64)
def _rows(table: MeldTable, objective: Objective, jokers: bool) -> tuple[Row, ...]:
    """The patterns by lowest face with their packed weights, built once per objective."""
    return tuple(
        tuple(
            (
                p.bits,
                p.jokers,
                p.value,
                weight(objective, p.value, p.penalty, p.size),
                p.kind == "run",
                p,
            )
            for p in face_patterns
            if jokers or not p.jokers
        )
        for face_patterns in table.by_low_face
    )


def solve(problem: Problem) -> Solution | None:
    """The best arrangement for ``problem``, or ``None`` when its constraints cannot be met."""
    table = problem.table
    objective = problem.objective
    start_jokers = problem.jokers
    must_face = problem.must_face

    by_low = _rows(table, objective, problem.new_meld_jokers)

    options_by_low: list[list[tuple[int, int, int, int, TableOption]]] = [[] for _ in by_low]
    joker_only: dict[int, list[TableOption]] = {}
    debt = 0
    frees: dict[int, int] = {}
    for o in problem.table_options:
        if o.bits == 0:
            joker_only.setdefault(o.meld, []).append(o)
            continue
        w = weight(objective, o.value, o.penalty, o.cards)
        options_by_low[o.low_face].append((o.bits, o.jokers_in - o.jokers_out, 1 << o.meld, w, o))
        frees[o.meld] = max(frees.get(o.meld, 0), o.jokers_out)
    debt = sum(frees.values())
    for row2 in options_by_low:
        row2.sort(key=lambda t: t[1])

    # Drop faces that no meld or lay-off could ever use: they simply stay in the hand.
    counts = problem.counts
    present = present_mask(counts)
    usable = 0
    for row in by_low:
        for bits, jokers, _v, _w, _r, _p in row:
            if bits & present == bits and jokers <= start_jokers + debt:
                usable |= bits
    for row2 in options_by_low:
        for bits, _d, _m, _w, _o in row2:
            if bits & present == bits:
                usable |= bits
    dead = present & ~usable
    must_bit = (1 << (2 * must_face)) if must_face >= 0 else 0
    flags = (NEED_RUN if problem.require_run else 0) | (KEEP_ONE if problem.keep_one else 0)
    if problem.require_meld:
        flags |= NEED_MELD
    if must_bit:
        if not must_bit & usable:
            return None
        flags |= MUST_USE
    must_joker = problem.must_joker
    if must_joker:
        flags |= MUST_USE
    cap = start_jokers if problem.jokers_left_max is None else problem.jokers_left_max
    table_must_bit = must_bit if problem.must_on_table else 0
    if dead:
        if flags & KEEP_ONE:
            flags &= ~KEEP_ONE
        counts &= ~(dead | (dead << 1))

    memo: dict[tuple[int, int, int, int, int], tuple[int, object]] = {}
    end_memo: dict[tuple[int, int, int], tuple[int, tuple[TableOption, ...]]] = {}

    def end(jokers: int, flags: int, used: int) -> tuple[int, tuple[TableOption, ...]]:
        key = (jokers, flags, used)
        got = end_memo.get(key)
        if got is not None:
            return got
        # Joker-only lay-offs on melds not yet touched: a small knapsack over the melds.
        states: dict[int, tuple[int, tuple[TableOption, ...]]] = {0: (0, ())}
        for meld, opts in joker_only.items():
            if used >> meld & 1:
                continue
            nxt = dict(states)
            for spent, (w, chosen) in states.items():
                for o in opts:
                    total = spent + o.jokers_in
                    if total > jokers:
                        continue
                    cand = w + weight(objective, o.value, o.penalty, o.cards)
                    if cand > nxt.get(total, (NEG, ()))[0]:
                        nxt[total] = (cand, (*chosen, o))
            states = nxt
        low = 1 if flags & KEEP_ONE else 0
        best: tuple[int, tuple[TableOption, ...]] = (NEG, ())
        for spent, (w, chosen) in states.items():
            left = jokers - spent
            if low <= left <= cap and w > best[0]:
                best = (w, chosen)
        end_memo[key] = best
        return best

    def rec(counts: int, jokers: int, need: int, flags: int, used: int) -> int:
        key = (counts, jokers, need, flags, used)
        got = memo.get(key)
        if got is not None:
            return got[0]
        best = NEG
        choice: object = None
        if counts == 0:
            if need <= 0 and not flags & (NEED_RUN | MUST_USE | NEED_MELD):
                best, choice = end(jokers, flags, used)
            memo[key] = (best, choice)
            return best
        low = counts & -counts
        shift = (low.bit_length() - 1) & ~1
        face = shift >> 1
        fbit = 1 << shift
        is_must = face == must_face and flags & MUST_USE
        # One copy of the face stays in the hand.
        if not (is_must and (counts >> shift) & 3 == 1):
            r = rec(counts - fbit, jokers, need, flags & ~KEEP_ONE, used)
            if r > best:
                best, choice = r, None
        present = (counts | (counts >> 1)) & LOW_BITS
        for bits, pj, value, w, is_run, pattern in by_low[face]:
            if pj > jokers + debt:
                break
            if bits & present != bits:
                continue
            f2 = (
                flags & ~(MUST_USE | NEED_MELD)
                if bits & must_bit or (must_joker and pj)
                else flags & ~NEED_MELD
            )
            if is_run:
                f2 &= ~NEED_RUN
            r = rec(counts - bits, jokers - pj, max(need - value, 0), f2, used)
            if r > NEG and r + w > best:
                best, choice = r + w, pattern
        for bits, dj, mbit, w, option in options_by_low[face]:
            if dj > jokers + debt:
                break
            if used & mbit or bits & present != bits:
                continue
            f2 = flags & ~MUST_USE if bits & table_must_bit else flags
            r = rec(counts - bits, jokers - dj, need, f2, used | mbit)
            if r > NEG and r + w > best:
                best, choice = r + w, option
        memo[key] = (best, choice)
        return best

    need = problem.need
    total = rec(counts, start_jokers, need, flags, 0)
    if total <= NEG // 2:
        return None
    solution = Solution(total)
    jokers, used = start_jokers, 0
    while True:
        key = (counts, jokers, need, flags, used)
        if counts == 0:
            _w, chosen = end(jokers, flags, used)
            solution.options.extend(chosen)
            break
        _best, choice = memo[key]
        low = counts & -counts
        shift = (low.bit_length() - 1) & ~1
        if choice is None:
            counts -= 1 << shift
            flags &= ~KEEP_ONE
        elif isinstance(choice, Pattern):
            solution.melds.append(choice)
            flags &= ~NEED_MELD
            if choice.bits & must_bit or (must_joker and choice.jokers):
                flags &= ~MUST_USE
            counts -= choice.bits
            jokers -= choice.jokers
            need = max(need - choice.value, 0)
            if choice.kind == "run":
                flags &= ~NEED_RUN
        else:
            assert isinstance(choice, TableOption)
            solution.options.append(choice)
            if choice.bits & table_must_bit:
                flags &= ~MUST_USE
            counts -= choice.bits
            jokers -= choice.jokers_in - choice.jokers_out
            used |= 1 << choice.meld
    return solution
