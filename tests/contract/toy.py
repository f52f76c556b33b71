"""A toy game that plugs into the engine contract: High Card, two players, hidden hands.

The deck holds the numbers 1 to ``rules.cards``; each player is dealt ``rules.hand_size`` of
them, face down. The player on move plays a card face up, then the other answers; the higher
card takes the trick (a point), and its player leads the next one. When the hands are empty the
higher score wins (a tie has two winners). Everything a real game needs from the contract is
here, in a page: rules with presets, actions with a JSON form and a text notation, a state
dealt from a seed, views that hide the other hand, a computer player and a safe move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import ClassVar

from rummykit.core import (
    JSON,
    Codec,
    Computers,
    Event,
    GameDescriptor,
    GameState,
    Hint,
    IllegalAction,
    Leaf,
    describe,
    freeze,
    options_from_json,
)
from rummykit.core.codec import Encoded


@dataclass(frozen=True, order=True)
class Card:
    """A card of the toy deck: a number."""

    number: int

    def __str__(self) -> str:
        return str(self.number)


CODEC = Codec({Card: Leaf(lambda card: card.number, lambda data, context: _card(data))})
"""Cards are written as their numbers."""


def _card(data: JSON) -> Card:
    if not isinstance(data, int) or isinstance(data, bool) or data < 1:
        raise IllegalAction("bad_action", reason="not_a_card", value=repr(data))
    return Card(data)


@dataclass(frozen=True)
class Rules:
    """How many numbers the deck holds and how many each player is dealt."""

    PLAYERS: ClassVar[tuple[int, int]] = (2, 2)
    PRESETS: ClassVar[tuple[str, ...]] = ("short", "long")

    cards: int = 10
    hand_size: int = 3

    def __post_init__(self) -> None:
        if not 2 * self.hand_size <= self.cards <= 100 or self.hand_size < 1:
            raise IllegalAction("bad_rules", field="cards", value=self.cards)

    @classmethod
    def preset(cls, name: str) -> Rules:
        presets = {"short": cls(), "long": cls(cards=20, hand_size=8)}
        if name not in presets:
            raise IllegalAction("bad_rules", field="preset", value=name)
        return presets[name]

    def to_json(self) -> dict[str, JSON]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: JSON) -> Rules:
        return options_from_json(cls, data)


@dataclass(frozen=True)
class PlayCard(Encoded):
    """Play one card from the hand, face up."""

    card: Card
    t: ClassVar[str] = "play"
    codec = CODEC
    json_error = "bad_action"

    def __str__(self) -> str:
        return f"play {self.card}"


Action = PlayCard


def parse_action(text: str, rules: Rules | None = None) -> Action:
    words = text.split()
    if len(words) != 2 or words[0] != "play" or not words[1].isdigit():
        raise IllegalAction("bad_action", text=text)
    return PlayCard(Card(int(words[1])))


@dataclass(frozen=True)
class View(Encoded):
    """The own hand, the size of the other's, the trick on the table, the scores, the log."""

    seat: int | None
    to_move: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    trick: tuple[Card, ...]
    scores: tuple[int, ...]
    log: tuple[Event, ...]
    codec = CODEC
    json_error = "bad_view"


class State(GameState[Rules, Action, View]):
    """A game of High Card."""

    game: ClassVar[str] = "toy"
    codec = CODEC

    def __init__(self, rules: Rules, players: int = 2, seed: int = 0) -> None:
        if players != 2:
            raise IllegalAction("bad_players", players=players, allowed="2")
        self._setup(rules, players, seed)
        deck = [Card(n) for n in range(1, rules.cards + 1)]
        self._rng.shuffle(deck)
        size = rules.hand_size
        self.hands = [sorted(deck[:size]), sorted(deck[size : 2 * size])]
        self.unused = deck[2 * size :]
        self.trick: list[Card] = []
        self.taken: list[Card] = []
        self.scores = [0, 0]
        self.turn = 0
        self.leader = 0
        self.log: list[Event] = []
        self.log.append(freeze({"code": "deal", "hand_size": rules.hand_size}))

    @classmethod
    def rules_from_json(cls, data: JSON) -> Rules:
        return Rules.from_json(data)

    @classmethod
    def action_from_json(cls, data: JSON, rules: Rules | None = None) -> Action:
        action: Action = CODEC.decode(PlayCard, data)
        return action

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def is_over(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def public_log(self) -> Sequence[Event]:
        return self.log

    def _check(self, action: Action, seat: int | None) -> None:
        if not isinstance(action, PlayCard):
            raise IllegalAction("bad_action", action=repr(action))
        self._check_seat(seat)
        if self.is_over:
            raise IllegalAction("game_over")
        if seat is not None and seat != self.turn:
            raise IllegalAction("not_your_turn", seat=seat, to_move=self.turn)
        if action.card not in self.hands[self.turn]:
            raise IllegalAction("card_not_in_hand", card=action.card.number)

    def apply(self, action: Action, seat: int | None = None) -> None:
        self._check(action, seat)
        match action:
            case PlayCard(card=card):
                self.hands[self.turn].remove(card)
                self.trick.append(card)
                self.log.append(freeze({"code": "play", "seat": self.turn, "card": card.number}))
        self._actions.append(action)
        if len(self.trick) < 2:
            self.turn = 1 - self.turn
            return
        first, second = self.trick
        winner = self.leader if first > second else 1 - self.leader
        self.scores[winner] += 1
        self.taken.extend(self.trick)
        self.trick = []
        self.leader = self.turn = winner
        self.log.append(freeze({"code": "trick", "winner": winner, "scores": list(self.scores)}))

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else [PlayCard(c) for c in self.hands[self.turn]]

    def view(self, seat: int | None) -> View:
        self._check_seat(seat)
        return View(
            seat=seat,
            to_move=self.to_move,
            hand=() if seat is None else tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            trick=tuple(self.trick),
            scores=tuple(self.scores),
            log=tuple(self.log),
        )

    @property
    def winners(self) -> list[int]:
        best = max(self.scores)
        return [s for s in (0, 1) if self.scores[s] == best]


class RandomBot:
    """Plays a random card of its hand."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        return PlayCard(self.rng.choice(view.hand))


class HighBot:
    """Plays its highest card."""

    def __init__(self, seed: int) -> None:
        pass

    def choose(self, view: View) -> Action:
        return PlayCard(max(view.hand))


def make_bot(level: str, seed: int) -> RandomBot | HighBot:
    if level == "random":
        return RandomBot(seed)
    if level == "high":
        return HighBot(seed)
    raise IllegalAction("bad_level", level=level)


def fallback_action(state: State, seat: int) -> Action:
    """The lowest card."""
    return PlayCard(min(state.hands[seat]))


def hint(view: View) -> Hint[Action]:
    if view.seat is None or view.seat != view.to_move:
        return Hint(None, "not_your_turn")
    return Hint(PlayCard(max(view.hand)), "play_highest")


GAME: GameDescriptor[Rules, State, View, Action] = describe(
    State,
    title="High Card",
    computers=Computers(("random", "high"), "high", make_bot, fallback_action),
    hint=hint,
    parse_action=parse_action,
)
"""The toy game as the play layer and the arena see it."""
