"""Score-sheet speed: what one request costs, without HTTP.

``replay``: rebuilding a sheet of six players from its record (every action checked again),
for a short and a very long evening. ``store``: on a SQLite file in a temporary folder, what
the site does for each entry (load the sheet, replay it, check the round, append it with its
version) and for each page (load and replay). Printed by ``rummykit bench scoresheet --json``;
nothing here asserts a speed.
"""

from __future__ import annotations

import asyncio
import os
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path

from rummykit.core import JSON, Record
from rummykit.scoresheet import CorrectRound, EnterRound, Join, Settings, Sheet, replay
from rummykit.store import Database, SheetRepository

PLAYERS = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"]


def evening(rounds: int, seed: int) -> Sheet:
    """A sheet with ``rounds`` rounds, a late joiner and a correction every tenth round."""
    rng = random.Random(seed)
    sheet = Sheet(Settings("bench", limit=100_000), PLAYERS[:5])
    for number in range(1, rounds + 1):
        if number == 3:
            sheet.apply(Join(PLAYERS[5]))
        players = [p.id for p in sheet.active_players]
        out = rng.choice(players)
        points = {p: 0 if p == out else rng.randrange(1, 80) for p in players}
        sheet.apply(EnterRound.of(points, out))
        if number % 10 == 0:
            sheet.apply(CorrectRound.of(number, {**points, out: -100}, out))
    return sheet


def replay_speed(rounds: int, repeats: int, seed: int) -> dict[str, JSON]:
    record = Record.loads(evening(rounds, seed).record().dumps())
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        replay(record)
        times.append(time.perf_counter() - start)
    return {
        "rounds": rounds,
        "actions": len(record.actions),
        "median_ms": round(statistics.median(times) * 1000, 3),
    }


async def store_speed(rounds: int, folder: Path, seed: int) -> dict[str, JSON]:
    db = Database(f"sqlite:///{folder / 'bench.sqlite3'}")
    await db.migrate()
    sheets = SheetRepository(db)
    rng = random.Random(seed)
    sheet_id = await sheets.create("bench", 100_000, PLAYERS, "en")
    entry_times = []
    for version in range(rounds):
        points = {p: rng.randrange(0, 80) for p in range(len(PLAYERS))}
        start = time.perf_counter()
        stored = await sheets.load(sheet_id)
        sheet = replay(stored.record)
        action = EnterRound.of(points)
        sheet.apply(action)
        await sheets.append(sheet_id, version, action.to_json())
        entry_times.append(time.perf_counter() - start)
    page_times = []
    for _ in range(20):
        start = time.perf_counter()
        replay((await sheets.load(sheet_id)).record).standings()
        page_times.append(time.perf_counter() - start)
    await db.dispose()
    return {
        "rounds": rounds,
        "entry_median_ms_first_10": round(statistics.median(entry_times[:10]) * 1000, 2),
        "entry_median_ms_last_10": round(statistics.median(entry_times[-10:]) * 1000, 2),
        "load_and_replay_median_ms": round(statistics.median(page_times) * 1000, 2),
    }


def run(rounds: int = 300, seed: int = 1) -> dict[str, JSON]:
    with tempfile.TemporaryDirectory() as folder:
        stored = asyncio.run(store_speed(rounds, Path(folder), seed))
    return {
        "benchmark": "scoresheet",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "replay": [replay_speed(n, 20, seed) for n in (30, rounds)],
        "store_sqlite": stored,
    }
