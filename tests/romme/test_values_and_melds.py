"""Spec sections "Material", "Card values" and "Melds": values, penalties, what a meld is."""

from __future__ import annotations

import pytest

from rummykit.cards import romme_pack
from rummykit.core import IllegalAction
from rummykit.romme import Rules, State, card_value, hand_penalty, meld_kind, meld_value
from rummykit.romme.rules import joker_stands_for, read_cards

from .helpers import card, cards


def test_material_110_cards_two_decks_and_six_jokers_each_distinct() -> None:
    pack = romme_pack()
    assert len(pack) == 110 and len(set(pack)) == 110
    assert sum(c.is_joker for c in pack) == 6
    assert sum(c.face == "8♠" for c in pack) == 2


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_material_two_to_six_players(players: int) -> None:
    assert State(players=players, seed=1).players == players


@pytest.mark.parametrize("players", [0, 1, 7, True])
def test_material_fewer_than_two_or_more_than_six_players_refused(players: int) -> None:
    with pytest.raises(IllegalAction) as info:
        State(players=players, seed=1)
    assert info.value.code == "bad_players"


# --- values --------------------------------------------------------------------------------


def test_card_values_two_to_ten_at_face_value_faces_ten() -> None:
    assert [card_value(c) for c in cards("2♣ 5♦ 9♠ 10♥ J♣ Q♦ K♠")] == [2, 5, 9, 10, 10, 10, 10]
    assert meld_value(cards("8♥ 9♥ 10♥ J♥ Q♥ K♥")) == 8 + 9 + 10 + 30


def test_card_values_ace_is_eleven_in_hand_and_in_melds() -> None:
    assert card_value(card("A♠")) == 11
    assert meld_value(cards("Q♦ K♦ A♦")) == 31
    assert meld_value(cards("A♣ A♠ A♥ A♦")) == 44
    assert meld_value(cards("A♥ 2♥ 3♥")) == 16


def test_card_values_option_ace_low_value_one_below_the_two_in_a_run_only() -> None:
    low = Rules(ace_low_value=1)
    assert meld_value(cards("A♥ 2♥ 3♥"), low) == 6
    assert meld_value(cards("Q♦ K♦ A♦"), low) == 31
    assert meld_value(cards("A♣ A♠ A♥"), low) == 33
    assert card_value(card("A♠"), low) == 11 and hand_penalty(cards("A♠"), low) == 11


def test_card_values_joker_in_a_meld_is_worth_the_card_it_stands_for() -> None:
    assert meld_value(cards("5♥ 6♥ JK")) == 18  # the 7♥
    assert meld_value(cards("JK Q♠ K♠")) == 30  # the J♠
    assert meld_value(cards("Q♠ K♠ JK")) == 31  # the high A♠
    assert meld_value(cards("JK 2♠ 3♠")) == 16  # the low A♠
    assert meld_value(cards("JK 2♠ 3♠"), Rules(ace_low_value=1)) == 6
    assert meld_value(cards("K♣ K♦ JK")) == 30


@pytest.mark.parametrize("penalty", [20, 25, 30, 40])
def test_card_values_joker_penalty_in_hand_is_an_option(penalty: int) -> None:
    assert card_value(card("JK"), Rules(joker_penalty=penalty)) == penalty


def test_worked_example_jack_queen_king_of_clubs_is_30_and_opens() -> None:
    assert meld_value(cards("J♣ Q♣ K♣")) == 30 >= Rules().opening_min


def test_worked_example_two_nines_and_a_joker_is_27_and_does_not_open_at_30() -> None:
    assert meld_value(cards("9♥ 9♦ JK")) == 27 < Rules().opening_min


def test_worked_example_three_aces_are_33_and_open() -> None:
    assert meld_value(cards("A♠ A♥ A♦")) == 33 >= Rules().opening_min


def test_worked_example_penalties_38_and_15_and_0_for_the_winner() -> None:
    assert hand_penalty(cards("9♥ 9♦ JK")) == 38
    assert hand_penalty(cards("10♦ 5♠")) == 15
    assert hand_penalty([]) == 0


