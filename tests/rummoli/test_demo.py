"""Spec, "The demo hand": a whole hand, every step with the table after it, carried boxes."""

from __future__ import annotations

import json

import pytest

from rummykit.core import IllegalAction
from rummykit.rummoli.demo import DemoHand, carry_over, demo_hand
from rummykit.rummoli.rules import BOXES, Box

STOP_REASONS = {"ace", "in_widow", "already_played"}


def played_cards(hand: DemoHand) -> list[str]:
    return [
        str(s.params["card"]) for s in hand.steps if s.code in ("lead", "play", "colour_change")
    ]


@pytest.mark.parametrize("seed", range(8))
def test_a_demo_hand_is_one_whole_hand_under_the_demo_rules(seed: int) -> None:
    hand = demo_hand(players=4, seed=seed)
    codes = [s.code for s in hand.steps]
    assert codes[:4] == ["hand_start", "ante", "deal", "widow_kept"]
    assert codes[4:8] == ["pass", "pass", "pass", "widow_dead"]  # nobody bids: dealer keeps
    assert codes.count("poker_show") == 4 and codes[-1] == "hand_end"
    assert "bid" not in codes and "widow_swapped" not in codes
    played = played_cards(hand)
    assert len(played) == len(set(played))
    assert not set(played) & {c.code for c in hand.widow}  # the widow is out of play
    dealt = {c.code for h in hand.hands for c in h} | {c.code for c in hand.widow}
    assert len(dealt) == 52
    total = sum(hand.chips_before) + sum(hand.board_before)
    for step in hand.steps:
        assert sum(step.chips) + sum(step.board) == total
        if step.code == "stop":
            assert step.params["reason"] in STOP_REASONS


def test_every_step_shows_the_hands_after_it() -> None:
    hand = demo_hand(players=4, seed=2)
    before = [len(h) for h in hand.hands]
    assert [s.hands for s in hand.steps[:2]] == [((),) * 4] * 2  # nothing dealt before the deal
    for step in hand.steps[2:]:
        if step.code in ("lead", "play", "colour_change"):
            seat = int(step.params["seat"])
            before[seat] -= 1
            assert step.params["card"] not in {c.code for c in step.hands[seat]}
        assert [len(h) for h in step.hands] == before


def test_over_a_few_seeds_the_demo_shows_every_kind_of_step() -> None:
    seen_reasons: set[str] = set()
    codes: set[str] = set()
    for seed in range(12):
        hand = demo_hand(players=4, seed=seed)
        codes |= {s.code for s in hand.steps}
        seen_reasons |= {str(s.params["reason"]) for s in hand.steps if s.code == "stop"}
    assert seen_reasons == STOP_REASONS
    assert {"colour_change", "box_won", "lead_passes", "went_out", "payment"} <= codes


def test_boxes_nobody_won_stay_on_the_board_for_the_next_hand() -> None:
    first = demo_hand(players=4, seed=5)
    second = first.next_hand(seed=6)
    assert second.board_before == first.board_after
    assert second.chips_before == first.chips_after
    assert second.dealer == 1 and second.steps[0].params["dealer"] == 1
    ante = next(s for s in second.steps if s.code == "ante")
    assert ante.board == tuple(b + 4 for b in first.board_after)
    assert second.steps[-1].board[Box.RUMMOLI.slot] >= 0


def test_the_json_form_carries_over_to_the_next_hand() -> None:
    first = demo_hand(players=3, seed=9)
    data = json.loads(first.dumps())
    assert data["widow"] == [c.code for c in first.widow]
    assert data["steps"][0]["code"] == "hand_start" and "board" in data["steps"][0]
    assert len(data["board_after"]) == len(BOXES)
    follow = demo_hand(seed=10, **carry_over(data))
    assert follow == first.next_hand(seed=10)
    with pytest.raises(IllegalAction):
        carry_over({"game": "romme"})


def test_the_demo_is_the_same_for_the_same_seed() -> None:
    assert demo_hand(4, 3) == demo_hand(4, 3)
    assert demo_hand(4, 3).to_json() != demo_hand(4, 4).to_json()


def test_a_demo_needs_two_players_who_can_pay_the_ante() -> None:
    with pytest.raises(IllegalAction) as err:
        demo_hand(players=3, seed=1, chips=[5, 40, 3])
    assert err.value.code == "demo_over"
    hand = demo_hand(players=3, seed=1, chips=[5, 40, 40])
    assert len(hand.hands[0]) == 0 and hand.steps[1].code == "player_out"
