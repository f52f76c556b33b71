"""One test (or more) per clause of the tile-rummy rules: start, turns, first meld, rework,
jokers, the end of a round, scoring and rounds."""

from __future__ import annotations

import pytest

from rummykit.core import IllegalAction
from rummykit.tiles.actions import Draw, NextRound, Play
from rummykit.tiles.game import State
from rummykit.tiles.model import parse_table, table_tiles
from rummykit.tiles.rules import Rules, Tile

from .helpers import accepts, position, rejects

# --- start ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7)])
def test_each_player_draws_10_tiles_with_two_players_7_with_three_or_four(
    players: int, size: int
) -> None:
    state = State(Rules(), players, seed=11)
    assert [len(r) for r in state.racks] == [size] * players
    assert len(state.pool) == 106 - players * size


def test_the_rack_size_option_deals_14() -> None:
    state = State(Rules(rack_size=14), 4, seed=2)
    assert [len(r) for r in state.racks] == [14] * 4 and len(state.pool) == 50


def test_a_rack_size_the_pool_cannot_deal_is_refused() -> None:
    with pytest.raises(IllegalAction) as caught:
        State(Rules(rack_size=27), 4, seed=0)
    assert caught.value.code == "bad_rules" and caught.value.params["field"] == "rack_size"


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players: int) -> None:
    with pytest.raises(IllegalAction) as caught:
        State(Rules(), players, seed=0)
    assert caught.value.code == "bad_players"


def _starter_rounds(state: State) -> list[list[dict[str, object]]]:
    """The starter events of each round, as plain dicts."""
    rounds: list[list[dict[str, object]]] = []
    for event in state.log:
        if event["code"] == "round_start":
            rounds.append([])
        elif event["code"] in ("starter_draw", "starter_tie", "starter"):
            rounds[-1].append(dict(event))
    return rounds


def _check_starter(events: list[dict[str, object]], players: int) -> tuple[bool, bool]:
    """Replays the choice from the public events and checks each step; returns whether a joker
    and whether a tie occurred."""
    contenders = list(range(players))
    drawn: dict[int, int] = {}
    saw_joker = saw_tie = False
    pending = list(contenders)
    for event in events:
        if event["code"] == "starter_draw":
            seat = event["seat"]
            assert isinstance(seat, int) and seat == pending[0]
            tile = Tile.parse(str(event["tile"]))
            if tile.is_joker:
                saw_joker = True  # the same player draws again
                continue
            assert tile.number is not None
            drawn[seat] = tile.number
            pending.pop(0)
        elif event["code"] == "starter_tie":
            assert not pending
            low = min(drawn.values())
            tied = [s for s in contenders if drawn[s] == low]
            assert event["seats"] == tuple(tied) and len(tied) > 1 and event["number"] == low
            saw_tie = True
            contenders, pending, drawn = tied, list(tied), {}
        else:
            assert not pending
            low = min(drawn.values())
            assert [s for s in contenders if drawn[s] == low] == [event["seat"]]
    return saw_joker, saw_tie


def test_the_lowest_number_starts_a_joker_draws_again_a_tie_draws_again_among_the_tied() -> None:
    jokers = ties = 0
    for seed in range(120):
        players = 2 + seed % 3
        state = State(Rules(jokers=4), players, seed)
        [events] = _starter_rounds(state)
        joker, tie = _check_starter(events, players)
        jokers += joker
        ties += tie
        assert state.to_move == events[-1]["seat"] == state.starter
    assert jokers > 0 and ties > 0  # both cases were met


def test_the_starter_tiles_go_back_into_the_pool() -> None:
    state = State(Rules(), 3, seed=5)
    assert len(state.pool) + sum(len(r) for r in state.racks) == 106
    assert len(set(state.pool) | {t for r in state.racks for t in r}) == 106


def test_the_choice_of_the_starter_comes_from_the_seed_and_is_in_the_log() -> None:
    a, b = State(Rules(), 4, seed=9), State(Rules(), 4, seed=9)
    assert a.dumps() == b.dumps()
    assert any(e["code"] == "starter" for e in a.view(0).log)


