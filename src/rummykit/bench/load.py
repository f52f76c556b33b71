"""A load generator: real WebSocket clients against one or several server processes.

``rummykit bench load`` starts the site (``--processes`` servers on ``--database``, with
``--redis`` and nginx in front when there are several) or drives one already running
(``--url``), then runs scenarios at the same time, each a kind of visitor:

- ``computer``: people playing against the computer, each through the JSON API and the
  game's WebSocket like a page (an action answered, then the socket waited on for the turn,
  then a pause of about ``think`` seconds as a person takes, none by default);
  measured: each action from request to answer, and the delivery of the player's own step on
  its socket after the answer;
- ``watchers``: idle score-sheet pages, each an open WebSocket that only listens (server memory
  per open socket);
- ``fanout``: one sheet followed by many pages, a round entered now and then; measured: each
  page's delay from the entry to the version reaching it;
- ``tables``: tables of four people (the friends' tables), their players spread over the
  server processes; measured: each move's delivery to the other players' sockets.

A scenario is a class with a name, its options and an ``async run(context)``; a new kind of
visitor (spectators, say) is one more class in `SCENARIOS`. Figures come out as
JSON: throughput, p50/p90/p99 of actions and deliveries, errors, the servers' memory (and per
open socket) and CPU, and the generator's own CPU (it shares the machine with the site).
Nothing here asserts a speed.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import platform
import random
import resource
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import orjson

from rummykit.bench.servers import Front, Server, free_port, scratch_database
from rummykit.bench.web import _choose, _ms, person_client
from rummykit.core import JSON
from rummykit.store.sheets import view_token

THINK_SEED = 1
"""Seed of the people's pauses: the same run draws the same ones."""

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


FRACTIONS = {"p50": 0.5, "p90": 0.9, "p99": 0.99, "max": 1.0}


def percentiles(values: list[float]) -> dict[str, float | None]:
    """p50, p90, p99 and max of seconds, in milliseconds (None when there is no value)."""
    if not values:
        return {"p50": None, "p90": None, "p99": None, "max": None, "count": 0}
    at = {name: _ms(values, fraction) for name, fraction in FRACTIONS.items()}
    return {**at, "count": len(values)}


@dataclass
class Metrics:
    """What the scenarios measure, shared by all of them."""

    actions: list[float] = field(default_factory=list)
    deliveries: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sockets: int = 0
    extra: dict[str, JSON] = field(default_factory=dict)

    def error(self, text: str) -> None:
        self.errors.append(text[:200])


@dataclass
class Context:
    """Where the scenarios play: the site's address, its server processes (when started
    here), until when, and the shared figures."""

    url: str
    until: float
    metrics: Metrics
    servers: list[Server]
    front: Front | None = None
    connect_limit: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(100))

    @property
    def ws_url(self) -> str:
        return self.url.replace("http", "ws", 1)

    async def socket(self, path: str, headers: dict[str, str] | None = None) -> Any:
        """A WebSocket to ``path`` (at most 100 handshakes at a time)."""
        import websockets

        async with self.connect_limit:
            return await websockets.connect(
                self.ws_url + path,
                additional_headers=headers or {},
                open_timeout=60,
                ping_interval=None,
                max_queue=64,
            )


class Scenario:
    """A kind of visitor; ``count`` of them at once."""

    name: ClassVar[str]

    def __init__(self, count: int) -> None:
        self.count = count

    async def run(self, context: Context) -> None:
        raise NotImplementedError


