"""Spec sections "Going out and end of round" and "Scoring and end of game"."""

from __future__ import annotations

import pytest

from rummykit.cards import romme_pack
from rummykit.core.values import thaw
from rummykit.romme import Discard, Draw, NextRound, Rules, State, hand_penalty

from .helpers import act, cards, check_invariants, deal, rejected, turn

UP = Rules(deal_style="upcard")
OPENED = [True, True]


def test_going_out_standard_the_last_card_is_discarded_and_wins_the_round() -> None:
    game = turn("10♣", table=[(1, "J♣ Q♣ K♣")], opened=OPENED, stock="2♣#1", others=["9♥ 9♦ JK"])
    act(game, "draw stock")
    act(game, "play +0:10♣")
    assert game.phase == "discard" and game.hands[0] == cards("2♣#1")
    act(game, "discard 2♣#1")
    assert game.phase == "round_over" and game.to_move is None
    end = game.log[-1]
    assert end["code"] == "round_end" and end["winner"] == 0
    assert game.round_scores == [[0, 38]]


def test_going_out_a_player_with_cards_left_plays_on() -> None:
    game = turn("10♣ K♦", table=[(1, "J♣ Q♣ K♣")], opened=OPENED, stock="2♣#1", others=["9♥ 9♦ JK"])
    act(game, "draw stock")
    act(game, "play +0:10♣")
    act(game, "discard K♦")
    assert game.phase == "draw" and game.to_move == 1 and game.hands[0] == cards("2♣#1")


def test_going_out_standard_never_meld_the_last_card() -> None:
    game = turn("10♣", table=[(1, "J♣ Q♣ K♣")], opened=OPENED, stock="A♣")
    act(game, "draw stock")
    rejected(game, "play +0:10♣ +0:A♣", "last_card_melded")


def test_going_out_option_meld_the_last_card_ends_the_round() -> None:
    rules = Rules(deal_style="upcard", go_out="meld")
    game = turn(
        "10♣", rules=rules, table=[(1, "J♣ Q♣ K♣")], opened=OPENED, stock="A♣", others=["9♥ 9♦ JK"]
    )
    act(game, "draw stock")
    act(game, "play +0:10♣ +0:A♣")
    assert game.phase == "round_over" and game.round_scores == [[0, 38]]


def test_going_out_option_meld_may_still_discard_the_last_card() -> None:
    rules = Rules(deal_style="upcard", go_out="meld")
    game = turn("10♣", rules=rules, table=[(1, "J♣ Q♣ K♣")], opened=OPENED, stock="4♦")
    act(game, "draw stock")
    act(game, "play +0:10♣")
    act(game, "discard 4♦")
    assert game.phase == "round_over"


# --- Hand-Rommé ----------------------------------------------------------------------------

HAND = "J♣ Q♣ K♣ 5♥ 5♠ 5♦ 9♠ 10♠ J♠ Q♠"  # 10 cards: everything goes out in one turn


def _hand_romme(option: str, never_opened: str = "cards") -> State:
    rules = Rules(deal_style="upcard", hand_romme=option, never_opened=never_opened)
    game = turn(HAND, rules=rules, stock="2♦", others=["9♥ 9♦ JK"])
    act(game, "draw stock")
    act(game, "play [J♣ Q♣ K♣] [5♥ 5♠ 5♦] [9♠ 10♠ J♠ Q♠]")
    act(game, "discard 2♦")
    assert game.phase == "round_over" and game.log[-1]["hand_romme"] is True
    return game


def test_hand_romme_standard_all_others_pay_double() -> None:
    assert _hand_romme("double").round_scores == [[0, 76]]


def test_hand_romme_option_credit_the_winner_gets_minus_100() -> None:
    assert _hand_romme("credit").round_scores == [[-100, 38]]


def test_hand_romme_option_none_nothing_special() -> None:
    assert _hand_romme("none").round_scores == [[0, 38]]


def test_hand_romme_doubles_the_flat_100_too() -> None:
    assert _hand_romme("double", "flat100").round_scores == [[0, 200]]


def test_hand_romme_not_when_opened_in_an_earlier_turn() -> None:
    game = turn(HAND, stock="2♦ 3♦ 4♦", others=["9♥ 9♦ JK"])
    act(game, "draw stock")
    act(game, "play [J♣ Q♣ K♣]")
    act(game, "discard 2♦")
    act(game, "draw stock")
    act(game, "discard 3♦")
    act(game, "draw stock")
    act(game, "play [5♥ 5♠ 5♦] [9♠ 10♠ J♠ Q♠]")
    act(game, "discard 4♦")
    assert game.log[-1]["hand_romme"] is False and game.round_scores == [[0, 38]]


def test_hand_romme_by_the_first_player_who_does_not_draw() -> None:
    game = deal([HAND + " 4♦", "9♥ 9♦ JK"], rules=Rules())
    assert game.phase == "play"
    act(game, "play [J♣ Q♣ K♣] [5♥ 5♠ 5♦] [9♠ 10♠ J♠ Q♠]")
    act(game, "discard 4♦")
    assert game.log[-1]["hand_romme"] is True and game.round_scores == [[0, 76]]


# --- never opened, stock exhausted ---------------------------------------------------------


def test_never_opened_pays_the_hand_normally_by_default() -> None:
    game = turn("10♣", table=[(1, "J♣ Q♣ K♣")], opened=[True, False], stock="4♦", others=["A♠ 2♦"])
    act(game, "draw stock")
    act(game, "play +0:10♣")
    act(game, "discard 4♦")
    assert game.round_scores == [[0, 13]]


