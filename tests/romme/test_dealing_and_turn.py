"""Spec sections "Dealing and start of a round" and "A turn"."""

from __future__ import annotations

import itertools

import pytest

from rummykit.romme import Discard, Draw, NextRound, Play, Rules, State

from .helpers import act, card, cards, rejected, turn


def test_first_dealer_is_drawn_at_random_from_the_seed() -> None:
    dealers = {State(players=4, seed=seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert State(players=4, seed=11).dealer == State(players=4, seed=11).dealer


def test_the_deal_passes_clockwise_each_round() -> None:
    game = State(Rules(stock_exhausted="end_round"), players=3, seed=5)
    first = game.dealer
    _finish_round(game)
    game.apply(NextRound())
    assert game.round == 2 and game.dealer == (first + 1) % 3
    assert game.to_move == (first + 2) % 3


@pytest.mark.parametrize("size", [12, 13, 14])
def test_each_player_gets_the_hand_size_and_the_dealers_left_one_more(size: int) -> None:
    game = State(Rules(hand_size=size), players=4, seed=2)
    first = (game.dealer + 1) % 4
    assert game.to_move == first
    for seat in range(4):
        assert len(game.hands[seat]) == size + (seat == first)
    assert game.discard_pile == []
    assert len(game.stock) == 110 - 4 * size - 1


def test_the_player_left_of_the_dealer_starts_without_drawing() -> None:
    game = State(players=3, seed=8)
    assert game.phase == "play"
    rejected(game, Draw("stock"), "already_drawn")
    rejected(game, Draw("discard"), "already_drawn")
    first = game.to_move
    assert first is not None
    game.apply(Discard(game.hands[first][0]))
    assert game.discard_pile and game.phase == "draw"
    assert game.to_move == (first + 1) % 3


def test_deal_style_upcard_everyone_gets_the_same_and_the_first_player_draws() -> None:
    game = State(Rules(deal_style="upcard"), players=3, seed=4)
    assert [len(h) for h in game.hands] == [13, 13, 13]
    assert len(game.discard_pile) == 1 and len(game.stock) == 110 - 39 - 1
    assert game.phase == "draw" and game.to_move == (game.dealer + 1) % 3
    assert game.log[0]["upcard"] == game.discard_pile[0].id
    rejected(game, Discard(game.hands[game.to_move][0]), "must_draw_first")


def test_the_rest_of_the_pack_is_the_face_down_stock() -> None:
    game = State(players=2, seed=3)
    assert len(game.stock) + sum(len(h) for h in game.hands) == 110
    assert game.view(0).stock_size == len(game.stock)


# --- a turn --------------------------------------------------------------------------------


def test_turn_draw_the_top_of_the_stock() -> None:
    game = turn("5♣ 9♠ K♥", stock="7♦")
    act(game, "draw stock")
    assert card("7♦") in game.hands[0] and game.phase == "play"


def test_turn_draw_the_top_of_the_discard_pile() -> None:
    game = turn(
        "5♣ 9♠ K♥", rules=Rules(deal_style="upcard", discard_pickup="free"), discard_pile="2♣ 8♦"
    )
    act(game, "draw discard")
    assert card("8♦") in game.hands[0] and game.discard_pile == cards("2♣")


def test_turn_discard_exactly_one_card_then_the_next_player() -> None:
    game = turn("5♣ 9♠ K♥", stock="7♦")
    act(game, "draw stock")
    act(game, "discard K♥")
    assert game.discard_pile[-1] == card("K♥") and len(game.hands[0]) == 3
    assert game.to_move == 1 and game.phase == "draw"


def test_turn_melding_is_optional_and_at_most_one_play_per_turn() -> None:
    game = turn("J♣ Q♣ K♣ 2♥ 3♥ 4♥ 9♠", stock="7♦")
    act(game, "draw stock")
    act(game, "play [J♣ Q♣ K♣]")
    rejected(game, "play [2♥ 3♥ 4♥]", "already_played")
    act(game, "discard 9♠")


def test_turn_no_play_before_drawing() -> None:
    game = turn("J♣ Q♣ K♣ 9♠")
    rejected(game, Play.of("J♣ Q♣ K♣"), "must_draw_first")


def test_turn_the_whole_play_is_rejected_when_one_part_is_wrong() -> None:
    game = turn("J♣ Q♣ K♣ 2♥ 3♥ 5♥ 9♠", stock="7♦")
    act(game, "draw stock")
    rejected(game, "play [J♣ Q♣ K♣] [2♥ 3♥ 5♥]", "invalid_meld")
    assert game.table == {} and len(game.hands[0]) == 8


def test_seats_play_clockwise() -> None:
    game = State(Rules.preset("computer"), players=4, seed=9)
    seen = []
    for _ in range(8):
        seat = game.to_move
        assert seat is not None
        seen.append(seat)
        if game.phase == "draw":
            game.apply(Draw("stock"))
        game.apply(Discard(game.hands[seat][0]))
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(seen))


def _finish_round(game: State) -> None:
    """Play draws and discards until the round ends (the stock runs out under end_round)."""
    assert game.rules.stock_exhausted == "end_round"
    while game.phase not in ("round_over", "game_over"):
        seat = game.to_move
        assert seat is not None
        if game.phase == "draw":
            game.apply(Draw("stock"))
        game.apply(Discard(game.hands[seat][-1]))


def test_several_rounds_in_one_state_with_running_totals() -> None:
    game = State(Rules(stock_exhausted="end_round", rounds=2), players=2, seed=1)
    _finish_round(game)
    assert game.phase == "round_over" and game.to_move is None
    rejected(game, Draw("stock"), "round_over")
    first = list(game.scores)
    game.apply(NextRound())
    assert game.round == 2 and sum(len(h) for h in game.hands) == 27 and game.table == {}
    assert game.opened == [False, False]
    _finish_round(game)
    assert game.is_over and len(game.round_scores) == 2
    assert game.scores == [a + b for a, b in zip(first, game.round_scores[1], strict=True)]
    rejected(game, NextRound(), "game_over")