class Computer(Scenario):
    """People playing Rommé against two ``easy`` computers, as the table's page does; each
    person pauses before an action (``think`` seconds on average, drawn between half and one
    and a half times that: people who all act at once would measure a queue, not a site)."""

    name = "computer"
    level = "easy"
    think = 0.0

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.pauses = random.Random(THINK_SEED)

    async def run(self, context: Context) -> None:
        await asyncio.gather(*(self.play(context) for _ in range(self.count)))

    async def play(self, context: Context) -> None:
        async with person_client(context.url) as client:
            await self._play(context, client)

    async def _play(self, context: Context, client: Any) -> None:
        import websockets

        metrics = context.metrics
        while time.perf_counter() < context.until:
            answer = await client.post(
                "/api/games", json={"game": "romme", "opponents": 2, "level": self.level}
            )
            if answer.status_code != 201:
                metrics.error(answer.text)
                await asyncio.sleep(1)
                continue
            data = orjson.loads(answer.content)
            game_id, headers = data["id"], {"X-Seat-Token": data["token"]}
            view = data["view"]
            try:
                socket = await context.socket(f"/ws/games/{game_id}?since={view['seq']}", headers)
            except (OSError, websockets.WebSocketException) as err:
                metrics.error(repr(err))
                continue
            metrics.sockets += 1
            try:
                await self.game(context, client, socket, game_id, headers, view)
            except (OSError, websockets.WebSocketException, TimeoutError) as err:
                metrics.error(repr(err))
            finally:
                metrics.sockets -= 1
                await socket.close()

    async def game(
        self,
        context: Context,
        client: Any,
        socket: Any,
        game_id: str,
        headers: dict[str, str],
        view: dict[str, Any],
    ) -> None:
        metrics = context.metrics
        answered: dict[int, float] = {}

        async def hear(timeout: float) -> bool:
            """Take in the socket's next message, if one comes within ``timeout`` seconds."""
            nonlocal view
            try:
                message = orjson.loads(await asyncio.wait_for(socket.recv(), timeout))
            except TimeoutError:
                return False
            seq = message["v"]
            if seq in answered:
                metrics.deliveries.append(time.perf_counter() - answered.pop(seq))
            if seq > view["seq"]:
                view = message["d"]
            return True

        while time.perf_counter() < context.until and view["phase"] != "game_over":
            while not (view["to_move"] == 0 or view["phase"] in ("round_over", "game_over")):
                if not await hear(60):
                    raise TimeoutError("no turn came back within 60 s")
            if view["phase"] == "game_over":
                return
            if self.think:
                # the person thinks; the page meanwhile takes in what its socket brings
                until = time.perf_counter() + self.think * self.pauses.uniform(0.5, 1.5)
                while (left := until - time.perf_counter()) > 0:
                    await hear(left)
            started = time.perf_counter()
            answer = await client.post(
                f"/api/games/{game_id}/actions",
                json={"seq": view["seq"], "action": _choose(view)},
                headers=headers,
            )
            done = time.perf_counter()
            metrics.actions.append(done - started)
            if answer.status_code != 200:
                metrics.error(answer.text)
                view = orjson.loads(answer.content).get("view") or view
                continue
            view = orjson.loads(answer.content)
            answered[view["seq"]] = done


async def _new_sheet(client: Any, name: str) -> str:
    answer = await client.post("/api/sheets", json={"name": name, "players": ["Ana", "Ben"]})
    answer.raise_for_status()
    sheet_id: str = answer.json()["id"]
    return sheet_id


