"""Commands of the Rommé part: ``simulate romme`` and ``bench romme-engine``."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from rummykit.cli import apps
from rummykit.core import IllegalAction


def _print(data: Any, as_json: bool, text: str) -> None:
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        typer.echo(text)


def _fail(err: IllegalAction) -> None:
    typer.echo(json.dumps(err.to_json(), ensure_ascii=False), err=True)
    raise typer.Exit(2)


def _levels(bots: str, players: int) -> list[str]:
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    if len(levels) == 1:
        levels = levels * players
    if len(levels) != players:
        raise IllegalAction("bad_bots", bots=len(levels), players=players)
    return levels


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
    seed: Annotated[int, typer.Option(help="Seed of the deals.")] = 1,
    preset: Annotated[str, typer.Option(help="Rules: standard, computer, german_club.")] = (
        "standard"
    ),
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Play whole games between bots and report penalty points and wins per seat."""
    from rummykit.romme.simulate import simulate

    try:
        result = simulate(_levels(bots, players), games, seed, _rules(preset, rounds))
    except IllegalAction as err:
        _fail(err)
        return
    lines = [f"{result['games']} games, {result['rounds']} rounds, {result['actions']} actions"]
    for row in result["seats"]:
        lines.append(
            f"seat {row['seat']} {row['bot']:>8}: {row['points']:>6} points "
            f"({row['points_per_round']}/round), {row['rounds_won']} rounds won, "
            f"{row['games_won']} games won"
        )
    _print(result, as_json, "\n".join(lines))


@apps.bench.command("romme-engine")
def bench_romme_engine(
    games: Annotated[int, typer.Option(help="Random games to record and replay.")] = 40,
    rounds: Annotated[int, typer.Option(help="Whole random-bot rounds to time.")] = 40,
    seed: Annotated[int, typer.Option(help="Seed.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
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
    _print(result, as_json, "\n".join(lines))
