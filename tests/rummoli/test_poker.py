"""Poker evaluation: categories and tie-breaks by hand, then against treys and brute force."""

from __future__ import annotations

import itertools
import random

import pytest
from treys import Card as TreysCard
from treys import Evaluator
from treys.lookup import LookupTable

from rummykit.cards import Card, parse_cards, standard_deck
from rummykit.core import IllegalAction
from rummykit.rummoli import poker
from rummykit.rummoli.poker import Category, card_index, evaluate, index_card, key_of_indices

DECK = standard_deck()


def value(text: str) -> poker.HandValue:
    return evaluate(parse_cards(text))


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("A♠ K♠ Q♠ J♠ 10♠", Category.STRAIGHT_FLUSH),
        ("9♣ 9♦ 9♥ 9♠ 2♥", Category.FOUR_OF_A_KIND),
        ("9♣ 9♦ 9♥ 2♠ 2♥", Category.FULL_HOUSE),
        ("2♦ 5♦ 9♦ J♦ K♦", Category.FLUSH),
        ("6♣ 7♦ 8♥ 9♠ 10♥", Category.STRAIGHT),
        ("9♣ 9♦ 9♥ K♠ 2♥", Category.THREE_OF_A_KIND),
        ("9♣ 9♦ 5♥ 5♠ 2♥", Category.TWO_PAIR),
        ("9♣ 9♦ 5♥ 4♠ 2♥", Category.PAIR),
        ("A♣ 9♦ 5♥ 4♠ 2♥", Category.HIGH_CARD),
    ],
)
def test_the_nine_categories(text: str, category: Category) -> None:
    assert value(text).category is category


def test_categories_rank_from_straight_flush_down_to_high_card() -> None:
    ranked = [
        "A♣ 9♦ 5♥ 4♠ 2♥",
        "9♣ 9♦ 5♥ 4♠ 2♥",
        "9♣ 9♦ 5♥ 5♠ 2♥",
        "9♣ 9♦ 9♥ K♠ 2♥",
        "6♣ 7♦ 8♥ 9♠ 10♥",
        "2♦ 5♦ 9♦ J♦ K♦",
        "9♣ 9♦ 9♥ 2♠ 2♥",
        "9♣ 9♦ 9♥ 9♠ 2♥",
        "5♠ 4♠ 3♠ 2♠ A♠",
    ]
    values = [value(t) for t in ranked]
    assert values == sorted(values) and len(set(values)) == len(values)


def test_the_ace_is_high_and_a_2_3_4_5_is_the_lowest_straight() -> None:
    wheel, six_high, broadway = (
        value("A♥ 2♦ 3♣ 4♠ 5♥"),
        value("2♥ 3♦ 4♣ 5♠ 6♥"),
        value("10♥ J♦ Q♣ K♠ A♥"),
    )
    assert wheel.category is Category.STRAIGHT and wheel.ranks == (5,)
    assert wheel < six_high < broadway
    assert value("Q♥ K♦ A♣ 2♠ 3♥").category is Category.HIGH_CARD  # no wrapping around
    assert value("A♣ 7♦ 5♥ 4♠ 2♥") > value("K♣ Q♦ J♥ 9♠ 8♥")


def test_suits_never_break_ties() -> None:
    assert value("A♠ K♠ Q♠ J♠ 10♠") == value("A♥ K♥ Q♥ J♥ 10♥")
    assert value("9♣ 9♦ 5♥ 5♠ 2♥") == value("9♥ 9♠ 5♣ 5♦ 2♣")
    assert hash(value("9♣ 9♦ 5♥ 5♠ 2♥")) == hash(value("9♥ 9♠ 5♣ 5♦ 2♣"))


def test_kickers_decide_in_order() -> None:
    assert value("9♣ 9♦ A♥ 4♠ 2♥") > value("9♥ 9♠ K♣ Q♦ J♣")
    assert value("9♣ 9♦ 5♥ 5♠ 3♥") > value("9♥ 9♠ 5♣ 5♦ 2♣")
    assert value("K♣ K♦ K♥ 3♠ 2♥") > value("Q♣ Q♦ Q♥ A♠ K♥")
    assert value("2♦ 5♦ 9♦ J♦ K♦") > value("3♥ 5♥ 9♥ J♥ Q♥")


def test_the_best_five_of_many_cards() -> None:
    v = value("9♣ 9♦ 9♥ K♠ K♦ K♣ 2♠")
    assert v.describe() == "full house K-9"
    assert v.best_five == tuple(parse_cards("K♠ K♦ K♣ 9♣ 9♦"))
    three_pairs = value("9♣ 9♦ 5♥ 5♠ 3♥ 3♦ 2♣")
    assert three_pairs.describe() == "two pair 9-5-3"  # the third pair's rank is the kicker


def test_with_several_flush_suits_the_best_flush_counts() -> None:
    # Two five-card flushes; the clubs are better even though hearts come first.
    v = value("2♥ 4♥ 6♥ 8♥ 10♥ 3♣ 5♣ 7♣ 9♣ J♣")
    assert v.category is Category.FLUSH and v.ranks == (11, 9, 7, 5, 3)
    assert {c.suit for c in v.best_five} == {parse_cards("2♣")[0].suit}
    # A straight flush in the second suit beats a higher plain flush in the first.
    sf = value("A♥ K♥ Q♥ J♥ 9♥ 2♠ 3♠ 4♠ 5♠ 6♠")
    assert sf.category is Category.STRAIGHT_FLUSH and sf.ranks == (6,)
    # 26 cards: every suit holds a flush; the best straight flush is chosen.
    many = value("2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♥ 9♥ 10♥ J♥ Q♥ A♦ K♦ Q♦ J♦ 10♦ 9♦ 2♠ 5♠ 7♠ 9♠ J♠ K♠ A♠ 3♥ 4♥")
    assert many.describe() == "straight flush A" and many.best_five[0].code == "A♦"


