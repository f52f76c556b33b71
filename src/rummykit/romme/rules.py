"""Rommé rules: the options of a game, card values, melds of cards and melds on the table.

Everything here is a pure function of cards and options; the game state (`rummykit.romme.game`)
and the meld solver both build on it.

Card values follow the usual table: 2-10 at face value, J Q K 10, the ace 11 (or, as an option,
1 when it stands below the 2 in a run), a joker the value of the card it stands for when melded
and a fixed penalty in hand.

>>> from rummykit.cards import parse_cards
>>> meld_value(parse_cards("J♣ Q♣ K♣"))
30
>>> meld_value(parse_cards("9♥ 9♦ JK")), meld_value(parse_cards("A♠ A♥ A♦"))
(27, 33)
>>> hand_penalty(parse_cards("9♥ 9♦ JK")), hand_penalty(parse_cards("10♦ 5♠"))
(38, 15)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, get_args

from rummykit.cards import Card, Rank, Suit
from rummykit.core import JSON, IllegalAction, RulesBase
from rummykit.melds import MeldKind, MeldRules, Piece, Reading, read_meld, readings

DealStyle = Literal["dealer_left_extra", "upcard"]
DiscardPickup = Literal["must_use", "free"]
GoOut = Literal["discard", "meld"]
HandRomme = Literal["double", "credit", "none"]
NeverOpened = Literal["cards", "flat100"]
StockExhausted = Literal["reshuffle", "end_round"]
LimitRule = Literal["exceeds", "reaches"]

MIN_PLAYERS = 2
MAX_PLAYERS = 6
HAND_SIZES = (12, 13, 14)
OPENING_MINIMA = (0, 30, 40)
ACE_LOW_VALUES = (11, 1)
JOKER_PENALTIES = (20, 25, 30, 40)
FLAT_NEVER_OPENED = 100
HAND_ROMME_CREDIT = 100

CARD_MELDS = MeldRules(
    numbers=13, colours=4, ace_high=True, adjacent_jokers=False, max_group=4, min_size=3
)
"""Cards meld with the ace low or high (never around the corner) and no two jokers side by side."""

PRESETS = ("standard", "computer", "german_club")


@dataclass(frozen=True, slots=True)
class Rules(RulesBase):
    """Every option of a Rommé game; the defaults are the standard rules.

    Invalid options raise ``IllegalAction("bad_rules", field=..., value=..., allowed=...)``:

    >>> try:
    ...     Rules(joker_penalty=35)
    ... except IllegalAction as err:
    ...     print(err.code, err.params)
    bad_rules {'field': 'joker_penalty', 'value': 35, 'allowed': [20, 25, 30, 40]}
    >>> Rules.preset("german_club").point_limit
    500
    >>> Rules.from_json(Rules.preset("computer").to_json()) == Rules.preset("computer")
    True
    """

    PLAYERS: ClassVar[tuple[int, int]] = (MIN_PLAYERS, MAX_PLAYERS)
    PRESETS: ClassVar[tuple[str, ...]] = PRESETS

    hand_size: int = 13
    """Cards dealt to each player: 12, 13 or 14."""
    deal_style: DealStyle = "dealer_left_extra"
    """``dealer_left_extra``: the dealer's left gets one card more and starts without drawing;
    ``upcard``: equal hands, the stock's top card starts the discard pile."""
    opening_min: int = 30
    """The value the first melding must reach: 0, 30 or 40."""
    ace_low_value: int = 11
    """The value of an ace below the 2 in a run (11 or 1); everywhere else it is 11."""
    joker_penalty: int = 20
    """A joker left in hand: 20, 25, 30 or 40."""
    discard_pickup: DiscardPickup = "must_use"
    """``must_use``: the discard may be taken only to be used in the same turn; ``free``."""
    layoff_on_opening_turn: bool = True
    """Whether lay-offs and joker exchanges are allowed in the turn of the opening."""
    opening_requires_run: bool = False
    """House rule: the opening holds a run."""
    opening_without_jokers: bool = False
    """House rule: the opening holds no joker."""
    go_out: GoOut = "discard"
    """``discard``: the last card is discarded, never melded; ``meld``: it may be melded."""
    hand_romme: HandRomme = "double"
    """Going out in the turn of the opening: the others pay ``double``, the winner gets a
    ``credit`` of -100, or ``none``."""
    never_opened: NeverOpened = "cards"
    """A player who never opened pays the ``cards`` in hand, or a ``flat100``."""
    stock_exhausted: StockExhausted = "reshuffle"
    """``reshuffle`` the discard pile but its top card, or ``end_round``."""
    rounds: int | None = 3
    """Rounds in a game, or ``None`` (then a point limit ends it)."""
    point_limit: int | None = None
    """The game ends after the round in which a total passes the limit (that player loses)."""
    limit_rule: LimitRule = "exceeds"
    """Whether the limit is passed when a total ``exceeds`` it or ``reaches`` it."""
    jokers: int = 6
    """Jokers in the pack, 0 to 6 (the pack is two 52-card decks and the jokers)."""

    def __post_init__(self) -> None:
        _choice("hand_size", self.hand_size, HAND_SIZES)
        _choice("deal_style", self.deal_style, get_args(DealStyle))
        _choice("opening_min", self.opening_min, OPENING_MINIMA)
        _choice("ace_low_value", self.ace_low_value, ACE_LOW_VALUES)
        _choice("joker_penalty", self.joker_penalty, JOKER_PENALTIES)
        _choice("discard_pickup", self.discard_pickup, get_args(DiscardPickup))
        for flag in ("layoff_on_opening_turn", "opening_requires_run", "opening_without_jokers"):
            if not isinstance(getattr(self, flag), bool):
                raise IllegalAction(
                    "bad_rules", field=flag, value=getattr(self, flag), allowed=[True, False]
                )
        _choice("go_out", self.go_out, get_args(GoOut))
        _choice("hand_romme", self.hand_romme, get_args(HandRomme))
        _choice("never_opened", self.never_opened, get_args(NeverOpened))
        _choice("stock_exhausted", self.stock_exhausted, get_args(StockExhausted))
        _optional_positive("rounds", self.rounds)
        _optional_positive("point_limit", self.point_limit)
        _choice("limit_rule", self.limit_rule, get_args(LimitRule))
        if not _is_int(self.jokers) or not 0 <= self.jokers <= 6:
            raise IllegalAction("bad_rules", field="jokers", value=self.jokers, allowed="0..6")
        if self.rounds is None and self.point_limit is None:
            raise IllegalAction("bad_rules", field="rounds", value=None, reason="no_end_of_game")

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named rule sets: ``standard``, ``computer`` (free pickup), ``german_club``."""
        if name == "standard":
            return cls()
        if name == "computer":
            return cls(discard_pickup="free")
        if name == "german_club":
            return cls(deal_style="upcard", point_limit=500, limit_rule="reaches", rounds=None)
        raise IllegalAction("bad_rules", field="preset", value=name, allowed=list(PRESETS))

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like any other)."""
        data = self.to_json()
        data.update(changes)
        return Rules.from_json(data)

    def check_players(self, players: int) -> None:
        """Raise ``IllegalAction("bad_players")`` unless 2 to 6 players can play these rules."""
        if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise IllegalAction(
                "bad_players", players=players, allowed=f"{MIN_PLAYERS}..{MAX_PLAYERS}"
            )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _choice(name: str, value: object, allowed: Sequence[object]) -> None:
    if isinstance(value, bool) or value not in allowed:
        raise IllegalAction("bad_rules", field=name, value=value, allowed=list(allowed))


