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
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal

from rummykit.romme.solver.candidates import LOW_BITS, MeldTable, Pattern, present_mask

Objective = Literal["value", "penalty", "cards", "fewest"]
OBJECTIVES: tuple[Objective, ...] = ("value", "penalty", "cards", "fewest")

SCALE = 2048
NEG = -(1 << 62)

NEED_RUN = 1
KEEP_ONE = 2
MUST_USE = 4
NEED_MELD = 8


def weight(objective: Objective, value: int, penalty: int, cards: int) -> int:
    """The packed weight of laying something worth ``value`` that removes ``penalty`` points
    and ``cards`` cards from the hand. ``"fewest"`` lays as few cards as the constraints allow
    (the smallest opening), the most valuable among those."""
    if objective == "value":
        return value * SCALE + penalty
    if objective == "penalty":
        return penalty * SCALE + value
    if objective == "fewest":
        return -cards * SCALE * SCALE + value
    return cards * SCALE * SCALE + penalty * SCALE + value


class SearchTimeout(Exception):
    """A search ran past the deadline set with `deadline`."""


_clock = threading.local()


@contextmanager
def deadline(at: float | None) -> Iterator[None]:
    """Searches started in this block, in this thread, raise `SearchTimeout` once
    `time.perf_counter` passes ``at`` (``None`` lifts the deadline inside the block; nested
    deadlines keep the earlier one). A computer player's decision calls the solver through
    many layers (openings, lay-offs, lookahead over draws, sampled hands); a deadline set once
    around the decision bounds them all without a parameter threaded through each.

    >>> from rummykit.cards import parse_cards
    >>> from rummykit.romme.solver import best_melds
    >>> with deadline(0.0):
    ...     best_melds(parse_cards("J♣ Q♣ K♣ 9♥ 9♦ JK 4♠"))
    Traceback (most recent call last):
    ...
    rummykit.romme.solver.search.SearchTimeout
    """
    before = getattr(_clock, "at", None)
    _clock.at = at if before is None or at is None else min(at, before)
    try:
        yield
    finally:
        _clock.at = before


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
    ``keep_one``: a card must stay in hand; ``no_keep_face``: a face whose single card does
    not count as that kept card (a card taken from the discard pile may not be discarded);
    ``no_keep_joker``: the same for a joker, when it is the hand's only one;
    ``must_face``: a face of which one card must be laid (``-1``: none), in a new meld or, if
    ``must_on_table``, on the table; ``must_joker``: a new meld must hold a joker;
    ``jokers_left_max``: at most this many jokers may stay in hand (default: as many as the
    hand started with, so freed jokers are laid again); ``new_meld_jokers``: whether melds
    that count for the opening may hold jokers; ``new_melds``: whether new melds may be laid
    at all (``False``: lay-offs and exchanges only).

    ``freed_not_own``: the opening turn with exchanges. A new meld holding a joker freed in
    this turn is not made "from the own hand" and does not count for the opening (nor for its
    house rules); every freed joker must go into such a meld or onto the table.
    """

    table: MeldTable
    counts: int
    jokers: int
    objective: Objective = "value"
    need: int = 0
    require_run: bool = False
    require_meld: bool = False
    keep_one: bool = False
    no_keep_face: int = -1
    must_face: int = -1
    must_on_table: bool = True
    must_joker: bool = False
    jokers_left_max: int | None = None
    new_meld_jokers: bool = True
    table_options: Sequence[TableOption] = ()
    freed_not_own: bool = False
    no_keep_joker: bool = False
    new_melds: bool = True
    first: bool = False
    """Any arrangement meeting the constraints will do (the search stops at the first one it
    finds): for questions whose answer is only whether there is one."""


@dataclass(slots=True)
class Solution:
    """The chosen melds (``own[i]``: whether meld ``i`` counts for the opening) and table
    options, and the packed weight of them all."""

    weight: int
    melds: list[Pattern] = field(default_factory=list)
    own: list[bool] = field(default_factory=list)
    options: list[TableOption] = field(default_factory=list)

    @property
    def cards_laid(self) -> int:
        """How many cards it lays, for a search with the ``"cards"`` objective (the primary
        part of its weight)."""
        return self.weight // (SCALE * SCALE)


Row = tuple[tuple[int, int, int, int, bool, Pattern], ...]
State = tuple[int, int, int, int, int, int, int]


@functools.lru_cache(maxsize=64)
def _rows(table: MeldTable, objective: Objective) -> tuple[Row, ...]:
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
        )
        for face_patterns in table.by_low_face
    )


_NO_ROWS: tuple[Row, ...] = tuple(() for _ in range(52))

BoundRow = tuple[tuple[int, int, int], ...]
Total = Literal["value", "cards"]


@functools.lru_cache(maxsize=16)
def _bound_rows(table: MeldTable, total: Total = "value") -> tuple[BoundRow, ...]:
    """The patterns by lowest face as ``(bits, jokers, value or size)``, fewest jokers first."""
    return tuple(
        tuple((p.bits, p.jokers, p.value if total == "value" else p.size) for p in row)
        for row in table.by_low_face
    )


_BOUNDS: dict[tuple[MeldTable, Total], dict[int, int]] = {}
BOUNDS_KEPT = 100_000
"""How many answers of `value_bound` and `most_cards` are kept per pattern table (then they
are forgotten)."""


def _known(table: MeldTable, total: Total) -> dict[int, int]:
    known = _BOUNDS.get((table, total))
    if known is None or len(known) > BOUNDS_KEPT:
        known = _BOUNDS[table, total] = {}
    return known


def value_bound(table: MeldTable, counts: int, jokers: int) -> int:
    """The highest total value of new melds that ``counts`` and at most ``jokers`` jokers can
    make, with no other constraint: no opening can reach more, so a search whose opening
    still needs more than this can stop. Answers are kept between calls (a hand asked about
    again, or one card away, shares most of its sub-hands).

    >>> from rummykit.cards import parse_cards
    >>> from rummykit.romme.rules import Rules
    >>> from rummykit.romme.solver.candidates import encode, meld_table
    >>> hand = encode(parse_cards("J♣ Q♣ K♣ 9♥ 9♦ JK 4♠"))
    >>> value_bound(meld_table(Rules()), *hand), most_cards(meld_table(Rules()), *hand)
    (57, 6)
    """
    return _bound(table, "value", counts, jokers)


def most_cards(table: MeldTable, counts: int, jokers: int) -> int:
    """The most cards of ``counts`` and at most ``jokers`` jokers that can lie in new melds at
    once, with no other constraint (what `solve` answers with the ``"cards"`` objective and no
    constraint, as `Solution.cards_laid`). Answers are kept between calls, and the example is
    `value_bound`'s.
    """
    return _bound(table, "cards", counts, jokers)


def _bound(table: MeldTable, total: Total, counts: int, jokers: int) -> int:
    """The best ``total`` of new melds with no other constraint: the one search behind
    `value_bound` and `most_cards`, each with its own kept answers."""
    return _best_total(_bound_rows(table, total), _known(table, total), counts, max(jokers, 0))


def _best_total(rows: tuple[BoundRow, ...], known: dict[int, int], counts: int, jokers: int) -> int:
    if not counts:
        return 0
    key = counts << 5 | jokers
    got = known.get(key)
    if got is not None:
        return got
    low = counts & -counts
    shift = (low.bit_length() - 1) & ~1
    best = _best_total(rows, known, counts - (1 << shift), jokers)
    present = (counts | (counts >> 1)) & LOW_BITS
    for bits, pj, amount in rows[shift >> 1]:
        if pj > jokers:
            break
        if bits & present == bits:
            got = amount + _best_total(rows, known, counts - bits, jokers - pj)
            if got > best:
                best = got
    known[key] = best
    return best


def solve(problem: Problem) -> Solution | None:
    """The best arrangement for ``problem``, or ``None`` when its constraints cannot be met."""
    table = problem.table
    objective = problem.objective
    start_jokers = problem.jokers
    must_face = problem.must_face
    by_low = _rows(table, objective) if problem.new_melds else _NO_ROWS
    own_jokers_ok = problem.new_meld_jokers
    split = problem.freed_not_own

    options_by_low: dict[int, list[tuple[int, int, int, int, TableOption]]] = {}
    joker_only: dict[int, list[tuple[int, TableOption]]] = {}
    frees: dict[int, int] = {}
    for o in problem.table_options:
        w = weight(objective, o.value, o.penalty, o.cards)
        if o.bits == 0:
            joker_only.setdefault(o.meld, []).append((w, o))
            continue
        options_by_low.setdefault(o.low_face, []).append(
            (o.bits, o.jokers_in - o.jokers_out, 1 << o.meld, w, o)
        )
        frees[o.meld] = max(frees.get(o.meld, 0), o.jokers_out)
    debt = sum(frees.values())
    for row2 in options_by_low.values():
        row2.sort(key=lambda t: t[1])
    no_options: list[tuple[int, int, int, int, TableOption]] = []

    # Drop faces that no meld or lay-off could ever use: they simply stay in the hand.
    # Only the patterns this hand can make are kept for the search (every state's hand is
    # part of this one, with at most ``start_jokers + debt`` jokers, plus ``debt`` borrowed).
    counts = problem.counts
    present = present_mask(counts)
    usable = 0
    scan = present
    rows: list[Row] = [()] * 52
    bound_rows: list[BoundRow] = [()] * 52
    most = start_jokers + 2 * debt
    while scan:
        low = scan & -scan
        scan ^= low
        f = (low.bit_length() - 1) >> 1
        row = []
        for r in by_low[f]:
            if r[1] > most:
                break
            if r[0] & present == r[0]:
                row.append(r)
                if r[1] <= start_jokers + debt:
                    usable |= r[0]
        rows[f] = tuple(row)
        bound_rows[f] = tuple((r[0], r[1], r[2]) for r in row)
        for bits, _d, _m, _w, _o in options_by_low.get(f, no_options):
            if bits & present == bits:
                usable |= bits
    dead = present & ~usable
    must_bit = (1 << (2 * must_face)) if must_face >= 0 else 0
    table_must_bit = must_bit if problem.must_on_table else 0
    must_joker = problem.must_joker
    first = problem.first
    no_keep = problem.no_keep_face
    if no_keep >= 0 and (counts >> (2 * no_keep)) & 3 != 1:
        no_keep = -1  # another card of that face can be the one kept
    flags = (NEED_RUN if problem.require_run else 0) | (KEEP_ONE if problem.keep_one else 0)
    if problem.require_meld:
        flags |= NEED_MELD
    if must_bit:
        if not must_bit & usable:
            return None
        flags |= MUST_USE
    if must_joker:
        flags |= MUST_USE
    cap = start_jokers if problem.jokers_left_max is None else problem.jokers_left_max
    # Only the picked joker could be kept: it may not be, so keeping needs a second joker.
    no_keep_joker = problem.no_keep_joker and start_jokers == 1
    if dead:
        kept_dead = dead & ~((1 << (2 * no_keep)) if no_keep >= 0 else 0)
        if kept_dead:
            flags &= ~KEEP_ONE
        counts &= ~(dead | (dead << 1))

    by_low = tuple(rows)
    bounds = _known(table, "value")
    bounds_by_low = tuple(bound_rows)

    def bound(counts: int, jokers: int) -> int:
        # The same answers as `value_bound` (kept with them): only patterns that cannot be
        # made from this hand are left out.
        return _best_total(bounds_by_low, bounds, counts, max(jokers, 0))

    memo: dict[State, tuple[int, object, State | None]] = {}
    stop_at: float | None = getattr(_clock, "at", None)
    end_memo: dict[tuple[int, int, int, int, int], tuple[int, tuple[TableOption, ...]]] = {}

    def end(
        jokers: int, flags: int, used: int, short: int, homeless: int
    ) -> tuple[int, tuple[TableOption, ...]]:
        key = (jokers, flags, used, short, homeless)
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
                for ow, o in opts:
                    total = spent + o.jokers_in
                    if total > jokers:
                        continue
                    cand = w + ow
                    if cand > nxt.get(total, (NEG, ()))[0]:
                        nxt[total] = (cand, (*chosen, o))
            states = nxt
        low = 1 if flags & KEEP_ONE else 0
        if low and no_keep_joker:
            low = 2
        best: tuple[int, tuple[TableOption, ...]] = (NEG, ())
        for spent, (w, chosen) in states.items():
            left = jokers - spent
            if not low <= left <= cap or w <= best[0]:
                continue
            if split and (short < 0 or homeless - spent > 0):
                continue
            best = (w, chosen)
        end_memo[key] = best
        return best

    # The state: remaining hand, jokers in hand, opening value still needed, flags, table
    # melds already changed, and on an opening turn with exchanges: freed jokers minus
    # melds that must hold one (``short``), freed jokers not yet laid again (``homeless``).
    def rec(state: State) -> int:
        got = memo.get(state)
        if got is not None:
            return got[0]
        if stop_at is not None and not len(memo) & 63 and time.perf_counter() > stop_at:
            raise SearchTimeout
        counts, jokers, need, flags, used, short, homeless = state
        if (
            need > 0
            and bound(counts, min(jokers + debt, start_jokers) if own_jokers_ok else 0) < need
        ):
            # No way left to reach the opening: the answer is "none" without looking. (The
            # melds that count hold only the hand's own jokers: every freed joker must end in
            # a meld that does not count or on the table, and no more jokers than the hand
            # started with may stay.)
            memo[state] = (NEG, None, None)
            return NEG
        best = NEG
        choice: object = None
        after: State | None = None
        if counts == 0:
            if need <= 0 and not flags & (NEED_RUN | MUST_USE | NEED_MELD):
                best, choice = end(jokers, flags, used, short, homeless)
            memo[state] = (best, choice, None)
            return best
        low = counts & -counts
        shift = (low.bit_length() - 1) & ~1
        face = shift >> 1
        is_must = face == must_face and flags & MUST_USE
        # One card of the face stays in the hand.
        if not (is_must and (counts >> shift) & 3 == 1):
            nxt = (
                counts - (1 << shift),
                jokers,
                need,
                flags if face == no_keep else flags & ~KEEP_ONE,
                used,
                short,
                homeless,
            )
            r = rec(nxt)
            if r > best:
                best, choice, after = r, None, nxt
                if first:
                    memo[state] = (best, choice, after)
                    return best
        present = (counts | (counts >> 1)) & LOW_BITS
        for bits, pj, value, w, is_run, pattern in by_low[face]:
            if pj > jokers + debt:
                break
            if bits & present != bits:
                continue
            f2 = flags & ~NEED_MELD
            if bits & must_bit or (must_joker and pj):
                f2 &= ~MUST_USE
            if own_jokers_ok or not pj:
                # A meld that counts for the opening.
                nxt = (
                    counts - bits,
                    jokers - pj,
                    max(need - value, 0),
                    f2 & ~NEED_RUN if is_run else f2,
                    used,
                    short,
                    homeless,
                )
                r = rec(nxt)
                if r > NEG and r + w > best:
                    best, choice, after = r + w, (pattern, True), nxt
                    if first:
                        memo[state] = (best, choice, after)
                        return best
            if split and pj:
                # A meld holding a freed joker: it does not count for the opening (and holds
                # the must-use joker only if it has a second joker).
                f3 = f2 | (flags & MUST_USE) if must_joker and pj == 1 else f2
                nxt = (counts - bits, jokers - pj, need, f3, used, short - 1, homeless - pj)
                r = rec(nxt)
                if r > NEG and r + w > best:
                    best, choice, after = r + w, (pattern, False), nxt
                    if first:
                        memo[state] = (best, choice, after)
                        return best
        for bits, dj, mbit, w, option in options_by_low.get(face, no_options):
            if dj > jokers + debt:
                break
            if used & mbit or bits & present != bits:
                continue
            out = option.jokers_out
            nxt = (
                counts - bits,
                jokers - dj,
                need,
                flags & ~MUST_USE if bits & table_must_bit else flags,
                used | mbit,
                short + out if split else 0,
                homeless + out - option.jokers_in if split else 0,
            )
            r = rec(nxt)
            if r > NEG and r + w > best:
                best, choice, after = r + w, option, nxt
        memo[state] = (best, choice, after)
        return best

    state: State | None = (counts, start_jokers, problem.need, flags, 0, 0, 0)
    assert state is not None
    total = rec(state)
    if total <= NEG // 2:
        return None
    solution = Solution(total)
    while state is not None:
        _best, choice, nxt = memo[state]
        if nxt is None:
            assert isinstance(choice, tuple)
            solution.options.extend(choice)
        elif isinstance(choice, TableOption):
            solution.options.append(choice)
        elif isinstance(choice, tuple):
            pattern, own = choice
            solution.melds.append(pattern)
            solution.own.append(own)
        state = nxt
    return solution
