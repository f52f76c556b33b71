"""Spec section "Opening (first meld)"."""

from __future__ import annotations

import pytest

from rummykit.romme import Rules

from .helpers import act, rejected, turn

STOCK = "2♣#1"


def test_opening_first_melding_needs_at_least_30_from_new_melds() -> None:
    game = turn("J♣ Q♣ K♣ 9♥ 9♦ JK 4♠", stock=STOCK)
    act(game, "draw stock")
    err = rejected(game, "play [9♥ 9♦ JK]", "opening_below_minimum")
    assert err.params == {"value": 27, "minimum": 30}
    act(game, "play [J♣ Q♣ K♣]")
    assert game.opened[0] and game.log[-1]["opening_value"] == 30


def test_opening_several_new_melds_add_up() -> None:
    game = turn("2♥ 3♥ 4♥ 5♠ 5♦ 5♣ 6♠ 6♦ 6♣ K♦", stock=STOCK)
    act(game, "draw stock")
    rejected(game, "play [2♥ 3♥ 4♥] [5♠ 5♦ 5♣]", "opening_below_minimum")
    act(game, "play [2♥ 3♥ 4♥] [5♠ 5♦ 5♣] [6♠ 6♦ 6♣]")
    assert game.log[-1]["opening_value"] == 9 + 15 + 18


@pytest.mark.parametrize(("minimum", "opens"), [(0, True), (30, False), (40, False)])
def test_opening_minimum_is_an_option(minimum: int, opens: bool) -> None:
    game = turn("2♥ 3♥ 4♥ K♦", rules=Rules(deal_style="upcard", opening_min=minimum), stock=STOCK)
    act(game, "draw stock")
    if opens:
        act(game, "play [2♥ 3♥ 4♥]")
    else:
        rejected(game, "play [2♥ 3♥ 4♥]", "opening_below_minimum")


def test_opening_40_needs_40() -> None:
    rules = Rules(deal_style="upcard", opening_min=40)
    game = turn("J♣ Q♣ K♣ 10♦ J♦ Q♦ K♦ 4♠", rules=rules, stock=STOCK)
    act(game, "draw stock")
    rejected(game, "play [J♣ Q♣ K♣]", "opening_below_minimum")
    act(game, "play [10♦ J♦ Q♦ K♦]")


def test_opening_lay_offs_do_not_count_towards_the_minimum() -> None:
    game = turn("9♥ 9♦ JK 5♠ K♦", table=[(1, "6♠ 7♠ 8♠")], opened=[False, True], stock=STOCK)
    act(game, "draw stock")
    err = rejected(game, "play [9♥ 9♦ JK] +0<:5♠", "opening_below_minimum")
    assert err.params["value"] == 27


def test_opening_until_opened_no_lay_off() -> None:
    game = turn("5♠ K♦ 2♥", table=[(1, "6♠ 7♠ 8♠")], opened=[False, True], stock=STOCK)
    act(game, "draw stock")
    rejected(game, "play +0<:5♠", "layoff_before_opening")


def test_opening_until_opened_no_joker_exchange() -> None:
    game = turn("7♠ K♦ 2♥", table=[(1, "6♠ JK 8♠")], opened=[False, True], stock=STOCK)
    act(game, "draw stock")
    rejected(game, "play x0:7♠/JK", "exchange_before_opening")


def test_opening_layoff_on_opening_turn_allowed_by_default() -> None:
    game = turn("J♣ Q♣ K♣ 5♠ 4♦", table=[(1, "6♠ 7♠ 8♠")], opened=[False, True], stock=STOCK)
    act(game, "draw stock")
    act(game, "play [J♣ Q♣ K♣] +0<:5♠")
    assert [c.code for c in game.table[0].cards] == ["5♠", "6♠", "7♠", "8♠"]


def test_opening_layoff_on_opening_turn_can_be_switched_off() -> None:
    rules = Rules(deal_style="upcard", layoff_on_opening_turn=False)
    game = turn(
        "J♣ Q♣ K♣ 5♠ 7♥ 4♦",
        rules=rules,
        table=[(1, "6♠ 7♠ 8♠"), (1, "5♥ JK 7♥#1")],
        opened=[False, True],
        stock=STOCK,
    )
    act(game, "draw stock")
    rejected(game, "play [J♣ Q♣ K♣] +0<:5♠", "layoff_before_opening")
    # the joker would go onto the first run's high end
    rejected(game, "play [J♣ Q♣ K♣] x1:6♥#1/JK", "card_not_in_hand")
    act(game, "play [J♣ Q♣ K♣]")
    act(game, "discard 7♥")
    # On a later turn lay-offs are fine.
    act(game, "draw stock")
    act(game, "discard 2♦#1")
    act(game, "draw stock")
    act(game, "play +0<:5♠")


def test_opening_exchanges_on_the_opening_turn_follow_the_same_option() -> None:
    table = [(1, "6♠ JK 8♠"), (1, "9♦ 10♦ J♦")]
    game = turn("J♣ Q♣ K♣ 7♠ 4♦", table=table, opened=[False, True], stock=STOCK)
    act(game, "draw stock")
    act(game, "play [J♣ Q♣ K♣] x0:7♠/JK +1>:JK")
    off = Rules(deal_style="upcard", layoff_on_opening_turn=False)
    game = turn("J♣ Q♣ K♣ 7♠ 4♦", rules=off, table=table, opened=[False, True], stock=STOCK)
    act(game, "draw stock")
    rejected(game, "play [J♣ Q♣ K♣] x0:7♠/JK +1>:JK", "exchange_before_opening")


def test_opening_a_freed_joker_does_not_count_towards_the_minimum() -> None:
    table = [(1, "6♠ JK 8♠")]
    game = turn("J♣ Q♣ 7♠ 9♥ 9♦ 4♦", table=table, opened=[False, True], stock=STOCK)
    act(game, "draw stock")
    # J♣ Q♣ + the freed joker would be 30, but that joker is not from the own hand.
    err = rejected(game, "play [9♥ 9♦ JK] x0:7♠/JK", "opening_below_minimum")
    assert err.params["value"] == 0


def test_opening_house_rule_requires_a_run() -> None:
    rules = Rules(deal_style="upcard", opening_requires_run=True)
    game = turn("K♣ K♦ K♠ 2♥ 3♥ 4♥ 9♣", rules=rules, stock=STOCK)
    act(game, "draw stock")
    rejected(game, "play [K♣ K♦ K♠]", "opening_needs_run")
    act(game, "play [K♣ K♦ K♠] [2♥ 3♥ 4♥]")


def test_opening_house_rule_without_jokers() -> None:
    rules = Rules(deal_style="upcard", opening_without_jokers=True)
    game = turn("K♣ K♦ JK Q♥ Q♠ Q♦ 9♣", rules=rules, stock=STOCK)
    act(game, "draw stock")
    rejected(game, "play [K♣ K♦ JK]", "opening_with_joker")
    act(game, "play [Q♥ Q♠ Q♦]")
    act(game, "discard 9♣")
    act(game, "draw stock")
    act(game, "discard 2♦#1")
    act(game, "draw stock")
    act(game, "play [K♣ K♦ JK]")  # after opening, jokers are fine


def test_opening_is_per_round() -> None:
    game = turn("J♣ Q♣ K♣ 4♦ 9♣", stock=STOCK)
    act(game, "draw stock")
    act(game, "play [J♣ Q♣ K♣]")
    assert game.view(1).opened == (True, False)
