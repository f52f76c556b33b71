"""Spec section "Taking the discard": must_use (standard) and free, never re-discarded."""

from __future__ import annotations

from rummykit.romme import Draw, Rules

from .helpers import act, card, rejected, turn

MUST_USE = Rules(deal_style="upcard")
FREE = Rules(deal_style="upcard", discard_pickup="free")


def test_must_use_pickup_is_legal_when_the_card_can_open() -> None:
    game = turn("J♣ Q♣ 2♥ 7♦", rules=MUST_USE, discard_pile="K♣")
    assert game.view(0).can_take_discard
    assert Draw("discard") in game.legal_actions()
    act(game, "draw discard")
    assert game.picked == card("K♣")
    assert game.log[-1] == {"code": "draw", "seat": 0, "source": "discard", "card": card("K♣").id}


def test_must_use_pickup_refused_when_the_card_cannot_be_used() -> None:
    game = turn("9♥ 9♦ 2♥ 7♦", rules=MUST_USE, discard_pile="JK")  # 9♥ 9♦ JK is only 27
    assert not game.view(0).can_take_discard
    assert game.legal_actions() == [Draw("stock")]
    rejected(game, "draw discard", "discard_unusable")


def test_must_use_pickup_after_opening_for_a_lay_off() -> None:
    game = turn(
        "2♥ 7♦ 9♠", rules=MUST_USE, discard_pile="10♣", table=[(1, "J♣ Q♣ K♣")], opened=[True, True]
    )
    act(game, "draw discard")
    act(game, "play +0:10♣")
    act(game, "discard 2♥")


def test_must_use_pickup_not_opened_the_card_must_be_part_of_the_opening() -> None:
    game = turn("J♣ Q♣ K♣ 2♥ 7♦", rules=MUST_USE, discard_pile="10♣")
    act(game, "draw discard")
    rejected(game, "play [J♣ Q♣ K♣] +0<:10♣", "picked_card_not_in_opening")
    act(game, "play [10♣ J♣ Q♣ K♣]")


def test_must_use_the_turn_cannot_end_while_the_card_is_unused() -> None:
    game = turn("J♣ Q♣ 2♥ 7♦ 5♠ 5♦ 5♥", rules=MUST_USE, discard_pile="K♣")
    act(game, "draw discard")
    rejected(game, "discard 2♥", "picked_card_unused")
    assert game.legal_actions() == []
    rejected(game, "play [5♠ 5♦ 5♥]", "opening_below_minimum")
    rejected(game, "play [5♠ 5♦ 5♥] [J♣ Q♣ JK]", "card_not_in_hand")
    act(game, "play [J♣ Q♣ K♣]")
    act(game, "discard 2♥")


def test_must_use_a_play_that_leaves_the_card_unused_is_refused() -> None:
    game = turn("J♣ Q♣ K♦ Q♦ J♦ 2♥", rules=MUST_USE, discard_pile="K♣")
    act(game, "draw discard")
    rejected(game, "play [J♦ Q♦ K♦]", "picked_card_unused")


def test_must_use_pickup_needs_a_card_left_to_discard() -> None:
    # Opened, holding one card: J♣ + K♣ cannot both go out onto the run and leave a discard.
    game = turn(
        "J♥", rules=MUST_USE, discard_pile="K♣", table=[(1, "9♣ 10♣ J♣ Q♣")], opened=[True, True]
    )
    assert game.view(0).can_take_discard  # K♣ on the run, J♥ is discarded
    game = turn(
        "J♥", rules=MUST_USE, discard_pile="K♥", table=[(1, "9♣ 10♣ J♣ Q♣")], opened=[True, True]
    )
    assert not game.view(0).can_take_discard


def test_free_pickup_is_always_allowed() -> None:
    game = turn("9♥ 9♦ 2♥ 7♦", rules=FREE, discard_pile="4♣")
    assert game.view(0).can_take_discard
    act(game, "draw discard")
    act(game, "discard 2♥")  # kept in hand, not used


def test_in_both_modes_the_picked_card_is_never_discarded_again_that_turn() -> None:
    game = turn("9♥ 9♦ 2♥ 7♦", rules=FREE, discard_pile="4♣")
    act(game, "draw discard")
    rejected(game, "discard 4♣", "discard_picked_card")
    game = turn("J♣ Q♣ 2♥ 7♦", rules=MUST_USE, discard_pile="K♣")
    act(game, "draw discard")
    act(game, "play [J♣ Q♣ K♣]")
    rejected(game, "discard K♣", "card_not_in_hand")


def test_free_pickup_a_play_may_not_leave_only_the_picked_card() -> None:
    game = turn("J♣ Q♣ K♣", rules=FREE, discard_pile="4♦", stock="2♣#1")
    act(game, "draw discard")
    rejected(game, "play [J♣ Q♣ K♣]", "no_card_to_discard")


def test_discard_pile_empty_cannot_be_drawn() -> None:
    game = turn("J♣ Q♣ K♣ 4♦", rules=FREE, discard_pile="")
    rejected(game, "draw discard", "discard_pile_empty")


def test_must_use_not_opened_a_meld_with_a_freed_joker_laid_in_the_opening_turn_uses_it() -> None:
    # The picked 4♦ goes with 5♦ and a joker freed from the table: that meld is part of the
    # opening turn's melding, though only J♣ Q♣ K♣ counts towards the minimum.
    table = [(1, "6♠ JK 8♠")]
    game = turn(
        "J♣ Q♣ K♣ 7♠ 5♦ 2♥", rules=MUST_USE, discard_pile="4♦", table=table, opened=[False, True]
    )
    assert game.view(0).can_take_discard
    act(game, "draw discard")
    act(game, "play x0:7♠/JK [J♣ Q♣ K♣] [4♦ 5♦ JK]")
    assert game.log[-1]["opening_value"] == 30


def test_must_use_not_opened_the_card_cannot_be_laid_off_or_exchanged_instead() -> None:
    table = [(1, "6♠ JK 8♠"), (1, "9♦ 10♦ J♦")]
    game = turn("J♣ Q♣ K♣ 2♥", rules=MUST_USE, discard_pile="8♦", table=table, opened=[False, True])
    assert not game.view(0).can_take_discard
    game = turn(
        "J♣ Q♣ K♣ 8♦#1 2♥",
        rules=Rules(deal_style="upcard", discard_pickup="free"),
        discard_pile="7♠",
        table=table,
        opened=[False, True],
    )
    act(game, "draw discard")
    act(game, "play x0:7♠/JK [J♣ Q♣ K♣] +1>:JK +1<:8♦#1")