def _optional_positive(name: str, value: object) -> None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 1):
        return
    raise IllegalAction("bad_rules", field=name, value=value, allowed="a positive integer or null")


# --- cards as meld pieces ------------------------------------------------------------------


def random_rules(rng: random.Random) -> Rules:
    """Every option drawn at random, one round a game: the rules the computers' legality test
    and the decisions benchmark play under."""
    return Rules(
        hand_size=rng.choice((12, 13, 14)),
        deal_style=rng.choice(("dealer_left_extra", "upcard")),
        opening_min=rng.choice((0, 30, 40)),
        ace_low_value=rng.choice((11, 1)),
        joker_penalty=rng.choice((20, 25, 30, 40)),
        discard_pickup=rng.choice(("must_use", "free")),
        layoff_on_opening_turn=rng.random() < 0.7,
        opening_requires_run=rng.random() < 0.25,
        opening_without_jokers=rng.random() < 0.25,
        go_out=rng.choice(("discard", "meld")),
        hand_romme=rng.choice(("double", "credit", "none")),
        never_opened=rng.choice(("cards", "flat100")),
        stock_exhausted=rng.choice(("reshuffle", "end_round")),
        jokers=rng.choice((0, 2, 4, 6, 6)),
        rounds=1,
    )


def piece(card: Card) -> Piece:
    """The ``(number, colour)`` of a natural card for the shared validator; ``None`` for a joker."""
    if card.rank is None or card.suit is None:
        return None
    return (int(card.rank), int(card.suit))


