"""How a game on the sheet ends (spec: Rommé scoring and end of game; the score sheet).

Chosen when the sheet is created: whoever reaches the limit loses (the German club rule), whoever
goes over it loses (the French and Spanish rules), or a fixed number of rounds is played. The
lowest total wins; equal lowest totals share the victory.
"""

from __future__ import annotations

import pytest

from rummykit.core import IllegalAction, Record
from rummykit.scoresheet import (
    ROUNDS_MAX,
    ROUNDS_MIN,
    CorrectRound,
    End,
    EnterRound,
    Join,
    Leave,
    Settings,
    Sheet,
    replay,
)


def refused(code: str, s: Sheet, action: object) -> None:
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        s.apply(action)  # type: ignore[arg-type]
    assert err.value.code == code
    assert s.to_json() == before


def over_the_limit(limit: int = 100) -> Sheet:
    return Sheet(Settings("Test", limit=limit, end=End.EXCEED), ["Ann", "Bob", "Cleo"])


def rounds(n: int, *names: str) -> Sheet:
    return Sheet(Settings("Test", end=End.ROUNDS, rounds=n), list(names or ("Ann", "Bob", "Cleo")))


# -- The limit: reached or exceeded --------------------------------------------------------


def test_reaching_the_limit_ends_the_game_unless_the_table_plays_over_the_limit() -> None:
    reach = Sheet(Settings("Test", limit=100), ["Ann", "Bob", "Cleo"])
    exceed = over_the_limit(100)
    for s in (reach, exceed):
        s.apply(EnterRound.of({0: 100, 1: 0, 2: 30}, went_out=1))
    assert reach.is_over and reach.losers == [0]
    assert not exceed.is_over and exceed.losers == []
    assert [x.distance for x in exceed.standings()] == [100, 70, 0]


def test_going_over_the_limit_loses_and_ends_the_game() -> None:
    s = over_the_limit(100)
    s.apply(EnterRound.of({0: 100, 1: 0, 2: 30}, went_out=1))
    s.apply(EnterRound.of({0: 1, 1: 0, 2: 5}, went_out=1))
    assert s.is_over
    assert s.losers == [0]
    assert [(x.name, x.has_lost) for x in s.standings()][-1] == ("Ann", True)
    refused("game_over", s, EnterRound.of({0: 1, 1: 0, 2: 2}, went_out=1))
    refused("game_over", s, Join("Dana"))


def test_a_correction_may_not_put_someone_over_the_limit_before_the_last_round() -> None:
    s = over_the_limit(100)
    s.apply(EnterRound.of({0: 60, 1: 0, 2: 30}, went_out=1))
    s.apply(EnterRound.of({0: 10, 1: 0, 2: 5}, went_out=1))
    s.check(CorrectRound.of(1, {0: 100, 1: 0, 2: 30}, 1))  # at the limit: still playing
    refused("correction_ends_game_early", s, CorrectRound.of(1, {0: 101, 1: 0, 2: 30}, 1))


# -- A fixed number of rounds --------------------------------------------------------------


def test_a_fixed_number_of_rounds_ends_the_game_after_the_last_one() -> None:
    s = rounds(2)
    s.apply(EnterRound.of({0: 400, 1: 0, 2: 30}, went_out=1))
    assert not s.is_over and s.rounds_left == 1
    s.apply(EnterRound.of({0: 700, 1: 5, 2: 0}, went_out=2))
    assert s.is_over and s.rounds_left == 0
    refused("game_over", s, EnterRound.of({0: 1, 1: 0, 2: 2}, went_out=1))
    refused("game_over", s, Leave(0))


def test_with_a_number_of_rounds_nobody_loses_by_points_and_there_is_no_limit() -> None:
    s = rounds(3)
    s.apply(EnterRound.of({0: 999, 1: 0, 2: 30}, went_out=1))
    assert s.limit is None
    assert s.losers == []
    assert all(x.distance is None and not x.has_lost for x in s.standings())


