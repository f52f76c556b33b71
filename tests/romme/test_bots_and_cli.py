"""The random bot (legal from its view alone), the simulate and bench commands."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from rummykit.cli import apps
from rummykit.cli import romme as _romme_commands  # noqa: F401  (attaches the commands)
from rummykit.core import IllegalAction
from rummykit.romme import GAME, Draw, NextRound, Play, Rules, State
from rummykit.romme.bots import make_bot
from rummykit.romme.moves import simple_actions
from rummykit.romme.strategy import round_events

from .helpers import turn

runner = CliRunner()


def test_make_bot_refuses_unknown_levels() -> None:
    with pytest.raises(IllegalAction) as info:
        make_bot("genius-of-the-lamp", 1)
    assert info.value.code == "bad_level"


def test_random_bot_actions_are_legal_and_made_from_the_view_only() -> None:
    for seed in range(6):
        game = State(Rules(rounds=1), players=2 + seed % 3, seed=seed)
        bots = [make_bot("random", seed * 7 + s) for s in range(game.players)]
        kinds = set()
        while not game.is_over:
            seat = game.to_move
            view = game.view(seat if seat is not None else 0)
            action = bots[seat if seat is not None else 0].choose(view)
            assert game.can_apply(action, seat)
            kinds.add(type(action).__name__)
            game.apply(action, seat)
        assert {"Draw", "Discard", "Play"} <= kinds


def test_random_bot_between_rounds_deals_the_next_round() -> None:
    game = turn(
        "10♣",
        rules=Rules(deal_style="upcard", rounds=2),
        table=[(1, "J♣ Q♣ K♣")],
        opened=[True, True],
        stock="4♦",
    )
    game.apply(Draw("stock"))
    game.apply(Play.parse("play +0:10♣"))
    game.apply(game.legal_actions()[0])
    assert game.phase == "round_over"
    assert make_bot("random", 1).choose(game.view(1)) == NextRound()
    assert simple_actions(game.view(0)) == [NextRound()]


def test_random_bot_refuses_to_move_for_a_seat_not_on_move() -> None:
    game = State(players=2, seed=1)
    other = 1 - (game.to_move or 0)
    with pytest.raises(IllegalAction) as info:
        make_bot("random", 1).choose(game.view(other))
    assert info.value.code == "not_your_turn"


def test_simple_actions_of_a_view_match_the_states_legal_actions() -> None:
    for seed in range(4):
        game = State(Rules.preset("computer").replace(rounds=1), players=3, seed=seed)
        bots = [make_bot("random", seed + s) for s in range(3)]
        for _ in range(60):
            if game.is_over:
                break
            seat = game.to_move
            view = game.view(seat if seat is not None else 0)
            assert simple_actions(view) == game.legal_actions()
            game.apply(bots[seat or 0].choose(view), seat)


def test_simulate_romme_prints_per_seat_results_as_json() -> None:
    result = runner.invoke(
        apps.app,
        [
            "simulate",
            "romme",
            "--players",
            "3",
            "--bots",
            "random,random,random",
            "--rounds",
            "1",
            "--seed",
            "4",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 1 and data["rounds"] == 1
    seats = data["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert sum(s["rounds_won"] for s in seats) <= 1
    assert all(s["bot"] == "random" for s in seats)


def test_simulate_romme_refuses_a_bot_count_that_does_not_match() -> None:
    result = runner.invoke(
        apps.app, ["simulate", "romme", "--players", "3", "--bots", "random,random", "--json"]
    )
    assert result.exit_code == 2
    assert json.loads(result.output)["code"] == "bad_bots"


def test_bench_romme_engine_measures_replay_and_rounds() -> None:
    result = runner.invoke(
        apps.app, ["bench", "romme-engine", "--games", "2", "--rounds", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for preset in ("standard", "computer", "german_club"):
        assert data["replay"][preset]["actions"] > 0
        assert data["replay"][preset]["actions_per_second"] > 0
        assert data["random_rounds"][preset]["rounds"] == 2


def test_a_computer_player_decides_the_same_on_the_view_cut_to_its_round() -> None:
    """What the site sends to a worker for a decision (`GAME.bot_view`) holds the log from the
    round's deal on: the same round events, the rest of the view untouched, the same choice."""
    game = State(Rules(rounds=3), players=3, seed=4)
    players = [make_bot(level, seat) for seat, level in enumerate(("easy", "medium", "random"))]
    cut = decisions = 0
    while not game.is_over and decisions < 600:
        seat = game.to_move if game.to_move is not None else 0
        view = game.view(seat)
        short = GAME.bot_view(view)
        assert round_events(short) == round_events(view)
        assert replace(short, log=view.log) == view
        assert view.log[len(view.log) - len(short.log) :] == short.log
        cut += len(short.log) < len(view.log)
        level = players[seat].level
        if level != "medium":  # its thinking stops by the clock
            assert make_bot(level, decisions).choose(short) == make_bot(level, decisions).choose(
                view
            )
        game.apply(players[seat].choose(view), seat)
        decisions += 1
    assert game.round >= 2 and cut > 20
