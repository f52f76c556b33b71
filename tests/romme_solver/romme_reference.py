"""Independent references for the Rommé solver: exhaustive search and an integer program.

Neither shares code with the solver. The exhaustive search tries every subset of a small hand
as a meld, in every order that could read as one, and every way of packing those melds; the
integer program lists every meld a hand could lay (runs of any length, not only up to five) and
lets HiGHS choose. Both read melds and values through the rules module, like the engine.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import highspy

from rummykit.cards import Card, Rank, Suit
from rummykit.romme.rules import Rules, card_value, read_cards, reading_value


@dataclass(frozen=True)
class Constraints:
    need: int = 0
    require_run: bool = False
    keep_one: bool = False
    no_jokers: bool = False
    must: Card | None = None


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
    cards: Sequence[Card], rules: Rules, objective: str, constraints: Constraints = Constraints()
) -> int | None:
    """The best total (laid value, or penalty removed from the hand) by trying every packing
    of meld subsets; ``None`` when no packing meets the constraints."""
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


def _face_card(rank: int, suit: int) -> Card:
    return Card(Rank(1 if rank == 14 else rank), Suit(suit))


def ilp_melds(
    cards: Sequence[Card], rules: Rules
) -> list[tuple[Counter[Card], int, int, int, bool]]:
    """Every meld the hand could lay, as (natural faces, jokers, value, penalty, is_run); runs
    of every length, jokers at every position that the validator accepts."""
    faces = Counter(Card(c.rank, c.suit) for c in cards if not c.is_joker)
    jokers = sum(1 for c in cards if c.is_joker)
    melds: list[tuple[Counter[Card], int, int, int, bool]] = []
    joker = Card.joker()

    def add(order: list[Card], kind: str) -> None:
        reading = read_cards(order, rules, kind)  # type: ignore[arg-type]
        if reading is None:
            return
        nat = Counter(c for c in order if not c.is_joker)
        j = len(order) - sum(nat.values())
        if j > jokers:
            return
        penalty = (
            sum(card_value(c, rules) for c in order if not c.is_joker) + j * rules.joker_penalty
        )
        melds.append((nat, j, reading_value(reading, rules), penalty, kind == "run"))

    for rank in range(1, 14):
        held = [s for s in range(4) if faces[Card(Rank(rank), Suit(s))]]
        for k in range(1, len(held) + 1):
            for suits in itertools.combinations(held, k):
                for size in (3, 4):
                    if k <= size and size - k <= jokers:
                        add(
                            [Card(Rank(rank), Suit(s)) for s in suits] + [joker] * (size - k),
                            "group",
                        )
    for suit in range(4):
        for start in range(1, 13):
            for end in range(start + 2, 15):
                numbers = range(start, end + 1)
                choices = []
                for number in numbers:
                    card = _face_card(number, suit)
                    choices.append([card, joker] if faces[card] else [joker])
                if sum(1 for ch in choices if len(ch) == 1) > jokers:
                    continue
                for order in itertools.product(*choices):
                    add(list(order), "run")
    return melds


def integer_program(
    cards: Sequence[Card], rules: Rules, objective: str, constraints: Constraints = Constraints()
) -> int | None:
    """The best total as an integer program over every meld of the hand (HiGHS)."""
    melds = ilp_melds(cards, rules)
    if constraints.no_jokers:
        melds = [m for m in melds if m[1] == 0]
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    xs = [
        h.addIntegral(lb=0, ub=2, obj=float(m[2] if objective == "value" else m[3])) for m in melds
    ]
    faces = Counter(Card(c.rank, c.suit) for c in cards if not c.is_joker)
    for face, count in faces.items():
        terms = [(x, m[0][face]) for x, m in zip(xs, melds, strict=True) if m[0][face]]
        if terms:
            h.addConstr(sum(x * k for x, k in terms) <= count)
    jokers = sum(1 for c in cards if c.is_joker)
    terms = [(x, m[1]) for x, m in zip(xs, melds, strict=True) if m[1]]
    if terms:
        h.addConstr(sum(x * k for x, k in terms) <= jokers)
    if constraints.keep_one and xs:
        h.addConstr(
            sum(x * (sum(m[0].values()) + m[1]) for x, m in zip(xs, melds, strict=True))
            <= len(cards) - 1
        )
    if constraints.need:
        if not xs:
            return None
        h.addConstr(sum(x * m[2] for x, m in zip(xs, melds, strict=True)) >= constraints.need)
    if constraints.require_run:
        runs = [x for x, m in zip(xs, melds, strict=True) if m[4]]
        if not runs:
            return None
        h.addConstr(sum(runs) >= 1)
    if constraints.must is not None:
        must = constraints.must
        if must.is_joker:
            using = [(x, m[1]) for x, m in zip(xs, melds, strict=True) if m[1]]
        else:
            using = [
                (x, 1) for x, m in zip(xs, melds, strict=True) if m[0][Card(must.rank, must.suit)]
            ]
        if not using:
            return None
        h.addConstr(sum(x * k for x, k in using) >= 1)
    if not xs:
        return 0
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    h.run()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        return None
    assert status == highspy.HighsModelStatus.kOptimal, status
    return round(h.getInfo().objective_function_value)
