"""Rommé engine speed: replaying recorded games, and whole rounds between random bots.

``replay``: random games are played and recorded first (not timed); then every record is
replayed from its JSON form, each action parsed and fully checked by the engine (taking the
discard under "must_use" included), on one core, five times over (the best and the median
pass are reported). ``random_rounds``: whole rounds between random
bots, each decision made from the seat's view. Printed by ``rummykit bench romme-engine --json``;
nothing here asserts a speed.
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import time

from rummykit.core import JSON, Record
from rummykit.romme.game import replay
from rummykit.romme.rules import Rules
from rummykit.romme.simulate import play_game

PRESETS = ("standard", "computer", "german_club")


def record_games(rules: Rules, games: int, seed: int) -> list[Record]:
    """Random games for 2 to 6 players, one round each, as records (JSON round-tripped)."""
    rng = random.Random(seed)
    records = []
    for index in range(games):
        players = 2 + index % 5
        state = play_game(rules, ["random"] * players, rng.getrandbits(32))
        records.append(Record.loads(state.record().dumps()))
    return records


def replay_speed(records: list[Record], repeats: int = 5) -> dict[str, JSON]:
    """Replay every record ``repeats`` times; the best and the median pass are reported (the
    best is the least disturbed by other work on the machine)."""
    actions = sum(len(r.actions) for r in records)
    passes = []
    for _ in range(repeats):
        start = time.perf_counter()
        for record in records:
            replay(record)
        passes.append(time.perf_counter() - start)
    best, median = min(passes), statistics.median(passes)
    return {
        "games": len(records),
        "actions": actions,
        "repeats": repeats,
        "best_seconds": round(best, 4),
        "median_seconds": round(median, 4),
        "actions_per_second": round(actions / best),
        "actions_per_second_median": round(actions / median),
    }


def random_rounds(rules: Rules, rounds: int, seed: int) -> dict[str, JSON]:
    """Whole rounds between random bots (2 to 6 players, one-round games)."""
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for index in range(rounds):
        state = play_game(rules, ["random"] * (2 + index % 5), rng.getrandbits(32))
        actions += len(state.actions)
    elapsed = time.perf_counter() - start
    return {
        "rounds": rounds,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "rounds_per_second": round(rounds / elapsed, 2),
        "actions_per_second": round(actions / elapsed),
    }


def run(games: int = 40, rounds: int = 40, seed: int = 1) -> dict[str, JSON]:
    replayed: dict[str, JSON] = {}
    played: dict[str, JSON] = {}
    for name in PRESETS:
        rules = Rules.preset(name).replace(rounds=1, point_limit=None)
        replayed[name] = replay_speed(record_games(rules, games, seed))
        played[name] = random_rounds(rules, rounds, seed + 1)
    return {
        "benchmark": "romme-engine",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "replay": replayed,
        "random_rounds": played,
    }
