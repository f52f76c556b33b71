"""The site under load: one server process on SQLite, many games against the computer at once.

``rummykit bench web --json`` starts ``rummykit serve`` on a fresh SQLite file and a free port
of the loopback interface, then a load script plays ``games`` games at the same time through the
JSON API, each waiting for its turn on the game's WebSocket like a page does. The player draws
from the stock and discards its highest card (or its tile rummy counterpart: draws); the computer
seats play at their own level. Measured: a player's action from request to answer (the
computer's thinking comes after the answer, so it is not in this time, but the other games'
computer seats share the CPU), actions per second, and every stored step per second.
Nothing here asserts a speed.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import statistics
import tempfile
import time
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

from rummykit.bench.servers import Server, scratch_database
from rummykit.cards import Card
from rummykit.core import JSON
from rummykit.romme.rules import card_value

KEEPALIVE = 3.0
"""Seconds the load keeps an idle connection: less than the server's five, or a request sent
on a connection the server is closing at that moment fails."""


def person_client(url: str) -> Any:
    """One person's HTTP client, as a browser holds its own: a single connection kept alive,
    no cookies (each request names its seat in a header).

    A client shared by hundreds of people holds hundreds of connections, and httpcore looks
    at every one of them (asking each socket whether it has expired) for every request: at
    100 people that scan took 44% of the load generator's processor time, which then took a
    processor of its own from the server it measures (py-spy, `rummykit bench load
    --computer 100 --think 0.25`)."""
    import httpx

    limits = httpx.Limits(
        max_connections=1, max_keepalive_connections=1, keepalive_expiry=KEEPALIVE
    )
    jar = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
    return httpx.AsyncClient(base_url=url, timeout=60, limits=limits, cookies=jar)


def _choose(view: dict[str, Any]) -> dict[str, JSON]:
    """The load script's player: draw, then discard the highest card it may; next round."""
    if view["phase"] == "round_over":
        return {"t": "next_round"}
    if view["game"] == "tiles":
        return {"t": "draw"}
    if view["phase"] == "draw":
        return {"t": "draw", "source": "stock"}
    cards = [c for c in view["hand"] if c != view["picked"]]
    return {"t": "discard", "card": max(cards, key=lambda c: card_value(Card.parse(c)))}


class Load:
    def __init__(self, base: str, kind: str, level: str, opponents: int, until: float) -> None:
        self.base = base
        self.kind = kind
        self.level = level
        self.opponents = opponents
        self.until = until
        self.latencies: list[float] = []
        self.creations: list[float] = []
        self.steps = 0
        self.games = 0
        self.errors: list[str] = []

    async def play(self) -> None:
        async with person_client(self.base) as client:
            await self._play(client)

    async def _play(self, client: Any) -> None:
        import websockets

        while time.perf_counter() < self.until:
            started = time.perf_counter()
            answer = await client.post(
                "/api/games",
                json={"game": self.kind, "opponents": self.opponents, "level": self.level},
            )
            self.creations.append(time.perf_counter() - started)
            if answer.status_code != 201:
                self.errors.append(answer.text[:200])
                return
            data = answer.json()
            game_id, token = data["id"], data["token"]
            self.games += 1
            view = data["view"]
            ws_url = self.base.replace("http", "ws") + f"/ws/games/{game_id}?since={view['seq']}"
            headers = {"X-Seat-Token": token}
            async with websockets.connect(ws_url, additional_headers=headers) as socket:
                while time.perf_counter() < self.until and view["phase"] != "game_over":
                    while not (view["to_move"] == 0 or view["phase"] == "round_over"):
                        message = json.loads(await socket.recv())
                        if message["v"] > view["seq"]:
                            view = message["d"]
                        if view["phase"] == "game_over":
                            break
                    if view["phase"] == "game_over":
                        break
                    action = _choose(view)
                    started = time.perf_counter()
                    answer = await client.post(
                        f"/api/games/{game_id}/actions",
                        json={"seq": view["seq"], "action": action},
                        headers=headers,
                    )
                    self.latencies.append(time.perf_counter() - started)
                    if answer.status_code != 200:
                        self.errors.append(answer.text[:200])
                        view = (answer.json().get("view")) or view
                        continue
                    view = answer.json()
            self.steps += int(view["seq"])


def _backend(database: str | None) -> str:
    from sqlalchemy.engine import make_url

    return make_url(database).get_backend_name() if database else "sqlite"


def _ms(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return round(ordered[index] * 1000, 2)


def run(
    games: int = 20,
    seconds: float = 20.0,
    kind: str = "romme",
    level: str = "easy",
    opponents: int = 2,
    database: str | None = None,
    profile: str | None = None,
) -> dict[str, JSON]:
    """Serve ``games`` simultaneous games for about ``seconds`` and report the figures."""
    with tempfile.TemporaryDirectory() as folder, scratch_database(database) as scratch:
        running = Server(Path(folder), scratch, profile=profile)
        try:
            load, elapsed = _drive(running.url, games, seconds, kind, level, opponents)
        finally:
            running.stop()
    actions = len(load.latencies)
    return {
        "game": kind,
        "level": level,
        "opponents": opponents,
        "simultaneous_games": games,
        "games_started": load.games,
        "seconds": round(elapsed, 2),
        "player_actions": actions,
        "player_actions_per_second": round(actions / elapsed, 1),
        "stored_steps": load.steps,
        "stored_steps_per_second": round(load.steps / elapsed, 1),
        "action_latency_ms": {
            "p50": _ms(load.latencies, 0.5),
            "p90": _ms(load.latencies, 0.9),
            "p99": _ms(load.latencies, 0.99),
            "max": _ms(load.latencies, 1.0),
            "mean": round(statistics.fmean(load.latencies) * 1000, 2) if actions else None,
        },
        "create_latency_ms": {"p50": _ms(load.creations, 0.5), "p99": _ms(load.creations, 0.99)},
        "errors": len(load.errors),
        "first_errors": load.errors[:3],
        "database": _backend(database),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }


def _drive(
    base: str, games: int, seconds: float, kind: str, level: str, opponents: int
) -> tuple[Load, float]:
    """Play ``games`` games at once against the server at ``base`` for ``seconds``."""

    async def main() -> Load:
        load = Load(base, kind, level, opponents, time.perf_counter() + seconds)
        await asyncio.gather(*(load.play() for _ in range(games)))
        return load

    started = time.perf_counter()
    load = asyncio.run(main())
    return load, time.perf_counter() - started
