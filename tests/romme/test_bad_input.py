"""Bad input of every kind is refused with a specific code, and the state is left exactly as it
was (compared through a full serialisation, hidden cards and the generator included)."""

from __future__ import annotations

import pytest

from rummykit.romme import Discard, Draw, NextRound, Play, Rules, State

from .helpers import act, card, rejected, turn

OPENED = [True, True]


def test_wrong_seat_and_out_of_turn() -> None:
    game = turn("J♣ Q♣ K♣ 4♦", stock="2♣#1")
    rejected(game, Draw("stock"), "not_your_turn", seat=1)
    rejected(game, Draw("stock"), "bad_seat", seat=2)
    rejected(game, Draw("stock"), "bad_seat", seat=-1)
    act(game, "draw stock")
    rejected(game, Discard(card("2♦#1")), "not_your_turn", seat=1)


def test_out_of_phase() -> None:
    game = turn("J♣ Q♣ K♣ 4♦", stock="2♣#1")
    rejected(game, "discard 4♦", "must_draw_first")
    rejected(game, "play [J♣ Q♣ K♣]", "must_draw_first")
    rejected(game, NextRound(), "round_not_over")
    act(game, "draw stock")
    rejected(game, "draw stock", "already_drawn")
    act(game, "play [J♣ Q♣ K♣]")
    rejected(game, "play [J♣ Q♣ K♣]", "already_played")


def test_cards_not_held() -> None:
    game = turn("J♣ Q♣ K♣ 4♦", stock="2♣#1")
    act(game, "draw stock")
    rejected(game, "discard 5♦", "card_not_in_hand")
    rejected(game, "discard J♣#1", "card_not_in_hand")  # the other copy is not held
    rejected(game, "play [J♣ Q♣ K♣#1]", "card_not_in_hand")


def test_invalid_melds() -> None:
    game = turn("J♣ Q♣ K♦ 8♠ 8♠#1 8♥ 4♦ JK JK#1 JK#2", stock="2♣#1")
    act(game, "draw stock")
    rejected(game, "play [J♣ Q♣ K♦]", "invalid_meld")
    rejected(game, "play [8♠ 8♠#1 8♥]", "invalid_meld")
    rejected(game, "play [JK JK#1 JK#2]", "invalid_meld")
    rejected(game, "play [J♣ Q♣]", "invalid_meld")
    rejected(game, "play", "empty_play")


def test_lay_off_and_exchange_before_opening() -> None:
    game = turn(
        "5♠ 7♠#1 4♦", table=[(1, "6♠ JK 8♠"), (1, "9♦ 10♦ J♦")], opened=[False, True], stock="2♣#1"
    )
    act(game, "draw stock")
    rejected(game, "play +1:Q♦", "card_not_in_hand")
    rejected(game, "play +0<:5♠", "layoff_before_opening")
    rejected(game, "play x0:7♠#1/JK +1:JK", "exchange_before_opening")


def test_freed_joker_not_laid_again() -> None:
    game = turn("7♠ 4♦ 9♣", table=[(1, "6♠ JK 8♠")], opened=OPENED, stock="2♣#1")
    act(game, "draw stock")
    rejected(game, "play x0:7♠/JK", "freed_joker_not_laid")


def test_re_discarding_the_picked_card() -> None:
    game = turn(
        "9♥ 9♦ 2♥", rules=Rules(deal_style="upcard", discard_pickup="free"), discard_pile="4♣"
    )
    act(game, "draw discard")
    rejected(game, "discard 4♣", "discard_picked_card")


def test_melding_the_last_card_under_discard() -> None:
    game = turn("10♣", table=[(1, "J♣ Q♣ K♣")], opened=OPENED, stock="A♣")
    act(game, "draw stock")
    rejected(game, "play +0:10♣ +0:A♣", "last_card_melded")


def test_must_use_pickup_unusable_and_unused() -> None:
    game = turn("9♥ 9♦ 2♥", discard_pile="JK")
    rejected(game, "draw discard", "discard_unusable")
    game = turn("J♣ Q♣ 2♥ 7♦", discard_pile="K♣")
    act(game, "draw discard")
    rejected(game, "discard 2♥", "picked_card_unused")


def test_nothing_after_the_end_of_the_game() -> None:
    game = turn(
        "10♣",
        rules=Rules(deal_style="upcard", rounds=1),
        table=[(1, "J♣ Q♣ K♣")],
        opened=OPENED,
        stock="4♦",
    )
    act(game, "draw stock")
    act(game, "play +0:10♣")
    act(game, "discard 4♦")
    assert game.is_over
    for action in (Draw("stock"), NextRound(), Discard(card("2♦#1")), Play.of("J♣ Q♣ K♣")):
        rejected(game, action, "game_over")


def test_not_an_action() -> None:
    game = State(players=2, seed=1)
    before = game.dumps()
    with pytest.raises(ValueError) as info:
        game.apply("draw stock")  # type: ignore[arg-type]
    assert getattr(info.value, "code", None) == "bad_action"
    assert not game.can_apply("draw")  # type: ignore[arg-type]
    assert game.dumps() == before


def test_bad_game_parameters() -> None:
    for kwargs, code in (
        ({"players": 1}, "bad_players"),
        ({"players": 2, "seed": "x"}, "bad_seed"),
        ({"rules": "standard", "players": 2}, "bad_rules"),
    ):
        with pytest.raises(ValueError) as info:
            State(**kwargs)  # type: ignore[arg-type]
        assert getattr(info.value, "code", None) == code
