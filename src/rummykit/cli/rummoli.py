"""Commands of the Rummoli part: ``simulate rummoli``, ``bench rummoli``, ``demo rummoli``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from rummykit.cli import apps
from rummykit.core import IllegalAction


@apps.simulate.command("rummoli")
def simulate_rummoli(
    players: Annotated[int, typer.Option(help="Players at the table (2-8).")] = 4,
    bots: Annotated[
        str, typer.Option(help="One level per seat, comma-separated: random, easy, hard.")
    ] = "hard,easy,easy,easy",
    hands: Annotated[int, typer.Option(help="Hands to play at least, over all games.")] = 2000,
    seed: apps.DealSeed = 1,
    preset: Annotated[str, typer.Option(help="Rules: standard, betting, house, demo.")] = (
        "standard"
    ),
    hands_per_game: Annotated[int, typer.Option(help="Hands per game before the split.")] = 20,
    jobs: Annotated[int, typer.Option(help="Processes sharing the games.")] = 1,
    as_json: apps.AsJson = False,
) -> None:
    """Play bots against each other, seats rotated over the same deals; chips won per hand."""
    from rummykit.rummoli.rules import Rules
    from rummykit.rummoli.simulate import simulate

    try:
        levels = apps.seat_levels(bots, players, one_for_all=False)
        result = simulate(levels, hands, seed, Rules.preset(preset), hands_per_game, max(1, jobs))
    except IllegalAction as err:
        apps.fail(err)
    head = f"{result['hands']} hands, {result['games']} games, seats rotated"
    apps.show_rows(result, as_json, head, result["by_level"], _level_line)


def _level_line(row: Any) -> str:
    low, high = row["ci95"]
    return f"{row['bot']:>6}: {row['mean']:+.3f} chips/hand  (95% CI {low:+.3f} {high:+.3f})"


@apps.bench.command("rummoli")
def bench_rummoli(
    hands: Annotated[int, typer.Option(help="Whole hands to play with random bots.")] = 2000,
    evaluations: Annotated[int, typer.Option(help="Poker evaluations per hand size.")] = 50_000,
    seed: apps.Seed = 1,
    as_json: apps.AsJson = False,
) -> None:
    """Whole hands per second (random bots) and poker evaluations per second (7 and 17 cards)."""
    from rummykit.bench.rummoli import run

    result = run(hands, evaluations, seed)
    whole = result["whole_hands_random_bots"]
    seven, seventeen = result["poker_7_cards"], result["poker_17_cards"]
    text = (
        f"hands/s (random bots): {whole['hands_per_second']}\n"
        f"poker 7 cards: {seven['key_of_indices_per_second']}/s key, "
        f"{seven['evaluate_per_second']}/s evaluate\n"
        f"poker 17 cards: {seventeen['key_of_indices_per_second']}/s key, "
        f"{seventeen['evaluate_per_second']}/s evaluate"
    )
    apps.show(result, as_json, [text])


@apps.demo.command("rummoli")
def demo_rummoli(
    players: Annotated[int, typer.Option(help="Players (2-8).")] = 4,
    seed: Annotated[int, typer.Option(help="Seed of the deal.")] = 1,
    carry: Annotated[
        Path | None,
        typer.Option(
            help="JSON of the previous demo hand: deal the next one from the board and chips "
            "it left (its players count and next dealer are used).",
            exists=True,
            dir_okay=False,
        ),
    ] = None,
    as_json: apps.AsJson = False,
) -> None:
    """One whole demonstration hand, step by step, every hand and the widow visible."""
    from rummykit.rummoli.demo import carry_over, demo_hand

    try:
        if carry is not None:
            try:
                data = json.loads(carry.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError, UnicodeDecodeError) as err:
                raise IllegalAction("bad_json", reason=str(err)) from None
            hand = demo_hand(seed=seed, **carry_over(data))
        else:
            hand = demo_hand(players, seed)
    except IllegalAction as err:
        apps.fail(err)
    lines = [f"widow: {' '.join(c.code for c in hand.widow)}"]
    for seat, cards in enumerate(hand.hands):
        lines.append(f"seat {seat}: {' '.join(c.code for c in cards)}")
    for step in hand.steps:
        params = " ".join(f"{k}={v}" for k, v in step.params.items())
        lines.append(f"{step.code} {params}".rstrip())
    apps.show(hand.to_json(), as_json, lines)
