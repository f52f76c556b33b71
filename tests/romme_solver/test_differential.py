"""The solver is exact: it agrees with exhaustive search and with an integer program.

10,000+ random hands in all: small hands (3–9 cards, up to 4 jokers) against the exhaustive
search, full 15-card hands (up to 6 jokers) against the integer program; every objective, random
options, random opening constraints. Every arrangement is also checked card by card.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummykit.cards import Card, Rank, Suit
from rummykit.romme.rules import Rules, hand_penalty, meld_value
from rummykit.romme.solver import Arrangement, best_melds, best_opening

from .romme_reference import Constraints, brute_force, integer_program

SMALL_CHUNKS = 24
SMALL_PER_CHUNK = 400
ILP_CHUNKS = 8
ILP_PER_CHUNK = 75


def random_rules(rng: random.Random) -> Rules:
    return Rules(
        ace_low_value=rng.choice((11, 1)),
        joker_penalty=rng.choice((20, 25, 30, 40)),
        opening_min=rng.choice((0, 30, 40)),
        opening_requires_run=rng.random() < 0.3,
        opening_without_jokers=rng.random() < 0.3,
        go_out=rng.choice(("discard", "meld")),
    )


def random_hand(rng: random.Random, size: int, jokers: int) -> list[Card]:
    """A hand drawn from a dense corner of the pack (melds likely) or from the whole pack."""
    if rng.random() < 0.7:
        suits = rng.sample(list(Suit), rng.choice((1, 2, 3)))
        low = rng.randint(1, 9)
        ranks = [r for r in Rank if low <= r < low + 6] + ([Rank.ACE] if low > 8 else [])
        pool = [Card(r, s, c) for s in suits for r in ranks for c in (0, 1)]
    else:
        pool = [Card(r, s, c) for s in Suit for r in Rank for c in (0, 1)]
    naturals = rng.sample(pool, min(size - jokers, len(pool)))
    return naturals + [Card.joker(i) for i in range(jokers)]


def check_arrangement(hand: list[Card], found: Arrangement, rules: Rules) -> None:
    """Every meld valid, every card of the hand exactly once, the figures right."""
    laid = [c for m in found.melds for c in m]
    assert Counter(laid + list(found.left)) == Counter(hand)
    assert found.value == sum(meld_value(m, rules) for m in found.melds)
    assert found.penalty == hand_penalty(found.left, rules)


def solver_answer(
    hand: list[Card], rules: Rules, objective: str, c: Constraints, opening: bool
) -> tuple[int | None, Arrangement | None]:
    if opening:
        found = best_opening(hand, rules, objective, must_include=c.must)  # type: ignore[arg-type]
    else:
        found = best_melds(hand, rules, objective, keep_one=c.keep_one)  # type: ignore[arg-type]
    if found is None:
        return None, None
    check_arrangement(hand, found, rules)
    if opening:
        assert found.value >= rules.opening_min
        assert found.melds
        if rules.go_out == "discard":
            assert found.left
        if rules.opening_without_jokers:
            assert not any(c.is_joker for m in found.melds for c in m)
        if c.must is not None:
            assert any(c.must in m for m in found.melds)
    score = found.value if objective == "value" else hand_penalty(hand, rules) - found.penalty
    return score, found


def constraints_for(rng: random.Random, hand: list[Card], rules: Rules) -> tuple[Constraints, bool]:
    """Random constraints: plain best melds (maybe keeping a card) or an opening."""
    if rng.random() < 0.5:
        return Constraints(keep_one=rng.random() < 0.5), False
    must = rng.choice(hand) if rng.random() < 0.4 else None
    need = rules.opening_min
    return (
        Constraints(
            need=need,
            require_run=rules.opening_requires_run,
            keep_one=rules.go_out == "discard",
            no_jokers=rules.opening_without_jokers,
            must=must,
        ),
        True,
    )


def compare(score: int | None, expected: int | None, opening: bool) -> None:
    if opening and expected is not None and expected == 0 and score is None:
        return  # an "opening" that lays nothing is no opening (only with opening_min 0)
    assert score == expected


@pytest.mark.parametrize("chunk", range(SMALL_CHUNKS))
def test_small_hands_match_exhaustive_search(chunk: int) -> None:
    rng = random.Random(1000 + chunk)
    for _ in range(SMALL_PER_CHUNK):
        rules = random_rules(rng)
        size = rng.randint(3, 9)
        jokers = min(size, rng.choice((0, 0, 1, 1, 2, 3, 4)))
        hand = random_hand(rng, size, jokers)
        objective = rng.choice(("value", "penalty"))
        c, opening = constraints_for(rng, hand, rules)
        score, _found = solver_answer(hand, rules, objective, c, opening)
        expected = brute_force(hand, rules, objective, c)
        compare(score, expected, opening)


@pytest.mark.parametrize("chunk", range(ILP_CHUNKS))
def test_full_hands_match_the_integer_program(chunk: int) -> None:
    rng = random.Random(5000 + chunk)
    for _ in range(ILP_PER_CHUNK):
        rules = random_rules(rng)
        jokers = rng.choice((0, 1, 2, 3, 4, 5, 6))
        hand = random_hand(rng, 15, jokers)
        objective = rng.choice(("value", "penalty"))
        c, opening = constraints_for(rng, hand, rules)
        score, _found = solver_answer(hand, rules, objective, c, opening)
        expected = integer_program(hand, rules, objective, c)
        compare(score, expected, opening)
