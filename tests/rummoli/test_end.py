"""Spec, "End of the game": the hands option, the last player with chips, the three splits."""

from __future__ import annotations

from rummykit.cards import parse_cards
from rummykit.rummoli import Box, Phase, Rules, Start, State
from rummykit.rummoli.actions import Action, Check, KeepHand, Pass
from rummykit.rummoli.game import shares
from rummykit.rummoli.poker import evaluate
from rummykit.rummoli.rules import BOXES
from rummykit.rummoli.view import Event


def simple_move(state: State) -> Action:
    """Keep the hand, never bid, check or call, the first lead offered."""
    if state.phase is Phase.WIDOW:
        return KeepHand()
    if state.phase is Phase.AUCTION:
        return Pass()
    legal = state.legal_actions()
    return Check() if Check() in legal else legal[0]


def play_out(state: State) -> State:
    while not state.is_over:
        state.apply(simple_move(state))
    return state


def board_with(**chips: int) -> tuple[int, ...]:
    return tuple(chips.get(box.value, 0) for box in BOXES)


def codes(events: list[Event], code: str) -> list[Event]:
    return [e for e in events if e["code"] == code]


def test_the_game_ends_after_the_number_of_hands_given() -> None:
    state = play_out(State(Rules(hands=3), 4, seed=1))
    assert state.regular_hands == 3 and state.hand_number == 3
    assert codes(state.events, "game_end")[0]["reason"] == "hands"
    assert state.to_move is None and state.legal_actions() == []


def test_without_a_number_of_hands_the_game_plays_on_until_one_player_can_pay() -> None:
    state = play_out(State(Rules(), 3, seed=2))
    end = codes(state.events, "game_end")[0]
    assert end["reason"] == "players" and len(end["seats"]) == 1
    assert sum(1 for chips in state.chips if chips >= 9) <= 1
    assert sum(state.chips) == 3 * 40 and sum(state.board) == 0


def test_when_all_players_but_one_have_no_chips_the_last_one_takes_the_board() -> None:
    start = Start(chips=(8, 40), board=board_with(rummoli=5, seven_eight_nine=3))
    state = State(Rules(), 2, seed=0, start=start)
    assert state.is_over and state.hand_number == 0
    assert codes(state.events, "final_won") == [
        {"code": "final_won", "seat": 1, "chips": 8, "mode": "last_player"}
    ]
    assert state.chips == [8, 48] and sum(state.board) == 0


def test_the_final_poker_hand_gives_everything_to_the_best_five_cards() -> None:
    state = play_out(State(Rules(hands=1), 4, seed=3))
    on_board = sum(e["chips"] for e in codes(state.events, "final_won"))
    shows = codes(state.events, "final_show")
    assert len(shows) == 4 and all(len(e["cards"]) == 5 for e in shows)
    dealt = [c for e in shows for c in e["cards"]]
    assert len(set(dealt)) == 20
    best = max(shows, key=lambda e: evaluate(parse_cards(e["cards"])))
    assert codes(state.events, "final_won")[0]["seat"] == best["seat"]
    assert on_board > 0 and sum(state.board) == 0 and sum(state.chips) == 160


def _first_seed_with_tie(rules: Rules, players: int) -> State:
    start = Start(chips=(5,) * players, board=board_with(poker=7, rummoli=11))
    for seed in range(5000):
        state = State(rules, players, seed, start=start)
        if codes(state.events, "final_tie"):
            return state
    raise AssertionError("no tie found")


def test_equal_best_hands_in_the_final_poker_deal_again_among_themselves() -> None:
    state = _first_seed_with_tie(Rules(), 8)
    tie = codes(state.events, "final_tie")[0]
    after = state.events[state.events.index(tie) + 1 :]
    again = [e["seat"] for e in codes(after, "final_show")]
    assert again[: len(tie["seats"])] == tie["seats"]
    assert codes(state.events, "final_won")[0]["seat"] in tie["seats"]
    assert state.chips.count(5 + 18) == 1


def test_nobody_able_to_pay_shares_the_board_among_all_still_in() -> None:
    start = Start(chips=(5, 5, 5), board=board_with(poker=7, rummoli=11))
    state = State(Rules(), 3, seed=1, start=start)
    assert [e["seat"] for e in codes(state.events, "final_show")][:3] == [1, 2, 0]
    assert sorted(state.chips) == [5, 5, 23]


