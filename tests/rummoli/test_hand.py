"""Spec, phases 1-3: ante and deal, the widow and its auction, the poker hand (both modes)."""

from __future__ import annotations

import pytest

from rummykit.cards import parse_cards
from rummykit.core import IllegalAction
from rummykit.rummoli import (
    ANTE,
    Bet,
    Bid,
    Box,
    Call,
    Check,
    Fold,
    KeepHand,
    Pass,
    Phase,
    Raise,
    Rules,
    Start,
    State,
    SwapWidow,
)
from rummykit.rummoli.rules import BOXES

from .helpers import Table, box

BETTING = Rules(poker="betting")


# --- ante and deal -----------------------------------------------------------------------


def test_before_each_deal_every_player_puts_one_chip_on_each_of_the_nine_boxes() -> None:
    state = State(Rules(), 4, seed=1)
    assert ANTE == 9 == len(BOXES)
    assert state.chips == [40 - 9] * 4
    assert state.board == [4] * 9
    assert state.events[1] == {"code": "ante", "seats": [0, 1, 2, 3], "chips": 9}


def test_a_player_who_cannot_pay_the_whole_ante_is_out_and_keeps_no_seat() -> None:
    state = State(Rules(), 3, seed=2, start=Start(chips=(8, 40, 40)))
    assert state.in_game == [False, True, True]
    assert {"code": "player_out", "seat": 0, "chips": 8} in state.events
    assert state.chips[0] == 8 and state.board == [2] * 9
    assert state.order == (2, 1) and state.dealer == 1  # seat 0 cannot deal either
    assert state.view(0).hand == () and state.view(1).hand_counts[0] == 0


def test_a_player_running_out_of_chips_is_out_from_the_next_hand() -> None:
    # Seat 0 pays its last chips in the ante, then loses the hand (seat 1 goes out first).
    t = Table("2♣ 3♣ 4♣ 9♥ 9♠", "5♣ 6♣ 7♥ K♠", chips=[9, 40]).keep_and_pass()
    state = t.state
    assert state.hand_number == 1 and state.is_over  # one player left: the game ends
    # Poker box +2, then 2 chips paid to seat 1 for the two cards left: nothing remains.
    assert {"code": "player_out", "seat": 0, "chips": 0} in state.events
    assert state.in_game == [False, True]
    assert state.events[-2]["code"] == "final_won" and state.events[-2]["seat"] == 1
    assert state.events[-1]["code"] == "game_over" and state.chips == [0, 49]


@pytest.mark.parametrize(
    ("players", "sizes", "widow"),
    [
        (2, [17, 18], 17),
        (3, [13, 13, 13], 13),
        (4, [10, 11, 11, 10], 10),
        (5, [8, 9, 9, 9, 9], 8),
        (6, [7, 8, 8, 8, 7, 7], 7),
        (7, [6, 7, 7, 7, 7, 6, 6], 6),
        (8, [5, 6, 6, 6, 6, 6, 6, 6], 5),
    ],
)
def test_the_first_52_mod_n_plus_1_hands_dealt_get_one_card_more(
    players: int, sizes: list[int], widow: int
) -> None:
    # Seat 0 deals: seat 1 gets the first card, the dealer the last but one, the widow the last.
    state = State(Rules(), players, seed=players)
    assert state.view(0).hand_counts == tuple(sizes)
    assert state.view(0).widow_count == widow
    assert sum(sizes) + widow == 52 and 52 % (players + 1) == sum(1 for s in sizes if s > widow)


def test_the_deal_comes_from_the_states_own_seeded_generator() -> None:
    assert State(Rules(), 4, 9).holder == State(Rules(), 4, 9).holder
    assert State(Rules(), 4, 9).holder != State(Rules(), 4, 10).holder


def test_the_deal_passes_to_the_left_every_hand() -> None:
    state = State(Rules(hands=6), 3, seed=4)
    dealers = []
    while not state.is_over:
        if state.phase is Phase.WIDOW and (not dealers or dealers[-1] != state.dealer):
            dealers.append(state.dealer)
        state.apply(KeepHand() if state.phase is Phase.WIDOW else state.legal_actions()[0])
    assert dealers[:6] == [0, 1, 2, 0, 1, 2]


# --- the widow ---------------------------------------------------------------------------


def test_the_dealer_may_swap_the_hand_for_the_widow_unseen() -> None:
    state = State(Rules(), 4, seed=5)
    own, widow = state.cards_of(0), state.widow
    assert state.view(0).widow is None and state.legal_actions() == [SwapWidow(), KeepHand()]
    state.apply(SwapWidow())
    assert {"code": "widow_swapped", "seat": 0} in state.events
    assert state.view(0).widow == own  # the dead widow is the old hand, which the dealer knows
    assert all(state.view(s).widow is None for s in (1, 2, 3))
    seq_cards = {c for _, c in state.view(0).plays}
    assert set(state.cards_of(0)) | seq_cards >= set(widow) - seq_cards
    assert set(own).isdisjoint(seq_cards)  # cards in the dead widow are never played