def test_the_number_of_rounds_is_a_whole_number_within_bounds() -> None:
    assert Settings("x", end=End.ROUNDS, rounds=ROUNDS_MIN).rounds == ROUNDS_MIN
    assert Settings("x", end=End.ROUNDS, rounds=ROUNDS_MAX).rounds == ROUNDS_MAX
    for bad in (None, 0, ROUNDS_MAX + 1, "5", True):
        with pytest.raises(IllegalAction) as err:
            Settings("x", end=End.ROUNDS, rounds=bad)  # type: ignore[arg-type]
        assert err.value.code == "bad_rounds"


def test_the_setting_that_does_not_apply_is_dropped() -> None:
    assert Settings("x", limit=300, end=End.ROUNDS, rounds=4).limit is None
    assert Settings("x", limit=300, end=End.EXCEED, rounds=4).rounds is None


def test_corrections_still_work_after_the_last_round() -> None:
    s = rounds(1)
    s.apply(EnterRound.of({0: 10, 1: 0, 2: 30}, went_out=1))
    s.apply(CorrectRound.of(1, {0: 0, 1: 10, 2: 30}, 0))
    assert s.is_over and s.winners == [0]


# -- The winners ---------------------------------------------------------------------------


def test_the_lowest_total_wins_once_the_game_is_over() -> None:
    s = rounds(1)
    s.apply(EnterRound.of({0: 10, 1: 0, 2: 30}, went_out=1))
    assert s.winners == [1]
    assert [(x.name, x.has_won) for x in s.standings()] == [
        ("Bob", True),
        ("Ann", False),
        ("Cleo", False),
    ]


def test_equal_lowest_totals_share_the_victory() -> None:
    s = rounds(1, "Ann", "Bob", "Cleo", "Dan")
    s.apply(EnterRound.of({0: 5, 1: 0, 2: 5, 3: 9}, went_out=1))
    s.apply(CorrectRound.of(1, {0: 0, 1: 5, 2: 0, 3: 9}, 0))
    assert s.winners == [0, 2]
    assert [(x.place, x.name) for x in s.standings() if x.has_won] == [(1, "Ann"), (1, "Cleo")]


def test_nobody_has_won_before_the_game_is_over() -> None:
    s = over_the_limit(100)
    s.apply(EnterRound.of({0: 50, 1: 0, 2: 30}, went_out=1))
    assert s.winners == []
    assert not any(x.has_won for x in s.standings())


def test_a_player_who_left_does_not_win_even_with_the_lowest_total() -> None:
    s = rounds(2, "Ann", "Bob", "Cleo")
    s.apply(EnterRound.of({0: -100, 1: 10, 2: 20}, went_out=0))
    s.apply(Leave(0))
    s.apply(EnterRound.of({1: 0, 2: 5}, went_out=1))
    assert s.winners == [1]


def test_when_several_lose_in_one_round_the_lowest_total_still_wins() -> None:
    s = over_the_limit(100)
    s.apply(EnterRound.of({0: 150, 1: 120, 2: 0}, went_out=2))
    assert s.losers == [0, 1] and s.winners == [2]


# -- Records -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "stored"),
    [
        (Settings("x", 300), {"name": "x", "limit": 300}),
        (Settings("x", 300, End.EXCEED), {"name": "x", "limit": 300, "end": "exceed"}),
        (
            Settings("x", end=End.ROUNDS, rounds=8),
            {"name": "x", "limit": None, "end": "rounds", "rounds": 8},
        ),
    ],
)
def test_how_the_game_ends_is_part_of_the_record(
    settings: Settings, stored: dict[str, object]
) -> None:
    assert settings.to_json() == stored
    assert Settings.from_json(settings.to_json()) == settings
    s = Sheet(settings, ["Ann", "Bob"])
    s.apply(EnterRound.of({0: 0, 1: 40}, went_out=0))
    again = replay(s.record())
    assert again.settings == settings and again.to_json() == s.to_json()


def test_an_unknown_ending_is_refused_when_replaying() -> None:
    record = Record("scoresheet", {"name": "x", "limit": 300, "end": "never"}, 0, ("A", "B"), ())
    with pytest.raises(IllegalAction) as err:
        replay(record)
    assert err.value.code == "bad_settings"
