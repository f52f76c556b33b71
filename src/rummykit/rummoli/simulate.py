"""Matches between computer players, with seats rotated over the same deals.

Games of ``hands_per_game`` hands each (then the final split, so every chip goes back to a
player) are played in groups: each group plays the same seed once per rotation of the seats,
so every bot sits in every seat over the same sequence of shuffles. A bot's result is the chips
it won (or lost) per hand played; the 95% confidence interval treats the groups as independent
samples of a ratio estimator (chips over hands).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.core import JSON, IllegalAction
from rummykit.rummoli.bots import LEVELS, make_bot
from rummykit.rummoli.game import State
from rummykit.rummoli.rules import Rules

Z95 = 1.959964


@dataclass(frozen=True)
class Estimate:
    """A per-hand mean with its 95% confidence interval."""

    mean: float
    low: float
    high: float

    def to_json(self) -> dict[str, JSON]:
        return {"mean": round(self.mean, 4), "ci95": [round(self.low, 4), round(self.high, 4)]}


def ratio_estimate(values: Sequence[float], hands: Sequence[int]) -> Estimate:
    """Sum of values over sum of hands, with a linearised 95% interval over the groups."""
    total_hands = sum(hands)
    if total_hands == 0:
        return Estimate(0.0, 0.0, 0.0)
    ratio = sum(values) / total_hands
    groups = len(values)
    if groups < 2:
        return Estimate(ratio, -math.inf, math.inf)
    mean_hands = total_hands / groups
    residuals = [v - ratio * h for v, h in zip(values, hands, strict=True)]
    variance = sum(r * r for r in residuals) / (groups - 1) / groups / mean_hands**2
    half = Z95 * math.sqrt(variance)
    return Estimate(ratio, ratio - half, ratio + half)


def play_game(rules: Rules, bots: Sequence[str], seed: int, bot_seed: int) -> tuple[State, int]:
    """One game with ``bots[seat]`` at each seat; returns the final state and hands played."""
    players = len(bots)
    state = State(rules, players, seed)
    agents = [make_bot(level, bot_seed * 31 + seat) for seat, level in enumerate(bots)]
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        state.apply(agents[seat].choose(state.view(seat, since=len(state.events))), seat)
    return state, state.hand_number


def simulate(
    bots: Sequence[str],
    hands: int,
    seed: int,
    rules: Rules | None = None,
    hands_per_game: int = 20,
) -> dict[str, JSON]:
    """Play at least ``hands`` hands between ``bots`` (one per seat) and report chips per hand.

    The result holds, for each entry of ``bots``, the chips won per hand with a 95% interval,
    the same per level (the mean over the entries of that level), and for the first level
    against each other level the difference per hand with its interval.
    """
    for level in bots:
        if level not in LEVELS:
            raise IllegalAction("bad_bot", level=level, allowed=list(LEVELS))
    players = Rules.check_players(len(bots))
    if not isinstance(hands, int) or hands < 1:
        raise IllegalAction("bad_hands", hands=hands)
    base = (rules or Rules()).replace(hands=hands_per_game)
    rng = random.Random(seed)
    per_entry: list[list[float]] = [[] for _ in bots]
    group_hands: list[int] = []
    games = 0
    played = 0
    while played < hands:
        game_seed = rng.getrandbits(48)
        gains = [0.0] * players
        hands_in_group = 0
        for rotation in range(players):
            seating = [bots[(seat + rotation) % players] for seat in range(players)]
            state, count = play_game(base, seating, game_seed, game_seed + rotation)
            hands_in_group += count
            games += 1
            for seat in range(players):
                entry = (seat + rotation) % players
                gains[entry] += state.chips[seat] - base.starting_chips
        for entry in range(players):
            per_entry[entry].append(gains[entry])
        group_hands.append(hands_in_group)
        played += hands_in_group
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
