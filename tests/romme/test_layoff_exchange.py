"""Spec: lay-offs onto anyone's melds and joker exchanges, only after opening."""

from __future__ import annotations

from rummykit.cards import Card
from rummykit.romme import Exchange, LayOff, NewMeld, Play

from .helpers import act, card, cards, rejected, turn

STOCK = "2♣#1"
OPENED = [True, True]


def codes(game_cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in game_cards]


def test_layoff_onto_another_players_meld_after_opening() -> None:
    game = turn("8♦ 4♣ K♦", table=[(1, "8♣ 8♠ 8♥")], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    act(game, "play +0:8♦")
    assert codes(game.table[0].cards) == ["8♣", "8♠", "8♥", "8♦"]
    assert game.table[0].owner == 1  # the meld still belongs to the player who laid it


def test_layoff_onto_an_own_meld() -> None:
    game = turn("10♣ 4♣ K♦", table=[(0, "J♣ Q♣ K♣")], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    act(game, "play +0:10♣")
    assert codes(game.table[0].cards) == ["10♣", "J♣", "Q♣", "K♣"]


def test_layoff_a_run_extends_at_either_end() -> None:
    game = turn("4♠ 9♠ 10♠ K♦", table=[(1, "5♠ 6♠ 7♠ 8♠")], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    act(game, "play +0:4♠ +0:9♠ +0>:10♠")
    assert codes(game.table[0].cards) == ["4♠", "5♠", "6♠", "7♠", "8♠", "9♠", "10♠"]


def test_layoff_a_joker_at_a_chosen_end() -> None:
    game = turn("JK 4♣ K♦", table=[(1, "5♠ 6♠ 7♠")], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    act(game, "play +0<:JK")
    assert codes(game.table[0].cards) == ["JK", "5♠", "6♠", "7♠"]


def test_layoff_that_breaks_a_meld_is_refused() -> None:
    table = [(1, "5♠ 6♠ 7♠"), (1, "8♣ 8♠ 8♥ 8♦"), (1, "Q♥ K♥ A♥"), (1, "8♦#1 9♦ JK")]
    game = turn("9♥ 8♣#1 2♥ JK#1 4♣", table=table, opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    rejected(game, "play +0:9♥", "invalid_layoff")
    rejected(game, "play +1:8♣#1", "invalid_layoff")  # a group holds four at most
    rejected(game, "play +2>:2♥", "invalid_layoff")  # never around the corner
    rejected(game, "play +3>:JK#1", "invalid_layoff")  # never two jokers side by side
    rejected(game, "play +9:9♥", "unknown_meld")


def test_layoff_the_ace_on_a_twelve_card_run_goes_high_unless_told() -> None:
    run = "2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"
    game = turn("A♥ 4♣ K♦", table=[(1, run)], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    game.apply(Play(layoffs=(LayOff(card("A♥"), 0, "low"),)))
    assert game.table[0].cards[0] == card("A♥")
    game = turn("A♥ 4♣ K♦", table=[(1, run)], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    act(game, "play +0:A♥")
    assert game.table[0].cards[-1] == card("A♥")


def test_exchange_a_joker_in_a_run_for_the_exact_card() -> None:
    table = [(1, "5♥ JK 7♥"), (1, "9♣ 10♣ J♣")]
    game = turn("6♥ 6♦ 4♣ K♦", table=table, opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    err = rejected(game, "play x0:6♦/JK +1:JK", "wrong_exchange_card")
    assert err.params["stands_for"] == ["6♥"]
    act(game, "play x0:6♥/JK +1:JK")
    assert codes(game.table[0].cards) == ["5♥", "6♥", "7♥"]
    assert codes(game.table[1].cards) == ["9♣", "10♣", "J♣", "JK"]
    assert card("JK") not in game.hands[0]


def test_exchange_from_any_players_meld_in_a_group_of_three_either_missing_suit() -> None:
    for natural in ("K♠", "K♥"):
        game = turn(f"{natural} 4♣ 5♣ 6♣ K♦#1", table=[(1, "K♣ K♦ JK")], opened=OPENED, stock=STOCK)
        act(game, "draw stock")
        act(game, f"play x0:{natural}/JK [4♣ 5♣ 6♣ JK]")
        assert codes(game.table[0].cards) == ["K♣", "K♦", natural]
    game = turn("K♣#1 4♣ 5♣ 6♣", table=[(1, "K♣ K♦ JK")], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    err = rejected(game, "play x0:K♣#1/JK [4♣ 5♣ 6♣ JK]", "wrong_exchange_card")
    assert err.params["stands_for"] == ["K♠", "K♥"]


def test_exchange_in_a_group_of_four_only_the_one_missing_suit() -> None:
    game = turn("K♥ K♠#1 4♣ 5♣ 6♣", table=[(1, "K♣ K♦ K♠ JK")], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    rejected(game, "play x0:K♠#1/JK [4♣ 5♣ 6♣ JK]", "wrong_exchange_card")
    act(game, "play x0:K♥/JK [4♣ 5♣ 6♣ JK]")


def test_exchange_the_freed_joker_must_be_laid_again_in_the_same_turn() -> None:
    game = turn("6♥ 4♣ K♦", table=[(1, "5♥ JK 7♥")], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    rejected(game, "play x0:6♥/JK", "freed_joker_not_laid")
    assert card("JK") not in game.hands[0]


def test_exchange_freed_joker_may_go_into_a_new_meld_or_onto_the_same_meld() -> None:
    game = turn("6♥ 4♣ 5♣ K♦", table=[(1, "5♥ JK 7♥")], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    act(game, "play x0:6♥/JK [4♣ 5♣ JK]")
    game = turn("6♥ 4♣ K♦", table=[(1, "5♥ JK 7♥")], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    act(game, "play x0:6♥/JK +0>:JK")
    assert codes(game.table[0].cards) == ["5♥", "6♥", "7♥", "JK"]


def test_exchange_needs_a_joker_in_that_meld_and_a_natural_from_the_hand() -> None:
    game = turn(
        "6♥ JK#1 4♣ K♦", table=[(1, "5♥ JK 7♥"), (1, "9♣ 10♣ J♣")], opened=OPENED, stock=STOCK
    )
    act(game, "draw stock")
    rejected(game, "play x1:6♥/JK +0:JK", "joker_not_in_meld")
    rejected(
        game, Play(exchanges=(Exchange(0, card("JK"), card("JK#1")),)), "exchange_needs_natural"
    )
    rejected(game, Play(exchanges=(Exchange(0, card("7♥"), card("6♥")),)), "not_a_joker")
    rejected(game, "play x0:6♥#1/JK +1:JK", "card_not_in_hand")
    rejected(game, "play x0:6♥/JK#1 +1:JK#1", "joker_not_in_meld")


def test_exchange_twice_from_a_group_with_two_jokers() -> None:
    game = turn("K♠ K♥ 4♣ 5♣ 6♣ 9♦ 2♠", table=[(1, "K♣ JK JK#1")], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    act(game, "play x0:K♠/JK x0:K♥/JK#1 [4♣ 5♣ 6♣ JK] +1<:JK#1")
    assert codes(game.table[0].cards) == ["K♣", "K♠", "K♥"]


def test_new_meld_in_any_order_is_laid_in_run_order_when_only_one_order_works() -> None:
    game = turn("K♥ A♥ Q♥ 7♣ 5♣ JK 2♦", opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    act(game, "play [K♥ A♥ Q♥] [7♣ JK 5♣]")
    assert codes(game.table[0].cards) == ["Q♥", "K♥", "A♥"]
    assert codes(game.table[1].cards) == ["5♣", "JK", "7♣"]


def test_new_meld_ambiguous_order_needs_the_jokers_meaning() -> None:
    game = turn("6♣ 5♣ JK 2♦ 9♠", opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    rejected(game, "play [6♣ 5♣ JK]", "ambiguous_meld")
    rejected(game, "play [6♣ 5♣ JK=8♣]", "invalid_meld")
    act(game, "play [6♣ 5♣ JK=4♣]")
    assert codes(game.table[0].cards) == ["JK", "5♣", "6♣"]


def test_new_meld_kind_settles_a_meld_that_reads_both_ways() -> None:
    game = turn("JK 5♥ JK#1 2♦ 9♠", opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    game.apply(Play((NewMeld(tuple(cards("JK 5♥ JK#1")), kind="group"),)))
    assert game.table[0].kind == "group"
    game = turn("JK 5♥ JK#1 2♦ 9♠", opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    act(game, "play [JK 5♥ JK#1]")
    assert game.table[0].kind == "run"


def test_new_meld_joker_meanings_in_a_group_must_be_missing_suits() -> None:
    game = turn("8♣ 8♠ JK 2♦ 9♠", opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    rejected(game, "play [8♣ 8♠ JK=8♣#1]", "invalid_meld")
    rejected(game, "play [8♣ 8♠ JK=9♥]", "invalid_meld")
    act(game, "play [8♣ 8♠ JK=8♥]")


def test_a_card_may_be_used_once_in_a_play() -> None:
    game = turn("8♣ 8♠ 8♥ 8♦ 2♦", table=[(1, "9♣ 10♣ J♣")], opened=OPENED, stock=STOCK)
    act(game, "draw stock")
    twice = Play((NewMeld(tuple(cards("8♣ 8♠ 8♥"))),), (LayOff(card("8♣"), 0, "low"),))
    rejected(game, twice, "card_used_twice")
    # In the notation, a face named twice in one play takes the second copy.
    assert Play.parse("play [8♣ 8♠ 8♥] +0<:8♣").layoffs[0].card == card("8♣#1")
