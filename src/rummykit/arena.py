"""Bots against bots, for any game: seeded games, mirror pairing, intervals, processes, progress.

The simulations and strength measurements of every game (``rummykit simulate …``, the
strength figures in the README) are built from these pieces:

- `play_game` plays one game between computer players from a seed, through the game's
  descriptor (the same deal for the same seed, whatever the players do);
- `seatings` gives the mirror pairing: the same deals played once per rotation of the seats,
  so that every player gets every hand and luck of the deal cancels out;
- `ratio_estimate` is the one confidence interval: a total over a total (rounds won over
  rounds, chips over hands) with groups of games as the independent samples;
- `run_jobs` spreads tasks over processes and, for long runs, draws a progress bar on the
  error stream (rounds done, time left, the running result with its interval).

>>> from rummykit import tiles
>>> played = play_game(tiles.GAME, tiles.Rules(), ["random", "greedy"], seed=3)
>>> played.state.is_over, sum(played.decisions) > 0
(True, True)
>>> seatings(["a", "b", "c"], mirror=True)
[('a', 'b', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b')]
>>> ratio_estimate([6.0, 4.0, 5.0], [10, 10, 10]).to_json()
{'mean': 0.5, 'ci95': [0.3868, 0.6132]}
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rummykit.core import JSON, Bot, GameDescriptor, GameState, IllegalAction

StateT = TypeVar("StateT", bound=GameState[Any, Any, Any])
ViewT = TypeVar("ViewT")
ActionT = TypeVar("ActionT")
RulesT = TypeVar("RulesT")
TaskT = TypeVar("TaskT")
ResultT = TypeVar("ResultT")

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""


# --- one game --------------------------------------------------------------------------------


@dataclass
class Played(Generic[StateT]):
    """A game played to its end (or abandoned), with each seat's thinking: decisions taken,
    seconds spent and the slowest decision."""

    state: StateT
    decisions: list[int]
    seconds: list[float]
    slowest: list[float]
    abandoned: bool = False


def play_game(
    game: GameDescriptor[RulesT, StateT, ViewT, Any],
    rules: RulesT,
    levels: Sequence[str],
    seed: int,
    *,
    bot_seeds: Sequence[int] | None = None,
    make_bot: Callable[[str, int], Bot[ViewT, Any]] | None = None,
    view: Callable[[StateT, int], ViewT] | None = None,
    max_decisions_per_round: int | None = None,
) -> Played[StateT]:
    """One whole game with the bot of ``levels[seat]`` at each seat, dealt from ``seed``.

    Each bot decides from its seat's view (``view`` picks another view than
    ``state.view(seat)``); between rounds the game's safe move deals the next one. Bots are
    made by ``make_bot`` (default: the game's) with ``bot_seeds`` (default: the seat
    numbers). A round still running after ``max_decisions_per_round`` decisions abandons the
    game.
    """
    state = game.new_game(rules, len(levels), seed)
    make = make_bot or game.make_bot
    seeds = list(bot_seeds) if bot_seeds is not None else list(range(len(levels)))
    bots = [make(level, seeds[seat]) for seat, level in enumerate(levels)]
    see = view or (lambda s, seat: s.view(seat))
    n = len(levels)
    played = Played(state, [0] * n, [0.0] * n, [0.0] * n)
    in_round = 0
    while not state.is_over:
        seat = state.to_move
        if seat is None:
            state.apply(game.fallback_action(state, 0))
            in_round = 0
            continue
        seen = see(state, seat)
        start = time.perf_counter()
        action = bots[seat].choose(seen)
        spent = time.perf_counter() - start
        played.decisions[seat] += 1
        played.seconds[seat] += spent
        played.slowest[seat] = max(played.slowest[seat], spent)
        state.apply(action, seat)
        in_round += 1
        if max_decisions_per_round is not None and in_round > max_decisions_per_round:
            played.abandoned = True
            break
    return played


def check_match(levels: Sequence[str], known: Iterable[str], **counts: int) -> None:
    """Refuse a match before any game is dealt: a level the game has not (``bad_bot``), or a
    count (``games=…``, ``hands=…``) below one (``bad_<name>``)."""
    expected = sorted(known)
    for level in levels:
        if level not in expected:
            raise IllegalAction("bad_bot", level=level, expected=expected)
    for name, count in counts.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise IllegalAction(f"bad_{name}", **{name: count})


def seatings(levels: Sequence[str], mirror: bool) -> list[tuple[str, ...]]:
    """The seatings a deal is played with: every rotation of the seats when mirrored (for
    two players: the seats swapped), else the one given."""
    order = tuple(levels)
    if not mirror:
        return [order]
    return [order[shift:] + order[:shift] for shift in range(len(order))]


# --- the interval ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A ratio (a mean per unit) with its 95% confidence interval."""

    mean: float
    low: float
    high: float

    def to_json(self) -> dict[str, JSON]:
        return {"mean": round(self.mean, 4), "ci95": [round(self.low, 4), round(self.high, 4)]}


