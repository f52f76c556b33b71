"""The decisions a Rummoli player makes, as small frozen values with a JSON and a text form.

Everything else in a hand (the ante, the deal, the showdown, every forced card of the sequence)
the engine does by itself. What is left to a player:

- the dealer: `SwapWidow` (take the widow unseen) or `KeepHand` (keep it and auction the widow);
- in the auction: `Bid` or `Pass`;
- in the betting round (``poker = "betting"`` only): `Check`, `Bet`, `Call`, `Raise`, `Fold`;
- in the sequence: `Play`, only when the rules leave a choice between cards of equal lowest rank
  (see `rummykit.rummoli.game`).

The text notation is one word, with the chips or the card after a space; ``repr`` round-trips:

>>> parse_action("bid 3"), parse_action("play 2♥")
(Bid(3), Play(Card.parse('2♥')))
>>> action_from_json(Raise(2).to_json())
Raise(2)
>>> str(Play(Card.parse("10♦")))
'play 10♦'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rummykit.cards import Card
from rummykit.core import JSON, IllegalAction

__all__ = [
    "Action",
    "Bet",
    "Bid",
    "Call",
    "Check",
    "Fold",
    "KeepHand",
    "Pass",
    "Play",
    "Raise",
    "SwapWidow",
    "action_from_json",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class SwapWidow:
    """The dealer takes the widow without looking at it; the own hand becomes the dead widow."""

    t: ClassVar[str] = "swap_widow"

    def to_json(self) -> dict[str, JSON]:
        return {"t": self.t}

    def __str__(self) -> str:
        return self.t

    def __repr__(self) -> str:
        return "SwapWidow()"


@dataclass(frozen=True, slots=True)
class KeepHand:
    """The dealer keeps the hand dealt and puts the widow up for auction."""

    t: ClassVar[str] = "keep_hand"

    def to_json(self) -> dict[str, JSON]:
        return {"t": self.t}

    def __str__(self) -> str:
        return self.t

    def __repr__(self) -> str:
        return "KeepHand()"


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid for the widow: more chips than the last bid, at most what the bidder has."""

    chips: int
    t: ClassVar[str] = "bid"

    def to_json(self) -> dict[str, JSON]:
        return {"t": self.t, "chips": self.chips}

    def __str__(self) -> str:
        return f"bid {self.chips}"

    def __repr__(self) -> str:
        return f"Bid({self.chips})"


@dataclass(frozen=True, slots=True)
class Pass:
    """No bid; a player who passes is out of this auction."""

    t: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, JSON]:
        return {"t": self.t}

    def __str__(self) -> str:
        return self.t

    def __repr__(self) -> str:
        return "Pass()"


@dataclass(frozen=True, slots=True)
class Check:
    """Stay in the betting round without adding chips (only when nothing is owed)."""

    t: ClassVar[str] = "check"

    def to_json(self) -> dict[str, JSON]:
        return {"t": self.t}

    def __str__(self) -> str:
        return self.t

    def __repr__(self) -> str:
        return "Check()"


@dataclass(frozen=True, slots=True)
class Bet:
    """Open the betting with 1 to ``max_bet`` chips."""

    chips: int
    t: ClassVar[str] = "bet"

    def to_json(self) -> dict[str, JSON]:
        return {"t": self.t, "chips": self.chips}

    def __str__(self) -> str:
        return f"bet {self.chips}"

    def __repr__(self) -> str:
        return f"Bet({self.chips})"


@dataclass(frozen=True, slots=True)
class Call:
    """Match the current bet (or put in every chip left, when that is less)."""

    t: ClassVar[str] = "call"

    def to_json(self) -> dict[str, JSON]:
        return {"t": self.t}

    def __str__(self) -> str:
        return self.t

    def __repr__(self) -> str:
        return "Call()"