# --- a turn: draw and pass -----------------------------------------------------------------


def test_a_player_who_does_not_play_draws_one_tile_and_passes() -> None:
    state = position(["r1 r2", "b1 b2"], pool="y9 y8")
    state.apply(Draw())
    assert [t.code for t in state.racks[0]] == ["r1", "r2", "y9"]
    assert state.to_move == 1 and len(state.pool) == 101 and state.pool[-1].code == "y8"


def test_play_goes_clockwise() -> None:
    state = State(Rules(), 4, seed=3)
    seats = []
    for _ in range(6):
        seats.append(state.to_move)
        state.apply(Draw())
    first = seats[0]
    assert first is not None
    assert seats == [(first + k) % 4 for k in range(6)]


def test_only_the_player_on_move_may_act() -> None:
    state = position(["r1 r2", "b1 b2"])
    rejects(state, Draw(), "not_your_turn", seat=1)
    state.apply(Draw(), seat=0)
    assert state.to_move == 1


# --- the first meld ------------------------------------------------------------------------


def test_a_first_meld_of_at_least_30_from_the_rack_is_accepted() -> None:
    state = position(["r9 r10 r11 b1", "k1"], opened=[False, False])
    event = accepts(state, "r9 r10 r11")
    assert event["value"] == 30 and event["first_meld"] is True and state.opened[0]


def test_a_first_meld_may_be_several_new_sets_that_add_up() -> None:
    state = position(["r1 r2 r3 k8 b8 y8 r9", "k1"], opened=[False, False])
    assert accepts(state, "r1 r2 r3 | k8 b8 y8")["value"] == 30


def test_a_first_meld_below_30_is_refused() -> None:
    state = position(["r8 r9 r10 b1", "k1"], opened=[False, False])
    rejects(state, "r8 r9 r10", "first_meld_below_minimum")


def test_a_joker_counts_the_value_it_stands_for_in_the_first_meld() -> None:
    state = position(["r10 * r12 b1", "k1"], opened=[False, False])
    assert accepts(state, "r10 *(r11) r12")["value"] == 33


def test_the_opening_minimum_is_an_option() -> None:
    state = position(["r1 r2 r3 b9", "k1"], rules=Rules(opening_min=6), opened=[False, False])
    assert accepts(state, "r1 r2 r3")["value"] == 6
    state = position(["r9 r10 r11 b9", "k1"], rules=Rules(opening_min=40), opened=[False] * 2)
    rejects(state, "r9 r10 r11", "first_meld_below_minimum")


def test_a_first_meld_may_not_use_or_touch_the_table() -> None:
    table = "k1 k2 k3 k4 | y10 y11 y12"
    state = position(["r10 r11 r12 k5", "b1"], table, opened=[False, True])
    rejects(state, "k1 k2 k3 k4 k5 | y10 y11 y12 | r10 r11 r12", "first_meld_uses_table")
    rejects(state, "k1 k2 k3 | k4 r10 r11 r12 | y10 y11 y12", "first_meld_uses_table")
    rejects(state, "k1 k2 k3 | k4 k5 | y10 y11 y12 | r10 r11 r12", "first_meld_uses_table")
    accepts(state, "k1 k2 k3 k4 | y10 y11 y12 | r10 r11 r12")


def test_a_player_who_cannot_make_the_first_meld_draws_and_passes() -> None:
    state = position(["r1 r2 r3", "k1"], opened=[False, False], pool="b5")
    rejects(state, "r1 r2 r3", "first_meld_below_minimum")
    state.apply(Draw())
    assert state.to_move == 1 and len(state.racks[0]) == 4


def test_after_the_first_meld_any_value_may_be_laid() -> None:
    state = position(["r1 r2 r3 k9", "k1"], "b10 b11 b12", opened=[True, True])
    assert accepts(state, "b10 b11 b12 | r1 r2 r3")["value"] == 6


# --- the turn is judged as a whole ---------------------------------------------------------


def test_at_least_one_tile_must_come_from_the_rack() -> None:
    state = position(["r1", "k1"], "b1 b2 b3 b4 b5 b6")
    rejects(state, "b1 b2 b3 b4 b5 b6", "no_rack_tile_played")
    rejects(state, "b1 b2 b3 | b4 b5 b6", "no_rack_tile_played")


