"""Tournaments between computer players, with mirror-paired deals and confidence intervals.

A tournament plays whole games (``rules.rounds`` rounds each) between bot levels, through
`rummykit.arena`. With ``mirror``, every game is played again from the same seed with the seats
rotated (for two players: swapped), so every level gets every hand: luck of the deal cancels
out. Results per level: rounds played and won, the win rate with its 95% interval (each deal
seed, with all its seatings, one sample: `rummykit.arena.ratio_estimate`), the mean penalty
per round, games won (a shared victory counts for each winner), and the time spent per
decision.

>>> result = run_tournament(["easy", "random"], rounds=6, seed=1)
>>> result["rounds"] >= 6, sorted(result["bots"])
(True, ['easy', 'random'])
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rummykit import arena
from rummykit.core import JSON, IllegalAction
from rummykit.romme import GAME
from rummykit.romme.actions import Action
from rummykit.romme.bots import Bot
from rummykit.romme.rules import Rules
from rummykit.romme.view import View

MAX_ACTIONS_PER_ROUND = 4000
"""A round still running after this many actions is abandoned (and reported)."""


@dataclass
class Tally:
    """What one level did over a tournament."""

    rounds: int = 0
    rounds_won: int = 0
    penalty: int = 0
    games: int = 0
    games_won: int = 0
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    histogram: dict[int, int] = field(default_factory=dict)
    """Decisions per whole millisecond of thinking (0: under 1 ms), for the percentiles."""

    def add(self, other: Tally) -> None:
        for ms, count in other.histogram.items():
            self.histogram[ms] = self.histogram.get(ms, 0) + count
        self.rounds += other.rounds
        self.rounds_won += other.rounds_won
        self.penalty += other.penalty
        self.games += other.games
        self.games_won += other.games_won
        self.decisions += other.decisions
        self.seconds += other.seconds
        self.slowest = max(self.slowest, other.slowest)


@dataclass
class GameResult:
    tallies: dict[str, Tally] = field(default_factory=dict)
    rounds: int = 0
    abandoned: int = 0


def play_game(rules: Rules, seats: Sequence[str], seed: int, budget: float = 0.2) -> GameResult:
    """One whole game between the given levels (by seat), dealt from ``seed``."""
    result = GameResult({level: Tally() for level in seats})
    played = arena.play_game(
        GAME,
        rules,
        seats,
        seed,
        bot_seeds=[seed * 7919 + i for i in range(len(seats))],
        make_bot=lambda level, bot_seed: _Timed(
            _bot(level, bot_seed, budget, rules), result.tallies[level].histogram
        ),
        max_decisions_per_round=MAX_ACTIONS_PER_ROUND,
    )
    state = played.state
    result.abandoned = int(played.abandoned)
    for seat, level in enumerate(seats):
        tally = result.tallies[level]
        tally.decisions += played.decisions[seat]
        tally.seconds += played.seconds[seat]
        tally.slowest = max(tally.slowest, played.slowest[seat])
    for event in state.log:
        if event.get("code") != "round_end":
            continue
        result.rounds += 1
        winner = event.get("winner")
        penalties = event.get("penalties")
        assert isinstance(penalties, tuple)  # the log is read-only: its lists are tuples
        for seat, level in enumerate(seats):
            tally = result.tallies[level]
            tally.rounds += 1
            tally.penalty += int(penalties[seat])
            if winner == seat:
                tally.rounds_won += 1
    if state.is_over:
        for seat, level in enumerate(seats):
            result.tallies[level].games += 1
            if seat in state.winners:
                result.tallies[level].games_won += 1
    return result


class _Timed:
    """A bot whose every decision's time is counted in a histogram of whole milliseconds."""

    def __init__(self, bot: Bot, histogram: dict[int, int]) -> None:
        self.bot = bot
        self.level = bot.level
        self.histogram = histogram

    def choose(self, view: View) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view)
        ms = int(1000 * (time.perf_counter() - start))
        self.histogram[ms] = self.histogram.get(ms, 0) + 1
        return action


def percentile_ms(histogram: dict[int, int], share: float) -> int | None:
    """The decision time (whole milliseconds, rounded down) that ``share`` of the decisions
    counted in ``histogram`` do not exceed.

    >>> percentile_ms({0: 98, 5: 1, 250: 1}, 0.99), percentile_ms({0: 98, 5: 1, 250: 1}, 1.0)
    (5, 250)
    """
    total = sum(histogram.values())
    if not total:
        return None
    seen = 0
    for ms in sorted(histogram):
        seen += histogram[ms]
        if seen >= share * total:
            return ms
    return max(histogram)


