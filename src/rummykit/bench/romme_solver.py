"""Speed of the exact Rommé meld solver, against an integer program solved in the same run.

``rummykit bench romme-solver --json`` times `best_melds` on fixed seeded sets of 15-card hands
(0–2 jokers, and 3–6 jokers), and for each hand an integer program over every meld the hand
could lay (HiGHS, a test dependency), checking that both find the same best value. Figures are
measured on the machine that runs them; nothing here asserts a speed.

The integer program is also the solver's reference in the tests: it is written without the
solver's search (runs of every length, jokers at every position the validator accepts).
"""

from __future__ import annotations

import itertools
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummykit.cards import Card, Rank, Suit, romme_pack
from rummykit.core import JSON
from rummykit.romme.rules import Rules, card_value, read_cards, reading_value


@dataclass(frozen=True)
class Constraints:
    """What an opening asks of the melds: a value, a run, a card kept for the discard, no
    jokers, a card that must be laid."""

    need: int = 0
    require_run: bool = False
    keep_one: bool = False
    no_jokers: bool = False
    must: Card | None = None


IlpMeld = tuple[Counter[Card], int, int, int, bool]


def _face_card(rank: int, suit: int) -> Card:
    return Card(Rank(1 if rank == 14 else rank), Suit(suit))


def ilp_melds(
    cards: Sequence[Card], rules: Rules
) -> list[tuple[Counter[Card], int, int, int, bool]]:
    """Every meld the hand could lay, as (natural faces, jokers, value, penalty, is_run); runs
    of every length, jokers at every position that the validator accepts."""
    faces = Counter(Card(c.rank, c.suit) for c in cards if not c.is_joker)
    jokers = sum(1 for c in cards if c.is_joker)
    melds: list[IlpMeld] = []
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


def _highs(highspy: Any) -> Any:
    """A silent HiGHS instance: its banner goes to the process's standard output from C on
    the first instance, which would break ``--json``, so that stream is closed meanwhile."""
    sys.stdout.flush()
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        h = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)
    h.setOptionValue("output_flag", False)
    return h


def integer_program(
    cards: Sequence[Card], rules: Rules, objective: str, constraints: Constraints | None = None
) -> int | None:
    """The best total (laid value, or penalty removed from the hand) as an integer program
    over every meld of the hand, solved by HiGHS; ``None`` when the constraints cannot be met.
    """
    import highspy

    constraints = constraints or Constraints()
    melds = ilp_melds(cards, rules)
    if constraints.no_jokers:
        melds = [m for m in melds if m[1] == 0]
    h = _highs(highspy)
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
    return round(float(h.getInfo().objective_function_value))


def hand_set(count: int, jokers: tuple[int, int], seed: int) -> list[list[Card]]:
    """``count`` random 15-card hands from the Rommé pack with ``jokers[0]..jokers[1]`` jokers
    (the naturals drawn uniformly from the two decks)."""
    rng = random.Random(seed)
    pack = romme_pack()
    naturals = [c for c in pack if not c.is_joker]
    all_jokers = [c for c in pack if c.is_joker]
    hands = []
    for _ in range(count):
        k = rng.randint(*jokers)
        hands.append(rng.sample(naturals, 15 - k) + all_jokers[:k])
    return hands


def _figures(times: list[float]) -> dict[str, JSON]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 4),
        "p99_ms": round(p99 * 1000, 4),
        "max_ms": round(ordered[-1] * 1000, 4),
    }


def time_set(hands: list[list[Card]], rules: Rules, with_ilp: bool = True) -> dict[str, JSON]:
    """Time `best_melds` (highest laid value) on every hand, then the integer program on the
    same hands, and count the hands where the two values differ (there should be none)."""
    from rummykit.romme.solver import best_melds

    best_melds(hands[0], rules)  # build the pattern table outside the clock
    solver_times = []
    values = []
    for hand in hands:
        start = time.perf_counter()
        found = best_melds(hand, rules)
        solver_times.append(time.perf_counter() - start)
        values.append(found.value)
    result: dict[str, Any] = {"hands": len(hands), "solver": _figures(solver_times)}
    if with_ilp:
        ilp_times = []
        mismatches = 0
        for hand, value in zip(hands, values, strict=True):
            start = time.perf_counter()
            expected = integer_program(hand, rules, "value")
            ilp_times.append(time.perf_counter() - start)
            mismatches += expected != value
        result["integer_program"] = _figures(ilp_times)
        result["mismatches"] = mismatches
        result["median_ratio"] = round(
            statistics.median(ilp_times) / statistics.median(solver_times), 1
        )
    return result


def run(hands: int = 500, seed: int = 1, with_ilp: bool = True) -> dict[str, JSON]:
    """The whole benchmark: two fixed seeded sets of 15-card hands (0–2 and 3–6 jokers)."""
    rules = Rules()
    return {
        "benchmark": "romme-solver",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seed": seed,
        "jokers_0_2": time_set(hand_set(hands, (0, 2), seed), rules, with_ilp),
        "jokers_3_6": time_set(hand_set(hands, (3, 6), seed + 1), rules, with_ilp),
    }
