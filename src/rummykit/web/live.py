"""Live updates: WebSocket subscribers told the newest version of what they watch.

A page that shows something others change (a score sheet, a game) opens a WebSocket and
subscribes to a channel such as ``"sheet:<id>"``. Messages follow one shape, ``{"t": "v",
"v": <version>}``: the server sends the current version as soon as the socket opens and again
after every change, so a client that reconnects after a lost connection sees at once that it is
behind and reloads what it missed; nothing rides on the socket that the database does not hold.

`Hub.publish` reaches the subscribers of this process. When several processes serve one
database, `Hub.follow` also asks the database for the version every ``poll_seconds``, so a
change written by another process arrives within that time without any broker. With Redis
(``RUMMYKIT_REDIS_URL``), every process also publishes ``rummykit:<channel>`` there and
listens to the others, so the change arrives at once; Redis carries only "channel X is at
version n", never data, and the polling stays as the safety net when Redis is away.

An idle page costs as little as the server allows: `Hub.follow` keeps per socket only a
`_Watcher` (the socket and the last version sent) in its channel's set, and the socket's own
task waits for the socket to close. A published version is sent to the channel's watchers by
one task, and one task a channel (not a socket) asks the database after each quiet poll
interval.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

log = logging.getLogger(__name__)

PREFIX = "rummykit:"


class Hub:
    def __init__(self, poll_seconds: float = 5.0, redis_url: str | None = None) -> None:
        self.poll_seconds = poll_seconds
        self.redis_url = redis_url
        self._queues: defaultdict[str, set[asyncio.Queue[int]]] = defaultdict(set)
        self._redis: Any = None
        # The newest version known of each followed channel and when it was learnt: the
        # sockets of one channel share one read of the database per half poll interval.
        self._known: dict[str, tuple[float, int]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # The sockets served by `follow`, by channel, and each followed channel's poller.
        self._watchers: dict[str, set[_Watcher]] = {}
        self._pollers: dict[str, asyncio.Task[None]] = {}

    def publish(self, channel: str, version: int) -> None:
        """Tell the subscribers of ``channel`` (here, and through Redis elsewhere) that it is
        now at ``version``."""
        self._deliver(channel, version)
        if self._redis is not None:
            task = asyncio.get_running_loop().create_task(self._publish_remote(channel, version))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _deliver(self, channel: str, version: int) -> None:
        if channel in self._queues or channel in self._watchers:
            self._learn(channel, version)
        for queue in list(self._queues.get(channel, ())):
            queue.put_nowait(version)
        if channel in self._watchers:
            self._spawn(self._send_all(channel, version))

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_all(self, channel: str, version: int) -> None:
        """Send ``version`` to the channel's watchers that have not had it."""
        watchers = [w for w in self._watchers.get(channel, ()) if w.last < version]
        if len(watchers) == 1:
            await watchers[0].send(version)
        elif watchers:
            await asyncio.gather(*(w.send(version) for w in watchers))

    async def _publish_remote(self, channel: str, version: int) -> None:
        try:
            await self._redis.publish(PREFIX + channel, str(version))
        except Exception as err:  # Redis away: the other processes poll the database
            log.warning("could not publish to Redis: %s", err)

    async def start(self) -> None:
        """Connect to Redis (when configured) and listen to the other processes."""
        if not self.redis_url:
            return
        import redis.asyncio as redis

        self._redis = redis.from_url(self.redis_url)
        task = asyncio.get_running_loop().create_task(self._listen())
        self._tasks.add(task)

    async def stop(self) -> None:
        self._tasks.update(self._pollers.values())
        self._pollers.clear()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None

    async def _listen(self) -> None:
        delay = 0.5
        while True:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.psubscribe(PREFIX + "*")
                delay = 0.5
                async for message in pubsub.listen():
                    if message.get("type") != "pmessage":
                        continue
                    channel = message["channel"].decode()[len(PREFIX) :]
                    with contextlib.suppress(ValueError):
                        self._deliver(channel, int(message["data"]))
            except asyncio.CancelledError:
                raise
            except Exception as err:  # reconnect; meanwhile the polling keeps pages current
                log.warning("Redis subscription lost: %s", err)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)

    def _learn(self, channel: str, version: int) -> None:
        known = self._known.get(channel)
        now = asyncio.get_running_loop().time()
        self._known[channel] = (now, max(version, known[1] if known else version))

    async def _current(self, channel: str, current_version: Callable[[], Awaitable[int]]) -> int:
        """The channel's version: from the database, unless a socket of the channel asked
        (or a change was published) less than half a poll interval ago."""
        known = self._known.get(channel)
        now = asyncio.get_running_loop().time()
        if known is not None and now - known[0] < self.poll_seconds / 2:
            return known[1]
        version = await current_version()
        self._learn(channel, version)
        return version

    def subscribers(self, channel: str) -> int:
        return len(self._queues.get(channel, ()))

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[asyncio.Queue[int]]:
        queue: asyncio.Queue[int] = asyncio.Queue()
        self._queues[channel].add(queue)
        try:
            yield queue
        finally:
            self._queues[channel].discard(queue)
            if not self._queues[channel]:
                del self._queues[channel]
                if channel not in self._watchers:
                    self._known.pop(channel, None)

    async def follow(
        self,
        websocket: WebSocket,
        channel: str,
        current_version: Callable[[], Awaitable[int]],
    ) -> None:
        """Serve one WebSocket: send the version now and whenever it grows, until it closes
        (the database is asked at the start and after each quiet ``poll_seconds``, once for
        all the sockets of the channel)."""
        await websocket.accept()
        watcher = _Watcher(websocket)
        watchers = self._watchers.setdefault(channel, set())
        watchers.add(watcher)
        try:
            if channel not in self._pollers:
                self._pollers[channel] = asyncio.ensure_future(self._poll(channel, current_version))
            await watcher.send(await self._current(channel, current_version))
            await drain(websocket)
        finally:
            watchers.discard(watcher)
            if not watchers and self._watchers.get(channel) is watchers:
                del self._watchers[channel]
                if channel not in self._queues:
                    self._known.pop(channel, None)
                poller = self._pollers.pop(channel, None)
                if poller is not None:
                    poller.cancel()

    async def _poll(self, channel: str, current_version: Callable[[], Awaitable[int]]) -> None:
        """While the channel has watchers: after each quiet ``poll_seconds``, its version from
        the database (a change another process made when Redis is away)."""
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                version = await self._current(channel, current_version)
            except Exception as err:  # the database away: the next round tries again
                log.warning("could not read the version of %s: %s", channel, err)
                continue
            await self._send_all(channel, version)


class _Watcher:
    """One socket served by `Hub.follow`: the socket and the last version sent to it."""

    __slots__ = ("last", "socket")

    def __init__(self, socket: WebSocket) -> None:
        self.socket = socket
        self.last = -1

    async def send(self, version: int) -> None:
        if version <= self.last:
            return
        self.last = version
        # A socket that closes meanwhile is noticed by its own task (which reads it).
        with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
            await self.socket.send_json({"t": "v", "v": version})


async def drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, so that its closing is noticed (every socket of
    the site that only sends uses it)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
