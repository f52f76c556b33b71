"""Poker hands for Rummoli: the best five cards out of any number, ace high.

Evaluation is direct, never by trying every five-card subset: the cards become four 13-bit rank
masks (one per suit), and pairs, trips, quads, flushes and straights are read off those masks
with a handful of bit operations. A hand's value is one integer, its **key**: the category in the
top bits, then the ranks that decide ties, most significant first (four bits each). Greater keys
are better hands, equal keys are equal hands; suits never break ties. A-2-3-4-5 is the lowest
straight (its high card is the 5).

>>> from rummykit.cards import parse_cards
>>> v = evaluate(parse_cards("A♠ K♠ Q♠ J♠ 10♠ 2♦ 2♣"))
>>> v.category.name, format_cards(v.best_five)
('STRAIGHT_FLUSH', 'A♠ K♠ Q♠ J♠ 10♠')
>>> evaluate(parse_cards("5♥ 4♦ 3♣ 2♠ A♥")) < evaluate(parse_cards("6♥ 5♦ 4♣ 3♠ 2♥"))
True
>>> evaluate(parse_cards("K♥ K♦ 9♣ 9♠ 2♥")) == evaluate(parse_cards("K♠ K♣ 9♥ 9♦ 2♣"))
True

With more than seven cards several suits may hold five or more; the best flush among them counts:

>>> evaluate(parse_cards("2♥ 4♥ 6♥ 8♥ 10♥ 3♣ 5♣ 7♣ 9♣ J♣")).describe()
'flush J-9-7-5-3'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from rummykit.cards import Card, Rank, Suit, format_cards
from rummykit.core import IllegalAction

__all__ = [
    "Category",
    "HandValue",
    "card_index",
    "evaluate",
    "index_card",
    "key",
    "key_of_indices",
    "key_of_masks",
]


class Category(IntEnum):
    """The nine poker categories, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """A lower-case English name (``"full house"``), for logs and tests; pages translate."""
        return self.name.lower().replace("_", " ")


# --- card indices ---------------------------------------------------------------------------
#
# Rummoli numbers its 52 cards by suit, then by rank with the ace HIGH: index = suit * 13 +
# (rank - 2), the ace being rank 14. So within a suit, index + 1 is the next card up, and
# index % 13 == 12 is the ace. The engine keeps hands as these small integers.

_CATEGORY_SHIFT = 20


def card_index(card: Card) -> int:
    """The Rummoli index of a natural card: suit * 13 + rank position, ace high (0..51).

    >>> card_index(Card.parse("2♣")), card_index(Card.parse("A♣")), card_index(Card.parse("A♦"))
    (0, 12, 51)
    """
    if card.rank is None or card.suit is None:
        raise IllegalAction("bad_card", card=card.code)
    rank = int(card.rank)
    return int(card.suit) * 13 + (12 if rank == 1 else rank - 2)


_INDEX_TO_CARD: tuple[Card, ...] = tuple(
    Card(Rank(1 if r == 12 else r + 2), Suit(s)) for s in range(4) for r in range(13)
)


def index_card(index: int) -> Card:
    """The card with a given Rummoli index (inverse of `card_index`)."""
    return _INDEX_TO_CARD[index]


# --- evaluation on rank masks ---------------------------------------------------------------


def _top(mask: int, count: int) -> list[int]:
    """The positions of the ``count`` highest set bits, highest first."""
    out: list[int] = []
    while mask and len(out) < count:
        bit = mask.bit_length() - 1
        out.append(bit)
        mask ^= 1 << bit
    return out


def _straight_high(mask: int) -> int:
    """The rank position (0 = deuce … 12 = ace) of the highest straight's top card, or -1.

    The wheel A-2-3-4-5 reads with the ace below the deuce, so its top card is the 5 (3).
    """
    wide = (mask << 1) | (mask >> 12 & 1)  # position 0 is the low ace
    runs = wide & (wide >> 1) & (wide >> 2) & (wide >> 3) & (wide >> 4)
    if not runs:
        return -1
    return runs.bit_length() - 1 + 3  # lowest position of the top run, +4, -1 for the low ace


