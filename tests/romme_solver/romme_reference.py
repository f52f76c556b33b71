"""Independent references for the Rommé solver: exhaustive search, and the integer program.

Neither shares code with the solver. The exhaustive search tries every subset of a small hand
as a meld, in every order that could read as one, and every way of packing those melds; the
integer program (kept with the benchmark that times it) lists every meld a hand could lay (runs
of any length, not only up to five) and lets HiGHS choose. Both read melds and values through
the rules module, like the engine.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.bench.romme_solver import Constraints, integer_program
from rummykit.cards import Card, Rank
from rummykit.romme.rules import Rules, card_value, read_cards, reading_value


@dataclass(frozen=True)
class Block:
    mask: int
    value: int
    penalty: int
    size: int
    is_run: bool
    jokers: int


def _orderings(cards: Sequence[Card]) -> list[list[Card]]:
    """Orders in which ``cards`` could read as a meld: naturals by rank (the ace first or
    last) with the jokers at every combination of positions, and one order for a group."""
    naturals = [c for c in cards if not c.is_joker]
    jokers = [c for c in cards if c.is_joker]
    out: list[list[Card]] = []
    if len({c.rank for c in naturals}) == 1:
        out.append(naturals + jokers)
    if len({c.suit for c in naturals}) == 1:
        by_rank = sorted(naturals, key=lambda c: int(c.rank or 0))
        bases = [by_rank]
        if by_rank and by_rank[0].rank == Rank.ACE:
            bases.append(by_rank[1:] + by_rank[:1])
        size = len(cards)
        for base in bases:
            for spots in itertools.combinations(range(size), len(jokers)):
                order: list[Card] = []
                nat = iter(base)
                jk = iter(jokers)
                for i in range(size):
                    order.append(next(jk) if i in spots else next(nat))
                out.append(order)
    return out


def blocks(cards: Sequence[Card], rules: Rules) -> list[Block]:
    """Every subset of ``cards`` that is a meld, with its best value as a run and as a group."""
    found: list[Block] = []
    n = len(cards)
    for mask in range(1, 1 << n):
        members = [cards[i] for i in range(n) if mask >> i & 1]
        if len(members) < 3 or all(c.is_joker for c in members):
            continue
        best: dict[str, int] = {}
        for order in _orderings(members):
            reading = read_cards(order)
            if reading is None:
                continue
            value = reading_value(reading, rules)
            if value > best.get(reading.kind, -1):
                best[reading.kind] = value
        for kind, value in best.items():
            found.append(
                Block(
                    mask,
                    value,
                    sum(card_value(c, rules) for c in members),
                    len(members),
                    kind == "run",
                    sum(1 for c in members if c.is_joker),
                )
            )
    return found


def brute_force(
    cards: Sequence[Card], rules: Rules, objective: str, constraints: Constraints | None = None
) -> int | None:
    """The best total (laid value, or penalty removed from the hand) by trying every packing
    of meld subsets; ``None`` when no packing meets the constraints."""
    constraints = constraints or Constraints()
    n = len(cards)
    all_blocks = [b for b in blocks(cards, rules) if not (constraints.no_jokers and b.jokers)]
    by_low: dict[int, list[Block]] = {}
    for b in all_blocks:
        by_low.setdefault((b.mask & -b.mask).bit_length() - 1, []).append(b)
    must_bit = 0
    if constraints.must is not None:
        must_bit = 1 << list(cards).index(constraints.must)
    best: list[int | None] = [None]

    def visit(i: int, used: int, value: int, penalty: int, size: int, run: bool) -> None:
        while i < n and used >> i & 1:
            i += 1
        if i == n:
            if value < constraints.need or (constraints.require_run and not run):
                return
            if constraints.keep_one and size == n:
                return
            if must_bit and not used & must_bit:
                return
            score = value if objective == "value" else penalty
            if best[0] is None or score > best[0]:
                best[0] = score
            return
        visit(i + 1, used, value, penalty, size, run)
        for b in by_low.get(i, ()):
            if b.mask & used:
                continue
            visit(
                i + 1,
                used | b.mask,
                value + b.value,
                penalty + b.penalty,
                size + b.size,
                run or b.is_run,
            )

    # Cards left out are marked used without a block: skip ahead with no block.
    visit(0, 0, 0, 0, 0, False)
    return best[0]


__all__ = ["Constraints", "blocks", "brute_force", "integer_program"]