class Watchers(Scenario):
    """Idle score-sheet pages: each opens the sheet's WebSocket (every other one by its
    read-only link) and listens (ten a sheet)."""

    name = "watchers"
    per_sheet = 10

    async def run(self, context: Context) -> None:
        import httpx

        async with httpx.AsyncClient(base_url=context.url, timeout=60) as client:
            sheets = [
                await _new_sheet(client, f"Watched {i}")
                for i in range(max(1, self.count // self.per_sheet))
            ]
        # Opened in two halves, the memory read before, between and after: the average over
        # all of them includes what the servers grow once (their first checks fill caches and
        # pools), the second half alone is what one more socket costs.
        half = self.count // 2
        marks = [self.measure(context)]
        connecting = 0.0
        sockets: list[Any] = []
        for part in (range(half), range(half, self.count)):
            started = time.perf_counter()
            sockets += await asyncio.gather(
                *(self.open(context, sheets[i % len(sheets)], read_only=i % 2 == 1) for i in part)
            )
            connecting += time.perf_counter() - started
            await asyncio.sleep(2)  # the servers settle
            marks.append(self.measure(context))
        opened = [s for s in sockets if s is not None]
        extra = context.metrics.extra
        extra["watchers_connect_seconds"] = round(connecting, 2)
        extra["watchers_open"] = len(opened)
        second = sum(1 for s in sockets[half:] if s is not None)
        first, middle, last = marks
        if first[0] is not None and last[0] is not None and opened:
            extra["server_bytes_per_idle_socket"] = round((last[0] - first[0]) / len(opened))
            if middle[0] is not None and second:
                extra["server_bytes_per_added_socket"] = round((last[0] - middle[0]) / second)
            if context.front is not None:
                extra["of_which_processes_bytes"] = round((last[1] - first[1]) / len(opened))
                if second:
                    extra["of_which_processes_bytes_added"] = round((last[1] - middle[1]) / second)
        await asyncio.sleep(max(0.0, context.until - time.perf_counter()))
        await asyncio.gather(*(s.close() for s in opened), return_exceptions=True)

    @staticmethod
    def measure(context: Context) -> tuple[int | None, int]:
        """The memory of the servers with nginx, and of the servers alone (bytes)."""
        return _memory(context.servers, context.front), _memory(context.servers) or 0

    async def open(self, context: Context, sheet_id: str, read_only: bool) -> Any:
        """A page following the sheet: every other one through its read-only link."""
        import websockets

        address = f"/ws/view/{view_token(sheet_id)}" if read_only else f"/ws/sheet/{sheet_id}"
        try:
            socket = await context.socket(address)
            await asyncio.wait_for(socket.recv(), 60)  # the version, sent at once
        except (OSError, websockets.WebSocketException, TimeoutError) as err:
            context.metrics.error(repr(err))
            return None
        context.metrics.sockets += 1
        return socket


class Fanout(Scenario):
    """One sheet followed by ``count`` pages; a round entered every second, and each page's
    delay from the entry to the new version reaching it."""

    name = "fanout"
    events = 5

    async def run(self, context: Context) -> None:
        import httpx

        async with httpx.AsyncClient(base_url=context.url, timeout=60) as client:
            sheet_id = await _new_sheet(client, "Followed")
            sockets = [
                s
                for s in await asyncio.gather(
                    *(
                        Watchers.open(Watchers(1), context, sheet_id, read_only=False)
                        for _ in range(self.count)
                    )
                )
                if s is not None
            ]
            context.metrics.extra["fanout_watchers"] = len(sockets)
            for version in range(self.events):
                if time.perf_counter() > context.until:
                    break
                entries = [{"p": 0, "v": 0, "out": True}, {"p": 1, "v": 9}]
                action = {"t": "round", "entries": entries}
                started = time.perf_counter()
                waiting = [asyncio.create_task(self.receive(s, version + 1)) for s in sockets]
                answer = await client.post(
                    f"/api/sheets/{sheet_id}/actions", json={"version": version, "action": action}
                )
                if answer.status_code != 200:
                    context.metrics.error(answer.text)
                    break
                arrived = await asyncio.gather(*waiting, return_exceptions=True)
                for moment in arrived:
                    if isinstance(moment, float):
                        context.metrics.deliveries.append(moment - started)
                    else:
                        context.metrics.error(repr(moment))
                await asyncio.sleep(1)
            await asyncio.gather(*(s.close() for s in sockets), return_exceptions=True)

    @staticmethod
    async def receive(socket: Any, version: int) -> float:
        while True:
            message = orjson.loads(await asyncio.wait_for(socket.recv(), 30))
            if message.get("v", -1) >= version:
                return time.perf_counter()


CONNECT_SECONDS = 60.0
"""How long the tables' players may take to open their sockets before the measure starts."""


class Tables(Scenario):
    """``count`` Rommé tables of four people (`rummykit.bench.tables.Load`: each person on
    the game's and the table's socket, the one to move playing after ``think`` seconds on
    average, drawn between half and one and a half times that).

    With several server processes the players of a table are spread over them, player ``i``
    on process ``i % processes``, addressed directly: nginx sends every request and socket of
    one game to one process, so through it no move would cross processes. The tables are set
    up first, their players open their sockets (and may start playing), then the measure
    runs for the run's ``seconds``. Measured: each move from its request to
    every other player's game socket (the shared deliveries, and ``tables.delivery_ms``), to
    their table sockets, the requests' answers, and the server memory per socket open at the
    tables (the games' state included) in the middle of the play."""

    name = "tables"
    players = 4
    think = 0.0
    setting_up = 8
    """Tables set up at a time."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self._setting_up = asyncio.Semaphore(self.setting_up)

    async def run(self, context: Context) -> None:
        import httpx

        from rummykit.bench.tables import Load

        duration = context.until - time.perf_counter()
        urls = [s.url for s in context.servers] if len(context.servers) > 1 else [context.url]
        size = self.count * self.players * 2
        limits = httpx.Limits(max_connections=size, max_keepalive_connections=size)
        clients = [httpx.AsyncClient(base_url=url, timeout=60, limits=limits) for url in urls]
        load = Load(urls, 0.0, self.think, context.connect_limit)
        before = _memory(context.servers, context.front)
        try:
            started = time.perf_counter()
            made = await asyncio.gather(
                *(self.setup(load, clients) for _ in range(self.count)), return_exceptions=True
            )
            ready = [m for m in made if isinstance(m, tuple)]
            for failure in made:
                if isinstance(failure, BaseException):
                    load.errors.append(repr(failure))
            setup = time.perf_counter() - started
            # The people open their pages; the measure starts when every socket is open (or
            # after a minute), as people sit down before a game starts.
            load.until = time.perf_counter() + CONNECT_SECONDS + duration
            tasks = [asyncio.create_task(load.table(clients, *m)) for m in ready]
            connecting = time.perf_counter()
            expected = 2 * self.players * len(ready)
            while load.sockets < expected and time.perf_counter() - connecting < CONNECT_SECONDS:
                await asyncio.sleep(0.2)
            connected = time.perf_counter() - connecting
            load.delivery.clear()
            load.table_delivery.clear()
            load.answers.clear()
            load.moves = 0
            load.since = time.perf_counter()
            load.until = load.since + duration
            sample = asyncio.create_task(self.sample(context, load, duration / 2))
            # A player waiting for a message the run's end cut off is stopped there.
            _, late = await asyncio.wait(tasks, timeout=duration + 30)
            for task in late:
                task.cancel()
            played = await asyncio.gather(*tasks, return_exceptions=True)
            load.errors.extend(
                repr(p)
                for p in played
                if isinstance(p, BaseException) and not isinstance(p, asyncio.CancelledError)
            )
            sockets, during = await sample
        finally:
            for client in clients:
                await client.aclose()
        metrics = context.metrics
        metrics.actions.extend(load.answers)
        metrics.deliveries.extend(load.delivery)
        for text in load.errors:
            metrics.error(text)
        figures: dict[str, JSON] = {
            "tables": self.count,
            "tables_playing": len(ready),
            "players_per_table": self.players,
            "think_seconds": self.think,
            "spread_over_processes": len(urls),
            "setup_seconds": round(setup, 2),
            "connect_seconds": round(connected, 2),
            "sockets_expected": 2 * self.players * len(ready),
            "play_seconds": round(duration, 2),
            "moves": load.moves,
            "moves_per_second": round(load.moves / duration, 1) if duration > 0 else None,
            "delivery_ms": percentiles(load.delivery),
            "table_delivery_ms": percentiles(load.table_delivery),
            "answer_ms": percentiles(load.answers),
            "errors": len(load.errors),
            "sockets": sockets,
        }
        if before is not None and during is not None and sockets:
            figures["server_bytes_per_socket"] = round((during - before) / sockets)
        metrics.extra["tables"] = figures

    async def setup(self, load: Any, clients: list[Any]) -> Any:
        """One table made, joined and started, a few tables at a time (hosts do not all
        press "Start" in the same second)."""
        async with self._setting_up:
            return await load.setup(clients, self.players)

    @staticmethod
    async def sample(context: Context, load: Any, after: float) -> tuple[int, int | None]:
        """The sockets open at the tables and the servers' memory, ``after`` seconds in."""
        await asyncio.sleep(max(0.0, after))
        return load.sockets, _memory(context.servers, context.front)


SCENARIOS: dict[str, type[Scenario]] = {s.name: s for s in (Computer, Watchers, Fanout, Tables)}
"""Every kind of visitor, by the name the command line gives it."""


def _proc_stat(pid: int) -> tuple[int, int] | None:
    """CPU ticks and resident pages of a process and its children (the bot workers)."""
    from rummykit.bench.servers import descendants

    ticks = pages = 0
    for each in (pid, *descendants(pid)):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])
        if each == pid:
            pages = int(fields[21])
    return ticks, pages