def test_keeping_the_hand_auctions_the_widow_from_the_dealers_left() -> None:
    state = State(Rules(), 4, seed=6)
    state.apply(KeepHand())
    assert state.phase is Phase.AUCTION and state.to_move == 1
    state.apply(Bid(2))
    assert state.to_move == 2
    with pytest.raises(IllegalAction) as err:
        state.apply(Bid(2))
    assert err.value.code == "bid_too_low" and err.value.params["minimum"] == 3
    state.apply(Bid(3))
    state.apply(Pass())
    assert state.to_move == 1  # the auction goes round until all others pass
    state.apply(Bid(5))
    assert state.to_move == 2  # seat 3 passed and is out of this auction


def test_the_highest_bidder_pays_the_dealer_and_swaps_hands() -> None:
    state = State(Rules(), 4, seed=6)
    own, widow = state.cards_of(2), state.widow
    state.apply(KeepHand())
    state.apply(Pass())
    state.apply(Bid(4))
    state.apply(Pass())
    assert {"code": "auction_won", "seat": 2, "chips": 4, "to": 0} in state.events
    played = {c for _, c in state.view(2).plays}
    assert state.view(2).widow == own
    assert set(state.cards_of(2)) | played >= set(widow) - played
    assert set(own).isdisjoint(played)


def test_the_auction_money_goes_from_the_winner_to_the_dealer() -> None:
    t = Table("2♣ 3♣ 4♣ 9♥ 9♠", "5♣ 6♣ 7♥ K♠")
    t.state.apply(KeepHand())
    t.state.apply(Bid(3))
    chips, _ = t.at("auction_won")
    assert chips == [31 + 3, 31 - 3]


def test_with_no_bid_the_widow_stays_dead_and_nobody_sees_it() -> None:
    state = State(Rules(), 3, seed=8)
    widow = state.widow
    state.apply(KeepHand())
    state.apply(Pass())
    state.apply(Pass())
    assert {"code": "widow_dead"} in state.events
    assert all(state.view(s).widow is None for s in range(3))
    assert set(widow).isdisjoint(c for _, c in state.view(0).plays)


def test_widow_payers_barred_the_dealer_holding_a_paying_card_must_keep() -> None:
    rules = Rules(widow_payers_barred=True)
    t = Table("10♠ 2♣ 9♥ 9♠", "5♣ 6♣ 7♥ K♠", "3♦ 4♦ 8♦", rules=rules)
    state = t.state
    assert state.phase is Phase.AUCTION and state.to_move == 1
    assert t.hand_events()[3] == {"code": "widow_kept", "seat": 0}


def test_widow_payers_barred_a_bidder_holding_a_paying_card_passes_unasked() -> None:
    rules = Rules(widow_payers_barred=True)
    t = Table("2♣ 9♥ 9♠", "5♣ K♥ 7♥", "3♦ 4♦ 8♦", rules=rules)
    state = t.state
    assert state.phase is Phase.WIDOW
    state.apply(KeepHand())
    assert state.to_move == 2  # seat 1 holds K♥ and was passed over
    assert {"code": "pass", "seat": 1} in t.hand_events()


def test_without_the_house_rule_a_paying_card_does_not_bar_the_widow() -> None:
    t = Table("10♠ 2♣ 9♥ 9♠", "5♣ K♥ 7♥", "3♦ 4♦ 8♦")
    assert t.state.phase is Phase.WIDOW
    t.state.apply(KeepHand())
    assert t.state.to_move == 1


# --- the poker hand ----------------------------------------------------------------------


def test_at_the_showdown_everyone_shows_and_the_best_hand_takes_the_poker_box() -> None:
    t = Table("2♣ 3♣ 4♣ 9♥ 9♠", "5♣ 6♣ 7♥ K♠").keep_and_pass()
    shows = t.events("poker_show")
    assert [(e["seat"], e["category"]) for e in shows] == [(1, "high_card"), (0, "pair")]
    assert shows[1]["cards"] == ["9♠", "9♥", "4♣", "3♣", "2♣"]
    chips, board = t.at("poker_won")
    assert box(board, Box.POKER) == 0 and chips == [31 + 2, 31]


def test_equal_hands_split_the_poker_box_and_indivisible_chips_stay() -> None:
    t = Table("K♥ K♦ 5♣", "K♠ K♣ 5♦", "Q♥ 2♣").keep_and_pass()
    won = t.events("poker_won")[0]
    assert won["seats"] == [1, 0] and won["chips"] == 1 and won["remainder"] == 1
    _, board = t.at("poker_won")
    assert box(board, Box.POKER) == 1


def test_on_a_split_the_tied_player_nearest_the_dealers_left_starts() -> None:
    t = Table("K♥ K♦ 5♣", "K♠ K♣ 5♦", "Q♥ 2♣").keep_and_pass()
    assert t.events("sequence_start")[0]["seat"] == 1
    t2 = Table("K♥ K♦ 5♣", "K♠ K♣ 5♦", "Q♥ 2♣", dealer=1).keep_and_pass()
    assert t2.events("sequence_start")[0]["seat"] == 0


