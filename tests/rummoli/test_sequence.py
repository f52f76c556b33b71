"""Spec, phase 4 "The sequence": one test per clause, on hands built card by card.

In every table the cards not named are in the widow, the dealer (seat 0) keeps the hand and
nobody bids, so the sequence is all that remains. Two players ante 2 chips per box.
"""

from __future__ import annotations

import pytest

from rummykit.cards import Card
from rummykit.rummoli import Box, Phase, Play, Rules
from rummykit.rummoli.rules import PAYING_CARDS

from .helpers import Table, box


def test_the_starter_leads_the_lowest_card_and_the_next_cards_follow_whoever_holds_them() -> None:
    t = Table("2♣ 3♣ 4♣ 9♥ 9♠", "5♣ 6♣ 7♥ 10♦ K♠").keep_and_pass()
    assert t.trace()[:5] == ["lead 0 2♣", "play 0 3♣", "play 0 4♣", "play 1 5♣", "play 1 6♣"]


def test_the_poker_winner_starts_the_sequence() -> None:
    t = Table("2♣ 3♣ 4♣ 9♥ 9♠", "5♣ 6♣ 7♥ 10♦ K♠").keep_and_pass()
    assert t.events("poker_won")[0]["seats"] == [0]
    assert t.events("sequence_start")[0]["seat"] == 0


def test_a_player_holding_several_following_cards_plays_them_all() -> None:
    t = Table("7♥ 8♥ 9♥ K♠ K♣", "2♣ 5♦").keep_and_pass()
    assert t.trace()[:3] == ["lead 0 7♥", "play 0 8♥", "play 0 9♥"]


def test_the_sequence_stops_after_an_ace() -> None:
    t = Table("K♦ Q♦ Q♠ 8♣", "A♦ 3♥ 4♠ 5♥").keep_and_pass()
    trace = t.trace()
    assert trace[4:6] == ["play 1 A♦", "stop ace A♦"]


def test_the_sequence_stops_when_the_next_card_is_in_the_widow() -> None:
    t = Table("2♣ 3♣ 4♣ 9♥ 9♠", "5♣ 6♣ 7♥ 10♦ K♠").keep_and_pass()
    stop = t.events("stop")[0]
    assert stop == {
        "code": "stop",
        "reason": "in_widow",
        "card": "6♣",
        "seat": 1,
        "missing": "7♣",
    }


def test_the_sequence_stops_when_the_next_card_was_played_earlier_in_the_hand() -> None:
    t = Table("3♥ 4♣ 9♠ 9♣", "2♥ 5♦").keep_and_pass()
    assert t.trace()[:7] == [
        "lead 0 3♥",
        "stop in_widow 4♥",
        "colour_change 0 4♣",
        "stop in_widow 5♣",
        "lead_passes 0",
        "colour_change 1 2♥",
        "stop already_played 3♥",
    ]


def test_after_a_black_sequence_the_last_player_leads_the_lowest_red_card() -> None:
    t = Table("2♣ 3♣ 4♣ 9♥ 9♠", "5♣ 6♣ 7♥ 10♦ K♠").keep_and_pass()
    trace = t.trace()
    assert trace[5:7] == ["stop in_widow 7♣", "colour_change 1 7♥"]
    assert t.events("colour_change")[0]["colour"] == "red"


def test_after_a_red_sequence_the_last_player_leads_the_lowest_black_card() -> None:
    t = Table("K♦ Q♦ Q♠ 8♣", "A♦ 3♥ 4♠ 5♥").keep_and_pass()
    assert t.trace()[5:7] == ["stop ace A♦", "colour_change 1 4♠"]


def test_without_a_card_of_the_other_colour_the_lead_passes_to_the_left() -> None:
    t = Table("K♦ Q♦ Q♠ 8♣", "A♦ 3♥ 4♠ 5♥").keep_and_pass()
    assert t.trace()[9:12] == ["stop in_widow 4♥", "lead_passes 1", "colour_change 0 Q♠"]