def test_every_tile_that_was_on_the_table_must_stay_on_the_table() -> None:
    state = position(["r1 r2 r3", "k1"], "b1 b2 b3 b4")
    rejects(state, "b1 b2 b3 | r1 r2 r3", "table_tile_missing")


def test_every_set_must_be_valid_at_the_end_of_the_turn() -> None:
    state = position(["r4 k2", "k1"], "b1 b2 b3 | r1 r2 r3")
    rejects(state, "b1 b2 b3 | r1 r2 r3 r4 k2", "invalid_set")


def test_only_tiles_on_the_rack_or_the_table_may_be_used() -> None:
    state = position(["r1 r2", "r3 k1"], "b1 b2 b3")
    rejects(state, "b1 b2 b3 | r1 r2 r3", "tile_not_held")


def test_a_rejected_turn_changes_nothing_and_the_player_may_try_again() -> None:
    state = position(["r4 r5 y9", "k1"], "r1 r2 r3")
    rejects(state, "r1 r2 | r3 r4 r5", "set_too_small")
    accepts(state, "r1 r2 r3 r4 r5")
    assert state.to_move == 1


# --- the leaflet's manipulations, each with its illegal twin --------------------------------


def test_extend_a_run_at_one_end_and_take_the_other_end() -> None:
    state = position(["r8 b5 k5 y1", "k1"], "r5 r6 r7")
    event = accepts(state, "r6 r7 r8 | r5 b5 k5")
    assert [s["code"] for s in event["steps"]] == [
        "laid",
        "laid",
        "moved",
        "set_changed",
        "new_set",
    ]


def test_taking_the_other_end_without_extending_is_illegal() -> None:
    state = position(["r8 b5 k5 y1", "k1"], "r5 r6 r7")
    rejects(state, "r6 r7 | r5 b5 k5", "set_too_small")
    rejects(state, "r6 r7 r8 | b5 k5 y1", "table_tile_missing")


def test_split_a_long_run_to_insert_own_tiles() -> None:
    state = position(["r7 y1", "k1"], "r5 r6 r7 r8 r9")
    accepts(state, "r5 r6 r7 | r7 r8 r9")
    assert [s.code for s in state.table] == ["r5 r6 r7", "r7#1 r8 r9"]


def test_a_split_leaving_a_part_of_two_is_illegal() -> None:
    state = position(["r6 y1", "k1"], "r5 r6 r7 r8")
    rejects(state, "r5 r6 | r6 r7 r8", "set_too_small")


def test_swap_a_tile_of_a_group_for_another_colour_and_use_the_freed_tile() -> None:
    state = position(["y5 b6 b7 r1", "k1"], "r5 b5 k5 | b1 b2 b3 b4")
    accepts(state, "r5 y5 k5 | b1 b2 b3 b4 b5 b6 b7")


def test_swapping_in_a_tile_of_a_colour_already_in_the_group_is_illegal() -> None:
    state = position(["r5 b6 b7 r1", "k1"], "r5 b5 k5 | b1 b2 b3 b4")
    rejects(state, "r5 r5 k5 | b1 b2 b3 b4 b5 b6 b7", "duplicate_colour_in_group")


def test_take_the_fourth_tile_of_a_group() -> None:
    state = position(["y10 y11 r1", "k1"], "r9 b9 k9 y9")
    accepts(state, "r9 b9 k9 | y9 y10 y11")


def test_take_an_end_tile_of_a_run_of_four_or_more() -> None:
    for taken, rest in (("r1", "r2 r3 r4"), ("r4", "r1 r2 r3")):
        state = position(["b1 k1 b4 k4 y9", "k1"], "r1 r2 r3 r4")
        colour_mates = "b1 k1" if taken == "r1" else "b4 k4"
        accepts(state, f"{rest} | {taken} {colour_mates}")


