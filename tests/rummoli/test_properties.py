"""Invariants over random whole games with random options, checked after every action:
chips are conserved exactly (players + board), every card is in exactly one place, and an
illegal action changes nothing."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummykit.core import IllegalAction
from rummykit.rummoli import Bet, Bid, Fold, Play, Rules, Start, State
from rummykit.rummoli.poker import index_card
from rummykit.rummoli.table import PLAYED, WIDOW

rules_st = st.builds(
    Rules,
    starting_chips=st.sampled_from([9, 12, 20, 40]),
    widow_payers_barred=st.booleans(),
    poker=st.sampled_from(["showdown", "betting"]),
    max_bet=st.integers(1, 6),
    combos=st.sampled_from(["strict", "last_card"]),
    hands=st.sampled_from([None, 1, 2, 4]),
    final_split=st.sampled_from(["poker", "cut", "extra_hands"]),
)


def random_rules(rng: random.Random) -> Rules:
    return Rules(
        starting_chips=rng.choice([9, 12, 20, 40]),
        widow_payers_barred=rng.random() < 0.5,
        poker=rng.choice(["showdown", "betting"]),
        max_bet=rng.randint(1, 6),
        combos=rng.choice(["strict", "last_card"]),
        hands=rng.choice([None, 1, 2, 4]),
        final_split=rng.choice(["poker", "cut", "extra_hands"]),
    )


def check_cards(state: State) -> None:
    holder = state.holder
    assert len(holder) == 52
    if state.hand_number == 0:  # the game ended before any deal: the deck was never dealt
        assert set(holder) == {WIDOW}
        return
    assert set(holder) <= set(state.order) | {WIDOW, PLAYED}
    plays = [] if state.sequence is None else state.sequence.plays
    played = [i for i, h in enumerate(holder) if h == PLAYED]
    assert sorted(i for _, i in plays) == played
    counts = Counter(holder)
    if state.sequence is not None:
        for seat in state.order:
            assert state.sequence.counts[seat] == counts[seat]
    view = state.view(state.order[0], since=len(state.events))
    assert sum(view.hand_counts) + view.widow_count + len(view.plays) == 52


def check_chips(state: State, total: int) -> None:
    assert sum(state.chips) + sum(state.board) == total
    assert min(state.chips) >= 0 and min(state.board) >= 0


def wrong_actions(state: State, rng: random.Random) -> list[object]:
    seat = state.to_move
    chips = 0 if seat is None else state.chips[seat]
    return [
        Bid(chips + 1),
        Bet(state.rules.max_bet + 1),
        Fold() if state.rules.poker == "showdown" else Bet(0),
        Play(index_card(rng.randrange(52))),
    ]


def play_checked(state: State, rng: random.Random, probe: bool) -> int:
    total = state.total_chips()
    actions = 0
    check_chips(state, total)
    check_cards(state)
    while not state.is_over:
        if probe:
            for action in wrong_actions(state, rng):
                if state.can_apply(action):  # type: ignore[arg-type]
                    continue
                before = state.snapshot()
                with pytest.raises(IllegalAction):
                    state.apply(action)  # type: ignore[arg-type]
                assert state.snapshot() == before
        state.apply(rng.choice(state.legal_actions()))
        actions += 1
        check_chips(state, total)
        check_cards(state)
        assert actions < 20_000
    return actions


@settings(deadline=None)
@given(
    rules=rules_st,
    players=st.integers(2, 8),
    seed=st.integers(0, 2**32),
    chooser=st.integers(0, 2**32),
)
def test_random_games_conserve_chips_and_cards_and_refuse_without_change(
    rules: Rules, players: int, seed: int, chooser: int
) -> None:
    state = State(rules, players, seed)
    play_checked(state, random.Random(chooser), probe=True)


@settings(deadline=None)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    chips=st.lists(st.integers(0, 30), min_size=5, max_size=5),
    board=st.lists(st.integers(0, 7), min_size=9, max_size=9),
)
def test_games_from_any_table_conserve_chips(
    players: int, seed: int, chips: list[int], board: list[int]
) -> None:
    start = Start(chips=tuple(chips[:players]), board=tuple(board), dealer=seed % players)
    state = State(Rules(hands=3, poker="betting"), players, seed, start=start)
    play_checked(state, random.Random(seed), probe=False)


@settings(deadline=None)
@given(
    rules=rules_st,
    final_split=st.sampled_from(["poker", "cut", "extra_hands"]),
    hands=st.sampled_from([1, 2, 3]),
    players=st.integers(2, 8),
    seed=st.integers(0, 2**32),
    chooser=st.integers(0, 2**32),
)
def test_at_the_end_of_every_game_every_chip_is_with_a_player(
    rules: Rules, final_split: str, hands: int, players: int, seed: int, chooser: int
) -> None:
    state = State(rules.replace(final_split=final_split, hands=hands), players, seed)
    total = state.total_chips()
    play_checked(state, random.Random(chooser), probe=False)
    assert state.board == [0] * len(state.board)
    assert sum(state.chips) == total == players * rules.starting_chips


def test_two_thousand_random_games_with_random_options() -> None:
    rng = random.Random(20240)
    games = actions = hands = 0
    for game in range(2000):
        rules = random_rules(rng)
        if rules.hands is None:
            rules = rules.replace(hands=rng.choice([1, 2, 3]))
        state = State(rules, rng.randint(2, 8), seed=game)
        actions += play_checked(state, rng, probe=False)
        games += 1
        hands += state.hand_number
    assert games == 2000 and hands >= 2000 and actions > 0
