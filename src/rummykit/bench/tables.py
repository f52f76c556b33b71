"""Move delivery at tables of people: from one player's action to the other players' sockets.

``rummykit bench tables --json`` starts one or more ``rummykit serve`` processes on one database
(a fresh SQLite file for one process; PostgreSQL by ``--database`` and Redis by ``--redis``
for several), opens ``tables`` Rommé tables of ``players`` people each (no computer seat, no
turn timer), and connects every player like a page does: the game's socket and the table's
socket, player ``i`` of a table on process ``i % processes`` (so with two processes every move
crosses from one process to the other for half of the readers). The player to move draws from
the stock and discards its highest card; the others wait.

The tables are set up first (``setup_seconds``); then the players play for ``seconds``.
Measured, for each action: from the moment its request leaves the player to the moment each
other player's game socket brings the step it made (``delivery_ms``), and the table socket the
new turn (``table_delivery_ms``); and the request's own answer time. Nothing here asserts a
speed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import platform
import random
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeGuard

from rummykit.bench.load import THINK_SEED, percentiles
from rummykit.bench.servers import Server
from rummykit.bench.web import _choose, person_client
from rummykit.core import JSON

LONG_GAME = {"rounds": 50, "stock_exhausted": "reshuffle"}
"""Rules of a game that lasts longer than any run."""


@contextlib.contextmanager
def servers(
    folder: Path, count: int, database: str | None, redis: str | None, poll: float
) -> Iterator[list[str]]:
    """``count`` server processes on one database, started one after the other (the first
    migrates the database alone); yields their base URLs."""
    env = {"RUMMYKIT_BOT_WORKERS": "0", "RUMMYKIT_POLL_SECONDS": str(poll)}
    started: list[Server] = []
    try:
        for _ in range(count):
            started.append(Server(folder, database, redis=redis, env=env))
        yield [server.url for server in started]
    finally:
        for server in started:
            server.stop()


DRAIN_SECONDS = 2.0
"""How long the pages keep listening once the measure ends (no move is made then), for the
deliveries of the last moves."""


class Load:
    """The players of every table, and what they measured."""

    def __init__(
        self,
        urls: list[str],
        until: float,
        think: float = 0.0,
        connect_limit: asyncio.Semaphore | None = None,
    ) -> None:
        self.urls = urls
        self.until = until
        # When the measure began: a move sent before it, and its deliveries, are not counted
        # (its deliveries may still arrive after the counters were cleared).
        self.since = 0.0
        # Seconds a person takes before each move on average (0: at once, the server
        # saturated); each pause is drawn between half and one and a half times that, so that
        # the tables, set up together, do not all move at the same instant ever after.
        self.think = think
        self.pauses = random.Random(THINK_SEED)
        # At most so many handshakes at a time (None: no limit).
        self.connect_limit = connect_limit
        self.sockets = 0
        self.sent: dict[tuple[str, int], tuple[float, int]] = {}
        self.delivery: list[float] = []
        self.table_delivery: list[float] = []
        self.answers: list[float] = []
        self.errors: list[str] = []
        self.moves = 0
        self.seen: set[tuple[str, int, int]] = set()
        self.setup_seconds = 0.0

    async def setup(self, clients: list[Any], players: int) -> tuple[str, str, list[str]] | None:
        """A started table of ``players`` people: its id, its game's id, their tokens."""
        seats = [{"kind": "person"}] * players
        made = await _post(
            clients[0],
            "/api/tables",
            json={"game": "romme", "nickname": "P0", "seats": seats, "timer": 0,
                  "rules": LONG_GAME},
        )  # fmt: skip
        if made.status_code != 201:
            self.errors.append(made.text[:200])
            return None
        table_id, tokens = made.json()["id"], [made.json()["token"]]
        clients[0].cookies.clear()  # each player names their token in a header
        for index in range(1, players):
            client = clients[index % len(clients)]
            joined = await _post(
                client, f"/api/tables/{table_id}/join", json={"nickname": f"P{index}"}
            )
            client.cookies.clear()
            tokens.append(joined.json()["token"])
        started = await _post(
            clients[0], f"/api/tables/{table_id}/start", headers={"X-Table-Token": tokens[0]}
        )
        if started.status_code != 200:
            self.errors.append(started.text[:200])
            return None
        return table_id, started.json()["game_id"], tokens

    async def table(
        self, clients: list[Any], table_id: str, game_id: str, tokens: list[str]
    ) -> None:
        await asyncio.gather(
            *(
                self.player(clients[i % len(clients)], table_id, game_id, token, i)
                for i, token in enumerate(tokens)
            )
        )

    async def _open(self, url: str, headers: dict[str, str]) -> Any:
        import websockets

        async with self.connect_limit or contextlib.nullcontext():
            return await websockets.connect(url, additional_headers=headers, open_timeout=60)

    async def player(self, client: Any, table_id: str, game_id: str, token: str, seat: int) -> None:
        """One person at the table, with a client of their own on ``client``'s server (the
        shared one set the tables up)."""
        async with person_client(str(client.base_url)) as own:
            await self._play(own, table_id, game_id, token, seat)

    async def _play(self, client: Any, table_id: str, game_id: str, token: str, seat: int) -> None:
        import httpx

        base = str(client.base_url).replace("http", "ws")
        headers = {"X-Table-Token": token}
        async with (
            await self._open(f"{base}/ws/games/{game_id}", headers) as game,
            await self._open(f"{base}/ws/tables/{table_id}", headers) as tab,
        ):
            self.sockets += 2
            watcher = asyncio.create_task(self._table_socket(tab, table_id, seat))
            acted = -1
            try:
                # Past the end of the measure nobody moves, but every page listens a little
                # longer: each move already made then reaches all the others and is counted.
                while (left := self.until + DRAIN_SECONDS - time.perf_counter()) > 0:
                    try:
                        raw = await asyncio.wait_for(game.recv(), left)
                    except TimeoutError:
                        break
                    message = json.loads(raw)
                    now = time.perf_counter()
                    view = message["d"]
                    seq = int(view["seq"])
                    sent = self.sent.get((game_id, seq))
                    if self._counted(sent, seat) and view.get("step"):
                        self.delivery.append(now - sent[0])
                    if (
                        view["to_move"] != seat
                        or seq <= acted
                        or view["phase"] == "game_over"
                        or now >= self.until  # the measure is over: no more moves
                    ):
                        continue
                    acted = seq
                    if self.think:
                        await asyncio.sleep(self.think * self.pauses.uniform(0.5, 1.5))
                    action = _choose(view)
                    started = time.perf_counter()
                    self.sent[(game_id, seq + 1)] = self.sent[(table_id, seq + 1)] = (started, seat)
                    try:
                        answer = await client.post(
                            f"/api/games/{game_id}/actions",
                            json={"seq": seq, "action": action},
                            headers=headers,
                        )
                    except httpx.TransportError as err:
                        self.errors.append(repr(err))
                        continue
                    if answer.status_code != 200:
                        self.errors.append(answer.text[:200])
                    elif started >= self.since:
                        self.answers.append(time.perf_counter() - started)
                        self.moves += 1
            finally:
                watcher.cancel()
                self.sockets -= 2

    def _counted(self, sent: tuple[float, int] | None, seat: int) -> TypeGuard[tuple[float, int]]:
        """Whether a step's arrival at ``seat`` is a delivery to count: another player's
        move, sent since the measure began."""
        return sent is not None and sent[1] != seat and sent[0] >= self.since

    async def _table_socket(self, socket: Any, table_id: str, seat: int) -> None:
        with contextlib.suppress(Exception):
            while True:
                message = json.loads(await socket.recv())
                now = time.perf_counter()
                # The whole view first ("d"), then what changed ("p"): a move changes the turn.
                turn = (message.get("d") or message.get("p") or {}).get("turn")
                if turn is None:
                    continue
                seq = int(turn["seq"])
                sent = self.sent.get((table_id, seq))
                if self._counted(sent, seat) and (table_id, seq, seat) not in self.seen:
                    self.seen.add((table_id, seq, seat))
                    self.table_delivery.append(now - sent[0])


