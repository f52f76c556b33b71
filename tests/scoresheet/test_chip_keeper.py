"""The Rummoli chip keeper (spec: Rummoli, chips and the board): chips only move, every change is
logged and can be undone, and the most chips win."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummykit.core import IllegalAction
from rummykit.rummoli import BOXES, Box
from rummykit.scoresheet import (
    Ante,
    ChipKeeper,
    ChipSettings,
    Move,
    Undo,
    chip_action_from_json,
    is_chip_record,
    replay_chips,
)


def keeper(chips: int = 40, *names: str) -> ChipKeeper:
    return ChipKeeper(ChipSettings("Friday", chips), list(names or ("Ann", "Bob", "Cleo")))


def refused(code: str, k: ChipKeeper, action: object) -> None:
    before = k.to_json()
    with pytest.raises(IllegalAction) as err:
        k.apply(action)  # type: ignore[arg-type]
    assert err.value.code == code
    assert k.to_json() == before


def test_every_player_starts_with_the_chosen_chips_and_the_board_is_empty() -> None:
    k = keeper(30)
    assert k.chips == [30, 30, 30] and set(k.boxes.values()) == {0}
    assert ChipSettings("x").chips == 40


def test_the_ante_puts_one_chip_from_every_player_on_each_of_the_nine_boxes() -> None:
    k = keeper(40)
    k.apply(Ante())
    assert k.chips == [31, 31, 31] and all(k.boxes[b] == 3 for b in BOXES)


def test_a_player_who_cannot_pay_the_whole_ante_pays_nothing() -> None:
    k = keeper(10)
    k.apply(Move("p:0", "p:1", 2))  # Ann has 8 left: less than the nine chips of an ante
    k.apply(Ante())
    assert k.chips == [8, 3, 1] and k.boxes[Box.RUMMOLI] == 2


def test_a_box_is_won_and_a_player_pays_another() -> None:
    k = keeper()
    k.apply(Ante())
    k.apply(Move("box:queen_clubs", "p:2", 3))
    k.apply(Move("p:1", "p:2", 4))  # Bob pays Cleo one chip per card left
    assert k.chips == [31, 27, 38] and k.boxes[Box.QUEEN_CLUBS] == 0


def test_chips_are_never_created_or_lost() -> None:
    k = keeper(20)
    refused("not_enough_chips", k, Move("p:0", "box:poker", 21))
    refused("not_enough_chips", k, Move("box:poker", "p:0", 1))
    refused("same_place", k, Move("p:0", "p:0", 1))
    refused("unknown_place", k, Move("p:7", "box:poker", 1))
    refused("unknown_place", k, Move("p:0", "box:joker", 1))
    refused("bad_amount", k, Move("p:0", "box:poker", 0))


def test_every_change_can_be_undone_once_and_the_undo_is_logged() -> None:
    k = keeper()
    k.apply(Ante())
    k.apply(Move("box:poker", "p:0", 3))
    refused("cannot_undo", k, Undo(1))  # the poker box's chips of the ante are gone
    k.apply(Undo(2))
    k.apply(Undo(1))
    assert k.undone == {1, 2} and k.chips == [40, 40, 40]
    refused("already_undone", k, Undo(1))
    refused("cannot_undo_an_undo", k, Undo(3))
    refused("unknown_change", k, Undo(9))
    changes = k.to_json()["changes"]
    assert [c["t"] for c in changes] == ["ante", "move", "undo", "undo"]  # type: ignore[index,union-attr]


def test_an_undo_that_would_need_chips_no_longer_there_is_refused() -> None:
    k = keeper()
    k.apply(Move("p:0", "box:poker", 5))
    k.apply(Move("box:poker", "p:1", 5))
    refused("cannot_undo", k, Undo(1))
    k.apply(Undo(2))
    k.apply(Undo(1))
    assert k.chips == [40, 40, 40]


def test_the_most_chips_lead() -> None:
    k = keeper()
    k.apply(Move("p:0", "p:2", 5))
    assert k.leaders == [2]


def test_a_chip_keeper_replays_from_its_record() -> None:
    k = keeper(25)
    k.apply(Ante())
    k.apply(Move("box:rummoli", "p:1", 3))
    k.apply(Undo(2))
    record = k.record()
    assert is_chip_record(record)
    again = replay_chips(record)
    assert again.to_json() == k.to_json()
    for action in k.actions:
        assert chip_action_from_json(action.to_json()) == action


@given(
    st.lists(
        st.one_of(
            st.builds(Ante),
            st.builds(
                Move,
                st.sampled_from(["p:0", "p:1", "box:poker", "box:rummoli"]),
                st.sampled_from(["p:0", "p:1", "box:poker", "box:rummoli"]),
                st.integers(-2, 30),
            ),
            st.builds(Undo, st.integers(0, 12)),
        ),
        max_size=25,
    )
)
def test_whatever_happens_the_chips_add_up_and_none_is_negative(actions: list[object]) -> None:
    k = keeper(20, "Ann", "Bob")
    for action in actions:
        with contextlib.suppress(IllegalAction):
            k.apply(action)  # type: ignore[arg-type]
        assert k.total() == 40
        assert min(k.chips) >= 0 and min(k.boxes.values()) >= 0
    assert replay_chips(k.record()).to_json() == k.to_json()
