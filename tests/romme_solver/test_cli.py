"""The command line: mirrored tournaments and the solver benchmark."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import rummykit.cli.romme  # noqa: F401  (attaches the Rommé commands)
from rummykit.cli.apps import app

runner = CliRunner()


def test_simulate_romme_mirror_prints_a_tournament() -> None:
    args = "simulate romme --players 2 --bots easy,random --rounds 6 --seed 1 --mirror --json"
    result = runner.invoke(app, args.split())
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["mirror"] is True and data["rounds"] == 6
    for level in ("easy", "random"):
        row = data["bots"][level]
        assert row["rounds"] == 6
        low, high = row["win_rate_ci95"]
        assert low <= row["win_rate"] <= high
    text = runner.invoke(app, args.replace(" --json", "").split())
    assert text.exit_code == 0 and "rounds won" in text.output


def test_simulate_romme_refuses_a_level_twice_in_a_tournament() -> None:
    result = runner.invoke(
        app, ["simulate", "romme", "--bots", "easy,easy", "--rounds", "3", "--mirror"]
    )
    assert result.exit_code == 2
    assert json.loads(result.output.strip().splitlines()[-1])["code"] == "bad_bots"


def test_bench_romme_solver_reports_both_sets() -> None:
    result = runner.invoke(app, ["bench", "romme-solver", "--hands", "4", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for name in ("jokers_0_2", "jokers_3_6"):
        row = data[name]
        assert row["hands"] == 4 and row["mismatches"] == 0
        assert row["solver"]["median_ms"] <= row["solver"]["max_ms"]


def test_bench_romme_pace_counts_draws_beside_the_clairvoyant() -> None:
    args = "bench romme-pace --deals 3 --bots random,easy --seed 4 --json"
    result = runner.invoke(app, args.split())
    assert result.exit_code == 0, result.output
    levels = json.loads(result.output)["levels"]
    assert set(levels) == {"random", "easy", "clairvoyant"}
    for name, row in levels.items():
        assert row["deals"] == 3
        assert 0 <= row["out_within_6"] <= row["out_within_9"] <= row["out_within_12"] <= 1
        assert ("random_first_estimate" in row) == (name != "random")


def test_bench_romme_pace_refuses_an_unknown_level() -> None:
    result = runner.invoke(app, ["bench", "romme-pace", "--bots", "easy,expert"])
    assert result.exit_code == 2
    assert json.loads(result.output.strip().splitlines()[-1])["code"] == "bad_level"
