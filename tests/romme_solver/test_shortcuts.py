"""The solver's shortcuts give the answers of the full search they stand in for.

The questions that only ask whether (`can_use_card`, "is there an opening?") are answered
without looking for the best; a hand whose best melds cannot reach the opening is refused
before any search; table options are cached on the faces that can change them. Each is
compared here with the plain search, on positions from seeded games and on random hands.
"""

from __future__ import annotations

import random

import pytest

from rummykit.cards import Card, romme_pack
from rummykit.romme.actions import NextRound
from rummykit.romme.bots import make_bot
from rummykit.romme.game import State
from rummykit.romme.rules import Rules, TableMeld, random_rules
from rummykit.romme.solver import best_melds, can_use_card
from rummykit.romme.solver.arrange import _Ask, _feasible, _solve
from rummykit.romme.solver.candidates import encode, meld_table
from rummykit.romme.solver.search import Problem, most_cards, solve, value_bound
from rummykit.romme.solver.table import _meld_options, table_options

GAMES = 40


def positions(seed: int) -> list[tuple[list[Card], Card, list[TableMeld], Rules, bool]]:
    """Every draw of one seeded game between computers (random rules): the hand, the top of
    the discard pile, the table, the rules and whether the seat has opened."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    players = rng.choice((2, 3, 4))
    state = State(rules, players, rng.getrandbits(32))
    bots = [make_bot(rng.choice(("easy", "random")), seed + seat) for seat in range(players)]
    found = []
    for _ in range(600):
        seat = state.to_move
        if state.is_over:
            break
        if seat is None:
            state.apply(NextRound())
            continue
        view = state.view(seat)
        if view.phase == "draw" and view.discard_pile:
            found.append(
                (
                    list(view.hand),
                    view.discard_pile[-1],
                    list(view.table),
                    rules,
                    view.opened[seat],
                )
            )
        state.apply(bots[seat].choose(view), seat)
    return found


@pytest.mark.parametrize("seed", range(GAMES))
def test_yes_or_no_questions_answer_as_the_full_search(seed: int) -> None:
    for hand, card, table, rules, opened in positions(1000 + seed):
        cards = [*hand, card]
        # The full search for the best arrangement that uses the card, and its yes or no.
        full = _solve(_Ask(cards, rules, opened, table, card, None), "cards")
        assert can_use_card(hand, card, table, rules, opened) == (full is not None)
        # The card taken may not be kept, or must be used; or only the hand, not yet opened.
        for must, no_keep, held in ((None, card, cards), (card, None, cards), (None, None, hand)):
            ask = _Ask(held, rules, opened, table, must, no_keep)
            full = _solve(ask, "value")
            assert _feasible(ask) == (full is not None)


def random_hand(rng: random.Random) -> list[Card]:
    pool = romme_pack()
    rng.shuffle(pool)
    if rng.random() < 0.6:
        suits = rng.sample(range(4), 2)
        low = rng.randint(1, 7)
        pool = [
            c
            for c in pool
            if c.is_joker or (c.suit in suits and c.rank is not None and low <= c.rank < low + 8)
        ]
    return pool[: rng.randint(3, 15)]


def test_the_opening_bound_is_the_value_of_the_best_melds() -> None:
    rng = random.Random(5)
    for _ in range(300):
        hand = random_hand(rng)
        rules = Rules(ace_low_value=rng.choice((1, 11)))
        counts, jokers = encode(hand)
        assert value_bound(meld_table(rules), counts, jokers) == best_melds(hand, rules).value


def test_the_most_cards_melded_is_what_the_full_search_lays() -> None:
    rng = random.Random(6)
    table = meld_table(Rules())
    for _ in range(300):
        counts, jokers = encode(random_hand(rng))
        jokers += rng.choice((0, 0, 1, 3))
        solution = solve(Problem(table, counts, jokers, "cards"))
        assert solution is not None
        assert most_cards(table, counts, jokers) == solution.cards_laid


def _mask(meld: TableMeld) -> int:
    """Every face of the meld's suit (a run) or rank (a group), as the cache once keyed."""
    reading = meld.reading()
    if meld.kind == "run":
        colour = reading.colours[0]
        assert colour is not None
        faces = [colour * 13 + r for r in range(13)]
    else:
        faces = [s * 13 + reading.numbers[0] - 1 for s in range(4)]
    return sum(3 << (2 * f) for f in faces)


@pytest.mark.parametrize("seed", range(4))
def test_table_options_do_not_depend_on_the_faces_left_out_of_the_cache(seed: int) -> None:
    rules = Rules()
    for hand, _card, table, _rules, _opened in positions(2000 + seed):
        counts, jokers = encode(hand)
        frees = sum(c.is_joker for m in table for c in m.cards)
        expected = [
            option
            for index, meld in enumerate(table)
            for option in _meld_options.__wrapped__(
                index, meld, counts & _mask(meld), jokers + frees, 11, 20
            )
        ]
        assert table_options(table, counts, jokers, rules) == expected
