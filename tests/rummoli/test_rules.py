"""Spec, "Material" and the options: defaults, validation, presets, JSON."""

from __future__ import annotations

from typing import Any

import pytest

from rummykit.core import IllegalAction
from rummykit.rummoli import BOXES, PAYING_CARDS, Box, Rules
from rummykit.rummoli.rules import PRESETS, board_from_json, board_to_json


def test_the_defaults_are_the_spec_defaults() -> None:
    rules = Rules()
    assert rules.starting_chips == 40
    assert rules.widow_payers_barred is False
    assert rules.poker == "showdown" and rules.max_bet == 5
    assert rules.combos == "strict"
    assert rules.hands is None and rules.final_split == "poker"


def test_the_board_has_nine_boxes_five_of_them_paying_cards() -> None:
    assert len(BOXES) == 9
    assert [c.code for c in PAYING_CARDS.values()] == ["10♠", "J♦", "Q♣", "K♥", "A♠"]
    assert Box.RUMMOLI in BOXES and Box.POKER in BOXES
    assert [b.slot for b in BOXES] == list(range(9))


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("starting_chips", 8),
        ("starting_chips", "40"),
        ("widow_payers_barred", 1),
        ("poker", "draw"),
        ("max_bet", 0),
        ("max_bet", True),
        ("combos", "any"),
        ("hands", 0),
        ("hands", 2.5),
        ("final_split", "coin"),
    ],
)
def test_invalid_options_are_refused_with_the_field(field: str, value: Any) -> None:
    with pytest.raises(IllegalAction) as err:
        Rules(**{field: value})
    assert err.value.code == "bad_rules" and err.value.params["field"] == field


def test_presets_and_json_round_trip() -> None:
    for name in PRESETS:
        rules = Rules.preset(name)
        assert Rules.from_json(rules.to_json()) == rules
    assert Rules.preset("demo") == Rules(poker="showdown", combos="strict")
    assert Rules.preset("house").widow_payers_barred
    with pytest.raises(IllegalAction):
        Rules.preset("casino")


def test_json_refuses_unknown_options_and_non_objects() -> None:
    with pytest.raises(IllegalAction) as err:
        Rules.from_json({"jokers": 2})
    assert err.value.params["reason"] == "unknown_option"
    with pytest.raises(IllegalAction):
        Rules.from_json([])
    assert Rules.from_json({}) == Rules()
    assert Rules().replace(hands=5).hands == 5


def test_two_to_eight_players() -> None:
    assert [Rules.check_players(n) for n in range(2, 9)] == list(range(2, 9))
    for bad in (1, 9, 4.0):
        with pytest.raises(IllegalAction):
            Rules.check_players(bad)


def test_boards_read_and_write_by_box_name() -> None:
    board = board_from_json({"rummoli": 5, "poker": 1})
    assert board[Box.RUMMOLI.slot] == 5 and sum(board) == 6
    assert board_from_json(board_to_json(board)) == board
    for bad in ({"pot": 1}, {"poker": -1}, {"poker": "1"}, [1, 2]):
        with pytest.raises(IllegalAction) as err:
            board_from_json(bad)
        assert err.value.code == "bad_board"