def _pack(category: int, positions: Sequence[int]) -> int:
    """The key: category, then up to five rank values (2..14) in four-bit fields."""
    value = category
    for i in range(5):
        value = (value << 4) | (positions[i] + 2 if i < len(positions) else 0)
    return value


def _evaluate_masks(m0: int, m1: int, m2: int, m3: int) -> tuple[int, int]:
    """The key of the best hand in four suit masks, and the suit it needs (-1 if none).

    Works for any number of cards: with fewer than five, the categories that need five cards
    (straights, flushes, full houses read from fewer ranks) simply cannot occur.
    """
    masks = (m0, m1, m2, m3)
    best_sf = -1
    sf_suit = -1
    best_flush = -1
    flush_suit = -1
    for suit, mask in enumerate(masks):
        if mask.bit_count() >= 5:
            high = _straight_high(mask)
            if high > best_sf:
                best_sf, sf_suit = high, suit
            flush = _pack(Category.FLUSH, _top(mask, 5))
            if flush > best_flush:
                best_flush, flush_suit = flush, suit
    if best_sf >= 0:
        return _pack(Category.STRAIGHT_FLUSH, (best_sf,)), sf_suit
    ranks = m0 | m1 | m2 | m3
    quads = m0 & m1 & m2 & m3
    if quads:
        q = quads.bit_length() - 1
        return _pack(Category.FOUR_OF_A_KIND, [q, *_top(ranks & ~(1 << q), 1)]), -1
    m01, m23 = m0 & m1, m2 & m3
    trips = (m01 & (m2 | m3)) | (m23 & (m0 | m1))
    pairs = m01 | m23 | ((m0 | m1) & (m2 | m3))
    if trips:
        t = trips.bit_length() - 1
        rest = pairs & ~(1 << t)
        if rest:
            return _pack(Category.FULL_HOUSE, (t, rest.bit_length() - 1)), -1
    if best_flush >= 0:
        return best_flush, flush_suit
    high = _straight_high(ranks)
    if high >= 0:
        return _pack(Category.STRAIGHT, (high,)), -1
    if trips:
        t = trips.bit_length() - 1
        return _pack(Category.THREE_OF_A_KIND, [t, *_top(ranks & ~(1 << t), 2)]), -1
    if pairs:
        top_pairs = _top(pairs, 2)
        if len(top_pairs) == 2:
            used = (1 << top_pairs[0]) | (1 << top_pairs[1])
            return _pack(Category.TWO_PAIR, top_pairs + _top(ranks & ~used, 1)), -1
        p = top_pairs[0]
        return _pack(Category.PAIR, [p, *_top(ranks & ~(1 << p), 3)]), -1
    return _pack(Category.HIGH_CARD, _top(ranks, 5)), -1


def key_of_masks(m0: int, m1: int, m2: int, m3: int) -> int:
    """The key of the best hand given one 13-bit rank mask per suit (bit 0 = deuce, 12 = ace)."""
    return _evaluate_masks(m0, m1, m2, m3)[0]


def key_of_indices(indices: Iterable[int]) -> int:
    """The key of the best hand among cards given by their Rummoli indices (see `card_index`).

    This is the fast path the engine and the computer players use.
    """
    masks = [0, 0, 0, 0]
    for index in indices:
        suit, position = divmod(index, 13)
        masks[suit] |= 1 << position
    return _evaluate_masks(masks[0], masks[1], masks[2], masks[3])[0]


