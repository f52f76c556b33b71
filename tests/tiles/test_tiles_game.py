"""The engine contract: actions and their notation, views, records, replay, the rework steps,
bots and the command line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from rummykit.cli import apps
from rummykit.core import IllegalAction, Record
from rummykit.tiles.actions import (
    Draw,
    NextRound,
    Play,
    action_from_json,
    parse_action,
    resolve_play,
)
from rummykit.tiles.bots import make_bot
from rummykit.tiles.game import State, replay
from rummykit.tiles.model import parse_table
from rummykit.tiles.rules import Rules, parse_tiles
from rummykit.tiles.turn import describe_rework
from rummykit.tiles.view import View

from .helpers import accepts, position


def test_actions_have_a_notation_whose_repr_round_trips() -> None:
    for action in (Draw(), NextRound(), Play.parse("play r1 r2 r3 | *(5) b5 k5")):
        assert eval(repr(action)) == action
        assert parse_action(str(action)) == action
        assert action_from_json(action.to_json()) == action
    assert Play.parse("play r1 r2 r3").to_json() == {"t": "play", "table": ["r1 r2 r3"]}
    with pytest.raises(IllegalAction):
        parse_action("fly")


def test_a_play_by_face_takes_the_table_copies_first_then_the_rack() -> None:
    table = parse_table("r5 r6 r7 | r5 b5 k5 | y1 y2 *(y3)")
    rack = parse_tiles("r8 y3 *#1")
    play = resolve_play("r5 r6 r7 r8 | r5 b5 k5 | y1 y2 y3 | k8 *(k9) *(k10)", table, rack)
    assert str(play) == "play r5 r6 r7 r8 | r5#1 b5 k5 | y1 y2 y3 | k8 *(k9) *#1(k10)"


def test_the_view_shows_the_own_rack_and_only_the_sizes_of_the_others() -> None:
    state = State(Rules(), 3, seed=4)
    view = state.view(1)
    assert view.rack == tuple(state.racks[1]) and view.rack_sizes == (7, 7, 7)
    assert view.pool_size == 85 and view.to_move == state.to_move and view.rules == Rules()
    data = json.dumps(view.to_json())
    for seat in (0, 2):
        shown = [t.code for t in state.racks[seat] if f'"{t.code}"' in data]
        starters = {e["tile"] for e in state.log if e["code"] == "starter_draw"}
        assert set(shown) <= starters  # tiles named only when shown at the starter draw
    assert State(Rules(), 3, seed=4).view(None).rack == ()


def test_a_draw_never_names_the_tile_but_the_drawer_sees_it() -> None:
    state = position(["r1", "k1"], pool="y9")
    state.apply(Draw())
    assert dict(state.log[-1]) == {"code": "draw", "seat": 0, "pool": len(state.pool)}
    assert state.view(0).last_drawn is not None and state.view(0).last_drawn.code == "y9"
    assert state.view(1).last_drawn is None


def test_views_round_trip_through_json() -> None:
    state = position(["r9 r10 r11 b1", "k1"], opened=[False, False])
    accepts(state, "r9 r10 r11")
    view = state.view(1)
    assert View.from_json(json.loads(json.dumps(view.to_json()))) == view


def test_a_record_replays_to_the_same_state() -> None:
    state = State(Rules(rounds=2, scoring="classic"), 2, seed=17)
    bots = [make_bot("random", 1), make_bot("random", 2)]
    for _ in range(40):
        seat = state.to_move if state.to_move is not None else 0
        state.apply(bots[seat].choose(state.view(seat)), seat)
    record = state.record(["Ann", "Bob"])
    assert Record.loads(record.dumps()) == record and record.game == "tiles"
    assert replay(record).dumps() == state.dumps()


def test_a_position_set_up_by_hand_has_no_record() -> None:
    with pytest.raises(IllegalAction) as caught:
        position(["r1", "k1"]).record()
    assert caught.value.code == "no_record"


def test_a_state_copy_is_independent() -> None:
    state = State(Rules(), 2, seed=3)
    twin = state.copy()
    twin.apply(Draw())
    assert state.dumps() != twin.dumps()
    state.apply(Draw())
    assert state.dumps() == twin.dumps()


def test_the_rework_is_told_as_steps() -> None:
    before = parse_table("r5 r6 r7 r8 r9 | b5 k5 y5 | k1 k2 k3")
    after = parse_table("r5 r6 r7 | r7#1 r8 r9 | b5 k5 y5 r5#1 | k1 k2 k3")
    steps = describe_rework(before, after, parse_tiles("r7#1 r5#1"))
    assert steps == [
        {"code": "laid", "tiles": "r7#1", "to": "r7#1 r8 r9"},
        {"code": "moved", "tiles": "r8 r9", "from": "r5 r6 r7 r8 r9", "to": "r7#1 r8 r9"},
        {"code": "laid", "tiles": "r5#1", "to": "b5 k5 y5 r5#1"},
        {"code": "set_changed", "before": "r5 r6 r7 r8 r9", "after": "r5 r6 r7"},
        {"code": "new_set", "set": "r7#1 r8 r9"},
        {"code": "set_changed", "before": "b5 k5 y5", "after": "b5 k5 y5 r5#1"},
    ]


def test_a_set_taken_apart_entirely_is_told() -> None:
    before = parse_table("r3 b3 k3 y3")
    after = parse_table("r1 r2 r3 | b3 b4 b5 | k3 k4 k5 | y3 y4 y5")
    steps = describe_rework(before, after, parse_tiles("r1 r2 b4 b5 k4 k5 y4 y5"))
    assert [s["code"] for s in steps].count("moved") == 3
    assert {"code": "new_set", "set": "b3 b4 b5"} in steps


def test_make_bot_knows_random_and_refuses_others() -> None:
    assert make_bot("random", 1).choose(State(Rules(), 2, seed=1).view(0)) is not None
    with pytest.raises(IllegalAction) as caught:
        make_bot("genius", 1)
    assert caught.value.code == "bad_bot"


def test_the_random_bot_makes_the_first_meld_when_it_can() -> None:
    state = position(["r10 r11 r12 b1 y5", "k1"], opened=[False, False])
    bot = make_bot("random", 0)
    actions = {type(bot.choose(state.view(0))).__name__ for _ in range(30)}
    assert actions == {"Play", "Draw"}


def test_simulate_tiles_prints_per_seat_results_as_json() -> None:
    import rummykit.cli.tiles  # noqa: F401  (attaches the command)

    runner = CliRunner()
    args = ["simulate", "tiles", "--players", "3", "--bots", "random,random,random"]
    result = runner.invoke(apps.app, [*args, "--rounds", "2", "--seed", "5", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rounds_played"] == 2 and len(data["seats"]) == 3
    assert data["seats"][0].keys() >= {"seat", "bot", "total", "games_won", "rounds_won"}
    again = runner.invoke(apps.app, [*args, "--rounds", "2", "--seed", "5", "--json"])
    assert json.loads(again.output) == data
    bad = runner.invoke(apps.app, ["simulate", "tiles", "--players", "3", "--bots", "a,b"])
    assert bad.exit_code == 2
