"""Own-hand sheets: every player enters their own hand on their own phone.

A phone claims a player's name once; each entry is one hand of the open round; the round shows
who has entered and who is missing and closes by itself when everyone has; anyone may still enter
or correct any entry, and the log says who did.
"""

from __future__ import annotations

import hashlib

import pytest

from rummykit.core import IllegalAction
from rummykit.scoresheet import (
    Claim,
    CorrectRound,
    EnterHand,
    EnterRound,
    Join,
    Leave,
    Settings,
    Sheet,
    action_from_json,
    replay,
)


def key(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def own(*names: str, **settings: object) -> Sheet:
    s = Sheet(Settings("Test", own_hands=True, **settings), list(names or ("Ann", "Bob", "Cleo")))  # type: ignore[arg-type]
    for player in range(len(s.players)):
        s.apply(Claim(player, key(f"phone-{player}")))
    return s


def refused(code: str, s: Sheet, action: object) -> None:
    before = s.to_json()
    with pytest.raises(IllegalAction) as err:
        s.apply(action)  # type: ignore[arg-type]
    assert err.value.code == code
    assert s.to_json() == before


def test_a_phone_claims_a_name_once() -> None:
    s = Sheet(Settings("Test", own_hands=True), ["Ann", "Bob"])
    s.apply(Claim(0, key("a")))
    assert s.claimed == [0] and s.claim_key(0) == key("a") and s.claim_key(1) is None
    refused("already_claimed", s, Claim(0, key("b")))
    refused("unknown_player", s, Claim(5, key("b")))
    refused("bad_action", s, Claim(1, "not a hash"))


def test_the_sheet_shows_no_claim_key() -> None:
    s = own()
    assert key("phone-0") not in str(s.to_json())
    assert s.to_json()["claimed"] == [0, 1, 2]


def test_each_player_enters_their_own_hand_and_the_round_shows_who_is_missing() -> None:
    s = own()
    assert s.waiting_for == [0, 1, 2]
    s.apply(EnterHand(1, 25, round=1, by=1))
    assert s.waiting_for == [0, 2] and s.rounds == []
    s.apply(EnterHand(0, 0, went_out=True, round=1, by=0))
    assert s.waiting_for == [2]
    assert s.to_json()["pending"] == [{"p": 0, "v": 0, "out": True}, {"p": 1, "v": 25}]


def test_the_round_closes_by_itself_when_every_player_has_entered() -> None:
    s = own()
    s.apply(EnterHand(1, 25, round=1, by=1))
    s.apply(EnterHand(0, 0, went_out=True, round=1, by=0))
    s.apply(EnterHand(2, 40, round=1, by=2))
    assert len(s.rounds) == 1 and s.rounds[0].went_out == 0
    assert s.totals() == {0: 0, 1: 25, 2: 40}
    assert s.pending == {} and s.waiting_for == [0, 1, 2] and s.next_round == 2


def test_anyone_can_correct_an_entry_of_the_open_round_and_it_is_logged() -> None:
    s = own()
    s.apply(EnterHand(1, 52, round=1, by=1))
    s.apply(EnterHand(1, 25, round=1, by=0))  # Ann saw Bob's typo and fixed it
    s.apply(EnterHand(2, 4, round=1))  # from a phone that claimed nobody
    assert s.pending[1].points == 25 and s.pending_by == {1: 0, 2: None}
    assert [a for a in s.actions if isinstance(a, EnterHand)] == [
        EnterHand(1, 52, round=1, by=1),
        EnterHand(1, 25, round=1, by=0),
        EnterHand(2, 4, round=1),
    ]


def test_a_closed_round_is_corrected_like_any_other() -> None:
    s = own("Ann", "Bob")
    s.apply(EnterHand(0, 0, went_out=True, round=1, by=0))
    s.apply(EnterHand(1, 30, round=1, by=1))
    s.apply(CorrectRound.of(1, {0: 0, 1: 3}, went_out=0))
    assert s.totals() == {0: 0, 1: 3}


def test_an_entry_for_a_round_already_closed_is_refused() -> None:
    s = own("Ann", "Bob")
    s.apply(EnterHand(0, 0, went_out=True, round=1, by=0))
    s.apply(EnterHand(1, 30, round=1, by=1))
    refused("round_closed", s, EnterHand(1, 31, round=1, by=1))


def test_only_one_player_goes_out_in_a_round() -> None:
    s = own()
    s.apply(EnterHand(0, 0, went_out=True, round=1, by=0))
    refused("several_went_out", s, EnterHand(1, 0, went_out=True, round=1, by=1))
    s.apply(EnterHand(0, 0, went_out=True, round=1, by=0))  # the same player again is fine
    refused("went_out_with_points", s, EnterHand(2, 5, went_out=True, round=1, by=2))
    refused("points_out_of_bounds", s, EnterHand(2, 5000, round=1, by=2))


def test_an_entry_by_a_phone_that_claimed_no_player_names_nobody() -> None:
    s = Sheet(Settings("Test", own_hands=True), ["Ann", "Bob"])
    refused("unknown_player", s, EnterHand(0, 3, round=1, by=1))  # Bob has no phone yet
    s.apply(EnterHand(0, 3, round=1))


def test_entering_the_whole_round_at_once_still_works() -> None:
    s = own()
    s.apply(EnterHand(1, 25, round=1, by=1))
    s.apply(EnterRound.of({0: 0, 1: 20, 2: 40}, went_out=0))
    assert s.totals() == {0: 0, 1: 20, 2: 40} and s.pending == {}


def test_a_player_who_joins_is_waited_for_and_one_who_leaves_is_not() -> None:
    s = own()
    s.apply(EnterHand(0, 10, round=1, by=0))
    s.apply(Join("Dana"))
    assert s.waiting_for == [1, 2, 3]
    s.apply(EnterHand(1, 0, went_out=True, round=1, by=1))
    s.apply(EnterHand(3, 7, round=1))
    s.apply(Leave(2))  # Cleo leaves before entering: the round is complete without her
    assert len(s.rounds) == 1 and s.rounds[0].points(2) is None
    assert s.totals()[3] == 7


def test_a_leaver_s_pending_entry_is_dropped() -> None:
    s = own()
    s.apply(EnterHand(2, 10, round=1, by=2))
    s.apply(Leave(2))
    assert s.pending == {} and s.waiting_for == [0, 1]
    refused("player_already_left", s, EnterHand(2, 10, round=1, by=2))


def test_own_hands_are_only_for_sheets_made_for_them() -> None:
    s = Sheet(Settings("Test"), ["Ann", "Bob"])
    refused("not_own_hands", s, Claim(0, key("a")))
    refused("not_own_hands", s, EnterHand(0, 3, round=1))


def test_the_game_ends_as_chosen_with_own_hands_too() -> None:
    s = own("Ann", "Bob", limit=100)
    s.apply(EnterHand(0, 0, went_out=True, round=1, by=0))
    s.apply(EnterHand(1, 100, round=1, by=1))
    assert s.is_over and s.winners == [0]
    refused("game_over", s, EnterHand(1, 1, round=2, by=1))


def test_claims_and_hands_round_trip_and_replay() -> None:
    s = own()
    s.apply(EnterHand(1, 25, round=1, by=1))
    s.apply(EnterHand(0, -100, went_out=True, round=1, by=2))
    for action in s.actions:
        assert action_from_json(action.to_json()) == action
    again = replay(s.record())
    assert again.to_json() == s.to_json() and again.pending_by == s.pending_by
    assert again.settings.own_hands


@pytest.mark.parametrize(
    "data",
    [
        {"t": "claim", "player": 0},
        {"t": "claim", "player": "0", "key": "x"},
        {"t": "hand", "p": 0, "v": 1},
        {"t": "hand", "p": 0, "v": 1, "round": 1, "by": "me"},
        {"t": "hand", "p": 0, "v": 1, "round": 1, "out": 1},
    ],
)
def test_garbage_own_hand_actions_are_refused(data: object) -> None:
    with pytest.raises(IllegalAction) as err:
        action_from_json(data)  # type: ignore[arg-type]
    assert err.value.code == "bad_action"