def ratio_estimate(values: Sequence[float], weights: Sequence[float]) -> Estimate:
    """Sum of ``values`` over sum of ``weights`` (rounds won over rounds played, chips won over
    hands), with a linearised 95% interval that treats each group (a deal played in every
    seating) as one independent sample. With every weight 1 it is the mean of the values and
    the usual interval of a mean.

    >>> ratio_estimate([1.0, 0.0, 1.0, 1.0], [1, 1, 1, 1]).mean
    0.75
    """
    total = sum(weights)
    if total == 0:
        return Estimate(0.0, 0.0, 0.0)
    ratio = sum(values) / total
    groups = len(values)
    if groups < 2:
        return Estimate(ratio, -math.inf, math.inf)
    mean_weight = total / groups
    residuals = [v - ratio * w for v, w in zip(values, weights, strict=True)]
    variance = sum(r * r for r in residuals) / (groups - 1) / groups / mean_weight**2
    half = Z95 * math.sqrt(variance)
    return Estimate(ratio, ratio - half, ratio + half)


def wilson(wins: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion of independent trials (95% by default), for
    a single run of trials that cannot be grouped; matches use `ratio_estimate`.

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if total == 0:
        return (0.0, 1.0)
    p = wins / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


# --- processes and progress ------------------------------------------------------------------


@dataclass(frozen=True)
class Progress(Generic[ResultT]):
    """How a long run reports itself: ``total`` units (rounds, hands) to play, the units a
    result brings (``units``) and a line on the results so far (``describe``, e.g. the running
    win rate with its interval)."""

    total: int
    units: Callable[[ResultT], int]
    describe: Callable[[Sequence[ResultT]], str]
    label: str = "rounds"


def run_jobs(
    function: Callable[[TaskT], ResultT],
    tasks: Iterable[TaskT],
    *,
    jobs: int = 1,
    progress: Progress[ResultT] | None = None,
) -> list[ResultT]:
    """``function`` over ``tasks`` in ``jobs`` processes, results in the order of the tasks
    (so that they never depend on ``jobs``). With ``progress``, and the error stream a
    terminal, a progress bar is drawn there; nothing is printed on the output."""
    todo = list(tasks)
    results: list[ResultT | None] = [None] * len(todo)
    with ProgressBar(progress) as bar:
        if jobs > 1 and len(todo) > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                futures = {pool.submit(function, task): i for i, task in enumerate(todo)}
                for future in as_completed(futures):
                    results[futures[future]] = future.result()
                    bar.advance(future.result(), [r for r in results if r is not None])
        else:
            for i, task in enumerate(todo):
                result = function(task)
                results[i] = result
                bar.advance(result, [r for r in results[: i + 1] if r is not None])
    return [r for r in results if r is not None]


class ProgressBar(Generic[ResultT]):
    """A rich progress bar on the error stream, drawn only when ``progress`` is given and the
    stream is a terminal (a context manager; `advance` after each result)."""

    def __init__(self, progress: Progress[ResultT] | None) -> None:
        self.progress = progress
        self.rich: Any = None
        if progress is None or not sys.stderr.isatty():
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichProgress

        self.rich = RichProgress(
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(progress.label),
            TimeElapsedColumn(),
            TextColumn("elapsed,"),
            TimeRemainingColumn(),
            TextColumn("left"),
            TextColumn("{task.description}"),
            console=Console(stderr=True),
            transient=True,
        )
        self.task = self.rich.add_task("", total=progress.total)

    def __enter__(self) -> ProgressBar[ResultT]:
        if self.rich is not None:
            self.rich.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.rich is not None:
            self.rich.stop()

    def advance(self, result: ResultT, results: Sequence[ResultT]) -> None:
        """Count ``result`` done; ``results`` are all those so far (for the running line)."""
        if self.rich is None or self.progress is None:
            return
        self.rich.update(
            self.task,
            advance=self.progress.units(result),
            description=self.progress.describe(results),
        )
