"""Mirror-paired matches between two computer players: every deal is played twice, seats swapped.

Luck of the deal weighs heavily in tile rummy. Playing each deal once with the first bot in seat
0 and once with it in seat 1 (the shuffles of a game do not depend on the play, so round ``r``
of both games gets the same racks, the same starter seat and the same pool) cancels most of it:
what is left is the difference between the players.

A round is won by the player who empties the rack; a blocked round (pool empty, everyone
passed) by the lower rack, a tie counting half. The result gives each bot's share of the rounds
won with a 95 % confidence interval taken over the pairs (the two rounds of one deal are not
independent, the pairs are).

>>> result = mirror_match(("random", "random"), rounds=1, games=2, seed=3)
>>> result["pairs"], result["rounds"], sum(b["rounds_won"] for b in result["bots"])
(2, 4, 4.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from rummykit.core import JSON, IllegalAction
from rummykit.tiles.bots import BOTS
from rummykit.tiles.model import Rules
from rummykit.tiles.simulate import play_game

Outcome = tuple[float, int, int]
"""For one round, from the first bot's side: its share of the win (1, 0.5 or 0), its rack value
and the other's rack value at the end."""


def _rounds(rules: Rules, levels: tuple[str, str], seed: int, first_seat: int) -> list[Outcome]:
    """Play one game with ``levels[0]`` in ``first_seat``; each round's outcome for it."""
    seats = list(levels) if first_seat == 0 else [levels[1], levels[0]]
    state = play_game(rules, seats, seed, seed)
    me, other = first_seat, 1 - first_seat
    out: list[Outcome] = []
    for event in state.log:
        if event["code"] != "round_end":
            continue
        values = list(event["rack_values"])
        winner = event["winner"]
        if winner is None:
            share = (
                1.0 if values[me] < values[other] else 0.5 if values[me] == values[other] else 0.0
            )
        else:
            share = 1.0 if winner == me else 0.0
        out.append((share, values[me], values[other]))
    return out


def _job(args: tuple[Rules, tuple[str, str], int, int]) -> list[Outcome]:
    return _rounds(*args)


def mirror_match(
    bots: Sequence[str],
    *,
    rounds: int = 1,
    games: int = 1,
    seed: int = 0,
    rules: Rules | None = None,
    workers: int = 1,
) -> dict[str, JSON]:
    """Play ``games`` games of ``rounds`` rounds twice each (seats swapped) between two bots.

    Game ``g`` is shuffled from ``seed + g``. ``workers`` > 1 plays the games in that many
    processes (the result does not depend on it).
    """
    if len(bots) != 2:
        raise IllegalAction("bad_players", players=len(bots), expected="2 with --mirror")
    for level in bots:
        if level not in BOTS:
            raise IllegalAction("bad_bot", level=level, expected=sorted(BOTS))
    if not isinstance(games, int) or games < 1:
        raise IllegalAction("bad_games", games=games)
    rules = replace(rules or Rules(), rounds=rounds)
    levels = (bots[0], bots[1])
    jobs = [(rules, levels, seed + g, seat) for g in range(games) for seat in (0, 1)]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(_job, jobs))
    else:
        results = [_job(job) for job in jobs]
    pairs: list[tuple[Outcome, Outcome]] = []
    for g in range(games):
        pairs.extend(zip(results[2 * g], results[2 * g + 1], strict=True))
    return summarise(levels, pairs, rules, seed, games)


def summarise(
    levels: tuple[str, str],
    pairs: Sequence[tuple[Outcome, Outcome]],
    rules: Rules,
    seed: int,
    games: int,
) -> dict[str, JSON]:
    """The match figures from each pair's two outcomes (both from the first bot's side)."""
    n = len(pairs)
    per_pair = [(a[0] + b[0]) / 2 for a, b in pairs]
    share = sum(per_pair) / n
    spread = math.sqrt(sum((x - share) ** 2 for x in per_pair) / (n - 1)) if n > 1 else 0.0
    margin = 1.96 * spread / math.sqrt(n)
    won = sum(a[0] + b[0] for a, b in pairs)
    both = sum(1 for x in per_pair if x == 1.0)
    neither = sum(1 for x in per_pair if x == 0.0)
    mine = sum(a[1] + b[1] for a, b in pairs) / (2 * n)
    theirs = sum(a[2] + b[2] for a, b in pairs) / (2 * n)
    return {
        "game": "tiles",
        "mirror": True,
        "levels": list(levels),
        "rules": rules.to_json(),
        "seed": seed,
        "games": games,
        "pairs": n,
        "rounds": 2 * n,
        "summary": f"{levels[0]} won {share:.1%} of the rounds against {levels[1]}",
        "bots": [
            {
                "bot": levels[0],
                "rounds_won": won,
                "share": round(share, 4),
                "share_ci95": [round(share - margin, 4), round(share + margin, 4)],
                "pairs_won_both": both,
                "mean_rack_left": round(mine, 3),
            },
            {
                "bot": levels[1],
                "rounds_won": 2 * n - won,
                "share": round(1 - share, 4),
                "share_ci95": [round(1 - share - margin, 4), round(1 - share + margin, 4)],
                "pairs_won_both": neither,
                "mean_rack_left": round(theirs, 3),
            },
        ],
    }
