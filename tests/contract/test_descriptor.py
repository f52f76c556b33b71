"""What `core.describe` reads from an engine, and the kinds every action is stored under."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any

import pytest

from rummykit import romme, rummoli, tiles
from rummykit.core import Computers, GameDescriptor, GameState, describe
from rummykit.core.codec import EncodedAction, action

from . import toy

KINDS = {
    "romme": {"draw", "discard", "next_round", "play"},
    "rummoli": {
        "swap_widow",
        "keep_hand",
        "bid",
        "pass",
        "check",
        "bet",
        "call",
        "raise",
        "fold",
        "play",
    },
    "tiles": {"draw", "play", "next_round"},
}
"""The kinds records hold: a stored game of any earlier version must still read."""


@pytest.mark.parametrize("game", [romme.GAME, rummoli.GAME, tiles.GAME], ids=lambda g: g.name)
def test_every_action_keeps_the_kind_records_hold(game: GameDescriptor[Any, Any, Any, Any]) -> None:
    assert {kind.t for kind in game.action_types} == KINDS[game.name]


def test_the_kind_is_the_class_name_in_snake_case_and_the_action_is_frozen() -> None:
    @action
    class TakeBackJoker(EncodedAction):
        codec = romme.actions.CODEC
        set_index: int

    taken = TakeBackJoker(3)
    assert TakeBackJoker.t == "take_back_joker"
    assert taken.to_json() == {"t": "take_back_joker", "set_index": 3}
    assert str(taken) == "take_back_joker 3" and repr(taken) == "TakeBackJoker(3)"
    with pytest.raises(FrozenInstanceError):
        taken.set_index = 4  # type: ignore[misc]


def test_the_descriptor_takes_the_types_the_state_declares() -> None:
    assert (romme.GAME.rules_type, romme.GAME.view_type) == (romme.Rules, romme.View)
    assert set(tiles.GAME.action_types) == {tiles.Draw, tiles.Play, tiles.NextRound}
    assert (rummoli.GAME.min_players, rummoli.GAME.max_players) == rummoli.Rules.PLAYERS
    assert romme.GAME.presets == romme.Rules.PRESETS and romme.GAME.default_level == "medium"
    assert toy.GAME.action_types == (toy.PlayCard,)


def test_a_state_that_does_not_name_its_types_is_refused() -> None:
    class Vague(GameState):  # type: ignore[type-arg]
        game = "vague"

    computers = Computers(("random",), "random", toy.make_bot, toy.fallback_action)
    with pytest.raises(TypeError, match="Vague does not name its types"):
        describe(Vague, title="Vague", computers=computers, hint=None, parse_action=None)