def pieces(cards: Iterable[Card]) -> list[Piece]:
    """The pieces of several cards, in order."""
    return [piece(card) for card in cards]


def read_cards(
    cards: Sequence[Card], rules: Rules | None = None, kind: MeldKind | None = None
) -> Reading | None:
    """What each card of a meld stands for, or ``None`` when the cards are no meld.

    A run is given in ascending order; a joker stands for the card at its position. Without
    ``kind``, a meld that reads both ways (``JK 5♥ JK``) is a run.

    >>> from rummykit.cards import parse_cards
    >>> read_cards(parse_cards("Q♠ K♠ JK")).numbers  # the joker is the high ace
    (12, 13, 14)
    >>> read_cards(parse_cards("K♠ A♠ 2♠")) is None
    True
    """
    del rules  # the meld rules of cards do not depend on the options
    return read_meld(pieces(cards), CARD_MELDS, kind)


def meld_kind(cards: Sequence[Card], rules: Rules | None = None) -> MeldKind | None:
    """``"group"``, ``"run"`` or ``None``; a meld that reads both ways is a run.

    >>> from rummykit.cards import parse_cards
    >>> meld_kind(parse_cards("5♥ 6♥ JK")), meld_kind(parse_cards("8♥ 8♠ JK"))
    ('run', 'group')
    >>> meld_kind(parse_cards("8♠ 8♠ 8♥")) is None  # two identical cards never in one group
    True
    """
    reading = read_cards(cards, rules)
    return None if reading is None else reading.kind


def number_value(number: int, kind: MeldKind, rules: Rules) -> int:
    """The value of a position in a meld: ``number`` as in a `Reading` (a high ace is 14).

    >>> number_value(1, "run", Rules(ace_low_value=1)), number_value(1, "group", Rules())
    (1, 11)
    """
    if number == 1:
        return rules.ace_low_value if kind == "run" else 11
    if number == 14:
        return 11
    return min(number, 10)


def reading_value(reading: Reading, rules: Rules | None = None) -> int:
    """The value of a read meld: every card, jokers included, at the value it stands for."""
    rules = rules or DEFAULT_RULES
    return sum(number_value(n, reading.kind, rules) for n in reading.numbers)


def meld_value(
    cards: Sequence[Card], rules: Rules | None = None, kind: MeldKind | None = None
) -> int:
    """The opening value of a meld; raises ``IllegalAction("invalid_meld")`` for a non-meld.

    >>> from rummykit.cards import parse_cards
    >>> low = parse_cards("A♣ 2♣ 3♣")
    >>> meld_value(low), meld_value(low, Rules(ace_low_value=1))
    (16, 6)
    >>> meld_value(parse_cards("5♥ 6♥ JK"))  # the joker is the 7♥
    18
    >>> meld_value(parse_cards("5♥ 7♥ 9♥"))
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: invalid_meld: cards='5♥ 7♥ 9♥'
    """
    reading = read_cards(cards, rules, kind)
    if reading is None:
        raise IllegalAction("invalid_meld", cards=" ".join(c.code for c in cards))
    return reading_value(reading, rules)


