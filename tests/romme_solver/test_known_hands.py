"""Hands with known answers, clause by clause of the rules."""

from __future__ import annotations

from rummykit.cards import Card, format_cards, parse_cards
from rummykit.romme.rules import Rules, TableMeld
from rummykit.romme.solver import (
    best_melds,
    best_opening,
    best_turn,
    can_use_card,
    going_out,
)


def melds_of(cards: str, rules: Rules | None = None, objective: str = "value") -> list[str]:
    found = best_melds(parse_cards(cards), rules or Rules(), objective)  # type: ignore[arg-type]
    return sorted(format_cards(m) for m in found.melds)


def run(cards: str, owner: int = 1, meld_id: int = 7) -> TableMeld:
    return TableMeld(tuple(parse_cards(cards)), "run", owner, meld_id)


def group(cards: str, owner: int = 1, meld_id: int = 8) -> TableMeld:
    return TableMeld(tuple(parse_cards(cards)), "group", owner, meld_id)


def test_jack_queen_king_of_clubs_is_30_and_opens() -> None:
    found = best_opening(parse_cards("J♣ Q♣ K♣ 2♦"))
    assert found is not None and found.value == 30


def test_two_nines_and_a_joker_are_27_and_do_not_open() -> None:
    assert best_melds(parse_cards("9♥ 9♦ JK 2♣")).value == 27
    assert best_opening(parse_cards("9♥ 9♦ JK 2♣")) is None


def test_three_aces_are_33_and_open() -> None:
    found = best_opening(parse_cards("A♠ A♥ A♦ 5♣"))
    assert found is not None and found.value == 33


def test_the_joker_is_worth_the_card_it_stands_for_placed_high() -> None:
    # 10♥ J♥ JK: the joker is the queen (30), not the 9 (29).
    found = best_melds(parse_cards("10♥ J♥ JK"))
    assert found.value == 30 and format_cards(found.melds[0]) == "10♥ J♥ JK"


def test_ace_low_counts_one_as_an_option() -> None:
    assert best_melds(parse_cards("A♣ 2♣ 3♣")).value == 16
    assert best_melds(parse_cards("A♣ 2♣ 3♣"), Rules(ace_low_value=1)).value == 6
    # With the ace low worth 1, the ace is better in a group of aces.
    assert melds_of("A♣ 2♣ 3♣ A♠ A♥", Rules(ace_low_value=1)) == ["A♣ A♠ A♥"]


def test_a_run_never_goes_round_the_corner() -> None:
    assert best_melds(parse_cards("K♠ A♠ 2♠")).melds == ()


def test_two_identical_cards_never_stand_in_one_group() -> None:
    assert best_melds(parse_cards("8♠ 8♠ 8♥")).melds == ()
    assert melds_of("8♠ 8♠ 8♥ 8♦") == ["8♠ 8♥ 8♦"]


def test_duplicates_make_two_melds() -> None:
    assert melds_of("5♥ 6♥ 7♥ 5♥ 6♥ 7♥") == ["5♥ 6♥ 7♥", "5♥#1 6♥#1 7♥#1"]


def test_long_runs_are_laid_as_one_meld() -> None:
    assert melds_of("4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦") == ["4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦"]


def test_penalty_objective_prefers_laying_the_jokers() -> None:
    # By value the group of kings (30) beats K♥ Q♥ JK… but a joker left in hand costs 20.
    cards = "K♣ K♠ K♥ Q♥ JK 3♦"
    by_penalty = best_melds(parse_cards(cards), objective="penalty")
    assert not any(c.is_joker for c in by_penalty.left)


def test_opening_needs_a_run_under_the_house_rule() -> None:
    cards = parse_cards("K♣ K♠ K♥ 4♦ 5♦ 6♦ 2♠")
    plain = best_opening(cards)
    assert plain is not None and plain.value == 45
    with_run = best_opening(cards, Rules(opening_min=30, opening_requires_run=True))
    assert with_run is not None and any(
        c.rank is not None and c.rank == 6 for m in with_run.melds for c in m
    )
    assert best_opening(parse_cards("K♣ K♠ K♥ 2♠"), Rules(opening_requires_run=True)) is None


