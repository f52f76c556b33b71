"""Lay-offs and joker exchanges: the solver against every sequence of single moves."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rummykit.cards import Card, romme_pack
from rummykit.romme.rules import Rules, TableMeld, hand_penalty, meld_value, read_cards
from rummykit.romme.solver import Arrangement, best_turn, can_use_card
from rummykit.romme.turn import TurnContext, check_play

from .romme_moves import Turn, best_by_moves, random_table

CHUNKS = 10
PER_CHUNK = 60


def check_turn(hand: list[Card], table: list[TableMeld], found: Arrangement, rules: Rules) -> None:
    """New melds and changed table melds valid; every card accounted for exactly once."""
    by_id = {m.id: m for m in table}
    for m in found.melds:
        meld_value(m, rules)
    added: list[Card] = []
    freed: list[Card] = []
    for meld_id, cards in found.changed:
        old = by_id[meld_id]
        assert read_cards(cards, rules, old.kind) is not None
        added += [c for c in cards if c not in old.cards]
        freed += [c for c in old.cards if c not in cards]
        assert all(c.is_joker for c in old.cards if c not in cards)
    laid = [c for m in found.melds for c in m] + added
    assert Counter(laid + list(found.left)) == Counter(hand + freed)
    assert sum(1 for c in found.left if c.is_joker) <= sum(1 for c in hand if c.is_joker)
    assert not any(c in found.left for c in freed)


def check_with_engine(
    hand: list[Card],
    table: list[TableMeld],
    found: Arrangement,
    rules: Rules,
    opened: bool,
    picked: Card | None = None,
) -> None:
    """The engine accepts the arrangement's play and leaves exactly ``left`` in the hand."""
    play = found.play()
    if play is None:
        assert not found.melds and not found.changed
        return
    ctx = TurnContext(hand, {m.id: m for m in table}, rules, 0, opened, picked, 100)
    outcome = check_play(play, ctx)
    assert Counter(outcome.hand) == Counter(found.left)
    for meld_id, cards in found.changed:
        assert outcome.table[meld_id].cards == cards


def random_case(rng: random.Random) -> tuple[list[Card], list[TableMeld], Rules, bool]:
    pool = romme_pack()
    rng.shuffle(pool)
    # A small corner of the pack so that hand and table fit together often.
    suits = rng.sample(range(4), 2)
    low = rng.randint(1, 8)
    corner = [
        c
        for c in pool
        if c.is_joker or (c.suit in suits and c.rank is not None and low <= c.rank < low + 7)
    ]
    table = random_table(rng, corner, rng.randint(1, 3))
    size = rng.randint(2, 6)
    jokers = [c for c in corner if c.is_joker][: rng.choice((0, 0, 1, 2))]
    naturals = [c for c in corner if not c.is_joker][: size - len(jokers)]
    rules = Rules(
        opening_min=rng.choice((0, 30)),
        layoff_on_opening_turn=rng.random() < 0.7,
        go_out=rng.choice(("discard", "meld")),
        joker_penalty=rng.choice((20, 40)),
        opening_requires_run=rng.random() < 0.2,
        opening_without_jokers=rng.random() < 0.2,
    )
    return naturals + jokers, table, rules, rng.random() < 0.7


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_best_turn_matches_every_sequence_of_moves(chunk: int) -> None:
    rng = random.Random(7000 + chunk)
    for _ in range(PER_CHUNK):
        hand, table, rules, opened = random_case(rng)
        found = best_turn(hand, rules, "penalty", opened=opened, table=table)
        expected = best_by_moves(hand, table, rules, Turn(opened))
        assert found is not None
        check_turn(hand, table, found, rules)
        check_with_engine(hand, table, found, rules, opened)
        assert hand_penalty(hand, rules) - found.penalty == expected


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_can_use_card_matches_every_sequence_of_moves(chunk: int) -> None:
    rng = random.Random(8000 + chunk)
    for _ in range(PER_CHUNK):
        hand, table, rules, opened = random_case(rng)
        card = hand.pop(rng.randrange(len(hand)))
        expected = best_by_moves([*hand, card], table, rules, Turn(opened, must=card))
        assert can_use_card(hand, card, table, rules, opened) == (expected is not None)
        found = best_turn(
            [*hand, card], rules, "penalty", opened=opened, table=table, must_include=card
        )
        assert (found is not None) == (expected is not None)
        if found is not None:
            check_turn([*hand, card], table, found, rules)
            check_with_engine([*hand, card], table, found, rules, opened, picked=card)
            assert hand_penalty([*hand, card], rules) - found.penalty == expected


def test_the_quick_pickup_check_sees_a_card_laid_beyond_a_joker() -> None:
    """6♠ from the discard pile joins 8♠ 9♠ 10♠ J♠ once the joker freed by 3♠ from the group
    stands for 7♠: the quick check must not rule that out (the solver finds it)."""
    from rummykit.cards import parse_cards
    from rummykit.romme.turn import might_use_card

    hand = parse_cards("10♦ 3♠")
    table = [
        TableMeld(tuple(parse_cards("3♣ 3♥ 3♦ JK")), "group", owner=0, id=0),
        TableMeld(tuple(parse_cards("8♠ 9♠ 10♠ J♠")), "run", owner=1, id=1),
    ]
    card, rules = Card.parse("6♠"), Rules()
    assert can_use_card(hand, card, table, rules, True)
    assert might_use_card(hand, card, table, rules, True)
    assert not might_use_card(hand, Card.parse("5♠"), table[1:], rules, True)
    # The joker may sit in a meld looked at before the run it is laid on.
    table = [
        TableMeld(tuple(parse_cards("3♦ JK 5♦")), "run", owner=1, id=0),
        TableMeld(tuple(parse_cards("5♠ 6♠ 7♠ 8♠")), "run", owner=1, id=1),
    ]
    hand = parse_cards("4♥ 4♦ 5♣ 7♣ 9♥ Q♦")
    assert can_use_card(hand, Card.parse("3♠"), table, rules, True)
    assert might_use_card(hand, Card.parse("3♠"), table, rules, True)
    # K♥ joins a run ending in J♥ once the Q♥ of the hand is laid before it.
    run = [TableMeld(tuple(parse_cards("9♥ 10♥ J♥")), "run", owner=0, id=3)]
    hand = parse_cards("9♠ Q♥")
    assert can_use_card(hand, Card.parse("K♥"), run, rules, True)
    assert might_use_card(hand, Card.parse("K♥"), run, rules, True)