def test_the_lead_passes_around_the_table_to_the_left_until_someone_can() -> None:
    # Seats 0, 1, 2 from the dealer's left; after seat 0's black stop only seat 2 holds a red.
    t = Table("2♣ 9♠ 9♣", "4♠ 5♠", "7♥ 3♠", dealer=2).keep_and_pass()
    assert t.trace()[:5] == [
        "lead 0 2♣",
        "stop in_widow 3♣",
        "lead_passes 0",
        "lead_passes 1",
        "colour_change 2 7♥",
    ]


def test_equal_lowest_ranks_let_the_starter_choose_the_suit() -> None:
    t = Table("2♣ 2♥ 9♠ 9♦", "5♣ 6♦ K♠").keep_and_pass()
    state = t.state
    assert state.phase is Phase.LEAD and state.to_move == 0
    assert state.legal_actions() == [Play(Card.parse("2♣")), Play(Card.parse("2♥"))]
    assert state.view(0).choices == (Card.parse("2♣"), Card.parse("2♥"))
    state.apply(Play(Card.parse("2♥")))
    assert t.trace()[0] == "lead 0 2♥"


def test_equal_lowest_ranks_at_a_colour_change_are_a_choice_too() -> None:
    t = Table("K♥ K♦ 5♣", "K♠ K♣ 5♦", "Q♥ 2♣").keep_and_pass()
    state = t.state
    assert t.trace() == ["lead 1 5♦", "stop in_widow 6♦"]
    assert state.phase is Phase.LEAD and state.to_move == 1
    assert [a.card.code for a in state.legal_actions()] == ["K♣", "K♠"]
    state.apply(Play(Card.parse("K♠")))
    assert t.trace()[2] == "colour_change 1 K♠"


def test_a_hand_where_nobody_can_change_colour_is_blocked() -> None:
    t = Table("2♣ 9♠ 9♣", "4♠ K♣").keep_and_pass()
    assert t.trace() == [
        "lead 0 2♣",
        "stop in_widow 3♣",
        "lead_passes 0",
        "lead_passes 1",
        "blocked",
    ]


def test_a_blocked_hand_costs_one_chip_per_card_onto_the_rummoli_box_which_waits() -> None:
    t = Table("2♣ 9♠ 9♣", "4♠ K♣").keep_and_pass()
    payments = [(e["seat"], e["cards"], e["chips"]) for e in t.events("blocked_payment")]
    assert payments == [(1, 2, 2), (0, 2, 2)]
    chips, board = t.at("hand_end")
    assert box(board, Box.RUMMOLI) == 2 + 4
    assert chips == [40 - 9 + 2 - 2, 40 - 9 - 2]  # seat 0 won the Poker box (2 chips)
    _, next_board = t.at("ante", hand=2)
    assert box(next_board, Box.RUMMOLI) == 6 + 2


def test_a_blocked_payment_is_at_most_what_the_player_has() -> None:
    t = Table("2♣ 9♠ 9♣", "4♠ K♣", chips=[40, 9]).keep_and_pass()
    payments = [(e["seat"], e["cards"], e["chips"]) for e in t.events("blocked_payment")]
    assert payments == [(1, 2, 0), (0, 2, 2)]


@pytest.mark.parametrize("which", list(PAYING_CARDS))
def test_a_paying_card_wins_its_box_the_moment_it_is_played(which: Box) -> None:
    card = PAYING_CARDS[which].code
    t = Table(card, "2♣ 3♦").keep_and_pass()
    assert t.trace()[:2] == [f"lead 0 {card}", f"box_won 0 {which.value} 2"]
    _, board = t.at("box_won")
    assert box(board, which) == 0


def test_a_paying_card_in_the_widow_wins_nothing_and_its_box_carries_over() -> None:
    t = Table("2♣ 3♣ 4♣ 9♥ 9♠", "5♣ 6♣ 7♥ 10♦ K♠").keep_and_pass()
    assert not [e for e in t.events("box_won") if e["box"] == Box.QUEEN_CLUBS.value]
    _, board = t.at("ante", hand=2)
    assert box(board, Box.QUEEN_CLUBS) == 4


def test_strict_combo_seven_eight_nine_by_one_player_in_a_row_wins_the_box() -> None:
    t = Table("7♥ 8♥ 9♥ K♠ K♣", "2♣ 5♦").keep_and_pass()
    assert t.trace()[3] == "box_won 0 seven_eight_nine 2"