def _memory(servers: list[Server], front: Front | None = None) -> int | None:
    """The resident memory of the server processes themselves and of nginx in front of them
    (it holds the sheets' sockets), in bytes."""
    if not servers:
        return None
    pids = [*(server.pid for server in servers), *(front.pids if front else ())]
    return sum(_rss(pid) for pid in pids)


def _rss(pid: int) -> int:
    """The process's proportional share of its resident memory (its private pages and its
    part of the shared ones: nginx's workers share the pub/sub module's memory, which their
    resident sizes would each count whole), else its resident size."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    stat = _proc_stat(pid)
    return stat[1] * PAGE_SIZE if stat else 0


def _cpu(servers: list[Server]) -> float:
    total = 0
    for server in servers:
        stat = _proc_stat(server.pid)
        total += stat[0] if stat else 0
    return total / CLOCK_TICKS


def raise_open_files() -> int:
    """Lift this process's limit of open files to its hard limit (children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


@contextlib.contextmanager
def site(
    folder: Path,
    processes: int,
    database: str | None,
    redis: str | None,
    port: int | None = None,
    front_port: int | None = None,
    front: bool = False,
) -> Iterator[tuple[str, list[Server], Front | None]]:
    """``processes`` servers, nginx in front of more than one (or of one, with ``front``);
    their URL, themselves and nginx. ``port``: the first server's port, the others on the
    next ones (default: free ports); ``front_port``: nginx's."""
    if processes > 1 and (not redis or not (database or "").startswith("postgresql")):
        raise ValueError("several processes need a PostgreSQL database and Redis")
    front = front or processes > 1
    with scratch_database(database) as url:
        servers: list[Server] = []
        nginx: Front | None = None
        live_port = free_port()
        env = {"RUMMYKIT_LIVE_FRONT": Front.live_url(live_port)} if front else {}
        try:
            for number in range(processes):
                at = None if port is None else port + number
                servers.append(Server(folder, url, redis=redis, port=at, env=env))
            if front:
                upstream = [f"127.0.0.1:{s.port}" for s in servers]
                nginx = Front(folder, upstream, front_port, live_port)
                yield nginx.url, servers, nginx
            else:
                yield servers[0].url, servers, None
        finally:
            if nginx is not None:
                nginx.stop()
            for server in servers:
                server.stop()