def test_taking_a_tile_from_a_set_of_three_is_illegal() -> None:
    state = position(["b3 k3 y9", "k1"], "r1 r2 r3")
    rejects(state, "r1 r2 | r3 b3 k3", "set_too_small")
    state = position(["y10 y11", "k1"], "r9 b9 y9")
    rejects(state, "r9 b9 | y9 y10 y11", "set_too_small")


def test_taking_a_middle_tile_of_a_run_is_illegal() -> None:
    state = position(["b2 k2 y9", "k1"], "r1 r2 r3 r4")
    rejects(state, "r1 r3 r4 | r2 b2 k2", "run_not_consecutive")


def test_retrieve_a_joker_with_the_tile_it_stands_for_and_use_it_again() -> None:
    state = position(["y7 b1 b2 r9", "k1"], "y4 y5 y6 *(y7)")
    event = accepts(state, "y4 y5 y6 y7 | b1 b2 *(b3)")
    assert event["jokers_moved"] == ("*",)
    assert event["steps"][0] == {
        "code": "joker_moved",
        "joker": "*",
        "stood_for": "y7",
        "stands_for": "b3",
        "by": "y7",
    }


def test_a_retrieved_joker_kept_in_the_rack_is_illegal() -> None:
    state = position(["y7 b1 b2 r9", "k1"], "y4 y5 y6 *(y7)")
    rejects(state, "y4 y5 y6 y7", "joker_kept_in_rack")


def test_a_joker_may_not_be_taken_without_putting_its_tile_in() -> None:
    state = position(["b1 b2 r9", "k1"], "y4 y5 y6 *(y7)")
    rejects(state, "y4 y5 y6 | b1 b2 *(b3)", "joker_not_replaced")
    state = position(["b1 b2 r9", "k1"], "y4 y5 y6 y7 *(y8)")
    rejects(state, "y4 y5 y6 y7 | b1 b2 *(b3)", "joker_not_replaced")
    rejects(state, "y4 y5 y6 y7", "table_tile_missing")


def test_the_tile_that_frees_a_joker_must_come_from_the_rack() -> None:
    state = position(["b1 b2 r9", "k1"], "y4 y5 y6 *(y7) | y7 y8 y9 y10")
    rejects(state, "y4 y5 y6 y7 | y8 y9 y10 | b1 b2 *(b3)", "joker_not_replaced")


def test_a_joker_may_not_change_what_it_stands_for_in_its_own_set_without_its_tile() -> None:
    state = position(["r3 k9", "k1"], "r5 r6 *(r7)")
    rejects(state, "r3 *(r4) r5 r6", "joker_not_replaced")


def test_a_joker_whose_tile_is_played_may_change_meaning_in_place() -> None:
    state = position(["r7 r4 k9", "k1"], "r5 r6 *(r7)")
    accepts(state, "*(r3) r4 r5 r6 r7")
    assert state.table[0].code == "*(r3) r4 r5 r6 r7"
    state = position(["r4 k9", "k1"], "r5 r6 *(r7)")
    rejects(state, "*(r3) r4 r5 r6", "joker_not_replaced")


def test_end_only_joker_retrieval_needs_the_joker_at_the_end_of_a_run_or_in_a_group() -> None:
    table = "y4 *(y5) y6 y7"
    state = position(["y5 b1 b2 r9", "k1"], table)
    rejects(state, "y4 y5 y6 y7 | b1 b2 *(b3)", "joker_retrieval_not_at_end")
    group = position(["k5 b1 b2 r9", "k1"], "r5 b5 *(5)")
    accepts(group, "r5 b5 k5 | b1 b2 *(b3)")
    low_end = position(["y3 b1 b2 r9", "k1"], "*(y3) y4 y5 y6")
    accepts(low_end, "y3 y4 y5 y6 | b1 b2 *(b3)")


def test_anywhere_joker_retrieval_frees_a_joker_in_the_middle_of_a_run() -> None:
    state = position(
        ["y5 b1 b2 r9", "k1"], "y4 *(y5) y6 y7", rules=Rules(joker_retrieval="anywhere")
    )
    accepts(state, "y4 y5 y6 y7 | b1 b2 *(b3)")