def test_fewer_than_five_cards_rank_what_they_hold() -> None:
    assert value("A♠ A♦ 2♣").category is Category.PAIR
    assert value("A♠").category is Category.HIGH_CARD
    assert value("2♠ 2♦") > value("A♠ K♦")
    assert value("2♠ 3♠ 4♠ 5♠").category is Category.HIGH_CARD  # no straight, no flush
    assert evaluate([]).key == 0


def test_a_duplicate_or_a_joker_is_refused() -> None:
    with pytest.raises(IllegalAction) as err:
        evaluate(parse_cards("9♣ 9♣"))
    assert err.value.code == "duplicate_card"
    with pytest.raises(IllegalAction) as err:
        evaluate(parse_cards("9♣ JK"))
    assert err.value.code == "bad_card"


def test_card_indices_put_the_ace_on_top_of_its_suit() -> None:
    assert [card_index(index_card(i)) for i in range(52)] == list(range(52))
    assert card_index(Card.parse("A♠")) == card_index(Card.parse("K♠")) + 1


def test_the_best_five_always_make_the_value() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        cards = rng.sample(DECK, rng.randint(5, 26))
        v = evaluate(cards)
        assert len(v.best_five) == 5 and set(v.best_five) <= set(cards)
        assert evaluate(v.best_five) == v


# --- against an established evaluator (treys ranks lower-is-better, 1..7462) ------------------

_TREYS = {c: TreysCard.new(c.rank.symbol.replace("10", "T") + "cshd"[c.suit]) for c in DECK}
_CLASSES = [
    (LookupTable.MAX_STRAIGHT_FLUSH, Category.STRAIGHT_FLUSH),
    (LookupTable.MAX_FOUR_OF_A_KIND, Category.FOUR_OF_A_KIND),
    (LookupTable.MAX_FULL_HOUSE, Category.FULL_HOUSE),
    (LookupTable.MAX_FLUSH, Category.FLUSH),
    (LookupTable.MAX_STRAIGHT, Category.STRAIGHT),
    (LookupTable.MAX_THREE_OF_A_KIND, Category.THREE_OF_A_KIND),
    (LookupTable.MAX_TWO_PAIR, Category.TWO_PAIR),
    (LookupTable.MAX_PAIR, Category.PAIR),
    (LookupTable.MAX_HIGH_CARD, Category.HIGH_CARD),
]


def _treys_category(rank: int) -> Category:
    return next(category for limit, category in _CLASSES if rank <= limit)


def _assert_same_order(pairs: dict[int, int]) -> None:
    """Our keys and treys' ranks must be the same total order (reversed) on the same classes."""
    keys = sorted(pairs)
    ranks = [pairs[k] for k in keys]
    assert all(a > b for a, b in itertools.pairwise(ranks)), "order differs from treys"


def test_against_treys_on_100000_random_hands_of_5_to_7_cards() -> None:
    evaluator = Evaluator()
    rng = random.Random(2024)
    ours_to_treys: dict[int, int] = {}
    treys_to_ours: dict[int, int] = {}
    for _ in range(100_000):
        cards = rng.sample(DECK, rng.randint(5, 7))
        ours = key_of_indices(card_index(c) for c in cards)
        theirs = evaluator.evaluate([_TREYS[c] for c in cards[:2]], [_TREYS[c] for c in cards[2:]])
        assert ours_to_treys.setdefault(ours, theirs) == theirs, cards
        assert treys_to_ours.setdefault(theirs, ours) == ours, cards
        assert Category(ours >> 20) is _treys_category(theirs), cards
    _assert_same_order(ours_to_treys)
    assert len(ours_to_treys) > 4000  # most of treys' 7462 classes were met


def _treys_five(cards: tuple[Card, ...], evaluator: Evaluator) -> int:
    return int(evaluator.evaluate([_TREYS[c] for c in cards[:2]], [_TREYS[c] for c in cards[2:]]))


def test_against_brute_force_over_every_five_card_subset_up_to_12_cards() -> None:
    evaluator = Evaluator()
    rng = random.Random(7)
    ours_to_treys: dict[int, int] = {}
    for n in range(5, 13):
        for _ in range(700 if n <= 9 else 150):
            cards = rng.sample(DECK, n)
            subsets = list(itertools.combinations(cards, 5))
            best = max(key_of_indices(card_index(c) for c in s) for s in subsets)
            assert poker.key(cards) == best, cards
            treys_best = min(_treys_five(s, evaluator) for s in subsets)
            assert ours_to_treys.setdefault(best, treys_best) == treys_best, cards
    _assert_same_order(ours_to_treys)


def test_against_brute_force_on_a_few_big_hands_up_to_20_cards() -> None:
    rng = random.Random(11)
    for n in (13, 16, 20):
        for _ in range(4):
            cards = rng.sample(DECK, n)
            best = max(
                key_of_indices(card_index(c) for c in s) for s in itertools.combinations(cards, 5)
            )
            assert poker.key(cards) == best, cards
