"""The demonstration hand of the rules page: one whole hand, every step, every card visible.

Demo rules (spec, "The demo hand"): the dealer keeps the hand, showdown poker, strict combos.
Nobody bids for the widow, so it stays dead; it is shown face up but never played. Where a
player may choose a lead among cards of equal rank, the demo takes the first suit in the order
♣ ♠ ♥ ♦. Each step is one engine event (a code with parameters, for the page to put in words in
its own language) with the board, the chips and every hand after it.

The next hand of the demo starts from the board and chips the last one left, the deal passing
to the left:

>>> first = demo_hand(players=4, seed=11)
>>> first.steps[0].code, first.steps[-1].code
('hand_start', 'hand_end')
>>> second = first.next_hand(seed=12)
>>> second.board_before == first.board_after and second.dealer == 1
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rummykit.cards import Card
from rummykit.core import JSON, IllegalAction
from rummykit.rummoli.actions import KeepHand, Pass, Play
from rummykit.rummoli.game import Start, State
from rummykit.rummoli.rules import BOXES, Rules, board_from_json, board_to_json
from rummykit.rummoli.view import Event, Phase

DEMO_RULES = Rules.preset("demo")


@dataclass(frozen=True)
class DemoStep:
    """One event of the hand and the table just after it."""

    code: str
    params: Mapping[str, JSON]
    board: tuple[int, ...]
    chips: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]

    def to_json(self) -> dict[str, JSON]:
        return {
            "code": self.code,
            "params": dict(self.params),
            "board": board_to_json(self.board),
            "chips": list(self.chips),
            "hands": [[c.code for c in hand] for hand in self.hands],
        }


@dataclass(frozen=True)
class DemoHand:
    """A whole demonstration hand: what it started from, its steps, what it leaves behind."""

    players: int
    seed: int
    """The seed the hand was shuffled from."""
    dealer: int
    board_before: tuple[int, ...]
    """The chips on each box of `BOXES` before the ante."""
    chips_before: tuple[int, ...]
    """Each player's chips before the ante."""
    hands: tuple[tuple[Card, ...], ...]
    """The hands dealt, before the dealer's choice."""
    widow: tuple[Card, ...]
    steps: tuple[DemoStep, ...]
    board_after: tuple[int, ...]
    """The chips left on the boxes nobody won, carried to the next hand."""
    chips_after: tuple[int, ...]

    @property
    def next_dealer(self) -> int:
        """Who deals the next hand: the player to the dealer's left."""
        return (self.dealer + 1) % self.players

    def next_hand(self, seed: int | None = None) -> DemoHand:
        """The following hand: the boxes nobody won and the chips carry over."""
        return demo_hand(
            self.players,
            self.seed + 1 if seed is None else seed,
            board=self.board_after,
            chips=self.chips_after,
            dealer=self.next_dealer,
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": State.game,
            "rules": DEMO_RULES.to_json(),
            "players": self.players,
            "seed": self.seed,
            "dealer": self.dealer,
            "board_before": board_to_json(self.board_before),
            "chips_before": list(self.chips_before),
            "hands": [[c.code for c in hand] for hand in self.hands],
            "widow": [c.code for c in self.widow],
            "steps": [step.to_json() for step in self.steps],
            "board_after": board_to_json(self.board_after),
            "chips_after": list(self.chips_after),
            "next_dealer": self.next_dealer,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)


def carry_over(data: JSON) -> dict[str, JSON]:
    """From a demo hand's JSON form, what the next hand starts from: ``players``, ``board``,
    ``chips`` and ``dealer`` (keyword arguments of `demo_hand`)."""
    if not isinstance(data, Mapping) or data.get("game") != State.game:
        raise IllegalAction("bad_demo", reason="not_a_rummoli_demo")
    try:
        players, chips, dealer = data["players"], data["chips_after"], data["next_dealer"]
        board = board_to_json(board_from_json(data["board_after"]))
    except KeyError as err:
        raise IllegalAction("bad_demo", missing=str(err)) from None
    if not isinstance(chips, list) or not isinstance(players, int) or not isinstance(dealer, int):
        raise IllegalAction("bad_demo", reason="bad_fields")
    return {"players": players, "board": board, "chips": chips, "dealer": dealer}


def _board(board: Sequence[int] | Mapping[str, int] | None) -> tuple[int, ...] | None:
    if board is None:
        return None
    if isinstance(board, Mapping):
        return board_from_json(board)
    return tuple(board)


def demo_hand(
    players: int = 4,
    seed: int = 0,
    board: Sequence[int] | Mapping[str, int] | None = None,
    chips: Sequence[int] | None = None,
    dealer: int = 0,
) -> DemoHand:
    """Deal and play one demonstration hand from a given board (boxes carried over) and chips.

    Raises ``IllegalAction("demo_over")`` when fewer than two players can pay the ante.
    """
    start = Start(
        chips=None if chips is None else tuple(chips),
        board=_board(board),
        dealer=dealer,
    )
    Rules.check_players(players)
    start.check(players)
    board_before = start.board if start.board is not None else (0,) * len(BOXES)
    chips_before = (
        start.chips if start.chips is not None else (DEMO_RULES.starting_chips,) * players
    )
    steps: list[DemoStep] = []
    recording = [True]

    def record(event: Event, state: State) -> None:
        if not recording[0]:
            return
        params = {k: v for k, v in event.items() if k != "code"}
        steps.append(
            DemoStep(
                code=str(event["code"]),
                params=params,
                board=tuple(state.board),
                chips=tuple(state.chips),
                hands=tuple(state.cards_of(s) for s in range(players)),
            )
        )
        if event["code"] in ("hand_end", "game_end"):
            recording[0] = False

    state = State(DEMO_RULES, players, seed, start=start, listener=record)
    if state.is_over or state.hand_number != 1:
        raise IllegalAction("demo_over", reason="fewer_than_two_players_can_pay_the_ante")
    hand_dealer = state.dealer
    dealt = tuple(state.cards_of(s) for s in range(players))
    widow = state.widow
    state.apply(KeepHand())
    while recording[0]:
        if state.phase is Phase.AUCTION:
            state.apply(Pass())
        elif state.phase is Phase.LEAD:
            state.apply(Play(state.view(state.to_move, since=len(state.events)).choices[0]))
        else:  # pragma: no cover - the demo hand never waits for anything else
            raise AssertionError(state.phase)
    last = steps[-1]
    return DemoHand(
        players=players,
        seed=seed,
        dealer=hand_dealer,
        board_before=tuple(board_before),
        chips_before=tuple(chips_before),
        hands=dealt,
        widow=widow,
        steps=tuple(steps),
        board_after=last.board,
        chips_after=last.chips,
    )
