"""Matches between computer players, with seats rotated over the same deals.

Games of ``hands_per_game`` hands each (then the final split, so every chip goes back to a
player) are played in groups: each group plays the same seed once per rotation of the seats,
so every bot sits in every seat over the same sequence of shuffles. A bot's result is the chips
it won (or lost) per hand played; the 95% confidence interval treats the groups as independent
samples of a ratio estimator (chips over hands).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rummykit import arena
from rummykit.arena import ratio_estimate
from rummykit.core import JSON
from rummykit.rummoli import GAME
from rummykit.rummoli.bots import LEVELS
from rummykit.rummoli.game import State
from rummykit.rummoli.rules import Rules


def play_game(rules: Rules, bots: Sequence[str], seed: int, bot_seed: int) -> tuple[State, int]:
    """One game with ``bots[seat]`` at each seat; returns the final state and hands played."""
    state = arena.play_game(
        GAME,
        rules,
        bots,
        seed,
        bot_seeds=[bot_seed * 31 + seat for seat in range(len(bots))],
        view=lambda s, seat: s.view(seat, since=len(s.events)),  # bots never read the log
    ).state
    return state, state.hand_number


def _play_group(args: tuple[Rules, tuple[str, ...], int]) -> tuple[list[float], int]:
    """One deal seed played in every rotation of the seats: each entry's chips won, and the
    hands played."""
    base, bots, game_seed = args
    players = len(bots)
    gains = [0.0] * players
    hands_in_group = 0
    for rotation, seating in enumerate(arena.seatings(bots, mirror=True)):
        state, count = play_game(base, seating, game_seed, game_seed + rotation)
        hands_in_group += count
        for seat in range(players):
            entry = (seat + rotation) % players
            gains[entry] += state.chips[seat] - base.starting_chips
    return gains, hands_in_group


def simulate(
    bots: Sequence[str],
    hands: int,
    seed: int,
    rules: Rules | None = None,
    hands_per_game: int = 20,
    jobs: int = 1,
) -> dict[str, JSON]:
    """Play at least ``hands`` hands between ``bots`` (one per seat) and report chips per hand.

    The result holds, for each entry of ``bots``, the chips won per hand with a 95% interval,
    the same per level (the mean over the entries of that level), and for the first level
    against each other level the difference per hand with its interval. ``jobs`` processes
    play the groups (a batch at a time; the result does not depend on it).
    """
    arena.check_match(bots, LEVELS, hands=hands)
    players = Rules.check_players(len(bots))
    base = (rules or Rules()).replace(hands=hands_per_game)
    rng = random.Random(seed)
    per_entry: list[list[float]] = [[] for _ in bots]
    group_hands: list[int] = []
    games = 0
    played = 0
    progress = arena.Progress(hands, lambda r: r[1], _running(bots[0]), label="hands")
    with arena.ProgressBar(progress) as bar:
        done: list[tuple[list[float], int]] = []
        while played < hands:
            # A batch of groups; those after the one that reaches ``hands`` are dropped.
            batch = [(base, tuple(bots), rng.getrandbits(48)) for _ in range(max(1, jobs))]
            for gains, hands_in_group in arena.run_jobs(_play_group, batch, jobs=jobs):
                if played >= hands:
                    break
                games += players
                for entry in range(players):
                    per_entry[entry].append(gains[entry])
                group_hands.append(hands_in_group)
                played += hands_in_group
                done.append((gains, hands_in_group))
                bar.advance(done[-1], done)
    entries = [
        {"seat_entry": i, "bot": level, **ratio_estimate(per_entry[i], group_hands).to_json()}
        for i, level in enumerate(bots)
    ]
    levels = list(dict.fromkeys(bots))
    by_level: dict[str, list[float]] = {}
    for level in levels:
        idx = [i for i, b in enumerate(bots) if b == level]
        by_level[level] = [
            sum(per_entry[i][g] for i in idx) / len(idx) for g in range(len(group_hands))
        ]
    comparisons = [
        {
            "bot": levels[0],
            "versus": other,
            **ratio_estimate(
                [a - b for a, b in zip(by_level[levels[0]], by_level[other], strict=True)],
                group_hands,
            ).to_json(),
        }
        for other in levels[1:]
    ]
    return {
        "game": "rummoli",
        "players": players,
        "bots": list(bots),
        "rules": base.to_json(),
        "seed": seed,
        "hands": played,
        "games": games,
        "groups": len(group_hands),
        "chips_per_hand": entries,
        "by_level": [
            {"bot": level, **ratio_estimate(by_level[level], group_hands).to_json()}
            for level in levels
        ],
        "differences": comparisons,
    }


def _running(level: str) -> Callable[[Sequence[tuple[list[float], int]]], str]:
    """The first entry's chips per hand so far with its interval, for the progress bar."""

    def describe(results: Sequence[tuple[list[float], int]]) -> str:
        est = ratio_estimate([g[0] for g, _ in results], [h for _, h in results])
        return f"{level} {est.mean:+.3f} chips/hand ({est.low:+.3f} {est.high:+.3f})"

    return describe