def test_a_joker_in_a_group_of_three_may_be_freed_by_either_missing_colour() -> None:
    for colour in "ky":
        state = position([f"{colour}5 b1 b2 r9", "k1"], "r5 b5 *(5)")
        accepts(state, f"r5 b5 {colour}5 | b1 b2 *(b3)")
    state = position(["r5 b1 b2 r9", "k1"], "r5 b5 *(5)")
    rejects(state, "r5 b5 r5 | b1 b2 *(b3)", "duplicate_colour_in_group")


def test_a_joker_in_a_full_group_is_freed_only_by_its_own_colour() -> None:
    state = position(["k5 b1 b2 r9", "k1"], "r5 b5 y5 *(k5)")
    accepts(state, "r5 b5 y5 k5 | b1 b2 *(b3)")
    state = position(["y5 b1 b2 r9", "k1"], "r5 b5 y5 *(k5)")
    rejects(state, "r5 b5 y5 | b1 b2 *(b3)", "joker_not_replaced")


def test_splitting_a_run_around_a_joker_keeps_the_joker_where_it_is() -> None:
    state = position(["r4 k9", "k1"], "r1 r2 *(r3) r4 r5 r6 r7")
    accepts(state, "r1 r2 *(r3) r4 | r4 r5 r6 r7")


def test_adding_to_a_group_with_a_joker_keeps_the_joker() -> None:
    state = position(["k5 r1", "k1"], "r5 b5 *(5)")
    accepts(state, "r5 b5 k5 *(5)")
    assert state.table[0].code == "r5 b5 k5 *(y5)"


def test_two_jokers_need_two_tiles() -> None:
    table = "r1 r2 *(r3) | b6 b7 b8 *#1(b9)"
    state = position(["r3 k4 y4 r9", "k1"], table)
    accepts(state, "r1 r2 r3 | b6 b7 b8 *#1(b9) | *(4) k4 y4")
    state = position(["r3 k4 r9", "k1"], table)
    rejects(state, "r1 r2 r3 | b6 b7 b8 | *(4) *#1(4) k4", "joker_not_replaced")
    state = position(["r3 b9 k4 r9", "k1"], table)
    accepts(state, "r1 r2 r3 | b6 b7 b8 b9 | *(4) *#1(4) k4")


def test_the_manipulations_combine_freely_in_one_turn() -> None:
    table = "r4 r5 r6 r7 r8 r9 | b5 k5 y5 | y1 y2 y3 *(y4)"
    state = position(["r7 y4 b8 k8 r1", "k1"], table)
    event = accepts(state, "r4 r5 r6 r7 | r7 r8 r9 | b5 k5 y5 | y1 y2 y3 y4 | b8 k8 *(8)")
    assert event["tiles"] == "r7#1 y4 b8 k8" and event["jokers_moved"] == ("*",)


# --- the end of a round, scoring, rounds ---------------------------------------------------


def test_the_first_player_to_empty_the_rack_wins_the_round_and_scores_0() -> None:
    state = position(["r1 r2 r3", "k1 k2 * y13"], "b10 b11 b12")
    accepts(state, "b10 b11 b12 | r1 r2 r3")
    assert state.round_scores == [[0, 1 + 2 + 30 + 13]] and state.is_over
    assert state.winners == [0]


def test_a_joker_left_on_a_rack_counts_the_joker_penalty() -> None:
    state = position(["r1 r2 r3", "* y1"], "b10 b11 b12", rules=Rules(joker_penalty=50))
    accepts(state, "b10 b11 b12 | r1 r2 r3")
    assert state.round_scores == [[0, 51]]


def test_classic_scoring_gives_the_winner_the_others_racks_as_a_plus() -> None:
    rules = Rules(scoring="classic")
    state = position(["r1 r2 r3", "k1 *", "y9"], "b10 b11 b12", rules=rules)
    accepts(state, "b10 b11 b12 | r1 r2 r3")
    assert state.round_scores == [[40, -31, -9]] and state.winners == [0]


def _small() -> Rules:
    return Rules(numbers=4, copies=1, jokers=0, rack_size=1)


FULL_TABLE = "r1 r2 r3 r4 | b1 b2 b3 b4 | k1 k2 k3"