@dataclass(frozen=True, slots=True)
class Raise:
    """Match the current bet and raise it by 1 to ``max_bet`` chips."""

    chips: int
    t: ClassVar[str] = "raise"

    def to_json(self) -> dict[str, JSON]:
        return {"t": self.t, "chips": self.chips}

    def __str__(self) -> str:
        return f"raise {self.chips}"

    def __repr__(self) -> str:
        return f"Raise({self.chips})"


@dataclass(frozen=True, slots=True)
class Fold:
    """Give up the Poker box (the cards stay in hand for the sequence)."""

    t: ClassVar[str] = "fold"

    def to_json(self) -> dict[str, JSON]:
        return {"t": self.t}

    def __str__(self) -> str:
        return self.t

    def __repr__(self) -> str:
        return "Fold()"


@dataclass(frozen=True, slots=True)
class Play:
    """Lead this card, where the rules let the player choose between cards of equal rank."""

    card: Card
    t: ClassVar[str] = "play"

    def to_json(self) -> dict[str, JSON]:
        return {"t": self.t, "card": self.card.code}

    def __str__(self) -> str:
        return f"play {self.card.code}"

    def __repr__(self) -> str:
        return f"Play({self.card!r})"


Action = SwapWidow | KeepHand | Bid | Pass | Check | Bet | Call | Raise | Fold | Play

_BARE: dict[str, Action] = {
    "swap_widow": SwapWidow(),
    "keep_hand": KeepHand(),
    "pass": Pass(),
    "check": Check(),
    "call": Call(),
    "fold": Fold(),
}
_WITH_CHIPS: dict[str, type[Bid] | type[Bet] | type[Raise]] = {
    "bid": Bid,
    "bet": Bet,
    "raise": Raise,
}


def _chips(value: object, data: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction("bad_action", reason="chips_not_an_integer", action=repr(data))
    return value


def action_from_json(data: JSON) -> Action:
    """Read an action's JSON form; anything else raises ``IllegalAction("bad_action")``.

    >>> action_from_json({"t": "bid", "chips": 4})
    Bid(4)
    >>> action_from_json({"t": "bid", "chips": "4"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: bad_action: reason='chips_not_an_integer', ...
    """
    if not isinstance(data, dict):
        raise IllegalAction("bad_action", reason="not_an_object", action=repr(data))
    kind = data.get("t")
    if not isinstance(kind, str):
        raise IllegalAction("bad_action", reason="no_type", action=repr(data))
    if kind in _BARE:
        expected: set[str] = {"t"}
        result: Action = _BARE[kind]
    elif kind in _WITH_CHIPS:
        expected = {"t", "chips"}
        result = _WITH_CHIPS[kind](_chips(data.get("chips"), data))
    elif kind == "play":
        expected = {"t", "card"}
        card = data.get("card")
        if not isinstance(card, str):
            raise IllegalAction("bad_action", reason="card_not_a_string", action=repr(data))
        parsed = Card.parse(card)
        if parsed.is_joker or parsed.copy != 0:
            raise IllegalAction("bad_card", card=card)
        result = Play(parsed)
    else:
        raise IllegalAction("bad_action", reason="unknown_type", action=repr(data))
    extra = set(data) - expected
    if extra:
        raise IllegalAction("bad_action", reason="unknown_field", field=sorted(extra)[0])
    return result


def parse_action(text: str) -> Action:
    """Read the text notation (``"bid 3"``, ``"fold"``, ``"play 2♥"``)."""
    words = text.split()
    if not words:
        raise IllegalAction("bad_action", reason="empty", action=text)
    kind = words[0].lower()
    if kind in _BARE and len(words) == 1:
        return _BARE[kind]
    if kind in _WITH_CHIPS and len(words) == 2 and words[1].isascii() and words[1].isdigit():
        return _WITH_CHIPS[kind](int(words[1]))
    if kind == "play" and len(words) == 2:
        return action_from_json({"t": "play", "card": words[1]})
    raise IllegalAction("bad_action", reason="unreadable", action=text)