def card_value(card: Card, rules: Rules | None = None) -> int:
    """The penalty of one card left in hand: face value, 10 for faces, 11 for the ace, the
    joker penalty of the rules for a joker.

    >>> from rummykit.cards import Card
    >>> card_value(Card.parse("A♠")), card_value(Card.parse("K♦")), card_value(Card.parse("JK"))
    (11, 10, 20)
    """
    if card.rank is None:
        return (rules or DEFAULT_RULES).joker_penalty
    rank = int(card.rank)
    return 11 if rank == 1 else min(rank, 10)


def hand_penalty(cards: Iterable[Card], rules: Rules | None = None) -> int:
    """The penalty of the cards in a hand (the player who went out has none: 0).

    >>> from rummykit.cards import parse_cards
    >>> hand_penalty(parse_cards("9♥ 9♦ JK"), Rules(joker_penalty=40)), hand_penalty([])
    (58, 0)
    """
    rules = rules or DEFAULT_RULES
    return sum(card_value(card, rules) for card in cards)


def joker_stands_for(cards: Sequence[Card], index: int, reading: Reading) -> list[Card]:
    """The natural faces (as copy-0 cards) the joker at ``index`` may be exchanged for.

    In a run exactly one card; in a group every missing suit (a group of 3 with one joker has
    two). Any copy of a listed face may replace the joker.

    >>> from rummykit.cards import parse_cards
    >>> meld = parse_cards("8♣ 8♠ JK")
    >>> [c.code for c in joker_stands_for(meld, 2, read_cards(meld))]
    ['8♥', '8♦']
    >>> meld = parse_cards("JK Q♥ K♥")
    >>> [c.code for c in joker_stands_for(meld, 0, read_cards(meld))]
    ['J♥']
    """
    if not cards[index].is_joker:
        return []
    number = reading.numbers[index]
    rank = Rank(1 if number == 14 else number)
    if reading.kind == "run":
        colour = reading.colours[index]
        assert colour is not None
        return [Card(rank, Suit(colour))]
    present = {c.suit for c in cards if c.suit is not None}
    return [Card(rank, suit) for suit in Suit if suit not in present]


def arrangements(cards: Sequence[Card], kind: MeldKind | None = None) -> list[Reading]:
    """Every reading of the cards in the given order (the run first)."""
    found = readings(pieces(cards), CARD_MELDS)
    return [r for r in found if kind is None or r.kind == kind]


# --- melds on the table --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: its cards in laying order (a run ascending), its kind, the seat
    that laid it and its id (unique within a game, never reused).

    >>> from rummykit.cards import parse_cards
    >>> m = TableMeld(tuple(parse_cards("J♣ Q♣ K♣")), "run", owner=2, id=0)
    >>> m.value(), str(m)
    (30, '#0 run J♣ Q♣ K♣ (seat 2)')
    >>> TableMeld.from_json(m.to_json()) == m
    True
    """

    cards: tuple[Card, ...]
    kind: MeldKind
    owner: int
    id: int

    def reading(self) -> Reading:
        """What each card stands for (always valid for a meld the engine put on the table)."""
        reading = read_cards(self.cards, None, self.kind)
        if reading is None:
            raise IllegalAction("invalid_meld", cards=" ".join(c.code for c in self.cards))
        return reading

    def value(self, rules: Rules | None = None) -> int:
        return reading_value(self.reading(), rules)

    def to_json(self) -> dict[str, JSON]:
        return {
            "id": self.id,
            "kind": self.kind,
            "owner": self.owner,
            "cards": [card.id for card in self.cards],
        }

    @classmethod
    def from_json(cls, data: JSON) -> TableMeld:
        try:
            kind = data["kind"]
            if kind not in ("group", "run"):
                raise TypeError("kind")
            owner, meld_id = data["owner"], data["id"]
            if not (_is_int(owner) and _is_int(meld_id)):
                raise TypeError("owner or id")
            cards = tuple(Card.from_id(c) for c in data["cards"])
        except (KeyError, TypeError) as err:
            raise IllegalAction("bad_meld", reason=str(err)) from None
        return cls(cards, kind, owner, meld_id)

    def __str__(self) -> str:
        return f"#{self.id} {self.kind} {' '.join(c.code for c in self.cards)} (seat {self.owner})"


DEFAULT_RULES = Rules()
