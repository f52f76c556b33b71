"""The ``rummykit … rummoli`` commands print what the library computes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import rummykit.cli.rummoli  # noqa: F401  (attaches the commands)
from rummykit.cli.apps import app
from rummykit.rummoli.demo import demo_hand

runner = CliRunner()


def test_demo_prints_the_steps_of_one_hand_as_json() -> None:
    result = runner.invoke(app, ["demo", "rummoli", "--players", "4", "--seed", "7", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data == json.loads(demo_hand(4, 7).dumps())


def test_demo_carry_deals_the_next_hand_from_the_previous_json(tmp_path: Path) -> None:
    first = runner.invoke(app, ["demo", "rummoli", "--seed", "7", "--json"])
    path = tmp_path / "hand.json"
    path.write_text(first.stdout, encoding="utf-8")
    second = runner.invoke(app, ["demo", "rummoli", "--seed", "8", "--carry", str(path), "--json"])
    assert second.exit_code == 0, second.output
    data = json.loads(second.stdout)
    assert data["board_before"] == json.loads(first.stdout)["board_after"]
    assert data["dealer"] == 1
    path.write_text("{oops", encoding="utf-8")
    bad = runner.invoke(app, ["demo", "rummoli", "--carry", str(path)])
    assert bad.exit_code == 2 and "bad_json" in bad.output


def test_demo_text_names_every_step() -> None:
    result = runner.invoke(app, ["demo", "rummoli", "--seed", "7"])
    assert result.exit_code == 0
    assert "widow:" in result.stdout and "hand_end" in result.stdout


def test_simulate_prints_chips_per_hand_with_intervals() -> None:
    args = ["simulate", "rummoli", "--players", "3", "--bots", "random,easy,easy"]
    result = runner.invoke(app, [*args, "--hands", "12", "--hands-per-game", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] >= 12 and len(data["chips_per_hand"]) == 3
    bad = runner.invoke(app, ["simulate", "rummoli", "--players", "3", "--bots", "hard,easy"])
    assert bad.exit_code == 2 and "bad_bots" in bad.output


def test_bench_prints_hands_and_evaluations_per_second() -> None:
    args = ["bench", "rummoli", "--hands", "5", "--evaluations", "100", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["whole_hands_random_bots"]["hands"] >= 5
    assert data["poker_17_cards"]["cards"] == 17