def _own_cpu() -> float:
    """The load generator's own processor seconds (it shares the machine with the site)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _loop_factory() -> Any:
    """uvloop's event loop where it is installed (as the site's processes run): the
    generator's own loop is a cost the machine's processors share with the site."""
    try:
        import uvloop
    except ImportError:  # not on every platform
        return None
    return uvloop.new_event_loop


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection in the load generator while it measures: with a hundred
    games its full passes stopped it for up to 78 ms, time a page never waits but that the
    measure would charge to the site. (What a run leaves behind is collected after it.)"""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


def run(
    scenarios: dict[str, int],
    seconds: float = 20.0,
    processes: int = 1,
    database: str | None = None,
    redis: str | None = None,
    url: str | None = None,
    think: float = 0.0,
    port: int | None = None,
    front_port: int | None = None,
    front: bool = False,
) -> dict[str, JSON]:
    """Run the scenarios (name -> visitors) at once for about ``seconds``; the figures.
    ``think``: seconds a person (at a table, or against the computer) takes before each
    move; ``front``: nginx in front of a single process too."""
    unknown = set(scenarios) - set(SCENARIOS)
    if unknown:
        raise ValueError(f"unknown scenarios {sorted(unknown)}: choose among {sorted(SCENARIOS)}")
    open_files = raise_open_files()
    with contextlib.ExitStack() as stack:
        if url is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            url, servers, nginx = stack.enter_context(
                site(folder, processes, database, redis, port, front_port, front)
            )
        else:
            servers, nginx = [], None
        metrics = Metrics()
        cpu_before = _cpu(servers)
        own_before = _own_cpu()
        started = time.perf_counter()

        async def main() -> None:
            context = Context(url, time.perf_counter() + seconds, metrics, servers, nginx)
            chosen = [SCENARIOS[name](count) for name, count in scenarios.items() if count]
            for scenario in chosen:
                if isinstance(scenario, Tables | Computer):
                    scenario.think = think
            await asyncio.gather(*(scenario.run(context) for scenario in chosen))

        with _collector_paused(), asyncio.Runner(loop_factory=_loop_factory()) as runner:
            runner.run(main())
        elapsed = time.perf_counter() - started
        own_cpu = _own_cpu() - own_before
        cpu = _cpu(servers) - cpu_before
        memory = _memory(servers)
        front_memory = sum(_rss(pid) for pid in nginx.pids) if nginx else None
    return {
        "scenarios": dict(scenarios),
        "processes": processes if servers else None,
        "front": nginx is not None,
        "database": (database or "sqlite").split(":", 1)[0] if servers else None,
        "redis": bool(redis),
        "seconds": round(elapsed, 2),
        "actions": len(metrics.actions),
        "actions_per_second": round(len(metrics.actions) / elapsed, 1),
        "action_latency_ms": percentiles(metrics.actions),
        "delivery_latency_ms": percentiles(metrics.deliveries),
        "errors": len(metrics.errors),
        "first_errors": list(metrics.errors[:3]),
        "server_rss_mb": round(memory / 2**20, 1) if memory is not None else None,
        "front_rss_mb": round(front_memory / 2**20, 1) if front_memory is not None else None,
        "server_cpu_seconds": round(cpu, 2) if servers else None,
        "server_cpu_share": round(cpu / elapsed, 2) if servers else None,
        "generator_cpu_seconds": round(own_cpu, 2),
        "generator_cpu_share": round(own_cpu / elapsed, 2),
        **metrics.extra,
        "open_files_limit": open_files,
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
    }
