"""Bad input is refused with a specific code and leaves the state exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest

from rummykit.cards import Card
from rummykit.core import IllegalAction, Record
from rummykit.rummoli import (
    Bet,
    Bid,
    Call,
    Check,
    Fold,
    KeepHand,
    Pass,
    Phase,
    Play,
    Raise,
    Rules,
    Start,
    State,
    SwapWidow,
    action_from_json,
    parse_action,
    replay,
)

from .helpers import Table


def assert_refused(state: State, action: Any, code: str, seat: int | None = None) -> None:
    before = state.snapshot()
    assert not state.can_apply(action, seat)
    with pytest.raises(IllegalAction) as err:
        state.apply(action, seat)
    assert err.value.code == code, err.value
    assert state.snapshot() == before


def test_a_bid_above_ones_chips_is_refused() -> None:
    state = State(Rules(), 4, seed=1)
    state.apply(KeepHand())
    assert_refused(state, Bid(32), "bid_above_chips")
    assert_refused(state, Bid(0), "bid_too_low")
    state.apply(Bid(20))
    assert_refused(state, Bid(20), "bid_too_low")
    assert_refused(state, Bid(21), "not_your_turn", seat=1)


def test_actions_of_another_phase_are_refused() -> None:
    state = State(Rules(), 4, seed=1)
    assert_refused(state, Bid(1), "wrong_phase")
    assert_refused(state, Pass(), "wrong_phase")
    assert_refused(state, Play(Card.parse("2♣")), "wrong_phase")
    state.apply(KeepHand())
    assert_refused(state, SwapWidow(), "wrong_phase")
    assert_refused(state, KeepHand(), "wrong_phase")


def test_a_bet_out_of_turn_is_refused() -> None:
    t = Table("2♣ 7♦ 9♠", "3♥ 3♦ J♣", "A♠ A♦ 5♥", rules=Rules(poker="betting")).keep_and_pass()
    state = t.state
    assert state.to_move == 1
    assert_refused(state, Bet(1), "not_your_turn", seat=2)
    assert_refused(state, Call(), "nothing_to_call")
    assert_refused(state, Raise(1), "nothing_to_raise")
    state.apply(Bet(2), seat=1)
    assert_refused(state, Check(), "cannot_check")
    assert_refused(state, Bet(1), "already_bet")
    assert_refused(state, Fold(), "not_your_turn", seat=1)


def test_a_bet_during_the_auction_is_refused() -> None:
    state = State(Rules(poker="betting"), 3, seed=2)
    state.apply(KeepHand())
    assert_refused(state, Bet(1), "wrong_phase")


def test_a_fold_or_a_bet_in_showdown_mode_is_refused() -> None:
    state = State(Rules(), 3, seed=2)
    for action in (Fold(), Bet(1), Check(), Call(), Raise(1)):
        assert_refused(state, action, "no_betting_round")


def test_playing_a_card_one_does_not_hold_is_refused() -> None:
    t = Table("2♣ 2♥ 9♠ 9♦", "5♣ 6♦ K♠").keep_and_pass()
    assert t.state.phase is Phase.LEAD
    assert_refused(t.state, Play(Card.parse("5♣")), "card_not_held")
    assert_refused(t.state, Play(Card.parse("A♥")), "card_not_held")


def test_playing_a_card_that_is_not_one_of_the_lowest_is_refused() -> None:
    t = Table("2♣ 2♥ 9♠ 9♦", "5♣ 6♦ K♠").keep_and_pass()
    err_state = t.state
    assert_refused(err_state, Play(Card.parse("9♠")), "not_playable")
    with pytest.raises(IllegalAction) as err:
        err_state.apply(Play(Card.parse("9♦")))
    assert err.value.params["playable"] == ["2♣", "2♥"]


def test_anything_that_is_no_action_is_refused() -> None:
    state = State(Rules(), 3, seed=3)
    assert_refused(state, "bid 3", "bad_action")
    assert_refused(state, {"t": "keep_hand"}, "bad_action")
    assert_refused(state, Play(Card.parse("JK")), "wrong_phase")


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    state = State(Rules(), 2, seed=0, start=Start(chips=(8, 40)))
    assert state.is_over
    assert_refused(state, KeepHand(), "game_over")


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "bid",
        {},
        {"t": 3},
        {"t": "jump"},
        {"t": "bid"},
        {"t": "bid", "chips": "2"},
        {"t": "bid", "chips": True},
        {"t": "bid", "chips": 2.0},
        {"t": "pass", "chips": 1},
        {"t": "play"},
        {"t": "play", "card": 7},
    ],
)
def test_garbage_action_json_is_refused(data: Any) -> None:
    with pytest.raises(IllegalAction) as err:
        action_from_json(data)
    assert err.value.code == "bad_action"


@pytest.mark.parametrize("card", ["ZZ", "11♠", "JK", "2♣#1", ""])
def test_a_play_of_no_real_card_is_refused(card: str) -> None:
    with pytest.raises(IllegalAction) as err:
        action_from_json({"t": "play", "card": card})
    assert err.value.code == "bad_card"


@pytest.mark.parametrize("text", ["", "bid", "bid x", "bid -1", "raise 2 3", "dance"])
def test_garbage_action_text_is_refused(text: str) -> None:
    with pytest.raises(IllegalAction) as err:
        parse_action(text)
    assert err.value.code == "bad_action"


def test_garbage_records_are_refused() -> None:
    with pytest.raises(IllegalAction) as err:
        Record.loads("{not json")
    assert err.value.code == "bad_json"
    with pytest.raises(IllegalAction) as err:
        replay(Record("romme", {}, 1, ("a", "b")))
    assert err.value.code == "bad_record"
    with pytest.raises(IllegalAction) as err:
        replay(Record("rummoli", {"poker": "maybe"}, 1, ("a", "b")))
    assert err.value.code == "bad_rules"
    with pytest.raises(IllegalAction) as err:
        replay(Record("rummoli", {}, 1, ("a", "b"), ({"t": "bid", "chips": 1},)))
    assert err.value.code == "wrong_phase"
    with pytest.raises(IllegalAction) as err:
        replay(Record("rummoli", {"start": {"dealer": 5}}, 1, ("a", "b")))
    assert err.value.code == "bad_start"
    with pytest.raises(IllegalAction) as err:
        replay({"game": "rummoli"})
    assert err.value.code == "bad_record"


def test_a_bad_table_or_seat_is_refused() -> None:
    for players in (1, 9, "4", True):
        with pytest.raises(IllegalAction) as err:
            State(Rules(), players, seed=1)  # type: ignore[arg-type]
        assert err.value.code == "bad_players"
    with pytest.raises(IllegalAction) as err:
        State(Rules(), 2, seed=1, start=Start(chips=(40,)))
    assert err.value.code == "bad_start"
    with pytest.raises(IllegalAction) as err:
        State(Rules(), 2, seed=1, start=Start(hands=((Card.parse("2♣"),), (Card.parse("2♣"),))))
    assert err.value.code == "bad_start"
    with pytest.raises(IllegalAction) as err:
        State(Rules(), 2, seed="x")  # type: ignore[arg-type]
    assert err.value.code == "bad_seed"
    with pytest.raises(IllegalAction) as err:
        State(Rules(), 2, seed=1).view(2)
    assert err.value.code == "bad_seat"