def test_opening_without_jokers_under_the_house_rule() -> None:
    cards = parse_cards("10♣ 10♠ JK 5♥ 6♥ 7♥ 2♦")
    assert best_opening(cards) is not None
    assert best_opening(cards, Rules(opening_without_jokers=True)) is None


def test_opening_keeps_a_card_to_discard() -> None:
    # Every card melds into 36 points, but one must stay for the discard: 2♣ 3♣ 4♣ alone is 9.
    assert best_opening(parse_cards("9♥ 9♦ JK 2♣ 3♣ 4♣")) is None
    assert best_opening(parse_cards("9♥ 9♦ JK 2♣ 3♣ 4♣"), Rules(go_out="meld")) is not None


def test_going_out_by_discard_and_hand_romme() -> None:
    hand = parse_cards("J♣ Q♣ K♣ 9♥ 9♦ 9♠ 2♣")
    out = going_out(hand, opened=False)
    assert out is not None and format_cards(out.left) == "2♣"
    assert going_out(hand[:-1], opened=False) is None  # the last card may not be melded
    assert going_out(hand[:-1], Rules(go_out="meld"), opened=False) is not None


def test_lay_off_once_opened_on_any_meld() -> None:
    table = [run("5♥ 6♥ 7♥"), group("8♣ 8♠ 8♦")]
    found = best_turn(parse_cards("8♥ 4♥ K♠"), opened=True, table=table)
    assert found is not None and format_cards(found.left) == "K♠"
    # 4♥ only fits the run; 8♥ fits the run or the group of eights.
    assert sorted(lo.card.code for lo in found.layoffs) == ["4♥", "8♥"]
    assert [lo.meld for lo in found.layoffs if lo.card.code == "4♥"] == [7]


def test_joker_exchange_frees_a_joker_that_is_laid_again() -> None:
    table = [run("5♥ JK 7♥")]
    found = best_turn(parse_cards("6♥ Q♠ K♠ 2♣"), opened=True, table=table)
    assert found is not None
    assert [(x.meld, x.card.code) for x in found.exchanges] == [(7, "6♥")]
    assert [format_cards(m) for m in found.melds] == ["Q♠ K♠ JK"]
    assert format_cards(found.left) == "2♣"


def test_no_lay_off_before_opening() -> None:
    table = [run("5♥ 6♥ 7♥")]
    found = best_turn(parse_cards("8♥ 2♣ 3♦"), opened=False, table=table)
    assert found is not None and found.is_empty


def test_can_use_card_needs_the_opening_before_opening() -> None:
    hand = parse_cards("J♣ Q♣ 2♥ 5♦")
    assert can_use_card(hand, Card.parse("K♣"), [], Rules(), opened=False)
    assert not can_use_card(parse_cards("9♥ 9♦ 2♥"), Card.parse("9♣"), [], Rules(), opened=False)
    assert can_use_card(
        parse_cards("9♥ 9♦ 2♥"), Card.parse("9♣"), [], Rules(opening_min=0), opened=False
    )


def test_can_use_card_once_opened_by_lay_off_or_exchange() -> None:
    table = [run("5♥ JK 7♥"), group("Q♣ Q♠ Q♦")]
    assert can_use_card(parse_cards("2♣ 3♦"), Card.parse("8♥"), table, Rules(), opened=True)
    assert can_use_card(parse_cards("2♣ 3♦"), Card.parse("Q♥"), table, Rules(), opened=True)
    # 6♥ replaces the joker, which goes on the run's end or the queens.
    assert can_use_card(parse_cards("2♣"), Card.parse("6♥"), table, Rules(), opened=True)
    assert not can_use_card(parse_cards("2♣"), Card.parse("10♠"), table, Rules(), opened=True)


def test_can_use_card_keeps_a_card_for_the_discard() -> None:
    table = [run("5♥ 6♥ 7♥")]
    assert not can_use_card([], Card.parse("8♥"), table, Rules(), opened=True)
    assert can_use_card([], Card.parse("8♥"), table, Rules(go_out="meld"), opened=True)
