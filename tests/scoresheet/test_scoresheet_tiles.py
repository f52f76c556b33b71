"""The tile rummy sheet (spec: tile rummy, end of a round and scoring).

The leaflet's scoring: whoever empties the rack scores 0, the others add the tiles left (a joker
30: the table counts), and after the agreed rounds the lowest total wins. The classic scoring:
the others score their racks as a minus, the winner their sum as a plus; the highest total wins.
"""

from __future__ import annotations

import pytest

from rummykit.core import IllegalAction
from rummykit.scoresheet import (
    CorrectRound,
    End,
    EnterRound,
    Game,
    Scoring,
    Settings,
    Sheet,
    replay,
)


def leaflet(rounds: int = 2) -> Sheet:
    return Sheet(
        Settings("Tiles", None, End.ROUNDS, rounds, game=Game.TILES), ["Ann", "Bob", "Cleo"]
    )


def classic(rounds: int = 2) -> Sheet:
    settings = Settings(
        "Tiles", None, End.ROUNDS, rounds, game=Game.TILES, scoring=Scoring.PLUS_MINUS
    )
    return Sheet(settings, ["Ann", "Bob", "Cleo"])


def refused(code: str, s: Sheet, action: object) -> None:
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        s.apply(action)  # type: ignore[arg-type]
    assert err.value.code == code
    assert s.to_json() == before


def test_the_leaflet_adds_the_racks_left_and_the_lowest_total_wins() -> None:
    s = leaflet()
    s.apply(EnterRound.of({0: 0, 1: 42, 2: 30}, went_out=0))  # Cleo kept a joker: 30
    s.apply(EnterRound.of({0: 25, 1: 0, 2: 8}, went_out=1))
    assert s.totals() == {0: 25, 1: 42, 2: 38}
    assert s.is_over and s.winners == [0]
    assert [x.name for x in s.standings()] == ["Ann", "Cleo", "Bob"]


def test_the_classic_scoring_pays_the_winner_the_others_racks() -> None:
    s = classic()
    s.apply(EnterRound.of({0: 0, 1: 12, 2: 30}, went_out=0))
    assert s.totals() == {0: 42, 1: -12, 2: -30}
    assert s.rounds[0].points(0) == 42 and s.rounds[0].points(2) == -30
    s.apply(EnterRound.of({0: 5, 1: 0, 2: 7}, went_out=1))
    assert s.totals() == {0: 37, 1: 0, 2: -37}
    assert s.is_over and s.winners == [0]
    assert [x.name for x in s.standings()] == ["Ann", "Bob", "Cleo"]


def test_equal_highest_totals_share_the_classic_victory() -> None:
    s = classic(rounds=2)
    s.apply(EnterRound.of({0: 0, 1: 10, 2: 10}, went_out=0))
    s.apply(EnterRound.of({0: 10, 1: 0, 2: 30}, went_out=1))
    assert s.totals() == {0: 10, 1: 30, 2: -40}
    s.apply(CorrectRound.of(2, {0: 10, 1: 0, 2: 10}, went_out=1))
    assert s.totals() == {0: 10, 1: 10, 2: -20}
    assert s.winners == [0, 1]


def test_a_classic_round_needs_its_winner_and_racks_are_never_negative() -> None:
    s = classic()
    refused("missing_winner", s, EnterRound.of({0: 3, 1: 12, 2: 30}))
    refused("points_out_of_bounds", s, EnterRound.of({0: 0, 1: -12, 2: 30}, went_out=0))


def test_the_classic_scoring_is_a_tile_game_of_a_number_of_rounds() -> None:
    for settings, code in (
        (dict(limit=300, game=Game.TILES, scoring=Scoring.PLUS_MINUS), "plus_minus_needs_rounds"),
        (dict(end=End.ROUNDS, rounds=3, scoring=Scoring.PLUS_MINUS), "bad_settings"),
    ):
        with pytest.raises(IllegalAction) as err:
            Settings("x", **settings)  # type: ignore[arg-type]
        assert err.value.code == code


def test_a_tile_sheet_replays_from_its_record() -> None:
    s = classic()
    s.apply(EnterRound.of({0: 0, 1: 12, 2: 30}, went_out=0))
    s.apply(CorrectRound.of(1, {0: 0, 1: 2, 2: 30}, went_out=0))
    again = replay(s.record())
    assert again.settings == s.settings and again.to_json() == s.to_json()
    assert again.settings.to_json()["scoring"] == "plus_minus"
    assert s.to_json()["rounds"][0]["scores"] == [32, -2, -30]  # type: ignore[index]


def test_own_hands_on_a_classic_tile_sheet_wait_for_a_winner() -> None:
    from rummykit.scoresheet import EnterHand

    settings = Settings(
        "Tiles", None, End.ROUNDS, 2, own_hands=True, game=Game.TILES, scoring=Scoring.PLUS_MINUS
    )
    s = Sheet(settings, ["Ann", "Bob"])
    s.apply(EnterHand(1, 12, round=1))
    refused("missing_winner", s, EnterHand(0, 3, round=1))
    refused("points_out_of_bounds", s, EnterHand(0, -3, round=1))
    s.apply(EnterHand(0, 0, went_out=True, round=1))
    assert s.totals() == {0: 12, 1: -12}
