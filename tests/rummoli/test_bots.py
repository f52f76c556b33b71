"""Computer players: legal at every decision of every mode; the hard one values hands."""

from __future__ import annotations

import random

import pytest

from rummykit.arena import ratio_estimate
from rummykit.cards import parse_cards
from rummykit.core import IllegalAction
from rummykit.rummoli import Bid, KeepHand, Pass, Rules, Start, State, SwapWidow
from rummykit.rummoli.bots import (
    LEVELS,
    UNSEEN,
    EasyBot,
    HardBot,
    beside_best_five,
    knowledge,
    make_bot,
)
from rummykit.rummoli.poker import card_index
from rummykit.rummoli.simulate import simulate
from rummykit.rummoli.view import Phase

from .test_properties import random_rules


def two_player_table(dealer_hand: str) -> State:
    other = "2♥ 4♥ 6♥ 8♥ 10♥ 3♠ 5♠ 7♠ 9♠ J♠"
    hands = (tuple(parse_cards(dealer_hand)), tuple(parse_cards(other)))
    return State(Rules(), 2, 0, start=Start(hands=hands))


def test_make_bot_knows_three_levels() -> None:
    assert LEVELS == ("random", "easy", "hard")
    assert [make_bot(level, 1).level for level in LEVELS] == list(LEVELS)
    with pytest.raises(IllegalAction) as err:
        make_bot("genius", 1)
    assert err.value.code == "bad_bot"


@pytest.mark.parametrize("level", LEVELS)
def test_every_bot_chooses_a_legal_action_at_every_decision(level: str) -> None:
    rng = random.Random(level)
    decisions = 0
    for game in range(12 if level == "hard" else 60):
        rules = random_rules(rng).replace(hands=2)
        state = State(rules, rng.randint(2, 6), seed=game)
        bots = [
            HardBot(game + s, samples=6) if level == "hard" else make_bot(level, game + s)
            for s in range(state.players)
        ]
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            action = bots[seat].choose(view)
            assert action in view.legal
            state.apply(action, seat)
            decisions += 1
    assert decisions > 20


def test_a_bot_refuses_to_move_out_of_turn() -> None:
    state = State(Rules(), 3, seed=1)
    for level in LEVELS:
        with pytest.raises(IllegalAction) as err:
            make_bot(level, 1).choose(state.view(1))
        assert err.value.code == "not_your_turn"


def test_easy_swaps_a_hand_without_a_pair_and_keeps_a_pair() -> None:
    bot = EasyBot(1)
    no_pair = two_player_table("A♣ K♦ Q♥ J♥ 9♦ 8♣ 6♦ 4♦ 3♣ 2♠")
    assert bot.choose(no_pair.view(0)) == SwapWidow()
    pair = two_player_table("A♣ A♦ Q♥ J♥ 9♦ 8♣ 6♦ 4♦ K♠ Q♠")
    assert bot.choose(pair.view(0)) == KeepHand()


def test_hard_keeps_a_long_low_chain_and_gives_up_scattered_high_cards() -> None:
    chain = two_player_table("2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣")
    assert HardBot(1, samples=64).choose(chain.view(0)) == KeepHand()
    scattered = two_player_table("A♣ K♦ Q♥ J♥ 9♦ 8♣ 6♦ 4♦ K♠ Q♠")
    assert HardBot(1, samples=64).choose(scattered.view(0)) == SwapWidow()


def test_hard_bids_for_the_widow_only_up_to_what_it_expects_to_gain() -> None:
    # Seat 1 (the bidder) holds the scattered high cards, worth less than the widow.
    hands = (
        tuple(parse_cards("2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣")),
        tuple(parse_cards("A♥ K♦ Q♥ J♥ 9♦ 8♦ 6♦ 4♦ K♠ Q♠")),
    )
    state = State(Rules(), 2, 0, start=Start(hands=hands))
    state.apply(KeepHand())
    bot = HardBot(2, samples=64)
    gain = bot.swap_gain(state.view(1))
    action = bot.choose(state.view(1))
    assert gain >= 1 and action == Bid(1)
    rich = State(Rules(), 2, 0, start=Start(hands=hands))
    rich.apply(KeepHand())
    rich.high_bid = int(gain)  # a bid already at the value: the bot passes
    assert HardBot(2, samples=64).choose(rich.view(1)) == Pass()


def test_the_dealer_swaps_a_scattered_hand_while_nobody_is_seen_paying_for_a_widow() -> None:
    # Players who buy a widow only with a hand holding no pair seldom bid (ten cards or more
    # nearly always hold a pair): the auction brings the dealer next to nothing.
    scattered = two_player_table("A♣ K♦ Q♥ J♥ 9♦ 8♣ 6♦ 4♦ K♠ Q♠")
    bot = HardBot(1, samples=64)
    assert bot.keep_loss(scattered.view(0)) > 0
    assert bot.choose(scattered.view(0)) == SwapWidow()


def test_the_dealer_keeps_and_auctions_once_it_has_seen_the_others_pay_well_for_a_widow() -> None:
    bot = HardBot(1, samples=64)
    # At a three-player table seat 0 deals and keeps, seat 1 bids 12 chips for the widow, and
    # the bot, at seat 2, is asked for its bid: it has seen what a widow fetches here.
    auction = State(Rules(), 3, 5, start=Start(dealer=0))
    auction.apply(KeepHand(), 0)
    auction.apply(Bid(12), 1)
    assert bot.choose(auction.view(2)) in auction.view(2).legal
    assert bot.seen_price() == 12
    # Dealing, it now counts on about that much for the widow: keeping the scattered hand and
    # selling the widow is worth more than swapping for it.
    scattered = two_player_table("A♣ K♦ Q♥ J♥ 9♦ 8♣ 6♦ 4♦ K♠ Q♠")
    assert bot.keep_loss(scattered.view(0)) < 0
    assert bot.choose(scattered.view(0)) == KeepHand()


def test_simulation_reports_chips_per_hand_per_bot_with_intervals() -> None:
    result = simulate(["random", "easy", "easy"], hands=30, seed=3, hands_per_game=3)
    assert result["hands"] >= 30 and result["games"] % 3 == 0
    rows = result["chips_per_hand"]
    assert [r["bot"] for r in rows] == ["random", "easy", "easy"]
    assert all(r["ci95"][0] <= r["mean"] <= r["ci95"][1] for r in rows)
    # With the final split every chip is back with a player: the bots' gains add up to zero.
    assert abs(sum(r["mean"] for r in rows)) < 1e-3
    assert result["differences"][0]["versus"] == "easy"


def test_ratio_estimate() -> None:
    est = ratio_estimate([10.0, 20.0, 30.0], [10, 10, 10])
    assert est.mean == 2.0 and est.low < 2.0 < est.high
    assert ratio_estimate([0.0, 0.0], [5, 5]).low == 0.0


def test_what_hard_reads_from_the_play_is_always_true() -> None:
    """At every lead, in random games under random rules: the cards `hard` places (shown at the
    showdown, missing at a stop) are where it places them, no player holds a card `hard` rules
    out, and every imagined deal keeps to both and to each hand's size."""
    rng = random.Random(11)
    placed = ruled_out = leads = 0
    for game in range(80):
        rules = random_rules(rng).replace(hands=2)
        state = State(rules, rng.randint(2, 6), seed=game)
        bots = [make_bot("easy", game + s) for s in range(state.players)]
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view = state.view(seat)
            if view.phase is Phase.LEAD:
                leads += 1
                holder, lacks = knowledge(view)
                for index, where in enumerate(holder):
                    if where != UNSEEN:
                        assert where == state.holder[index]
                        placed += 1
                for other, cards in lacks.items():
                    assert not [i for i in cards if state.holder[i] == other]
                    ruled_out += len(cards)
                for deal in HardBot(game, samples=4)._deals(view):
                    assert all(h == deal[i] for i, h in enumerate(holder) if h != UNSEEN)
                    for other in view.in_hand:
                        assert deal.count(other) == view.hand_counts[other]
                        assert not [i for i in lacks.get(other, ()) if deal[i] == other]
            state.apply(bots[seat].choose(view), seat)
    assert leads > 100 and placed > 1000 and ruled_out > 1000


def test_the_best_five_shown_tell_what_else_a_hand_holds() -> None:
    # A pair of kings with A, 9, 7 beside them: the rest of that hand is below the 7 and holds
    # no king (three kings would have been shown).
    beside = beside_best_five([card_index(c) for c in parse_cards("K♣ K♥ A♠ 9♦ 7♣")])
    assert card_index(parse_cards("K♦")[0]) in beside
    assert card_index(parse_cards("8♠")[0]) in beside
    assert card_index(parse_cards("7♦")[0]) in beside
    assert card_index(parse_cards("6♦")[0]) not in beside
    # Two pairs and a 5: a third pair of fives may hide beside them, nothing higher.
    beside = beside_best_five([card_index(c) for c in parse_cards("Q♣ Q♥ 8♠ 8♦ 5♣")])
    assert card_index(parse_cards("5♦")[0]) not in beside
    assert card_index(parse_cards("6♦")[0]) in beside
    # A straight says nothing of the cards beside it.
    assert beside_best_five([card_index(c) for c in parse_cards("9♣ 10♥ J♠ Q♦ K♣")]) == set()
