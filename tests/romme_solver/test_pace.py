"""The pace benchmark's own arithmetic: the clairvoyant count and the race estimate."""

from __future__ import annotations

import pytest

from rummykit.bench.romme_pace import clairvoyant_draws, draws_alone, random_first_chance
from rummykit.cards import parse_cards
from rummykit.romme.game import State
from rummykit.romme.rules import DealStyle, Rules
from rummykit.romme.strategy import melds_at_most


def test_the_first_to_go_out_wins_the_race_and_a_tie_goes_to_who_moves_first() -> None:
    assert random_first_chance([5], [3]) == 0.0
    assert random_first_chance([2], [3]) == 1.0
    assert random_first_chance([4], [4]) == 0.5
    assert random_first_chance([2, 6], [4]) == 0.5


def test_melds_at_most_counts_the_cards_that_can_lie_in_melds() -> None:
    cards = parse_cards("J♣ Q♣ K♣ 9♥ 9♦ 9♠ 4♦ 2♠")
    assert melds_at_most(cards, Rules()) == 6
    assert melds_at_most([*cards, *parse_cards("JK")], Rules()) == 7  # the joker joins a meld
    assert melds_at_most([*cards, *parse_cards("JK 3♠")], Rules()) == 9  # and 2♠ 3♠ JK is a run


@pytest.mark.parametrize("deal_style", ["dealer_left_extra", "upcard"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_clairvoyant_count_is_the_first_draw_at_which_the_seen_cards_go_out(
    seed: int, deal_style: DealStyle
) -> None:
    rules = Rules(deal_style=deal_style)
    draws = clairvoyant_draws(rules, seed)
    state = State(rules.replace(rounds=1, point_limit=None), 2, seed)
    # Replay the stock draws by hand: seat 0 and seat 1 alternate, starting with whoever
    # draws first.
    stock = list(state.stock)
    seat_draws_first = (state.to_move == 0) == (state.phase == "draw")
    mine = stock[-1::-2] if seat_draws_first else stock[-2::-2]
    seen = [*state.hands[0], *mine[:draws]]
    assert melds_at_most(seen, rules) >= rules.hand_size
    if draws > 0:
        assert melds_at_most(seen[:-1], rules) < rules.hand_size


def test_a_level_alone_goes_out_in_a_counted_number_of_draws() -> None:
    assert 1 <= draws_alone("easy", Rules(), 5) <= 40
