"""Bad input is refused with a specific code and the state, serialised whole, stays as it was."""

from __future__ import annotations

import json

import pytest

from rummykit.core import IllegalAction, Record
from rummykit.tiles.actions import Draw, Play, action_from_json
from rummykit.tiles.game import State, replay
from rummykit.tiles.model import JokerMeaning, TableSet
from rummykit.tiles.rules import Rules, parse_tiles
from rummykit.tiles.view import View

from .helpers import position, rejects

TABLE = "r5 r6 r7 r8 | b9 k9 y9 | y4 y5 y6 *(y7)"


def _state(opened: bool = True) -> State:
    return position(["r9 b1 b2 y7 k5 r4 *#1", "k1 k2 k3"], TABLE, opened=[opened, True])


def test_a_table_that_drops_a_tile() -> None:
    rejects(_state(), "r5 r6 r7 | b9 k9 y9 | y4 y5 y6 *(y7) | r9 b1 b2", "table_tile_missing")
    rejects(_state(), "r5 r6 r7 r8 r9 | b9 k9 y9", "table_tile_missing")


def test_a_set_of_two() -> None:
    state = _state()
    play = Play((*state.table, TableSet(tuple(parse_tiles("b1 b2")))))
    rejects(state, play, "set_too_small")


def test_a_duplicate_colour_in_a_group() -> None:
    state = position(["k9 r1", "k1"], "b9 k9 y9")
    play = Play((TableSet(tuple(parse_tiles("b9 k9 y9 k9#1"))),))
    rejects(state, play, "duplicate_colour_in_group")
    rejects(state, "b9 k9 y9 k9", "duplicate_colour_in_group")


def test_a_joker_kept_in_the_rack_after_retrieval() -> None:
    rejects(_state(), "r5 r6 r7 r8 | b9 k9 y9 | y4 y5 y6 y7", "joker_kept_in_rack")


def test_a_first_meld_using_table_tiles() -> None:
    state = _state(opened=False)
    rejects(state, "r5 r6 r7 r8 r9 | b9 k9 y9 | y4 y5 y6 *(y7)", "first_meld_uses_table")
    rejects(state, "r5 r6 r7 | r8 r9 *#1(r10) | b9 k9 y9 | y4 y5 y6 *(y7)", "first_meld_uses_table")


def test_the_same_tile_twice() -> None:
    state = _state()
    r9 = TableSet(tuple(parse_tiles("r9 b1 b2")))
    rejects(state, Play((*state.table, r9, r9)), "duplicate_tile")


def test_a_tile_of_another_rack_or_of_the_pool_or_of_no_set() -> None:
    state = _state()
    rejects(state, f"{TABLE} | k1 k2 k3", "tile_not_held")
    pool_tile = next(t for t in state.pool if not t.is_joker)
    rejects(state, Play((*state.table, TableSet((pool_tile,)))), "tile_not_held")
    outside = TableSet(tuple(parse_tiles("r12 r13 r14")))
    rejects(state, Play((*state.table, outside)), "tile_not_held")


def test_a_joker_said_to_stand_for_what_it_cannot() -> None:
    state = _state()
    bad = TableSet(tuple(parse_tiles("b1 b2 *#1")), (JokerMeaning(9, None),))
    rejects(state, Play((*state.table, bad)), "joker_meaning_mismatch")


def test_a_play_out_of_turn_and_a_bad_seat() -> None:
    state = _state()
    rejects(state, Draw(), "not_your_turn", seat=1)
    rejects(state, Draw(), "bad_seat", seat=7)
    rejects(state, "garbage", "bad_action")  # not even a tile


def test_something_that_is_not_an_action() -> None:
    state = _state()
    before = state.dumps()
    with pytest.raises(IllegalAction) as caught:
        state.apply("draw")  # type: ignore[arg-type]
    assert caught.value.code == "bad_action" and state.dumps() == before


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "draw",
        {},
        {"t": "fly"},
        {"t": "draw", "extra": 1},
        {"t": "play"},
        {"t": "play", "table": "r1 r2 r3"},
        {"t": "play", "table": [1, 2, 3]},
        {"t": "play", "table": ["r1 r2 x3"]},
        {"t": "play", "table": ["r1#1 r1#1 r2"]},
        {"t": "play", "table": ["r1 r2 r3"], "seat": 0},
    ],
)
def test_garbage_json_actions(data: object) -> None:
    with pytest.raises(IllegalAction) as caught:
        action_from_json(data)
    assert caught.value.code == "bad_action"


def test_garbage_json_records_and_views() -> None:
    for text in ("{", "[]", '{"game": "tiles"}', json.dumps({"game": "tiles", "rules": {}})):
        with pytest.raises(IllegalAction) as caught:
            Record.loads(text)
        assert caught.value.code in ("bad_json", "bad_record")
    good = State(Rules(), 2, seed=1)
    record = good.record()
    broken = Record("tiles", record.rules, 1, ["a", "b"], [{"t": "play", "table": [7]}])
    with pytest.raises(IllegalAction) as caught:
        replay(broken)
    assert caught.value.code == "bad_action"
    with pytest.raises(IllegalAction) as caught:
        replay(Record("romme", record.rules, 1, ["a", "b"], []))
    assert caught.value.code == "bad_record"
    data = good.view(0).to_json()
    for key in ("rack", "rules", "phase"):
        for value in (None, 7, "?"):
            with pytest.raises(IllegalAction) as caught:
                View.from_json({**data, key: value})
            assert caught.value.code in ("bad_view", "bad_rules")