def test_with_the_pool_empty_a_draw_is_a_pass_and_when_all_pass_the_round_ends() -> None:
    state = position(["y1 y4", "y2 k4"], FULL_TABLE, rules=_small(), pool="y3")
    state.apply(Draw())  # seat 0 draws the last tile
    assert state.pool == [] and state.log[-1]["code"] == "draw"
    state.apply(Draw())
    assert state.log[-1]["code"] == "pass" and state.phase == "play"
    state.apply(Draw())
    assert [e["code"] for e in state.log[-3:]] == ["pass", "round_end", "game_end"]
    assert state.log[-2]["reason"] == "blocked" and state.log[-2]["winner"] is None


def test_a_play_with_the_pool_empty_restarts_the_count_of_passes() -> None:
    state = position(["y1 y4 y3", "y2 k4"], FULL_TABLE, rules=_small())
    state.apply(Draw())
    accepts(state, f"{FULL_TABLE} k4")
    assert state.passes == 0
    state.apply(Draw())
    assert state.phase == "play"
    state.apply(Draw())
    assert state.phase == "game_over" and state.log[-2]["reason"] == "blocked"


def test_a_blocked_round_counts_every_rack_under_the_leaflet_scoring() -> None:
    state = position(["y1 y4", "y2 k4"], FULL_TABLE, rules=_small(), pool="y3")
    for _ in range(3):
        state.apply(Draw())
    assert state.round_scores == [[1 + 4 + 3, 2 + 4]] and state.winners == [1]


def test_a_blocked_round_under_classic_scoring_goes_to_the_lowest_rack() -> None:
    rules = Rules(numbers=4, copies=1, jokers=0, rack_size=1, scoring="classic")
    state = position(["y1 y4", "y2 k4"], FULL_TABLE, rules=rules, pool="y3")
    for _ in range(3):
        state.apply(Draw())
    assert state.round_scores == [[-2, 2]] and state.winners == [1]


def test_after_the_agreed_rounds_the_lowest_total_wins() -> None:
    state = position(["r1 r2 r3", "k1 k2", "y5"], "b10 b11 b12", rules=Rules(rounds=2))
    accepts(state, "b10 b11 b12 | r1 r2 r3")
    assert state.phase == "round_over" and state.to_move is None
    rejects(state, Draw(), "round_over")
    state.apply(NextRound())
    assert state.round == 2 and state.phase == "play" and state.table == []
    assert [len(r) for r in state.racks] == [7, 7, 7]
    assert state.log[-1]["code"] == "deal"
    rejects(state, NextRound(), "round_not_over")


def test_equal_totals_share_the_victory() -> None:
    for scoring, scores in (("leaflet", [7, 7]), ("classic", [0, 0])):
        rules = Rules(numbers=4, copies=1, jokers=0, rack_size=1, scoring=scoring)  # type: ignore[arg-type]
        state = position(["y3 y4", "y1 y2 k4"], FULL_TABLE, rules=rules)
        state.apply(Draw())
        state.apply(Draw())
        assert state.scores == scores and state.winners == [0, 1]


def test_the_game_is_over_after_the_last_round_and_refuses_every_action() -> None:
    state = position(["r1 r2 r3", "k1"], "b10 b11 b12")
    accepts(state, "b10 b11 b12 | r1 r2 r3")
    for action in (Draw(), NextRound(), Play(tuple(parse_table("r1 r2 r3")))):
        rejects(state, action, "game_over")
    assert table_tiles(state.table)


def test_a_classic_blocked_round_shares_the_gain_between_tied_lowest_racks() -> None:
    """Not in the leaflet: the differences to the lowest rack go to the tied lowest players in
    equal whole parts (here 5 between two: 2 each, the odd point is dropped)."""
    rules = Rules(numbers=4, copies=1, jokers=0, rack_size=1, scoring="classic")
    state = position(["k1 y4", "k2 k3", "k4 y1 y2 y3"], "r1 r2 r3 r4 | b1 b2 b3 b4", rules=rules)
    for _ in range(3):
        state.apply(Draw())
    assert state.round_scores == [[2, 2, -5]] and state.winners == [0, 1]
