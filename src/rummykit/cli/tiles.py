"""Commands of the tiles part: ``rummykit simulate tiles`` and ``rummykit bench tiles-solver``."""

from __future__ import annotations

import json
from dataclasses import replace

import typer

from rummykit.cli import apps
from rummykit.core import JSON, IllegalAction
from rummykit.tiles.mirror import mirror_match
from rummykit.tiles.rules import Rules
from rummykit.tiles.simulate import simulate


@apps.simulate.command("tiles")
def simulate_tiles(
    players: int = typer.Option(2, "--players", help="Number of seats, 2 to 4."),
    bots: str = typer.Option(
        "random", "--bots", help="Bot level per seat, comma-separated (one name: every seat)."
    ),
    rounds: int = typer.Option(1, "--rounds", help="Rounds per game."),
    games: int = typer.Option(1, "--games", help="Games to play (game g uses seed + g)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the first game."),
    preset: str = typer.Option("leaflet", "--preset", help="Rules preset: leaflet or classic."),
    rack_size: int | None = typer.Option(None, "--rack-size", help="Tiles dealt to each rack."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    mirror: bool = typer.Option(
        False,
        "--mirror",
        help="Two players: play every deal twice with the seats swapped and compare the bots.",
    ),
    workers: int = typer.Option(
        1, "--jobs", "--workers", help="With --mirror: processes sharing the games."
    ),
) -> None:
    """Play tile-rummy games between computer players and report each seat's results."""
    try:
        levels = apps.seat_levels(bots, players)
        rules = Rules.preset(preset)
        if rack_size is not None:
            rules = replace(rules, rack_size=rack_size)
        if mirror:
            matched = mirror_match(
                levels, rounds=rounds, games=games, seed=seed, rules=rules, workers=workers
            )
            apps.show(matched, as_json, [str(matched["summary"])], indent=None)
            return
        result = simulate(levels, rounds=rounds, games=games, seed=seed, rules=rules)
    except IllegalAction as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(2) from None
    head = (
        f"{result['games']} game(s), {result['rounds_played']} round(s) "
        f"({result['rounds_blocked']} blocked), {result['actions']} actions"
    )
    apps.show_rows(result, as_json, head, result["seats"], _seat_line, indent=None)


def _seat_line(seat: JSON) -> str:
    return (
        f"seat {seat['seat']} {seat['bot']:>8}: total {seat['total']:>6}, "
        f"per round {seat['mean_per_round']:>8}, games won {seat['games_won']}, "
        f"rounds won {seat['rounds_won']}"
    )


@apps.bench.command("tiles-solver")
def bench_tiles_solver(
    positions: int = typer.Option(300, "--positions", help="Game positions to solve."),
    puzzles: int = typer.Option(5, "--puzzles", help="Large puzzles (numbers to 100)."),
    seed: int = typer.Option(1, "--seed", help="Seed of the positions."),
    reference: bool = typer.Option(
        True, "--reference/--no-reference", help="Also time the rummikub-solver package."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the figures as JSON."),
) -> None:
    """Time the exact tile-rummy solver on game positions and large puzzles."""
    from rummykit.bench.tiles_solver import run

    result = run(positions=positions, puzzles=puzzles, seed=seed, reference=reference)
    typer.echo(json.dumps(result, ensure_ascii=False, indent=None if as_json else 2))
