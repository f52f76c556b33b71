"""The greedy and hard computer players, mirror-paired matches, and the two commands."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import rummykit.cli.tiles  # noqa: F401 - attaches the tiles commands
from rummykit.bench.tiles_solver import large_puzzles, run
from rummykit.cli import apps
from rummykit.tiles import Draw, Play, State, View, solve
from rummykit.tiles.bot_hard import GreedyBot, HardBot
from rummykit.tiles.bots import make_bot
from rummykit.tiles.mirror import mirror_match


def test_greedy_lays_the_most_tiles() -> None:
    state = State.from_position(["r8 r9 b5 y1", "k1 k2"], "r5 r6 r7 | k5 y5 r5")
    action = GreedyBot(1).choose(state.view(0))
    assert isinstance(action, Play)
    state.apply(action)
    assert len(state.racks[0]) == 1  # r8 r9 b5 laid, y1 kept


def test_greedy_draws_when_nothing_fits() -> None:
    state = State.from_position(["r1 b9", "k1 k2"], "k5 k6 k7")
    assert GreedyBot(1).choose(state.view(0)) == Draw()


def test_greedy_makes_its_first_meld_as_soon_as_it_can() -> None:
    state = State.from_position(["r10 b10 k10 y2", "k1 k2"], "", opened=[False, False])
    action = GreedyBot(1).choose(state.view(0))
    assert isinstance(action, Play)
    state.apply(action)
    assert state.opened[0]
    below = State.from_position(["r9 b9 k9 y2", "k1 k2"], "", opened=[False, False])
    assert GreedyBot(1).choose(below.view(0)) == Draw()  # 27 < 30


def test_hard_goes_out_when_it_can() -> None:
    state = State.from_position(["r8 b5", "k1 k2 y3"], "r5 r6 r7 | k5 y5 r5")
    action = HardBot(1).choose(state.view(0))
    assert isinstance(action, Play)
    state.apply(action)
    assert state.phase != "play" or not state.racks[0]


def test_hard_keeps_its_joker_and_lays_the_naturals() -> None:
    state = State.from_position(["r4 * b1 k13", "k1 k2 k3 k4 y9 y10"], "r5 r6 r7")
    greedy = GreedyBot(1).choose(state.view(0))
    hard = HardBot(1).choose(state.view(0))
    assert isinstance(greedy, Play) and isinstance(hard, Play)
    laid = {t for s in hard.table for t in s.tiles} - {t for s in state.table for t in s.tiles}
    assert [t.code for t in laid] == ["r4"]  # greedy lays the joker too
    assert {t for s in greedy.table for t in s.tiles if t.is_joker}


def test_hard_draws_rather_than_lay_a_joker_alone() -> None:
    state = State.from_position(["* b1 k13", "k1 k2 k3 k4 y9 y10"], "r5 r6 r7")
    assert isinstance(GreedyBot(1).choose(state.view(0)), Play)
    assert HardBot(1).choose(state.view(0)) == Draw()


def test_hard_lays_its_joker_to_go_out() -> None:
    state = State.from_position(["r4 *", "k1 k2 k3 k4 y9 y10"], "r5 r6 r7")
    action = HardBot(1).choose(state.view(0))
    assert isinstance(action, Play)
    state.apply(action)
    assert state.phase != "play"


def test_hard_lays_all_it_can_when_the_pool_is_empty() -> None:
    state = State.from_position(["r4 * b1", "k1 k2 k3 k4 y9 y10"], "r5 r6 r7", pool="")
    state.pool.clear()
    action = HardBot(1).choose(state.view(0))
    assert isinstance(action, Play)
    state.apply(action)
    assert len(state.racks[0]) == 1


def test_bots_decide_from_the_view_alone() -> None:
    state = State(players=2, seed=11)
    for level in ("greedy", "hard"):
        view = state.view(state.turn)
        again = View.from_json(json.loads(json.dumps(view.to_json())))
        assert make_bot(level, 3).choose(view) == make_bot(level, 3).choose(again)


def test_whole_games_between_hard_and_greedy_stay_legal() -> None:
    state = State(players=2, seed=21)
    bots = [make_bot("hard", 1), make_bot("greedy", 2)]
    while not state.is_over:
        seat = state.to_move if state.to_move is not None else 0
        state.apply(bots[seat].choose(state.view(seat)), seat)  # raises on any illegal play
    assert state.view(None).log[-1]["code"] == "game_end"


def test_the_greedy_play_is_the_solver_answer() -> None:
    state = State.from_position(["r8 r9 b5 y1 *", "k1 k2"], "r5 r6 r7 | k5 y5 r5")
    view = state.view(0)
    action = GreedyBot(1).choose(view)
    best = solve(view.rack, view.table, view.rules, "count")
    assert isinstance(action, Play) and action.table == best.sets


def test_a_mirror_match_of_a_bot_against_itself_is_even() -> None:
    result = mirror_match(("greedy", "greedy"), rounds=2, games=1, seed=4)
    assert result["pairs"] == 2 and result["rounds"] == 4
    assert [b["share"] for b in result["bots"]] == [0.5, 0.5]


def test_a_mirror_match_reports_how_long_each_bot_thought() -> None:
    result = mirror_match(("greedy", "random"), rounds=1, games=1, seed=4)
    for entry in result["bots"]:
        assert entry["decisions"] > 0
        assert 0 < entry["mean_decision_ms"] <= entry["max_decision_ms"]


def test_simulate_tiles_mirror_command_prints_the_match() -> None:
    runner = CliRunner()
    args = ["simulate", "tiles", "--players", "2", "--bots", "greedy,greedy"]
    args += ["--rounds", "1", "--mirror", "--seed", "1", "--json"]
    result = runner.invoke(apps.app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["mirror"] and data["pairs"] == 1
    assert sum(b["rounds_won"] for b in data["bots"]) == 2
    refused = runner.invoke(apps.app, ["simulate", "tiles", "--players", "3", "--mirror"])
    assert refused.exit_code == 2


def test_the_benchmark_reports_both_solvers() -> None:
    result = run(positions=3, puzzles=0, seed=2)
    assert isinstance(result, dict)
    for family in ("game_positions", "random_positions", "two_rack_jokers", "first_melds"):
        entry = result[family]
        assert entry["count"] == 3
        reference = entry["reference"]
        assert reference["available"] and reference["different_without_jokers"] == 0
    assert "large_puzzles" not in result
    puzzles = large_puzzles(2, seed=2)
    assert all(300 <= len(rack) <= 402 for rack in puzzles)
    assert all(t.number is None or t.number <= 100 for rack in puzzles for t in rack)
