"""Playing cards with identities, the card notation, packs and seeded shuffles.

Every physical card is distinct: the Rommé pack holds two 8♠, and they are two different
`Card` values (``copy`` 0 and 1). The notation names a card by its face (``8♠``, ``10♥``,
``JK``); a ``#n`` suffix names a copy explicitly (``8♠#1``). When a list is parsed, faces
without a suffix take the lowest copy not yet used in that list, so ``parse_cards("8♠ 8♠")``
gives both copies.

>>> parse_cards("9♥ 9♦ JK")
[Card.parse('9♥'), Card.parse('9♦'), Card.parse('JK')]
>>> format_cards(parse_cards("As 10h Th Qd *"))
'A♠ 10♥ 10♥#1 Q♦ JK'
>>> len(romme_pack()), len(set(romme_pack()))
(110, 110)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar, Self

from rummykit.core import IllegalAction
from rummykit.notation import Copied, parse_pieces


class Suit(IntEnum):
    """The four suits, in the order clubs, spades, hearts, diamonds."""

    CLUBS = 0
    SPADES = 1
    HEARTS = 2
    DIAMONDS = 3

    @property
    def symbol(self) -> str:
        return "♣♠♥♦"[self]

    @property
    def letter(self) -> str:
        return "cshd"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


class Rank(IntEnum):
    """Ranks with the ace as 1; games that play the ace high say so in their own rules."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]


_RANK_SYMBOLS = {1: "A", 11: "J", 12: "Q", 13: "K"} | {n: str(n) for n in range(2, 11)}
_RANK_BY_TEXT = {v: Rank(k) for k, v in _RANK_SYMBOLS.items()} | {"T": Rank.TEN, "1": Rank.ACE}
_SUIT_BY_TEXT = (
    {s.symbol: s for s in Suit}
    | {s.letter: s for s in Suit}
    | {
        "♤": Suit.SPADES,
        "♡": Suit.HEARTS,
        "♢": Suit.DIAMONDS,
        "♧": Suit.CLUBS,
    }
)
_JOKER_TEXT = {"JK", "*", "JOKER", "🃏"}
# Largest copy number per face: two decks, six jokers (Rommé); games with fewer use fewer.
MAX_NATURAL_COPIES = 2
MAX_JOKERS = 6


@dataclass(frozen=True, order=True, slots=True, repr=False)
class Card(Copied):
    """One physical card: a rank and suit (or a joker, both ``None``) and which copy it is.

    ``Card.id`` numbers the cards 0..109 (naturals by suit, rank and copy; jokers last), which
    is the compact JSON form.

    >>> Card.parse("Th"), Card.parse("8♠#1").copy, Card.parse("*").is_joker
    (Card.parse('10♥'), 1, True)
    """

    rank: Rank | None
    suit: Suit | None
    copy: int = 0
    noun: ClassVar[str] = "card"
    copy_digits: ClassVar[int] = 3
    joker_copies: ClassVar[int] = MAX_JOKERS
    natural_copies: ClassVar[int] = MAX_NATURAL_COPIES

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise ValueError("a card has both a rank and a suit, or neither (a joker)")
        self._check_copy()

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def face(self) -> str:
        """The card's face in the notation, without the copy: ``8♠``, ``JK``."""
        if self.rank is None or self.suit is None:
            return "JK"
        return self.rank.symbol + self.suit.symbol

    @property
    def id(self) -> int:
        if self.rank is None or self.suit is None:
            return 104 + self.copy
        return self.copy * 52 + int(self.suit) * 13 + int(self.rank) - 1

    @classmethod
    def from_id(cls, card_id: int) -> Card:
        if not isinstance(card_id, int) or isinstance(card_id, bool) or not 0 <= card_id < 110:
            raise IllegalAction("bad_card", card=repr(card_id))
        return _PACK[card_id]

    @classmethod
    def joker(cls, copy: int = 0) -> Card:
        return cls(None, None, copy)

    @classmethod
    def _from_face(cls, face: str, copy: int) -> Self:
        upper = face.upper()
        if upper in _JOKER_TEXT:
            return cls(None, None, copy)
        rank = _RANK_BY_TEXT.get(upper[:-1])
        suit = _SUIT_BY_TEXT.get(face[-1:].lower()) or _SUIT_BY_TEXT.get(face[-1:])
        if rank is None or suit is None or len(face) < 2:
            raise ValueError(f"no card {face!r}")
        return cls(rank, suit, copy)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse cards separated by spaces or commas; unnumbered faces take the next free copy.

    >>> [c.code for c in parse_cards("8♠ 8s JK *")]
    ['8♠', '8♠#1', 'JK', 'JK#1']
    >>> parse_cards("8♠ 8♠ 8♠")
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: bad_card: card='8♠'
    """
    return parse_pieces(Card, text)


def format_cards(cards: Iterable[Card]) -> str:
    """The notation of several cards, separated by spaces."""
    return " ".join(card.code for card in cards)


def standard_deck(copy: int = 0) -> list[Card]:
    """One 52-card deck without jokers, ordered by suit then rank."""
    return [Card(rank, suit, copy) for suit in Suit for rank in Rank]


_PACK: tuple[Card, ...] = (
    *standard_deck(0),
    *standard_deck(1),
    *(Card.joker(i) for i in range(MAX_JOKERS)),
)
"""The 110 cards in the order of their ids, made once: the games and the actions read from
JSON share them, so a server holding a hundred games keeps 110 card objects, not tens of
thousands that each full pass of the garbage collector walks."""


def romme_pack(jokers: int = 6) -> list[Card]:
    """The Rommé pack: two 52-card decks and six jokers (110 cards), each card distinct."""
    if not 0 <= jokers <= MAX_JOKERS:
        raise ValueError(f"jokers must be in 0..{MAX_JOKERS}")
    return list(_PACK[: 104 + jokers])


def shuffled(cards: Sequence[Card], rng: random.Random) -> list[Card]:
    """A shuffled copy, using only the given generator so games replay from their seed."""
    deck = list(cards)
    rng.shuffle(deck)
    return deck


def sort_cards(cards: Iterable[Card], by: str = "suit") -> list[Card]:
    """Cards sorted for display: ``by="suit"`` (suit, then rank) or ``"rank"``; jokers last."""

    def key(card: Card) -> tuple[int, int, int, int]:
        if card.rank is None or card.suit is None:
            return (1, 0, 0, card.copy)
        if by == "rank":
            return (0, int(card.rank), int(card.suit), card.copy)
        return (0, int(card.suit), int(card.rank), card.copy)

    return sorted(cards, key=key)
