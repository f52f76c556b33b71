"""The actions of a Rommé game, their JSON form and their text notation.

A turn is ``Draw`` (from the stock or the discard pile), at most one ``Play`` (everything the
player lays in this turn: new melds, lay-offs, joker exchanges, checked as a whole) and one
``Discard``. ``NextRound`` deals the next round once a round has been counted.

The text notation of a play lists joker exchanges as ``x<meld id>:<natural>/<joker>``, new
melds in brackets (a run in ascending order; a joker may name the card it stands for) and
lay-offs as ``+<meld id>:<card>`` (``<`` or ``>`` before the colon picks the low or high end of
a run), in that order, which is the order the engine applies them in:

>>> play = parse_action("play x2:7♥/JK#1 [J♣ Q♣ K♣] group[8♣ 8♠ JK] +3>:A♣")
>>> play.melds[1].kind, play.layoffs[0].end, play.exchanges[0].card.code
('group', 'high', '7♥')
>>> parse_action(str(play)) == play and action_from_json(play.to_json()) == play
True
>>> parse_action("draw discard"), parse_action("discard 5♠")
(Draw.parse('draw discard'), Discard.parse('discard 5♠'))
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Literal, Self, TypeAlias

from rummykit.cards import Card, parse_cards
from rummykit.core import JSON, Codec, IllegalAction, Leaf, json_form
from rummykit.core.codec import EncodedAction, action
from rummykit.melds import MeldKind
from rummykit.romme.rules import Rules, TableMeld

__all__ = [
    "Action",
    "Discard",
    "Draw",
    "Exchange",
    "LayOff",
    "NewMeld",
    "NextRound",
    "Play",
    "action_from_json",
    "parse_action",
]

DrawSource = Literal["stock", "discard"]
RunEnd = Literal["low", "high"]


def _card_from_json(value: JSON, context: object = None) -> Card:
    """A card from its id (the JSON form) or its exact code (``"8♠#1"``)."""
    if isinstance(value, str):
        return Card.parse(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError("a card is an id or a code")
    return Card.from_id(value)


CODEC = Codec(
    {
        Card: Leaf(lambda card: card.id, _card_from_json),
        Rules: Leaf(Rules.to_json, lambda data, context: Rules.from_json(data)),
        TableMeld: Leaf(TableMeld.to_json, lambda data, context: TableMeld.from_json(data)),
    }
)
"""The JSON form of Rommé's actions and views: cards by their ids, melds and rules by their
own forms."""


class _Value(EncodedAction):
    __slots__ = ()
    codec = CODEC


class _Action(_Value):
    """A whole action, not a part of a play: its text reads back (``Draw.parse('draw stock')``)."""

    __slots__ = ()
    repr_by_parse = True

    @classmethod
    def parse(cls, text: str) -> Self:
        action = parse_action(text)
        if not isinstance(action, cls):
            raise IllegalAction("bad_action", text=text, expected=cls.__name__)
        return action


@action
class Draw(_Action):
    """Take the top card of the stock or of the discard pile."""

    source: DrawSource = "stock"

    def __post_init__(self) -> None:
        if self.source not in ("stock", "discard"):
            raise IllegalAction("bad_action", reason="source", value=self.source)


@action
class Discard(_Action):
    """Put one card from the hand face up on the discard pile, ending the turn."""

    card: Card


@action
class NextRound(_Action):
    """Deal the next round after a round has been counted."""

    word: ClassVar[str | None] = "next round"


@dataclass(frozen=True, slots=True)
class NewMeld(_Value):
    """A new meld from the hand. ``cards`` are in laying order (a run ascending, each joker
    standing for the card at its position). ``kind`` settles a meld that reads both ways
    (``JK 5♥ JK``). ``jokers`` may name the card each joker stands for, as pairs
    ``(joker, face)``; the engine then lays the cards in run order itself."""

    cards: tuple[Card, ...]
    kind: MeldKind | None = field(default=None, metadata=json_form(omit_default=True))
    jokers: tuple[tuple[Card, Card], ...] = field(default=(), metadata=json_form(omit_default=True))

    def __str__(self) -> str:
        meanings = {joker: face for joker, face in self.jokers}
        words = [f"{c.code}={meanings[c].face}" if c in meanings else c.code for c in self.cards]
        return f"{self.kind or ''}[{' '.join(words)}]"


@dataclass(frozen=True, slots=True)
class LayOff(_Value):
    """Add one card from the hand (or a joker freed in this play) to a meld on the table;
    ``end`` picks the end of a run (by default the only end that fits, the high end when both
    do)."""

    card: Card
    meld: int
    end: RunEnd | None = field(default=None, metadata=json_form(omit_default=True))

    def __str__(self) -> str:
        mark = {None: "", "low": "<", "high": ">"}[self.end]
        return f"+{self.meld}{mark}:{self.card.code}"


@dataclass(frozen=True, slots=True)
class Exchange(_Value):
    """Take ``joker`` out of a meld on the table, putting the natural ``card`` from the hand in
    its place; the freed joker must be laid again within the same play."""

    meld: int
    joker: Card
    card: Card

    def __str__(self) -> str:
        return f"x{self.meld}:{self.card.code}/{self.joker.code}"


@action
class Play(_Action):
    """Everything a player lays in one turn, checked as a whole. The engine applies the
    exchanges first, then lays the new melds, then the lay-offs in the order given."""

    melds: tuple[NewMeld, ...] = ()
    layoffs: tuple[LayOff, ...] = ()
    exchanges: tuple[Exchange, ...] = ()

    def __str__(self) -> str:
        # In the order the engine applies them: exchanges, new melds, lay-offs.
        parts = [str(x) for x in self.exchanges]
        parts += [str(m) for m in self.melds]
        parts += [str(lo) for lo in self.layoffs]
        return " ".join(["play", *parts])

    @staticmethod
    def of(*melds: Sequence[Card] | str) -> Play:
        """A play of new melds only, each given as cards or notation.

        >>> Play.of("J♣ Q♣ K♣", "9♥ 9♦ JK")
        Play.parse('play [J♣ Q♣ K♣] [9♥ 9♦ JK]')
        """
        return Play(
            tuple(NewMeld(tuple(parse_cards(m) if isinstance(m, str) else m)) for m in melds)
        )

    def cards(self) -> list[Card]:
        """Every card this play names, meld by meld, then lay-offs, then exchanged naturals."""
        found = [c for m in self.melds for c in m.cards]
        found += [lo.card for lo in self.layoffs]
        found += [x.card for x in self.exchanges]
        return found


Action: TypeAlias = Draw | Play | Discard | NextRound
_read_action = CODEC.reader(Action)


# --- JSON ----------------------------------------------------------------------------------


def action_from_json(data: JSON) -> Action:
    """Read an action's JSON form; anything else raises ``IllegalAction("bad_action")``.

    >>> action_from_json({"t": "discard", "card": 0})
    Discard.parse('discard A♣')
    >>> action_from_json({"t": "fly"})
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: bad_action: reason='unknown_type', value='fly'
    """
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as err:
            raise IllegalAction("bad_action", reason="bad json", detail=str(err)) from None
    try:
        action: Action = _read_action(data)
    except IllegalAction as err:
        if err.code == "bad_action":
            raise
        raise IllegalAction("bad_action", reason=err.code, **err.params) from None
    return action


# --- text ----------------------------------------------------------------------------------

_PLAY_ITEM = re.compile(
    r"(?P<kind>run|group)?\[(?P<meld>[^\]]*)\]"
    r"|\+(?P<target>\d+)(?P<end>[<>]?):(?P<card>\S+)"
    r"|x(?P<xmeld>\d+):(?P<natural>[^\s/]+)/(?P<joker>\S+)"
)


def parse_action(text: str) -> Action:
    """Read the text notation of any action (see the module's examples)."""
    words = text.split()
    head = words[0].lower() if words else ""
    if head == "draw" and len(words) <= 2:
        source = words[1].lower() if len(words) == 2 else "stock"
        if source == "discard":
            return Draw("discard")
        if source == "stock":
            return Draw("stock")
        raise IllegalAction("bad_action", text=text)
    if head == "discard" and len(words) == 2:
        return Discard(Card.parse(words[1]))
    if [w.lower() for w in words] == ["next", "round"]:
        return NextRound()
    if head == "play":
        return _parse_play(text.strip()[4:].strip())
    raise IllegalAction("bad_action", text=text)


def _parse_play(text: str) -> Play:
    # First cut the text into items, then read all their cards as one list, so that a face
    # named twice in one play (in two melds) takes both copies.
    items: list[tuple[str, re.Match[str], list[str]]] = []
    position = 0
    while position < len(text):
        if text[position].isspace():
            position += 1
            continue
        match = _PLAY_ITEM.match(text, position)
        if match is None:
            raise IllegalAction("bad_action", text=text[position:].strip())
        position = match.end()
        if match["meld"] is not None:
            items.append(("meld", match, match["meld"].split()))
        elif match["target"] is not None:
            items.append(("layoff", match, [match["card"]]))
        else:
            items.append(("exchange", match, [match["natural"]]))
    faces = [word.partition("=")[0] for _, _, words in items for word in words]
    cards = iter(parse_cards(faces))
    melds: list[NewMeld] = []
    layoffs: list[LayOff] = []
    exchanges: list[Exchange] = []
    for kind, match, words in items:
        taken = [next(cards) for _ in words]
        if kind == "meld":
            jokers = tuple(
                (card, Card.parse(word.partition("=")[2]))
                for card, word in zip(taken, words, strict=True)
                if "=" in word
            )
            melds.append(NewMeld(tuple(taken), _meld_kind(match["kind"]), jokers))
        elif kind == "layoff":
            end: RunEnd | None = _RUN_ENDS[match["end"]]
            layoffs.append(LayOff(taken[0], int(match["target"]), end))
        else:
            exchanges.append(Exchange(int(match["xmeld"]), Card.parse(match["joker"]), taken[0]))
    return Play(tuple(melds), tuple(layoffs), tuple(exchanges))


_RUN_ENDS: dict[str, RunEnd | None] = {"": None, "<": "low", ">": "high"}


def _meld_kind(text: str | None) -> MeldKind | None:
    if text == "run":
        return "run"
    if text == "group":
        return "group"
    return None
