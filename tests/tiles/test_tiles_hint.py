"""The tile hint: the strongest player's move, legal, with a reason code and its facts."""

from __future__ import annotations

from rummykit.tiles import Rules, new_game
from rummykit.tiles.bots import make_bot
from rummykit.tiles.hint import hint


def test_every_hint_is_a_move_the_rules_accept() -> None:
    game = new_game(Rules(), 2, 5)
    seen = set()
    players = [make_bot("random", seat) for seat in range(2)]
    for _ in range(30):
        if game.is_over or game.to_move is None:
            break
        seat = game.to_move
        view = game.view(seat)
        advice = hint(view, level="greedy")
        assert advice.action is not None and game.can_apply(advice.action, seat), advice
        seen.add(advice.reason)
        if advice.reason in ("play_tiles", "first_meld", "rework_table"):
            assert set(advice.params) == {"tiles", "value", "first_meld", "reworks"}
            assert advice.params["first_meld"] == (advice.reason == "first_meld")
        game.apply(players[seat].choose(view), seat)
    assert seen & {"draw_tile", "first_meld"}


def test_no_hint_for_a_seat_that_is_not_on_move() -> None:
    game = new_game(Rules(), 2, 5)
    advice = hint(game.view(1 - game.to_move))
    assert advice.action is None and advice.reason == "not_your_turn"
