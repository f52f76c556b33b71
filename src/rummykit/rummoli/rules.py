"""Rummoli rules: the options of a game, the nine boxes of the board and the paying cards.

>>> Rules().poker, Rules().combos, Rules().final_split
('showdown', 'strict', 'poker')
>>> Rules.preset("betting").poker
'betting'
>>> [box.value for box in PAYING_BOXES]
['ten_spades', 'jack_diamonds', 'queen_clubs', 'king_hearts', 'ace_spades']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Literal, get_args

from rummykit.cards import Card
from rummykit.core import JSON, IllegalAction, RulesBase

PokerMode = Literal["showdown", "betting"]
ComboMode = Literal["strict", "last_card"]
FinalSplit = Literal["poker", "cut", "extra_hands"]

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_RAISES = 3
"""Raises allowed in the betting round (the opening bet is not a raise)."""

PRESETS = ("standard", "demo", "betting", "house")


class Box(StrEnum):
    """The nine boxes of the board, in the order the engine keeps them."""

    TEN_SPADES = "ten_spades"
    JACK_DIAMONDS = "jack_diamonds"
    QUEEN_CLUBS = "queen_clubs"
    KING_HEARTS = "king_hearts"
    ACE_SPADES = "ace_spades"
    KING_ACE_DIAMONDS = "king_ace_diamonds"
    SEVEN_EIGHT_NINE = "seven_eight_nine"
    POKER = "poker"
    RUMMOLI = "rummoli"

    @property
    def slot(self) -> int:
        """The position of the box in `BOXES` (and in the engine's board list)."""
        return _BOX_INDEX[self]


BOXES: tuple[Box, ...] = tuple(Box)
_BOX_INDEX = {box: i for i, box in enumerate(BOXES)}
PAYING_BOXES: tuple[Box, ...] = BOXES[:5]
ANTE = len(BOXES)
"""Chips a player pays before each deal: one on each box."""

PAYING_CARDS: dict[Box, Card] = {
    Box.TEN_SPADES: Card.parse("10♠"),
    Box.JACK_DIAMONDS: Card.parse("J♦"),
    Box.QUEEN_CLUBS: Card.parse("Q♣"),
    Box.KING_HEARTS: Card.parse("K♥"),
    Box.ACE_SPADES: Card.parse("A♠"),
}
"""The five single cards that win their box when played in the sequence."""


def board_from_json(data: JSON) -> tuple[int, ...]:
    """Read a board, ``{box name: chips}`` (missing boxes hold 0), as chips in `BOXES` order."""
    if not isinstance(data, Mapping):
        raise IllegalAction("bad_board", reason="not_an_object")
    out = [0] * len(BOXES)
    for name, chips in data.items():
        try:
            box = Box(name)
        except ValueError:
            raise IllegalAction("bad_board", box=str(name), reason="unknown_box") from None
        if not isinstance(chips, int) or isinstance(chips, bool) or chips < 0:
            raise IllegalAction("bad_board", box=box.value, chips=repr(chips))
        out[box.slot] = chips
    return tuple(out)


def board_to_json(board: Sequence[int]) -> dict[str, int]:
    """The JSON form of a board: ``{box name: chips}`` for all nine boxes."""
    return {box.value: board[i] for i, box in enumerate(BOXES)}


@dataclass(frozen=True, slots=True)
class Rules(RulesBase):
    """Every option of a Rummoli game; the defaults are the standard rules.

    Invalid options raise ``IllegalAction("bad_rules", field=..., value=..., allowed=...)``:

    >>> try:
    ...     Rules(combos="loose")
    ... except IllegalAction as err:
    ...     print(err.code, err.params)
    bad_rules {'field': 'combos', 'value': 'loose', 'allowed': ['strict', 'last_card']}
    >>> Rules.from_json(Rules.preset("house").to_json()) == Rules.preset("house")
    True
    """

    PLAYERS: ClassVar[tuple[int, int]] = (MIN_PLAYERS, MAX_PLAYERS)
    PRESETS: ClassVar[tuple[str, ...]] = PRESETS

    starting_chips: int = 40
    widow_payers_barred: bool = False
    poker: PokerMode = "showdown"
    max_bet: int = 5
    combos: ComboMode = "strict"
    hands: int | None = None
    final_split: FinalSplit = "poker"

    def __post_init__(self) -> None:
        _int_range("starting_chips", self.starting_chips, ANTE, 1000)
        if not isinstance(self.widow_payers_barred, bool):
            raise IllegalAction(
                "bad_rules",
                field="widow_payers_barred",
                value=self.widow_payers_barred,
                allowed=[True, False],
            )
        _choice("poker", self.poker, get_args(PokerMode))
        _int_range("max_bet", self.max_bet, 1, 1000)
        _choice("combos", self.combos, get_args(ComboMode))
        if self.hands is not None:
            _int_range("hands", self.hands, 1, 1_000_000)
        _choice("final_split", self.final_split, get_args(FinalSplit))

    @classmethod
    def preset(cls, name: str) -> Rules:
        """Named rule sets.

        ``standard``: the defaults. ``demo``: the rules of the demonstration hand (showdown
        poker, strict combos), spelled out so that it never drifts with the defaults.
        ``betting``: a betting round instead of the showdown. ``house``: the common house
        rules: nobody holding a paying card may take the widow, and a combo pays whoever
        plays its last card.
        """
        if name == "standard":
            return cls()
        if name == "demo":
            return cls(poker="showdown", combos="strict", widow_payers_barred=False)
        if name == "betting":
            return cls(poker="betting")
        if name == "house":
            return cls(widow_payers_barred=True, combos="last_card")
        raise IllegalAction("bad_rules", field="preset", value=name, allowed=list(PRESETS))

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated like any other)."""
        data = self.to_json()
        data.update(changes)
        return Rules.from_json(data)

    @staticmethod
    def check_players(players: object) -> int:
        """Raise ``IllegalAction("bad_players")`` unless 2 to 8 players can sit down."""
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or not MIN_PLAYERS <= players <= MAX_PLAYERS
        ):
            raise IllegalAction(
                "bad_players", players=repr(players), allowed=f"{MIN_PLAYERS}..{MAX_PLAYERS}"
            )
        return players


def _choice(name: str, value: object, allowed: Sequence[object]) -> None:
    if isinstance(value, bool) or value not in allowed:
        raise IllegalAction("bad_rules", field=name, value=value, allowed=list(allowed))


def _int_range(name: str, value: object, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise IllegalAction("bad_rules", field=name, value=value, allowed=f"{low}..{high}")
