"""The score sheet, rule by rule (spec: the Rommé score sheet)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.core import IllegalAction
from rummykit.scoresheet import (
    DEFAULT_LIMIT,
    LIMIT_PRESETS,
    POINTS_MAX,
    POINTS_MIN,
    CorrectRound,
    EnterRound,
    Entry,
    Join,
    Leave,
    Settings,
    Sheet,
    Start,
    action_from_json,
    replay,
)


def sheet(*names: str, limit: int = 500) -> Sheet:
    return Sheet(Settings("Test", limit=limit), list(names or ("Ann", "Bob", "Cleo")))


def refused(code: str, s: Sheet, action: object) -> None:
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        s.apply(action)  # type: ignore[arg-type]
    assert err.value.code == code
    assert s.to_json() == before, "a refused action changes nothing"


# -- Create a game -------------------------------------------------------------------------


def test_create_a_game_with_a_name_players_and_a_limit() -> None:
    s = Sheet(Settings("Friday", limit=300), ["Ann", "Bob"])
    assert s.settings.name == "Friday"
    assert s.limit == 300
    assert [p.name for p in s.players] == ["Ann", "Bob"]
    assert s.totals() == {0: 0, 1: 0}


def test_500_is_the_usual_limit_and_300_and_1000_are_offered() -> None:
    assert DEFAULT_LIMIT == 500
    assert Settings("x").limit == 500
    assert LIMIT_PRESETS == (300, 500, 1000)


def test_any_other_limit_within_bounds_may_be_chosen() -> None:
    assert Settings("x", limit=750).limit == 750
    for bad in (0, -500, 9, 100_001):
        with pytest.raises(IllegalAction) as err:
            Settings("x", limit=bad)
        assert err.value.code == "bad_limit"
    with pytest.raises(IllegalAction):
        Settings("x", limit="500")  # type: ignore[arg-type]


def test_a_game_needs_two_or_more_players() -> None:
    with pytest.raises(IllegalAction) as err:
        Sheet(Settings("x"), ["Solo"])
    assert err.value.code == "too_few_players"
    assert len(Sheet(Settings("x"), ["A", "B"]).players) == 2


def test_names_are_required_and_unique() -> None:
    with pytest.raises(IllegalAction) as err:
        Settings("   ")
    assert err.value.code == "empty_sheet_name"
    for players, code in (
        (["Ann", " "], "empty_player_name"),
        (["Ann", "ann"], "duplicate_name"),
        (["Ann", "B" * 31], "player_name_too_long"),
    ):
        with pytest.raises(IllegalAction) as err:
            Sheet(Settings("x"), players)
        assert err.value.code == code


# -- After each round ----------------------------------------------------------------------


def test_after_each_round_every_player_enters_the_hand_sum_and_totals_add_up() -> None:
    s = sheet()
    s.apply(EnterRound.of({0: 12, 1: 30, 2: 0}, went_out=2))
    s.apply(EnterRound.of({0: 8, 1: 0, 2: 45}, went_out=1))
    assert s.totals() == {0: 20, 1: 30, 2: 45}
    assert [r.number for r in s.rounds] == [1, 2]


def test_the_player_who_went_out_gets_zero() -> None:
    s = sheet()
    s.apply(EnterRound.of({0: 0, 1: 14, 2: 22}, went_out=0))
    assert s.rounds[0].went_out == 0
    assert s.rounds[0].points(0) == 0
    refused("went_out_with_points", s, EnterRound.of({0: 3, 1: 14, 2: 22}, went_out=0))


def test_a_credit_for_hand_romme_is_a_negative_number() -> None:
    s = sheet()
    s.apply(EnterRound.of({0: -100, 1: 50, 2: 61}, went_out=0))
    assert s.total(0) == -100
    assert s.standings()[0].name == "Ann"


def test_the_sheet_does_not_check_the_cards() -> None:
    # Any whole number within bounds is accepted; the table knows which values apply.
    s = sheet(limit=1000)
    s.apply(EnterRound.of({0: 1, 1: 999, 2: 7}))
    assert s.totals() == {0: 1, 1: 999, 2: 7}


def test_an_entry_is_a_whole_number_within_sane_bounds() -> None:
    s = sheet()
    for value in (POINTS_MIN - 1, POINTS_MAX + 1):
        refused("points_out_of_bounds", s, EnterRound.of({0: value, 1: 0, 2: 3}))
    refused("points_out_of_bounds", s, EnterRound.of({0: 2.5, 1: 0, 2: 3}))  # type: ignore[dict-item]
    refused("points_out_of_bounds", s, EnterRound.of({0: True, 1: 0, 2: 3}))
    s.apply(EnterRound.of({0: POINTS_MIN, 1: POINTS_MAX, 2: 0}))


def test_at_most_one_player_went_out_per_round() -> None:
    s = sheet()
    two_out = EnterRound(((0, Entry(0, True)), (1, Entry(0, True)), (2, Entry(5))))
    refused("several_went_out", s, two_out)
    s.apply(EnterRound.of({0: 4, 1: 9, 2: 5}))  # nobody went out: the stock ran out
    assert s.rounds[0].went_out is None


def test_every_active_player_is_entered_before_the_round_is_closed() -> None:
    s = sheet()
    refused("missing_entries", s, EnterRound.of({0: 4, 1: 0}, went_out=1))
    refused("unknown_player", s, EnterRound.of({0: 4, 1: 0, 2: 1, 7: 3}))
    s.apply(Leave(2))
    refused("player_not_in_round", s, EnterRound.of({0: 4, 1: 0, 2: 1}))
    s.apply(EnterRound.of({0: 4, 1: 0}, went_out=1))


# -- Points are bad ------------------------------------------------------------------------


def test_whoever_reaches_the_limit_has_lost_and_the_game_is_over() -> None:
    s = sheet(limit=100)
    s.apply(EnterRound.of({0: 99, 1: 0, 2: 50}, went_out=1))
    assert not s.is_over
    s.apply(EnterRound.of({0: 1, 1: 0, 2: 20}, went_out=1))  # exactly 100: reached
    assert s.is_over
    assert s.losers == [0]
    assert [x.has_lost for x in s.standings()] == [False, False, True]
    refused("game_over", s, EnterRound.of({0: 1, 1: 0, 2: 2}, went_out=1))
    refused("game_over", s, Join("Dana"))
    refused("game_over", s, Leave(1))


def test_the_fewest_points_win_and_equal_totals_share_the_place() -> None:
    s = sheet("Ann", "Bob", "Cleo", "Dan")
    s.apply(EnterRound.of({0: 20, 1: 10, 2: 10, 3: 0}, went_out=3))
    places = [(x.place, x.name, x.total) for x in s.standings()]
    assert places == [(1, "Dan", 0), (2, "Bob", 10), (2, "Cleo", 10), (4, "Ann", 20)]


def test_the_distance_to_the_limit_is_always_known() -> None:
    s = sheet(limit=300)
    s.apply(EnterRound.of({0: 20, 1: 0, 2: -100}, went_out=1))
    assert {x.name: x.distance for x in s.standings()} == {"Ann": 280, "Bob": 300, "Cleo": 400}


# -- Players join and leave ----------------------------------------------------------------


def test_a_joining_player_starts_at_the_current_highest_total_by_default() -> None:
    s = sheet()
    s.apply(EnterRound.of({0: 20, 1: 0, 2: 35}, went_out=1))
    s.apply(Join("Dana"))
    dana = s.players[3]
    assert (dana.start_total, dana.first_round) == (35, 2)
    assert s.total(3) == 35
    assert Join("x").start is Start.HIGHEST


def test_a_joining_player_may_start_at_zero() -> None:
    s = sheet()
    s.apply(EnterRound.of({0: 20, 1: 0, 2: 35}, went_out=1))
    s.apply(Join("Dana", Start.ZERO))
    assert s.total(3) == 0
    s.apply(EnterRound.of({0: 2, 1: 0, 2: 5, 3: 9}, went_out=1))
    assert s.total(3) == 9
    assert s.rounds[0].points(3) is None


def test_the_highest_total_counts_only_players_still_playing() -> None:
    s = sheet()
    s.apply(EnterRound.of({0: 20, 1: 0, 2: 90}, went_out=1))
    s.apply(Leave(2))
    s.apply(Join("Dana"))
    assert s.players[3].start_total == 20


def test_a_joining_name_must_be_new() -> None:
    s = sheet()
    refused("duplicate_name", s, Join(" ann "))
    refused("empty_player_name", s, Join(""))


def test_a_leaving_player_keeps_the_total_and_ranks_behind_those_who_played_on() -> None:
    s = sheet()
    s.apply(EnterRound.of({0: 50, 1: 0, 2: 5}, went_out=1))
    s.apply(Leave(1))
    s.apply(EnterRound.of({0: 60, 2: 0}, went_out=2))
    assert s.total(1) == 0
    ranking = [(x.place, x.name, x.has_left) for x in s.standings()]
    assert ranking == [(1, "Cleo", False), (2, "Ann", False), (3, "Bob", True)]
    assert s.players[1].last_round == 1


def test_leavers_share_places_only_among_themselves() -> None:
    s = sheet("A", "B", "C", "D", "E")
    s.apply(EnterRound.of({0: 10, 1: 10, 2: 10, 3: 10, 4: 0}, went_out=4))
    s.apply(Leave(0))
    s.apply(Leave(1))
    assert [(x.place, x.name) for x in s.standings()] == [
        (1, "E"),
        (2, "C"),
        (2, "D"),
        (4, "A"),
        (4, "B"),
    ]


def test_a_player_cannot_leave_twice_and_two_players_must_remain() -> None:
    s = sheet()
    s.apply(Leave(0))
    refused("player_already_left", s, Leave(0))
    refused("too_few_players", s, Leave(1))
    refused("unknown_player", s, Leave(9))


# -- Corrections and history ---------------------------------------------------------------


def test_every_round_can_be_corrected_later() -> None:
    s = sheet()
    s.apply(EnterRound.of({0: 12, 1: 0, 2: 30}, went_out=1))
    s.apply(EnterRound.of({0: 0, 1: 4, 2: 8}, went_out=0))
    s.apply(CorrectRound.of(1, {0: 21, 1: 0, 2: 30}, went_out=1))
    assert s.totals() == {0: 21, 1: 4, 2: 38}
    assert s.rounds[0].corrections == 1
    s.apply(CorrectRound.of(1, {0: 21, 1: 3, 2: 0}, went_out=2))  # who went out changes too
    assert s.rounds[0].went_out == 2


def test_a_correction_covers_exactly_the_players_of_that_round() -> None:
    s = sheet()
    s.apply(EnterRound.of({0: 12, 1: 0, 2: 30}, went_out=1))
    s.apply(Leave(2))
    s.apply(Join("Dana"))
    # Cleo played round 1 and is corrected there even after leaving; Dana did not play it.
    s.apply(CorrectRound.of(1, {0: 12, 1: 0, 2: 25}, went_out=1))
    refused("player_not_in_round", s, CorrectRound.of(1, {0: 1, 1: 0, 2: 2, 3: 4}))
    refused("missing_entries", s, CorrectRound.of(1, {0: 1, 1: 0}))
    refused("unknown_round", s, CorrectRound.of(2, {0: 1, 1: 0, 3: 2}))
    refused("unknown_round", s, CorrectRound.of(0, {0: 1, 1: 0, 2: 2}))


def test_a_correction_may_end_or_reopen_the_game_at_the_last_round() -> None:
    s = sheet(limit=100)
    s.apply(EnterRound.of({0: 60, 1: 0, 2: 10}, went_out=1))
    s.apply(EnterRound.of({0: 50, 1: 0, 2: 10}, went_out=1))
    assert s.is_over
    s.apply(CorrectRound.of(2, {0: 5, 1: 0, 2: 10}, went_out=1))  # a typo: 5, not 50
    assert not s.is_over
    s.apply(EnterRound.of({0: 40, 1: 0, 2: 10}, went_out=1))
    assert s.is_over


def test_a_correction_cannot_make_someone_reach_the_limit_before_the_last_round() -> None:
    s = sheet(limit=100)
    s.apply(EnterRound.of({0: 60, 1: 0, 2: 10}, went_out=1))
    s.apply(EnterRound.of({0: 20, 1: 0, 2: 10}, went_out=1))
    refused("correction_ends_game_early", s, CorrectRound.of(1, {0: 100, 1: 0, 2: 10}, 1))


def test_the_history_shows_every_round_and_who_went_out() -> None:
    s = sheet()
    s.apply(EnterRound.of({0: 12, 1: 0, 2: 30}, went_out=1))
    s.apply(EnterRound.of({0: 3, 1: 4, 2: 8}))
    history = s.to_json()["rounds"]
    assert [r["number"] for r in history] == [1, 2]
    assert [e for e in history[0]["entries"] if e.get("out")] == [{"p": 1, "v": 0, "out": True}]
    assert not any(e.get("out") for e in history[1]["entries"])


# -- Records -------------------------------------------------------------------------------


def test_actions_round_trip_through_json() -> None:
    for action in (
        EnterRound.of({0: 3, 1: 0, 2: -100}, went_out=2),
        CorrectRound.of(3, {0: 1, 1: 2}),
        Join("Eve", Start.ZERO),
        Join("Ève"),
        Leave(1),
    ):
        assert action_from_json(action.to_json()) == action


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"t": "dance"},
        {"t": "round", "entries": "x"},
        {"t": "round", "entries": [{"p": "0", "v": 1}]},
        {"t": "round", "entries": [{"p": 0, "v": "1"}]},
        {"t": "round", "entries": [{"p": 0, "v": 1, "out": "yes"}]},
        {"t": "correct", "round": "1", "entries": []},
        {"t": "join", "name": 5},
        {"t": "join", "name": "A", "start": "lowest"},
        {"t": "leave", "player": True},
    ],
)
def test_garbage_actions_are_refused(data: object) -> None:
    with pytest.raises(IllegalAction) as err:
        action_from_json(data)
    assert err.value.code == "bad_action"


def test_duplicate_entries_are_refused() -> None:
    data = {"t": "round", "entries": [{"p": 0, "v": 1}, {"p": 0, "v": 2}]}
    with pytest.raises(IllegalAction) as err:
        action_from_json(data)
    assert err.value.code == "duplicate_entry"


names = st.sampled_from(["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn", "Gus", "Hal"])


@st.composite
def actions(draw: st.DrawFn, s: Sheet) -> object:
    kind = draw(st.sampled_from(["round", "round", "round", "correct", "join", "leave"]))
    if kind == "join":
        return Join(draw(names), draw(st.sampled_from(list(Start))))
    if kind == "leave":
        return Leave(draw(st.integers(0, len(s.players))))
    if kind == "correct" and s.rounds:
        rnd = draw(st.sampled_from(s.rounds))
        players = [p for p, _ in rnd.entries]
    else:
        rnd = None
        players = [p.id for p in s.active_players]
    points = {p: draw(st.integers(-120, 160)) for p in players}
    out = draw(st.none() | st.sampled_from(players))
    if out is not None:
        points[out] = min(points[out], 0)
    if rnd is not None:
        return CorrectRound.of(rnd.number, points, out)
    return EnterRound.of(points, out)


@given(st.data())
def test_random_sheets_replay_to_the_same_state_and_refusals_change_nothing(
    data: st.DataObject,
) -> None:
    s = Sheet(Settings("Prop", limit=data.draw(st.sampled_from([100, 300, 500]))), ["A", "B"])
    for _ in range(data.draw(st.integers(0, 25))):
        action = data.draw(actions(s))
        before = s.to_json()
        try:
            s.apply(action)  # type: ignore[arg-type]
        except IllegalAction:
            assert s.to_json() == before
        # The totals are the starting totals plus every round; places never skip a tie.
        for p in s.players:
            assert s.total(p.id) == p.start_total + sum(r.points(p.id) or 0 for r in s.rounds)
        standings = s.standings()
        assert sorted(x.player for x in standings) == [p.id for p in s.players]
        played_on = [x for x in standings if not x.has_left]
        assert all(not x.has_left for x in standings[: len(played_on)])
        assert all(a.total <= b.total for a, b in itertools.pairwise(played_on))
    assert replay(s.record()).to_json() == s.to_json()
