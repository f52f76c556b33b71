"""The hint: the hard player's decision, legal at every decision of every phase, with a reason
code and the facts it rests on."""

from __future__ import annotations

import pytest

from rummykit.rummoli import Rules, State
from rummykit.rummoli.bots import make_bot
from rummykit.rummoli.hint import hint

from .test_bots import two_player_table

PARAMS = {
    "take_widow": {"gain"},
    "keep_hand": {"gain"},
    "bid_for_widow": {"chips", "most"},
    "pass_widow": {"most"},
    "bet_strong": {"chips", "chance"},
    "check": {"chance"},
    "call_worth_it": {"owed", "pot", "chance"},
    "fold_weak": {"owed", "chance"},
    "lead_only_card": {"card", "choices"},
    "lead_best_card": {"card", "choices"},
}


@pytest.mark.parametrize("poker", ["showdown", "betting"])
def test_every_hint_is_a_legal_decision_with_its_reason(poker: str) -> None:
    game = State(Rules(poker=poker, hands=2), 3, seed=11)
    seen = set()
    players = [make_bot("random", seat) for seat in range(3)]
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        view = game.view(seat)
        advice = hint(view, samples=8)
        assert advice.action in game.legal_actions(), advice
        assert set(advice.params) == PARAMS[advice.reason], advice
        seen.add(advice.reason)
        game.apply(players[seat].choose(view), seat)
    assert {"check", "pass_widow"} & seen and {"take_widow", "keep_hand"} & seen


def test_a_dealer_with_a_strong_hand_is_told_to_keep_it() -> None:
    game = two_player_table("A♠ A♥ A♦ A♣ K♠ K♥ K♦ 2♣ 3♣ 4♣")
    advice = hint(game.view(game.to_move), samples=64)
    assert advice.reason == "keep_hand" and advice.params["gain"] < 0


def test_no_hint_for_a_seat_that_is_not_on_move() -> None:
    game = State(Rules(), 3, seed=2)
    waiting = (game.to_move + 1) % 3
    advice = hint(game.view(waiting))
    assert advice.action is None and advice.reason == "not_your_turn"