def _bot(level: str, seed: int, budget: float, rules: Rules) -> Bot:
    from rummykit.romme.bot_levels import SolverBot
    from rummykit.romme.bots import make_bot

    bot = make_bot(level, seed)
    if isinstance(bot, SolverBot):
        bot.budget = budget
        bot.ceiling = max(bot.ceiling, 4 * budget)  # a hard limit never below the budget
        bot.prepare(rules)
    return bot


def _play_group(args: tuple[Rules, tuple[str, ...], int, bool, float]) -> GameResult:
    """One deal seed, played once per seating (every rotation when mirrored)."""
    rules, levels, seed, mirror, budget = args
    total = GameResult({level: Tally() for level in levels})
    for seats in arena.seatings(levels, mirror):
        game = play_game(rules, seats, seed, budget)
        for level, tally in game.tallies.items():
            total.tallies[level].add(tally)
        total.rounds += game.rounds
        total.abandoned += game.abandoned
    return total


def run_tournament(
    levels: Sequence[str],
    *,
    rounds: int = 2000,
    seed: int = 1,
    mirror: bool = True,
    jobs: int = 1,
    rules: Rules | None = None,
    budget: float = 0.2,
) -> dict[str, JSON]:
    """Play until at least ``rounds`` rounds are counted; a JSON-ready summary per level.

    The levels must be distinct (one seat each). Deal seeds are ``seed``, ``seed + 1``, …;
    ``jobs`` processes share the games. ``budget`` is each solver level's time per decision:
    when a lookahead runs short of it, the move can depend on the machine's load; with a
    budget no decision reaches, results depend only on the seed (not on ``jobs``).
    """
    rules = rules or Rules()
    levels = tuple(levels)
    if len(set(levels)) != len(levels):
        raise IllegalAction("bad_bots", reason="each level plays one seat", bots=list(levels))
    rules.check_players(len(levels))
    per_group = (rules.rounds or 1) * (len(levels) if mirror else 1)
    groups = max(1, math.ceil(rounds / per_group))
    tasks = [(rules, levels, seed + i, mirror, budget) for i in range(groups)]
    start = time.perf_counter()
    total = GameResult({level: Tally() for level in levels})
    progress = arena.Progress(groups * per_group, lambda r: r.rounds, _running(levels[0]))
    results = arena.run_jobs(_play_group, tasks, jobs=jobs, progress=progress)
    for result in results:
        for level, tally in result.tallies.items():
            total.tallies[level].add(tally)
        total.rounds += result.rounds
        total.abandoned += result.abandoned
    elapsed = time.perf_counter() - start
    bots: dict[str, JSON] = {}
    for level, t in total.tallies.items():
        rate = _win_rate(results, level)
        low, high = max(0.0, rate.low), min(1.0, rate.high)
        bots[level] = {
            "rounds": t.rounds,
            "rounds_won": t.rounds_won,
            "win_rate": round(t.rounds_won / t.rounds, 4) if t.rounds else None,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "mean_penalty": round(t.penalty / t.rounds, 2) if t.rounds else None,
            "games": t.games,
            "games_won": t.games_won,
            "decisions": t.decisions,
            "mean_decision_ms": round(1000 * t.seconds / t.decisions, 3) if t.decisions else None,
            "p99_decision_ms": percentile_ms(t.histogram, 0.99),
            "max_decision_ms": round(1000 * t.slowest, 1),
        }
    return {
        "players": len(levels),
        "bots_by_seat": list(levels),
        "rules": rules.to_json(),
        "seed": seed,
        "mirror": mirror,
        "deal_seeds": groups,
        "rounds": total.rounds,
        "abandoned_rounds": total.abandoned,
        "seconds": round(elapsed, 1),
        "bots": bots,
    }


def _win_rate(results: Sequence[GameResult], level: str) -> arena.Estimate:
    """Rounds won over rounds played, each deal seed (all its seatings) one sample."""
    tallies = [r.tallies[level] for r in results]
    return arena.ratio_estimate([t.rounds_won for t in tallies], [t.rounds for t in tallies])


def _running(level: str) -> Callable[[Sequence[GameResult]], str]:
    def describe(results: Sequence[GameResult]) -> str:
        rate = _win_rate(results, level)
        if not math.isfinite(rate.low):
            return f"{level} {100 * rate.mean:.1f}%"
        low, high = max(0.0, rate.low), min(1.0, rate.high)
        return f"{level} {100 * rate.mean:.1f}% ({100 * low:.1f}-{100 * high:.1f}%)"

    return describe