def test_strict_combo_seven_eight_nine_split_between_players_wins_nothing() -> None:
    t = Table("7♥ 9♥ K♠ K♣", "8♥ 2♣").keep_and_pass()
    assert t.trace()[:4] == ["lead 0 7♥", "play 1 8♥", "play 0 9♥", "stop in_widow 10♥"]


def test_last_card_combo_seven_eight_nine_pays_whoever_plays_the_nine() -> None:
    t = Table("7♥ 9♥ K♠ K♣", "8♥ 2♣", rules=Rules(combos="last_card")).keep_and_pass()
    assert t.trace()[:4] == ["lead 0 7♥", "play 1 8♥", "play 0 9♥", "box_won 0 seven_eight_nine 2"]


def test_last_card_combo_needs_the_three_cards_in_a_row() -> None:
    # 8♥ is in the widow: the 7♥ and the 9♥ never follow each other.
    t = Table("7♥ 9♥ K♠ K♣", "2♣ 5♦", rules=Rules(combos="last_card")).keep_and_pass()
    assert not t.events("box_won") or all(
        e["box"] != Box.SEVEN_EIGHT_NINE.value for e in t.events("box_won")
    )


def test_strict_combo_king_then_ace_of_diamonds_by_one_player_wins_the_box() -> None:
    t = Table("K♦ A♦ A♠ A♣", "2♣ 5♦").keep_and_pass()
    assert t.trace()[:4] == [
        "lead 0 K♦",
        "play 0 A♦",
        "box_won 0 king_ace_diamonds 2",
        "stop ace A♦",
    ]


def test_strict_combo_king_and_ace_of_diamonds_by_two_players_wins_nothing() -> None:
    t = Table("K♦ Q♦ Q♠ 8♣", "A♦ 3♥ 4♠ 5♥").keep_and_pass()
    assert not [e for e in t.events("box_won") if e["box"] == Box.KING_ACE_DIAMONDS.value]


def test_last_card_combo_king_ace_pays_whoever_plays_the_ace() -> None:
    t = Table("K♦ Q♦ Q♠ 8♣", "A♦ 3♥ 4♠ 5♥", rules=Rules(combos="last_card")).keep_and_pass()
    assert t.trace()[3:6] == ["play 0 K♦", "play 1 A♦", "box_won 1 king_ace_diamonds 2"]


def test_going_out_takes_the_rummoli_box_and_one_chip_per_card_from_each_other_player() -> None:
    t = Table("2♣ 3♣ 4♣ 9♥ 9♠", "5♣ 6♣ 7♥ K♠").keep_and_pass()
    assert t.trace()[-2:] == ["went_out 1", "box_won 1 rummoli 2"]
    assert [(e["seat"], e["to"], e["cards"], e["chips"]) for e in t.events("payment")] == [
        (0, 1, 2, 2)
    ]
    chips, _ = t.at("hand_end")
    assert chips == [31 + 2 - 2, 31 + 2 + 2]


def test_a_player_who_goes_out_is_paid_only_what_the_others_have() -> None:
    # Seat 2 paid its last chips in the ante; it still holds three cards.
    t = Table("2♣ 3♣ 4♣ 9♥ 9♠", "5♣ 6♣ 7♥ K♠", "J♥ 8♦ 2♦", chips=[40, 40, 9], dealer=2)
    t.keep_and_pass()
    assert t.trace()[-2:] == ["went_out 1", "box_won 1 rummoli 3"]
    payments = [(e["seat"], e["cards"], e["chips"]) for e in t.events("payment")]
    assert payments == [(2, 3, 0), (0, 2, 2)]


def test_going_out_ends_the_hand_at_once_after_the_boxes_of_the_last_card() -> None:
    t = Table("10♠", "2♣ 3♦").keep_and_pass()
    assert t.trace() == [
        "lead 0 10♠",
        "box_won 0 ten_spades 2",
        "went_out 0",
        "box_won 0 rummoli 2",
    ]
    assert t.events("hand_end")[0]["outcome"] == "out"
