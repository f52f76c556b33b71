"""Commands of the Rommé part: ``simulate romme``, ``bench romme-engine``, ``bench romme-solver``
and ``bench romme-pace``."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from rummykit.cli import apps
from rummykit.core import IllegalAction


def _rules(preset: str, rounds: int | None) -> Any:
    from rummykit.romme.rules import Rules

    rules = Rules.preset(preset)
    return rules if rounds is None else rules.replace(rounds=rounds)


@apps.simulate.command("romme")
def simulate_romme(
    players: Annotated[int, typer.Option(help="Players at the table (2-6).")] = 2,
    bots: Annotated[
        str, typer.Option(help="One bot level per seat, comma-separated (or one for all).")
    ] = "random,random",
    rounds: Annotated[
        int | None, typer.Option(help="Rounds per game (default: the preset's).")
    ] = None,
    games: Annotated[int, typer.Option(help="Games to play.")] = 1,
    seed: apps.DealSeed = 1,
    preset: Annotated[str, typer.Option(help="Rules: standard, computer, german_club.")] = (
        "standard"
    ),
    as_json: apps.AsJson = False,
    mirror: Annotated[
        bool,
        typer.Option(
            "--mirror",
            help="A tournament: every deal is played again with the seats rotated, and "
            "--rounds counts the rounds of the whole tournament (games keep the preset's "
            "length). Reports per bot: rounds won, win rate with its 95% interval, mean "
            "penalty per round, games won.",
        ),
    ] = False,
    jobs: Annotated[
        int, typer.Option(help="Processes sharing the games (a tournament, as --mirror).")
    ] = 1,
) -> None:
    """Play whole games between bots and report penalty points and wins per seat."""
    if mirror or jobs > 1:
        _tournament(bots, players, rounds, seed, preset, mirror, jobs, as_json)
        return
    from rummykit.romme.simulate import simulate

    try:
        result = simulate(apps.seat_levels(bots, players), games, seed, _rules(preset, rounds))
    except IllegalAction as err:
        apps.fail(err)
    head = f"{result['games']} games, {result['rounds']} rounds, {result['actions']} actions"
    apps.show_rows(result, as_json, head, result["seats"], _seat_line)


def _seat_line(row: Any) -> str:
    return (
        f"seat {row['seat']} {row['bot']:>8}: {row['points']:>6} points "
        f"({row['points_per_round']}/round), {row['rounds_won']} rounds won, "
        f"{row['games_won']} games won"
    )


def _tournament(
    bots: str,
    players: int,
    rounds: int | None,
    seed: int,
    preset: str,
    mirror: bool,
    jobs: int,
    as_json: bool,
) -> None:
    from rummykit.romme.rules import Rules
    from rummykit.romme.tournament import run_tournament

    try:
        result = run_tournament(
            apps.seat_levels(bots, players),
            rounds=rounds or 2000,
            seed=seed,
            mirror=mirror,
            jobs=max(1, jobs),
            rules=Rules.preset(preset),
        )
    except IllegalAction as err:
        apps.fail(err)
    head = (
        f"{result['rounds']} rounds from {result['deal_seeds']} deal seeds"
        f"{' (mirrored)' if mirror else ''}, {result['seconds']} s"
    )
    table = result["bots"]
    assert isinstance(table, dict)
    apps.show_rows(result, as_json, head, table.items(), _level_line)


def _level_line(item: tuple[str, Any]) -> str:
    level, row = item
    low, high = row["win_rate_ci95"]
    return (
        f"{level:>8}: {row['rounds_won']}/{row['rounds']} rounds won "
        f"({100 * row['win_rate']:.1f}%, 95% CI {100 * low:.1f}-{100 * high:.1f}%), "
        f"{row['mean_penalty']} penalty/round, {row['games_won']}/{row['games']} games won, "
        f"{row['mean_decision_ms']} ms/decision"
    )


@apps.bench.command("romme-engine")
def bench_romme_engine(
    games: Annotated[int, typer.Option(help="Random games to record and replay.")] = 40,
    rounds: Annotated[int, typer.Option(help="Whole random-bot rounds to time.")] = 40,
    seed: apps.Seed = 1,
    as_json: apps.AsJson = False,
) -> None:
    """Actions per second replaying recorded random games (every action checked) and whole
    random-bot rounds per second."""
    from rummykit.bench.romme import run

    result = run(games, rounds, seed)
    lines = []
    for name, row in result["replay"].items():
        lines.append(f"replay {name}: {row['actions_per_second']} actions/s")
    for name, row in result["random_rounds"].items():
        lines.append(f"random-bot rounds {name}: {row['rounds_per_second']} rounds/s")
    apps.show(result, as_json, lines)


@apps.bench.command("romme-solver")
def bench_romme_solver(
    hands: Annotated[int, typer.Option(help="15-card hands in each set.")] = 500,
    seed: Annotated[int, typer.Option(help="Seed of the hands.")] = 1,
    ilp: Annotated[
        bool, typer.Option("--ilp/--no-ilp", help="Also solve each hand as an integer program.")
    ] = True,
    as_json: apps.AsJson = False,
) -> None:
    """Time the exact meld solver (best_melds) on seeded 15-card hands, 0-2 and 3-6 jokers,
    against an integer program (HiGHS) solving the same hands."""
    from rummykit.bench.romme_solver import run

    result = run(hands=hands, seed=seed, with_ilp=ilp)
    lines = []
    for name in ("jokers_0_2", "jokers_3_6"):
        row = result[name]
        assert isinstance(row, dict)
        solver = row["solver"]
        line = (
            f"{name}: solver median {solver['median_ms']} ms, p99 {solver['p99_ms']} ms, "
            f"max {solver['max_ms']} ms"
        )
        if "integer_program" in row:
            ref = row["integer_program"]
            line += (
                f"; integer program median {ref['median_ms']} ms, p99 {ref['p99_ms']} ms; "
                f"{row['median_ratio']}x; {row['mismatches']} mismatches"
            )
        lines.append(line)
    apps.show(result, as_json, lines)


@apps.bench.command("romme-pace")
def bench_romme_pace(
    deals: Annotated[int, typer.Option(help="Seeded deals each level plays alone.")] = 300,
    seed: Annotated[int, typer.Option(help="Seed of the first deal.")] = 1,
    bots: Annotated[str, typer.Option(help="Levels, comma-separated.")] = "random,easy,medium,hard",
    jobs: Annotated[int, typer.Option(help="Processes (use 2 for both CPU cores).")] = 1,
    as_json: apps.AsJson = False,
) -> None:
    """Draws each level needs to go out alone, beside a clairvoyant player who knows the order
    of the stock, and the estimated chance that ``random`` goes out first against each."""
    from rummykit.bench.romme_pace import run
    from rummykit.romme.bots import make_bot

    levels = [b.strip() for b in bots.split(",") if b.strip()]
    try:
        for level in levels:
            make_bot(level, 0)
    except IllegalAction as err:
        apps.fail(err)
    result = run(deals=deals, seed=seed, levels=levels, jobs=max(1, jobs))
    lines = []
    table = result["levels"]
    assert isinstance(table, dict)
    for name, row in table.items():
        line = (
            f"{name:>11}: mean {row['mean_draws']} draws, median {row['median_draws']}, "
            f"out within 9 draws {100 * row['out_within_9']:.1f}%"
        )
        if "random_first_estimate" in row:
            line += f", random out first ~{100 * row['random_first_estimate']:.1f}%"
        lines.append(line)
    apps.show(result, as_json, lines)