def _masks(cards: Iterable[Card]) -> tuple[list[int], list[tuple[int, Card]]]:
    masks = [0, 0, 0, 0]
    seen: list[tuple[int, Card]] = []
    for card in cards:
        index = card_index(card)
        suit, position = divmod(index, 13)
        bit = 1 << position
        if masks[suit] & bit:
            raise IllegalAction("duplicate_card", card=card.face)
        masks[suit] |= bit
        seen.append((index, card))
    return masks, seen


def key(cards: Iterable[Card]) -> int:
    """The key of the best five of these cards (distinct faces, no jokers); greater is better."""
    masks, _ = _masks(cards)
    return key_of_masks(*masks)


# --- the value object -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """The value of a poker hand: ordered and compared by `key` only (suits never count).

    ``best_five`` names five cards that make the hand (fewer when fewer were given); when
    several choices are equal (a pair in two suits), the first given wins.
    """

    key: int
    best_five: tuple[Card, ...]

    @property
    def category(self) -> Category:
        return Category(self.key >> _CATEGORY_SHIFT)

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks that decide ties, most significant first, the ace as 14."""
        out = []
        for shift in range(16, -1, -4):
            value = (self.key >> shift) & 0xF
            if value:
                out.append(value)
        return tuple(out)

    def describe(self) -> str:
        """A short English description (``"full house K-9"``), for logs and tests."""
        names = {14: "A", 13: "K", 12: "Q", 11: "J"}
        ranks = "-".join(names.get(r, str(r)) for r in self.ranks)
        return f"{self.category.label} {ranks}"

    def __lt__(self, other: HandValue) -> bool:
        return self.key < other.key

    def __le__(self, other: HandValue) -> bool:
        return self.key <= other.key

    def __gt__(self, other: HandValue) -> bool:
        return self.key > other.key

    def __ge__(self, other: HandValue) -> bool:
        return self.key >= other.key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"HandValue({self.describe()!r}, best_five={format_cards(self.best_five)!r})"


def evaluate(cards: Iterable[Card]) -> HandValue:
    """The value of the best five cards among any number of distinct cards (ace high).

    Raises ``IllegalAction("duplicate_card")`` when a face appears twice and
    ``IllegalAction("bad_card")`` for a joker.

    >>> from rummykit.cards import parse_cards
    >>> v = evaluate(parse_cards("9♣ 9♦ 9♥ K♠ K♦ K♣ 2♠"))
    >>> v.describe(), v.category.label
    ('full house K-9', 'full house')
    """
    masks, given = _masks(cards)
    value, suit = _evaluate_masks(*masks)
    return HandValue(value, _best_five(value, suit, given))


_SHAPES: dict[int, tuple[int, ...]] = {
    Category.FOUR_OF_A_KIND: (4, 1),
    Category.FULL_HOUSE: (3, 2),
    Category.THREE_OF_A_KIND: (3, 1, 1),
    Category.TWO_PAIR: (2, 2, 1),
    Category.PAIR: (2, 1, 1, 1),
}
"""How many cards of each tie-break rank make the hand (one each for the other categories)."""


def _best_five(value: int, suit: int, cards: Sequence[tuple[int, Card]]) -> tuple[Card, ...]:
    """Five cards (or fewer) that make the hand of ``value``, in the order that ranks it."""
    category = value >> _CATEGORY_SHIFT
    ranks = [r for r in ((value >> shift) & 0xF for shift in (16, 12, 8, 4, 0)) if r]
    by_rank: dict[int, list[Card]] = {}
    for index, card in cards:
        if suit < 0 or index // 13 == suit:
            by_rank.setdefault(index % 13 + 2, []).append(card)
    if category == Category.STRAIGHT or category == Category.STRAIGHT_FLUSH:
        high = ranks[0]
        return tuple(by_rank[14 if high - i == 1 else high - i][0] for i in range(5))
    out: list[Card] = []
    for rank, count in zip(ranks, _SHAPES.get(category, (1, 1, 1, 1, 1)), strict=False):
        out.extend(by_rank[rank][:count])
    return tuple(out)
