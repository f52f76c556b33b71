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

from rummykit.cards import Card
from rummykit.core import JSON, Codec, IllegalAction, Leaf
from rummykit.core.codec import EncodedAction, action
from rummykit.rummoli.rules import Rules

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


def _card_from_json(data: JSON, context: object = None) -> Card:
    """A card of the 52-card pack by its code (no joker, no second copy)."""
    if not isinstance(data, str):
        raise IllegalAction("bad_action", reason="card_not_a_string", action=repr(data))
    card = Card.parse(data)
    if card.is_joker or card.copy != 0:
        raise IllegalAction("bad_card", card=data)
    return card


CODEC = Codec(
    {
        Card: Leaf(lambda card: card.code, _card_from_json),
        Rules: Leaf(Rules.to_json, lambda data, context: Rules.from_json(data)),
    }
)
"""The JSON form of Rummoli's actions and views: cards by their codes."""


class _Value(EncodedAction):
    __slots__ = ()
    codec = CODEC


@action
class SwapWidow(_Value):
    """The dealer takes the widow without looking at it; the own hand becomes the dead widow."""


@action
class KeepHand(_Value):
    """The dealer keeps the hand dealt and puts the widow up for auction."""


@action
class Bid(_Value):
    """A bid for the widow: more chips than the last bid, at most what the bidder has."""

    chips: int


@action
class Pass(_Value):
    """No bid; a player who passes is out of this auction."""


@action
class Check(_Value):
    """Stay in the betting round without adding chips (only when nothing is owed)."""


@action
class Bet(_Value):
    """Open the betting with 1 to ``max_bet`` chips."""

    chips: int


@action
class Call(_Value):
    """Match the current bet (or put in every chip left, when that is less)."""


@action
class Raise(_Value):
    """Match the current bet and raise it by 1 to ``max_bet`` chips."""

    chips: int


@action
class Fold(_Value):
    """Give up the Poker box (the cards stay in hand for the sequence)."""


@action
class Play(_Value):
    """Lead this card, where the rules let the player choose between cards of equal rank."""

    card: Card


Action = SwapWidow | KeepHand | Bid | Pass | Check | Bet | Call | Raise | Fold | Play
_read_action = CODEC.reader(Action)

_BARE: dict[str, Action] = {
    action.t: action for action in (SwapWidow(), KeepHand(), Pass(), Check(), Call(), Fold())
}
_WITH_CHIPS: dict[str, type[Bid] | type[Bet] | type[Raise]] = {
    kind.t: kind for kind in (Bid, Bet, Raise)
}


def action_from_json(data: JSON) -> Action:
    """Read an action's JSON form; anything else raises ``IllegalAction("bad_action")``.

    >>> action_from_json({"t": "bid", "chips": 4})
    Bid(4)
    >>> action_from_json({"t": "bid", "chips": "4"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: bad_action: reason='not_an_integer', ...
    """
    action: Action = _read_action(data)
    return action


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