def test_never_opened_option_flat_100() -> None:
    rules = Rules(deal_style="upcard", never_opened="flat100")
    game = turn(
        "10♣",
        rules=rules,
        table=[(1, "J♣ Q♣ K♣")],
        opened=[True, False],
        stock="4♦",
        others=["A♠ 2♦"],
    )
    act(game, "draw stock")
    act(game, "play +0:10♣")
    act(game, "discard 4♦")
    assert game.round_scores == [[0, 100]]


def _play_out_the_stock(game: State) -> None:
    """Draw and discard until the stock has run out once (reshuffled or round over)."""
    while game.phase in ("draw", "play") and not any(e["code"] == "reshuffle" for e in game.log):
        seat = game.to_move
        assert seat is not None
        if game.phase == "draw":
            game.apply(Draw("stock"))
        game.apply(Discard(game.hands[seat][-1]))


def test_stock_exhausted_standard_the_discard_pile_but_its_top_is_reshuffled() -> None:
    game = State(UP, players=2, seed=3)
    _play_out_the_stock(game)
    events = [e for e in game.log if e["code"] == "reshuffle"]
    assert events and game.phase == "draw"
    assert len(game.discard_pile) == 1 and len(game.stock) == events[0]["stock"]
    check_invariants(game)


def test_stock_exhausted_option_end_round_everyone_counts() -> None:
    game = State(Rules(deal_style="upcard", stock_exhausted="end_round"), players=3, seed=3)
    _play_out_the_stock(game)
    assert game.phase == "round_over"
    end = thaw(game.log[-1])
    assert end["winner"] is None
    assert end["penalties"] == [hand_penalty(h, game.rules) for h in game.hands]
    assert all(p > 0 for p in end["penalties"])


def test_stock_exhausted_round_ends_when_even_a_reshuffle_leaves_nothing_to_draw() -> None:
    # A forced position: the stock holds one card and the discard pile is empty, so after the
    # next discard the pile has a single card and a reshuffle would leave the stock empty.
    pack = [c for c in romme_pack() if c not in set(cards("4♣ K♦ 7♥"))]
    game = State.from_deal(["4♣ K♦", pack], rules=UP, dealer=1, stock="7♥")
    assert len(game.stock) == 1 and game.discard_pile == []
    act(game, "draw stock")
    act(game, "discard 4♣")
    assert game.phase == "round_over" and game.log[-1]["winner"] is None
    assert [e["code"] for e in game.log[-2:]] == ["discard", "round_end"]
    check_invariants(game)


# --- end of the game -----------------------------------------------------------------------


def _finish_round(game: State) -> None:
    while game.phase not in ("round_over", "game_over"):
        seat = game.to_move
        assert seat is not None
        if game.phase == "draw":
            game.apply(Draw("stock"))
        game.apply(Discard(game.hands[seat][-1]))


def test_game_of_a_number_of_rounds_lowest_total_wins() -> None:
    game = State(Rules(stock_exhausted="end_round", rounds=2), players=3, seed=12)
    _finish_round(game)
    game.apply(NextRound())
    _finish_round(game)
    assert game.is_over and game.to_move is None
    best = min(game.scores)
    assert game.winners == [s for s in range(3) if game.scores[s] == best]
    assert game.log[-1]["code"] == "game_end"


def _carried_in(rules: Rules, scores: list[int], seed: int = 1) -> State:
    """A game whose totals so far are ``scores`` (as if from earlier rounds)."""
    game = State(rules, players=3, seed=seed)
    game.scores = list(scores)
    return game


def _penalties(rules: Rules, seed: int = 1) -> list[int]:
    game = State(rules, players=3, seed=seed)
    _finish_round(game)
    return game.round_scores[-1]


@pytest.mark.parametrize(("rule", "ends"), [("exceeds", False), ("reaches", True)])
def test_point_limit_the_game_ends_when_a_player_exceeds_or_reaches_it(
    rule: str, ends: bool
) -> None:
    rules = Rules(stock_exhausted="end_round", rounds=None, point_limit=300, limit_rule=rule)
    first = _penalties(rules)[0]
    game = _carried_in(rules, [300 - first, 0, 0])
    _finish_round(game)
    assert game.scores[0] == 300
    assert game.is_over is ends
    if ends:
        assert game.losers == [0] and 0 not in game.winners
    game = _carried_in(rules, [301 - first, 0, 0])
    _finish_round(game)
    assert game.is_over and game.losers == [0]


def test_point_limit_without_a_round_count_plays_round_after_round() -> None:
    rules = Rules(stock_exhausted="end_round", rounds=None, point_limit=500)
    game = State(rules, players=2, seed=2)
    while not game.is_over:
        _finish_round(game)
        if not game.is_over:
            assert max(game.scores) <= 500
            game.apply(NextRound())
    assert game.round > 1 and max(game.scores) > 500
    assert game.losers == [s for s in range(2) if game.scores[s] > 500]


def test_equal_lowest_totals_share_the_victory() -> None:
    rules = Rules(stock_exhausted="end_round", rounds=1)
    penalties = _penalties(rules, seed=4)
    game = _carried_in(rules, [penalties[1], penalties[0], 500], seed=4)
    _finish_round(game)
    assert game.is_over
    assert game.scores[0] == game.scores[1] == penalties[0] + penalties[1]
    assert game.winners == [0, 1]


def test_cards_are_hidden_until_the_count() -> None:
    game = turn("10♣", table=[(1, "J♣ Q♣ K♣")], opened=OPENED, stock="4♦", others=["A♠ 2♦"])
    assert all("hands" not in e for e in game.view(0).log)
    act(game, "draw stock")
    act(game, "play +0:10♣")
    act(game, "discard 4♦")
    assert thaw(game.log[-1])["hands"] == [[], [c.id for c in cards("A♠ 2♦")]]