async def _post(client: Any, path: str, **kwargs: Any) -> Any:
    """A request of the set-up, sent again after a connection the server closed meanwhile (a
    kept-alive connection may close just as it is reused)."""
    import httpx

    for attempt in range(3):
        try:
            return await client.post(path, **kwargs)
        except httpx.TransportError:
            if attempt == 2:
                raise
            await asyncio.sleep(0.5)
    raise AssertionError("unreachable")


def run(
    tables: int = 50,
    players: int = 4,
    seconds: float = 30.0,
    processes: int = 1,
    database: str | None = None,
    redis: str | None = None,
    poll: float | None = None,
) -> dict[str, JSON]:
    """Serve ``tables`` tables of ``players`` people for about ``seconds`` and report.

    ``poll``: seconds between two looks of an idle socket at the database (the safety net of
    live updates; default 5, or 30 with Redis, which brings every change at once)."""
    if poll is None:
        poll = 30.0 if redis else 5.0
    import httpx

    if processes > 1 and database is None:
        raise ValueError("several processes need one database server (--database)")
    with (
        tempfile.TemporaryDirectory() as folder,
        servers(Path(folder), processes, database, redis, poll) as urls,
    ):

        async def main() -> Load:
            size = tables * players * 2
            limits = httpx.Limits(max_connections=size, max_keepalive_connections=size)
            clients = [httpx.AsyncClient(base_url=url, timeout=60, limits=limits) for url in urls]
            try:
                load = Load(urls, 0.0)
                ready = time.perf_counter()
                made = await asyncio.gather(*(load.setup(clients, players) for _ in range(tables)))
                load.setup_seconds = time.perf_counter() - ready
                load.until = time.perf_counter() + seconds
                await asyncio.gather(*(load.table(clients, *m) for m in made if m is not None))
            finally:
                for client in clients:
                    await client.aclose()
            return load

        load = asyncio.run(main())
        elapsed = seconds
    return {
        "tables": tables,
        "players_per_table": players,
        "processes": processes,
        "database": "sqlite" if database is None else database.split(":", 1)[0],
        "redis": bool(redis),
        "poll_seconds": poll,
        "setup_seconds": round(load.setup_seconds, 2),
        "seconds": round(elapsed, 2),
        "moves": load.moves,
        "moves_per_second": round(load.moves / elapsed, 1),
        "delivery_ms": percentiles(load.delivery),
        "table_delivery_ms": percentiles(load.table_delivery),
        "answer_ms": percentiles(load.answers),
        "errors": len(load.errors),
        "first_errors": load.errors[:3],
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }
