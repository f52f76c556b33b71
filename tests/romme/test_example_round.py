"""The example round of the rules text, played action by action with three players.

Player 1 deals (seat 0); player 2 (seat 1, on the dealer's left) gets 14 cards and starts;
player 3 is seat 2. The deal is forced so that every step of the example happens as told:
player 2 cannot open at first, player 3 takes the K♣ for his J♣ Q♣, player 1 draws a joker but
9♥ 9♦ JK is only 27, player 2 opens with three aces, and player 3 later goes out by adding
the A♣ to his J♣ Q♣ K♣ and discarding. The count is 38, 15 and 0.
"""

from __future__ import annotations

from rummykit.romme import Play, Rules
from rummykit.romme.rules import hand_penalty

from .helpers import act, cards, check_invariants, deal, rejected

PLAYER_1 = "9♥ 9♦ 2♠ 2♣ 4♣ 5♣ 7♥ 7♠ 4♠ 8♠ Q♣#1 K♦ 3♠"
PLAYER_2 = "K♣ A♥ A♦ 10♦ 5♠ 4♦ 2♣#1 2♠#1 2♦ 6♣ 7♣ 8♣ 9♠ 8♠#1"
PLAYER_3 = "J♣ Q♣ 3♥ A♣ 5♠#1 6♠ 7♠#1 8♥ 8♣#1 8♦ Q♦ Q♥ Q♠"
STOCK = "JK A♠ J♥ 3♣ 4♥ 5♦ 7♦ K♥ 6♦"


def test_the_example_round_of_the_rules() -> None:
    game = deal([PLAYER_1, PLAYER_2, PLAYER_3], rules=Rules(), dealer=0, stock=STOCK)
    assert [len(h) for h in game.hands] == [13, 14, 13]
    assert game.to_move == 1 and game.phase == "play"

    # 1. Player 2 starts with 14 cards, cannot open, and discards the K♣.
    rejected(game, "draw stock", "already_drawn")
    rejected(game, Play.of("2♣#1 2♠#1 2♦", "6♣ 7♣ 8♣"), "opening_below_minimum")
    act(game, "discard K♣")

    # 2. Player 3 takes the K♣ for his J♣ Q♣ and opens with 30.
    act(game, "draw discard")
    rejected(game, "discard 3♥", "picked_card_unused")
    act(game, "play [J♣ Q♣ K♣]")
    assert game.opened == [False, False, True]
    rejected(game, "discard K♣", "card_not_in_hand")
    act(game, "discard 3♥")

    # 3. Player 1 draws a joker: 9♥ 9♦ JK is 27, not enough to open; he discards the 2♠.
    act(game, "draw stock")
    assert cards("JK")[0] in game.hands[0]
    err = rejected(game, "play [9♥ 9♦ JK]", "opening_below_minimum")
    assert err.params == {"value": 27, "minimum": 30}
    act(game, "discard 2♠")

    # 4. Player 2 draws the A♠ and opens with three aces (33).
    act(game, "draw stock")
    act(game, "play [A♠ A♥ A♦]")
    assert game.log[-1]["opening_value"] == 33
    act(game, "discard 4♦")

    # Later: player 3 lays his other melds and keeps the A♣.
    act(game, "draw stock")
    act(game, "play [5♠#1 6♠ 7♠#1] [8♥ 8♣#1 8♦] [Q♦ Q♥ Q♠]")
    act(game, "discard J♥")
    assert game.hands[2] == cards("A♣")
    # Player 1 draws the 3♣ and waits; player 2 lays his melds and adds an 8 to a group.
    act(game, "draw stock")
    act(game, "discard K♦")
    act(game, "draw stock")
    act(game, "play [2♣#1 2♠#1 2♦] [6♣ 7♣ 8♣] +3:8♠#1")
    act(game, "discard 4♥")
    act(game, "draw stock")
    act(game, "discard 5♦")
    # Player 1 draws the 7♦, opens with 35 and lays off on player 3's melds.
    act(game, "draw stock")
    act(game, "play [2♣ 3♣ 4♣ 5♣] [7♥ 7♠ 7♦] +2<:4♠ +2>:8♠ +4:Q♣#1")
    assert game.log[-1]["opening_value"] == 35
    act(game, "discard 3♠")
    assert set(game.hands[0]) == set(cards("9♥ 9♦ JK"))
    act(game, "draw stock")
    act(game, "play +2:9♠")
    act(game, "discard K♥")
    assert set(game.hands[1]) == set(cards("10♦ 5♠"))

    # 5. Player 3 draws the 6♦, adds the A♣ to J♣ Q♣ K♣ and discards the 6♦: out.
    act(game, "draw stock")
    act(game, "play +0:A♣")
    assert [c.code for c in game.table[0].cards] == ["J♣", "Q♣", "K♣", "A♣"]
    act(game, "discard 6♦")
    check_invariants(game)

    # 6. The count: 9 + 9 + 20 = 38, 10 + 5 = 15, and 0 for the winner.
    assert game.round_scores == [[38, 15, 0]]
    assert hand_penalty(cards("9♥ 9♦ JK")) == 38 and hand_penalty(cards("10♦ 5♠")) == 15
    end = game.log[-1]
    assert end["code"] == "round_end" and end["winner"] == 2 and end["hand_romme"] is False
    assert game.phase == "round_over" and game.to_move is None