def test_the_cut_gives_everything_to_the_highest_card() -> None:
    start = Start(chips=(5, 5, 5, 5), board=board_with(poker=7, rummoli=11))
    state = State(Rules(final_split="cut"), 4, seed=2, start=start)
    cuts = codes(state.events, "cut")
    ranks = {e["seat"]: evaluate(parse_cards([e["card"]])).ranks[0] for e in cuts}
    winner = codes(state.events, "final_won")[0]
    assert not codes(state.events, "final_tie")  # this seed cuts four different ranks
    assert winner["seat"] == max(ranks, key=lambda s: ranks[s])
    assert winner["mode"] == "cut" and winner["chips"] == 18


def test_equal_cuts_cut_again() -> None:
    state = _first_seed_with_tie(Rules(final_split="cut"), 4)
    tie = codes(state.events, "final_tie")[0]
    first_round = codes(state.events, "cut")[:4]
    top = max(evaluate(parse_cards([e["card"]])).key for e in first_round)
    tied = [e["seat"] for e in first_round if evaluate(parse_cards([e["card"]])).key == top]
    assert tie["seats"] == tied and len(tied) >= 2
    after = state.events[state.events.index(tie) + 1 :]
    assert [e["seat"] for e in codes(after, "cut")][: len(tied)] == tied


def test_extra_hands_play_one_more_hand_per_box_holding_chips_without_ante() -> None:
    state = play_out(State(Rules(hands=1, final_split="extra_hands"), 4, seed=5))
    extra = codes(state.events, "extra_hands")[0]
    boxes_with_chips = int(extra["count"])
    assert 1 <= boxes_with_chips <= len(BOXES)
    assert len(codes(state.events, "ante")) == 1
    starts = codes(state.events, "hand_start")
    assert [e["extra"] for e in starts] == [False] + [True] * (len(starts) - 1)
    assert 1 <= len(starts) - 1 <= boxes_with_chips
    if len(starts) - 1 < boxes_with_chips:  # stopped early: nothing left to play for
        assert not codes(state.events, "final_share")
    assert sum(state.chips) == 160 and sum(state.board) == 0


def test_chips_left_after_the_extra_hands_are_shared_out_so_the_board_ends_empty() -> None:
    start = Start(chips=(5, 5, 5), board=board_with(poker=7, rummoli=11))
    state = play_out(State(Rules(final_split="extra_hands"), 3, seed=6, start=start))
    shared = codes(state.events, "final_share")
    left = sum(int(e["chips"]) for e in shared)
    assert left > 0 and sum(state.board) == 0 and sum(state.chips) == 3 * 5 + 18
    assert state.events[-1]["code"] == "game_over"
    assert state.events[-1 - len(shared) : -1] == shared  # the last word before the standings


def test_the_leftover_goes_in_equal_parts_the_odd_chips_one_each_from_the_dealers_left() -> None:
    start = Start(chips=(5, 5, 5), board=board_with(poker=7, rummoli=11))
    state = play_out(State(Rules(final_split="extra_hands"), 3, seed=6, start=start))
    assert state.dealer == 1  # the last extra hand's dealer: the share starts with seat 2
    assert [(e["seat"], e["chips"]) for e in codes(state.events, "final_share")] == [
        (2, 7),
        (0, 6),
        (1, 6),
    ]


def test_only_the_players_still_in_share_the_leftover() -> None:
    start = Start(chips=(3, 40, 40))
    state = play_out(State(Rules(hands=1, final_split="extra_hands"), 3, seed=0, start=start))
    assert codes(state.events, "player_out")[0]["seat"] == 0
    shared = codes(state.events, "final_share")
    assert [e["seat"] for e in shared] == [1, 2] and state.dealer == 2
    assert state.chips[0] == 3 and sum(state.board) == 0 and sum(state.chips) == 83


def test_a_leftover_smaller_than_the_table_gives_one_chip_each_from_the_dealers_left() -> None:
    assert shares(2, 4) == [1, 1, 0, 0]
    assert shares(7, 3) == [3, 2, 2]
    assert shares(9, 3) == [3, 3, 3]


def test_most_chips_wins() -> None:
    state = play_out(State(Rules(hands=2), 5, seed=6))
    over = state.events[-1]
    assert over["code"] == "game_over"
    top = max(state.chips)
    assert over["winners"] == [s for s in range(5) if state.chips[s] == top]


def test_boxes_nobody_won_stay_for_the_next_hand() -> None:
    state = State(Rules(hands=2), 4, seed=8)
    board_after_first: list[int] = []

    def note(event: Event, s: State) -> None:
        if event["code"] == "hand_end" and event["hand"] == 1:
            board_after_first.extend(s.board)

    state.listen(note)
    while state.hand_number == 1:
        state.apply(simple_move(state))
    assert state.board == [chips + 4 for chips in board_after_first]
    assert board_after_first[Box.POKER.slot] in (0, 1, 2, 3)
