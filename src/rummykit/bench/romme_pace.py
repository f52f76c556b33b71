"""How fast each Rommé level goes out, and how fast any player at all could.

``rummykit bench romme-pace --json`` deals the same seeded rounds to every level and lets it
play alone: the other seat only draws from the stock and throws the drawn card away, so it
never opens, never lays a card to lay off onto and never feeds a meld on purpose. What is
counted is the number of draws the level needs to go out.

Beside the levels, a **clairvoyant** count: the fewest draws after which the seat could go out
if it knew the order of the stock (every card it would draw, both seats drawing from the
stock), found exactly by the solver (the most cards the seen cards meld, with one card left for
the discard). No real player can beat it by drawing from the stock; it sets the ceiling of the
strength any bot can reach against a fast opponent.

From these counts, the ``random`` level's chance of going out first against each level is
estimated as if the two played their deals independently, each moving first half the time. The
tournament measures the real figure (``rummykit simulate romme``); the estimate says how much of
it is the rules' own luck. Nothing here asserts a speed or a strength.
"""

from __future__ import annotations

import os
import platform
import statistics
from collections.abc import Sequence

from rummykit import arena
from rummykit.core import JSON
from rummykit.romme.actions import Discard, Draw
from rummykit.romme.bots import Bot, make_bot
from rummykit.romme.game import State
from rummykit.romme.rules import Rules
from rummykit.romme.strategy import melds_at_most
from rummykit.romme.view import View

LEVELS = ("random", "easy", "medium", "hard")
MAX_DRAWS = 80
"""A level still in play after this many draws counts as not going out (``MAX_DRAWS + 1``)."""


class StockOnly:
    """The other seat: draws from the stock and discards the card it drew."""

    def choose(self, view: View) -> Draw | Discard:
        if view.phase == "draw":
            return Draw("stock")
        return Discard(view.hand[-1])


def draws_alone(level: str, rules: Rules, seed: int) -> int:
    """Draws the level at seat 0 needs to go out in the round dealt from ``seed``, the other
    seat playing `StockOnly`."""
    state = State(rules.replace(rounds=1, point_limit=None), 2, seed)
    players: dict[int, Bot | StockOnly] = {0: make_bot(level, seed * 7919 + 1), 1: StockOnly()}
    draws = 0
    while state.to_move is not None and draws <= MAX_DRAWS:
        seat = state.to_move
        view = state.view(seat)
        if seat == 0 and view.phase == "draw":
            draws += 1
        state.apply(players[seat].choose(view), seat)
    won = any(e.get("code") == "round_end" and e.get("winner") == 0 for e in state.log)
    return draws if won else MAX_DRAWS + 1


def clairvoyant_draws(rules: Rules, seed: int) -> int:
    """The fewest draws after which seat 0 could go out in the round dealt from ``seed``,
    knowing the order of the stock (both seats draw from it in turn; discards are not taken)."""
    state = State(rules.replace(rounds=1, point_limit=None), 2, seed)
    # Under "dealer_left_extra" the first player starts with the extra card and does not draw,
    # so the other seat draws first; under "upcard" the first player draws first.
    draws_first = (state.to_move == 0) == (state.phase == "draw")
    seen = list(state.hands[0])
    size = rules.hand_size + 1  # the hand at each discard
    stock = list(state.stock)  # drawn from the end
    if len(seen) == size and melds_at_most(seen, rules) >= size - 1:
        return 0
    for draws in range(1, MAX_DRAWS + 1):
        position = 2 * draws - 1 if draws_first else 2 * draws
        if position > len(stock):
            break
        seen.append(stock[-position])
        if melds_at_most(seen, rules) >= size - 1:
            return draws
    return MAX_DRAWS + 1


def random_first_chance(random_draws: Sequence[int], level_draws: Sequence[int]) -> float:
    """The chance that ``random`` goes out before the level, the two drawing independently from
    these counts and each moving first half the time (a tie goes to the one who moves first)."""
    total = 0.0
    for r in random_draws:
        for d in level_draws:
            total += 0.5 * (r <= d) + 0.5 * (r < d)
    return total / (len(random_draws) * len(level_draws))


def _counts(args: tuple[str, Rules, int]) -> int:
    name, rules, seed = args
    if name == "clairvoyant":
        return clairvoyant_draws(rules, seed)
    return draws_alone(name, rules, seed)


def summary(draws: Sequence[int]) -> dict[str, JSON]:
    finished = [d for d in draws if d <= MAX_DRAWS]
    return {
        "deals": len(draws),
        "mean_draws": round(statistics.mean(draws), 2),
        "median_draws": statistics.median(draws),
        "out_within_6": round(sum(d <= 6 for d in draws) / len(draws), 4),
        "out_within_9": round(sum(d <= 9 for d in draws) / len(draws), 4),
        "out_within_12": round(sum(d <= 12 for d in draws) / len(draws), 4),
        "not_out": len(draws) - len(finished),
    }


def run(
    deals: int = 300,
    seed: int = 1,
    levels: Sequence[str] = LEVELS,
    jobs: int = 1,
    rules: Rules | None = None,
) -> dict[str, JSON]:
    rules = rules or Rules()
    names = list(dict.fromkeys(["random", *levels, "clairvoyant"]))
    tasks = [(name, rules, seed + i) for name in names for i in range(deals)]
    counts = arena.run_jobs(_counts, tasks, jobs=jobs)
    by_name = {name: counts[i * deals : (i + 1) * deals] for i, name in enumerate(names)}
    rows: dict[str, JSON] = {}
    for name, draws in by_name.items():
        row = summary(draws)
        if name != "random":
            row["random_first_estimate"] = round(random_first_chance(by_name["random"], draws), 4)
        rows[name] = row
    return {
        "benchmark": "romme-pace",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "rules": rules.to_json(),
        "seed": seed,
        "deals": deals,
        "levels": rows,
    }
