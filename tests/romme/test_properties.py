"""Property tests: random whole games under random rule options, checked after every action."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scale import scaled

from rummykit.core import Record
from rummykit.romme import (
    Rules,
    State,
    action_from_json,
    parse_action,
    replay,
    replay_states,
)
from rummykit.romme.bots import make_bot
from rummykit.romme.game import _can_use_card
from rummykit.romme.turn import find_use, might_use_card
from rummykit.romme.view import View

from .helpers import check_invariants

rules_options = st.builds(
    Rules,
    hand_size=st.sampled_from([12, 13, 14]),
    deal_style=st.sampled_from(["dealer_left_extra", "upcard"]),
    opening_min=st.sampled_from([0, 30, 40]),
    ace_low_value=st.sampled_from([11, 1]),
    joker_penalty=st.sampled_from([20, 25, 30, 40]),
    discard_pickup=st.sampled_from(["must_use", "free"]),
    layoff_on_opening_turn=st.booleans(),
    opening_requires_run=st.booleans(),
    opening_without_jokers=st.booleans(),
    go_out=st.sampled_from(["discard", "meld"]),
    hand_romme=st.sampled_from(["double", "credit", "none"]),
    never_opened=st.sampled_from(["cards", "flat100"]),
    stock_exhausted=st.sampled_from(["reshuffle", "end_round"]),
    rounds=st.sampled_from([1, 2]),
    point_limit=st.sampled_from([None, 60, 150]),
    limit_rule=st.sampled_from(["exceeds", "reaches"]),
    jokers=st.sampled_from([0, 2, 6]),
)


def _hidden_cards_stay_hidden(state: State, view: View) -> None:
    """A view holds its own hand and public cards only; a draw from the stock is never named."""
    data = view.to_json()
    assert data["hand"] == [c.id for c in state.hands[view.seat]]  # type: ignore[index]
    for event in data["log"]:
        if event["code"] == "draw" and event["source"] == "stock":
            assert "card" not in event
    assert View.from_json(json.loads(json.dumps(data))) == view


MAX_ACTIONS = 1500
"""A game is cut after this many actions: with reshuffles a round can last for ever (players
with one card each and nothing to add it to only draw and discard)."""


def play_checked(rules: Rules, players: int, seed: int, check_pickups: bool = False) -> State:
    state = State(rules, players, seed)
    bots = [make_bot("random", seed + seat) for seat in range(players)]
    rng = random.Random(seed)
    check_invariants(state)
    while not state.is_over and len(state.actions) < MAX_ACTIONS:
        seat = state.to_move
        view = state.view(seat if seat is not None else rng.randrange(players))
        if seat is not None and rng.random() < 0.05:
            _hidden_cards_stay_hidden(state, view)
        if check_pickups and seat is not None and state.phase == "draw" and state.discard_pile:
            _pickup_consistent(state, seat)
        action = bots[seat if seat is not None else 0].choose(view)
        assert state.can_apply(action, seat)
        state.apply(action, seat)
        assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
        assert parse_action(str(action)) == action
        check_invariants(state)
    if state.is_over:
        assert state.winners and min(state.scores) == state.scores[state.winners[0]]
    return state


def _pickup_consistent(state: State, seat: int) -> None:
    """The quick answers about taking the discard never contradict the solver's."""
    hand, top = state.hands[seat], state.discard_pile[-1]
    table, opened = list(state.table.values()), state.opened[seat]
    exact = _can_use_card(list(hand), top, table, state.rules, opened)
    if not might_use_card(hand, top, table, state.rules, opened):
        assert not exact
    if find_use(hand, top, table, state.rules, opened) is not None:
        assert exact


@settings(max_examples=60, deadline=None)
@given(rules_options, st.integers(2, 6), st.integers(0, 2**32 - 1))
def test_random_games_under_random_rules_keep_every_card_in_one_place(
    rules: Rules, players: int, seed: int
) -> None:
    state = play_checked(rules, players, seed)
    record = Record.loads(state.record(["bot"] * players).dumps())
    assert replay(record).dumps() == state.dumps()


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_random_standard_games_pickup_checks_agree_with_the_solver(players: int, seed: int) -> None:
    play_checked(Rules(rounds=1), players, seed, check_pickups=True)


@pytest.mark.parametrize("chunk", range(4))
def test_seeded_random_rounds_keep_the_invariants(chunk: int) -> None:
    """400 one-round games in four chunks (4,000 in `make fuzz`): the three presets, 2 to 6
    players."""
    presets = ["standard", "computer", "german_club"]
    size = scaled(100)
    for index in range(chunk * size, (chunk + 1) * size):
        rules = Rules.preset(presets[index % 3]).replace(rounds=1, point_limit=None)
        play_checked(rules, 2 + index % 5, 1000 + index)


def test_replay_states_give_every_position_in_order() -> None:
    state = play_checked(Rules(rounds=2), 3, 77)
    record = state.record()
    states = list(replay_states(record))
    assert len(states) == len(record.actions) + 1
    assert states[-1].dumps() == state.dumps()
    assert states[0].actions == () and states[1].actions == state.actions[:1]
