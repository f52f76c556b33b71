"""Hints for the seat on move, and tournaments between levels."""

from __future__ import annotations

import pytest

from rummykit import romme
from rummykit.arena import wilson
from rummykit.cards import Card, parse_cards
from rummykit.core import IllegalAction
from rummykit.romme.actions import Discard, Draw, NextRound, Play
from rummykit.romme.game import State
from rummykit.romme.hint import Hint, hint
from rummykit.romme.rules import Rules
from rummykit.romme.tournament import run_tournament

OTHER = "2♣ 3♦ 5♥ 6♠ 8♦ 9♣ J♥ Q♠ K♦ 4♠ 7♣ 10♥ A♦"


def _state(hand: str, *, rules: Rules | None = None, pile: str = "") -> State:
    return State.from_deal(
        [hand, OTHER], rules=rules or Rules(), dealer=1, discard_pile=parse_cards(pile)
    )


def test_hint_is_exported_from_the_package() -> None:
    assert romme.hint is hint


def test_hint_opens_with_the_best_melds() -> None:
    state = _state("J♣ Q♣ K♣ 9♥ 9♦ 9♠ 4♦ 2♠ 5♣ 7♥ 3♥ 8♠ 6♦ A♥")
    advice = hint(state.view(0))
    assert advice.reason == "open_with_best_melds"
    assert isinstance(advice.action, Play) and advice.params["value"] == 57
    assert state.can_apply(advice.action, 0)


def test_hint_goes_out_and_names_hand_romme() -> None:
    state = _state("J♣ Q♣ K♣ 9♥ 9♦ 9♠ 4♦ 5♦ 6♦ 7♦ 2♠ 2♥ 2♦ 8♣")
    advice = hint(state.view(0))
    assert advice.reason == "go_out_hand_romme"
    assert state.can_apply(advice.action, 0)  # type: ignore[arg-type]


def test_hint_takes_the_discard_that_opens_else_draws_from_the_stock() -> None:
    rules = Rules(deal_style="upcard")
    hand = "J♣ Q♣ 9♥ 9♦ 4♠#1 4♦ 2♠ 5♣ 7♥ 3♥ 8♠ 6♦ A♥"
    state = _state(hand, rules=rules, pile="K♣")
    advice = hint(state.view(0))
    assert (advice.action, advice.reason) == (Draw("discard"), "take_discard_to_open")
    state = _state(hand, rules=rules, pile="2♦")
    advice = hint(state.view(0))
    assert (advice.action, advice.reason) == (Draw("stock"), "draw_from_stock")


def test_hint_discards_the_highest_dead_card_when_nothing_can_be_laid() -> None:
    state = _state("2♣#1 3♣ 5♦ 7♠ 9♥ K♥ J♠ 4♥ 6♣ 8♥#1 10♣ Q♦ A♠ 3♠")
    advice = hint(state.view(0))
    assert isinstance(advice.action, Discard)
    assert advice.reason in ("discard_highest_dead_card", "discard_least_useful_card")
    assert advice.params["card"] == advice.action.card.code
    assert state.can_apply(advice.action, 0)


def test_hint_outside_the_turn() -> None:
    state = _state("J♣ Q♣ K♣ 9♥ 9♦ 9♠ 4♦ 2♠ 5♣ 7♥ 3♥ 8♠ 6♦ A♥")
    assert hint(state.view(1)) == Hint(None, "not_your_turn")
    assert hint(state.view(1)).to_json() == {
        "action": None,
        "reason": "not_your_turn",
        "params": {},
    }


def test_hint_after_a_round_is_next_round() -> None:
    state = _state("J♣ Q♣ K♣ 9♥ 9♦ 9♠ 4♦ 5♦ 6♦ 7♦ 2♠ 2♥ 2♦ 8♣")
    state.apply(hint(state.view(0)).action, 0)  # type: ignore[arg-type]
    state.apply(Discard(Card.parse("8♣")), 0)
    assert hint(state.view(1)).action == NextRound()
    assert hint(state.view(1)).reason == "next_round"


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low < 0.5 < high and abs((low + high) / 2 - 0.5) < 1e-9
    assert wilson(0, 0) == (0.0, 1.0)


def test_mirrored_tournament_gives_each_level_every_seat() -> None:
    result = run_tournament(["easy", "random"], rounds=6, seed=3, mirror=True)
    bots = result["bots"]
    assert isinstance(bots, dict)
    assert bots["easy"]["rounds"] == bots["random"]["rounds"] == result["rounds"] == 6
    assert bots["easy"]["games"] == bots["random"]["games"] == 2
    won = bots["easy"]["rounds_won"] + bots["random"]["rounds_won"]
    assert won <= 6


def test_each_level_reports_its_typical_and_its_slowest_decision_time() -> None:
    result = run_tournament(["easy", "random"], rounds=6, seed=3, mirror=True)
    for row in result["bots"].values():  # type: ignore[union-attr]
        assert isinstance(row, dict)
        # Whole milliseconds, rounded down: never above the slowest decision.
        assert 0 <= row["p99_decision_ms"] <= row["max_decision_ms"]


def test_the_99th_percentile_is_the_time_that_99_decisions_in_100_stay_within() -> None:
    from rummykit.romme.tournament import percentile_ms

    quick_and_two_slow = {3: 98, 40: 1, 700: 1}
    assert percentile_ms(quick_and_two_slow, 0.99) == 40
    assert percentile_ms(quick_and_two_slow, 0.5) == 3
    assert percentile_ms({3: 97, 40: 1, 700: 2}, 0.99) == 700
    assert percentile_ms({}, 0.99) is None


def test_tournament_results_do_not_depend_on_the_number_of_processes() -> None:
    # A budget no decision reaches: no lookahead is cut short by the machine's load.
    one = run_tournament(["medium", "easy"], rounds=6, seed=4, jobs=1, budget=5.0)
    two = run_tournament(["medium", "easy"], rounds=6, seed=4, jobs=2, budget=5.0)
    for level in ("medium", "easy"):
        for key in ("rounds", "rounds_won", "mean_penalty", "games_won"):
            assert one["bots"][level][key] == two["bots"][level][key]  # type: ignore[index]


def test_a_tournament_needs_distinct_levels() -> None:
    with pytest.raises(IllegalAction) as err:
        run_tournament(["easy", "easy"], rounds=3)
    assert err.value.code == "bad_bots"