def _betting_table(chips: list[int] | None = None) -> Table:
    # Seat 2 holds the best hand, seat 1 the second, seat 0 (the dealer) the worst.
    t = Table("2♣ 7♦ 9♠", "3♥ 3♦ J♣", "A♠ A♦ 5♥", rules=BETTING, chips=chips)
    return t.keep_and_pass()


def test_betting_starts_at_the_dealers_left_and_a_checked_round_goes_to_showdown() -> None:
    t = _betting_table()
    state = t.state
    assert state.phase is Phase.BETTING and state.to_move == 1
    for _ in range(3):
        state.apply(Check())
    assert [e["seat"] for e in t.events("poker_show")] == [1, 2, 0]
    assert t.events("poker_won")[0]["seats"] == [2]


def test_bets_go_on_the_poker_box_and_the_last_player_in_wins_it_unshown() -> None:
    t = _betting_table()
    state = t.state
    state.apply(Bet(3))
    state.apply(Fold())
    state.apply(Fold())
    assert not t.events("poker_show")
    assert t.events("poker_won")[0] == {
        "code": "poker_won",
        "seats": [1],
        "chips": 3 + 3,
        "pot": 0,
        "remainder": 0,
    }


def test_a_folded_player_cannot_win_even_with_the_best_hand() -> None:
    t = _betting_table()
    state = t.state
    state.apply(Bet(1))
    state.apply(Fold())  # seat 2 holds the aces
    state.apply(Call())
    assert [e["seat"] for e in t.events("poker_show")] == [1, 0]
    assert t.events("poker_won")[0]["seats"] == [1]


def test_bets_are_1_to_max_bet_chips() -> None:
    state = _betting_table().state
    for chips in (0, 6):
        with pytest.raises(IllegalAction) as err:
            state.apply(Bet(chips))
        assert err.value.code == "bet_out_of_range"
    assert max(a.chips for a in state.legal_actions() if isinstance(a, Bet)) == 5
    state = Table("2♣ 7♦ 9♠", "3♥ 3♦ J♣", rules=Rules(poker="betting", max_bet=2)).state
    state.apply(KeepHand())
    state.apply(Pass())
    with pytest.raises(IllegalAction):
        state.apply(Bet(3))
    state.apply(Bet(2))


def test_at_most_three_raises() -> None:
    t = _betting_table()
    state = t.state
    state.apply(Bet(1))
    state.apply(Raise(1))
    state.apply(Raise(1))
    state.apply(Raise(1))
    assert state.raises == 3 and not any(isinstance(a, Raise) for a in state.legal_actions())
    with pytest.raises(IllegalAction) as err:
        state.apply(Raise(1))
    assert err.value.code == "raise_limit"
    state.apply(Call())
    state.apply(Call())
    assert state.phase is not Phase.BETTING
    assert t.events("poker_won")[0]["chips"] == 3 + 3 * 4


def test_nobody_may_bet_more_chips_than_they_have() -> None:
    t = _betting_table(chips=[40, 12, 40])  # seat 1 has 3 chips after the ante
    state = t.state
    with pytest.raises(IllegalAction) as err:
        state.apply(Bet(4))
    assert err.value.code == "bet_above_chips"
    assert max(a.chips for a in state.legal_actions() if isinstance(a, Bet)) == 3


def test_a_short_call_goes_all_in_and_wins_only_what_it_matched() -> None:
    # Seat 2 (aces) has 2 chips after the ante; seats 1 and 0 bet 5 each.
    t = _betting_table(chips=[40, 40, 11])
    state = t.state
    state.apply(Bet(5))
    state.apply(Call())  # seat 2: all in for 2
    state.apply(Call())
    assert {"code": "call", "seat": 2, "chips": 2, "all_in": True} in t.events("call")
    won = t.events("poker_won")
    assert won[0]["seats"] == [2] and won[0]["chips"] == 3 + 2 * 3  # antes and 2 from each
    assert won[1]["seats"] == [1] and won[1]["chips"] == 3 + 3  # the rest between 1 and 0
    assert t.events("sequence_start")[0]["seat"] == 2


def test_an_all_in_player_is_not_asked_again() -> None:
    t = _betting_table(chips=[40, 40, 9])  # seat 2 has no chip left after the ante
    state = t.state
    state.apply(Bet(2))
    assert state.to_move == 0
    state.apply(Call())
    assert state.phase is not Phase.BETTING
    assert t.events("poker_won")[0]["seats"] == [2] and t.events("poker_won")[0]["chips"] == 3


def test_after_the_poker_hand_everyone_takes_back_all_cards() -> None:
    t = Table("2♣ 3♣ 4♣ 9♥ 9♠", "5♣ 6♣ 7♥ K♠")
    t.state.apply(KeepHand())
    t.state.apply(Pass())
    # The three cards outside the best five of seat 0 are played in the sequence too.
    played = [e["card"] for e in t.hand_events() if e["code"] in ("lead", "play")]
    assert {"2♣", "3♣", "4♣"} <= set(played)
    assert parse_cards("2♣")[0] not in t.state.cards_of(0)
