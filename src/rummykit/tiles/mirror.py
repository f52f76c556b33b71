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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from rummykit import arena
from rummykit.core import JSON, IllegalAction
from rummykit.tiles.bots import BOTS
from rummykit.tiles.rules import Rules
from rummykit.tiles.simulate import play_game

Outcome = tuple[float, int, int]
"""For one round, from the first bot's side: its share of the win (1, 0.5 or 0), its rack value
and the other's rack value at the end."""


@dataclass(frozen=True)
class Thinking:
    """How long each bot thought in one game (the first bot, then the second): decisions
    taken, seconds spent in all, and the slowest decision in seconds."""

    decisions: tuple[int, int]
    seconds: tuple[float, float]
    slowest: tuple[float, float]


Game = tuple[list[Outcome], Thinking]


def _rounds(rules: Rules, levels: tuple[str, str], seed: int, first_seat: int) -> Game:
    """Play one game with ``levels[0]`` in ``first_seat``; each round's outcome for it, and
    the bots' thinking."""
    seats = arena.seatings(levels, mirror=True)[first_seat]
    played = play_game(rules, seats, seed, seed)
    state = played.state
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
    thinking = Thinking(
        (played.decisions[me], played.decisions[other]),
        (played.seconds[me], played.seconds[other]),
        (played.slowest[me], played.slowest[other]),
    )
    return out, thinking


def _job(args: tuple[Rules, tuple[str, str], int, int]) -> Game:
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
    arena.check_match(bots, BOTS, games=games)
    rules = replace(rules or Rules(), rounds=rounds)
    levels = (bots[0], bots[1])
    jobs = [(rules, levels, seed + g, seat) for g in range(games) for seat in (0, 1)]
    progress = arena.Progress(2 * games * rounds, lambda game: len(game[0]), _running(levels[0]))
    results = arena.run_jobs(_job, jobs, jobs=workers, progress=progress)
    pairs: list[tuple[Outcome, Outcome]] = []
    for g in range(games):
        pairs.extend(zip(results[2 * g][0], results[2 * g + 1][0], strict=True))
    result = summarise(levels, pairs, rules, seed, games)
    for i, entry in enumerate(_bot_entries(result)):
        decisions = sum(r[1].decisions[i] for r in results)
        seconds = sum(r[1].seconds[i] for r in results)
        entry["decisions"] = decisions
        entry["mean_decision_ms"] = round(1000 * seconds / max(1, decisions), 3)
        entry["max_decision_ms"] = round(1000 * max(r[1].slowest[i] for r in results), 1)
    return result


def _bot_entries(result: dict[str, JSON]) -> list[dict[str, JSON]]:
    bots = result["bots"]
    assert isinstance(bots, list)
    return [b for b in bots if isinstance(b, dict)]


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
    estimate = arena.ratio_estimate(per_pair, [1] * n)
    share = estimate.mean
    margin = estimate.high - share if n > 1 else 0.0
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


def _running(level: str) -> Callable[[Sequence[Game]], str]:
    """The first bot's share of the rounds so far, for the progress bar."""

    def describe(results: Sequence[Game]) -> str:
        shares = [o[0] for game, _ in results for o in game]
        return f"{level} {100 * sum(shares) / max(1, len(shares)):.1f}%"

    return describe