def test_meld_value_of_a_non_meld_is_refused() -> None:
    with pytest.raises(IllegalAction) as info:
        meld_value(cards("5♥ 7♥ 9♥"))
    assert info.value.code == "invalid_meld"


# --- melds ---------------------------------------------------------------------------------


def test_group_three_or_four_of_one_rank_in_different_suits() -> None:
    assert meld_kind(cards("8♥ 8♠ 8♦")) == "group"
    assert meld_kind(cards("8♥ 8♠ 8♦ 8♣")) == "group"
    assert meld_kind(cards("8♥ 8♠")) is None
    assert meld_kind(cards("8♥ 8♠ 8♦ 8♣ JK")) is None


def test_group_never_holds_two_identical_cards() -> None:
    assert meld_kind(cards("8♠ 8♠ 8♥")) is None
    assert meld_kind(cards("8♠ 8♠ 8♥ 8♦")) is None


def test_group_joker_stands_for_a_missing_suit() -> None:
    full = cards("8♣ 8♠ 8♥ JK")
    reading = read_cards(full)
    assert reading is not None and reading.kind == "group"
    assert [c.face for c in joker_stands_for(full, 3, reading)] == ["8♦"]


def test_run_three_or_more_consecutive_cards_of_one_suit() -> None:
    assert meld_kind(cards("5♣ 6♣ 7♣")) == "run"
    assert meld_kind(cards("5♣ 6♣ 7♣ 8♣ 9♣")) == "run"
    assert meld_kind(cards("5♣ 6♣")) is None
    assert meld_kind(cards("5♣ 6♦ 7♣")) is None
    assert meld_kind(cards("5♣ 7♣ 8♣")) is None


def test_run_ace_low_or_high_never_around_the_corner() -> None:
    assert meld_kind(cards("A♥ 2♥ 3♥")) == "run"
    assert meld_kind(cards("Q♥ K♥ A♥")) == "run"
    assert meld_kind(cards("K♥ A♥ 2♥")) is None
    assert meld_kind(cards("Q♥ K♥ JK")) == "run"
    assert meld_kind(cards("K♥ JK 2♥")) is None


def test_run_at_most_thirteen_cards_the_ace_once() -> None:
    thirteen = cards("A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠")
    assert meld_kind(thirteen) == "run"
    assert meld_kind([*thirteen, card("A♠#1")]) is None
    assert meld_kind([*thirteen, card("JK")]) is None


def test_run_is_given_ascending_each_joker_standing_at_its_position() -> None:
    reading = read_cards(cards("5♥ 6♥ JK"))
    assert reading is not None and reading.numbers == (5, 6, 7)
    reading = read_cards(cards("JK 5♥ 6♥"))
    assert reading is not None and reading.numbers == (4, 5, 6)
    assert meld_kind(cards("7♥ 6♥ 5♥")) is None


def test_jokers_never_side_by_side_in_a_run() -> None:
    assert meld_kind(cards("5♥ JK JK 8♥")) is None
    assert meld_kind(cards("5♥ JK 7♥ JK")) == "run"
    assert meld_kind(cards("JK JK 5♥")) == "group"  # two jokers and a five: a group of 5s


def test_a_meld_holds_at_least_one_natural_card() -> None:
    assert meld_kind(cards("JK JK JK")) is None


def test_a_meld_that_reads_both_ways_is_a_run() -> None:
    assert meld_kind(cards("JK 5♥ JK")) == "run"
    reading = read_cards(cards("JK 5♥ JK"), kind="group")
    assert reading is not None and reading.kind == "group"


def test_joker_in_a_run_stands_for_one_exact_card_in_a_group_of_three_for_either_suit() -> None:
    run = cards("5♥ JK 7♥")
    assert [c.face for c in joker_stands_for(run, 1, read_cards(run))] == ["6♥"]
    group = cards("K♣ K♦ JK")
    faces = joker_stands_for(group, 2, read_cards(group))
    assert [c.face for c in faces] == ["K♠", "K♥"]
