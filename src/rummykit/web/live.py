"""Live updates: WebSocket subscribers told the newest version of what they watch.

A page that shows something others change (a score sheet, a game) opens a WebSocket and
subscribes to a channel such as ``"sheet:<id>"``. Messages follow one shape, ``{"t": "v",
"v": <version>}``: the server sends the current version as soon as the socket opens and again
after every change, so a client that reconnects after a lost connection sees at once that it is
behind and reloads what it missed; nothing rides on the socket that the database does not hold.

`Hub.publish` reaches the subscribers of this process. When several processes serve one
database, `Hub.follow` also asks the database for the version every ``poll_seconds``, so a
change written by another process arrives within that time without any broker. With Redis
(``RUMMYKIT_REDIS_URL``), every process also publishes ``<prefix><channel>`` there and
listens to the others, so the change arrives at once. Redis carries "channel X is at version
n", and for a game also the action of step n (`Hub.on_step`): a process whose copy of the game
is one step behind applies it without reading the database; any other copy reads the missing
steps from the database, which stays the reference. The polling stays as the safety net:
every ``poll_seconds`` while the subscription is down, only every ``redis_poll_seconds`` (30 s)
while it listens, and every watched channel is read once when it listens again, for what was
published meanwhile. (At 5 s, the polls of 200 tables' channels were more reads than their
moves made.) Redis's
publish and subscribe ignore the database number, so the prefix carries it
(``rummykit:<db>:``, or ``$RUMMYKIT_REDIS_PREFIX``): two sites on one Redis server with
different database numbers never hear each other.

An idle page costs as little as the server allows: `Hub.follow` keeps per socket only a small
watcher (`_Watcher`: the socket and the last version sent; a game's or a table's socket has its
own, see `Watcher`) in its channel's set, and the socket's own task waits for the socket to
close. A published version is sent to the channel's watchers by one task, and one task a
channel (not a socket) asks the database after each quiet poll interval. The database is read
only for the moment of a read, never across a wait on a socket, and the sockets of one channel
that open together share one read.

Behind nginx with its pub/sub module (nchan, `deploy/nginx.conf`), the sockets of the pages
that only follow a version (a score sheet's, `FRONT_KINDS`) are held by nginx, not by a
server process: nginx subscribes the socket to the channel its address names once the
process has answered its check of the address (``nchan_authorize_request``), after making sure
nginx has the sheet's current version (`LiveFront.ensure`); every new version is then posted
to nginx once (`LiveFront.announce`), under each name nginx knows the channel by, and nginx
sends it to every such socket of the site. A socket held there costs a few kilobytes of
nginx's memory instead of a server's connection objects, and a version reaches a thousand
pages in one write.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol

from starlette.websockets import WebSocket, WebSocketDisconnect

from rummykit.core import JSON
from rummykit.store import NotFound

log = logging.getLogger(__name__)

PREFIX = "rummykit:"
PREFIX_VARIABLE = "RUMMYKIT_REDIS_PREFIX"

Versions = Callable[[], Awaitable[int]]
"""Reads a channel's version from the database."""

StepHeard = Callable[[str, int, JSON], Awaitable[None]]
"""Given a channel, a version and the step that made it, as another process published them."""


def channel_prefix(redis_url: str | None, prefix: str | None = None) -> str:
    """The prefix of the Redis channels of a site: ``prefix``, else ``$RUMMYKIT_REDIS_PREFIX``,
    else ``rummykit:<database number>:`` (publish and subscribe are server-wide in Redis; the
    database number of the URL separates the sites that share a server).

    >>> channel_prefix("redis://127.0.0.1:6379/5")
    'rummykit:5:'
    >>> channel_prefix("redis://127.0.0.1:6379")
    'rummykit:0:'
    >>> channel_prefix("redis://127.0.0.1:6379/5", "shop:")
    'shop:'
    """
    chosen = prefix if prefix is not None else os.environ.get(PREFIX_VARIABLE)
    if chosen:
        return chosen
    number = 0
    if redis_url:
        from redis.connection import parse_url

        with contextlib.suppress(ValueError, TypeError):
            number = int(parse_url(redis_url).get("db") or 0)  # type: ignore[no-untyped-call]
    return f"{PREFIX}{number}:"


REDIS_CONNECTIONS = 32
"""Connections to Redis a client of the site keeps at most (each of the hub's, the presence's)."""


def redis_client(url: str) -> Any:
    """An asyncio Redis client whose commands wait for one of `REDIS_CONNECTIONS` connections
    when all are busy (redis-py's default pool refuses the 101st command at once with "Too many
    connections": a burst of moves lost its publications, and the other processes heard of them
    only at their next poll)."""
    import redis.asyncio as redis

    pool = redis.BlockingConnectionPool.from_url(url, max_connections=REDIS_CONNECTIONS, timeout=30)
    return redis.Redis(connection_pool=pool)


FRONT_VARIABLE = "RUMMYKIT_LIVE_FRONT"
"""The address where nginx takes the versions to send (``http://127.0.0.1:8081/_live/pub``)."""
FRONT_KINDS = frozenset({"sheet"})
"""The channels whose sockets nginx holds: those whose pages only hear a version."""
FRONT_FRESH_SECONDS = 60.0
"""How long a version posted to nginx is trusted to be held there (nginx may have restarted
since: a socket that opens after that has the version posted again)."""


class LiveFront:
    """nginx's pub/sub module as the holder of the sockets of the `FRONT_KINDS` channels.

    nginx keeps the newest message of each channel and gives it to each socket that opens, so
    the promise of `Hub.follow` holds there too: a page hears the current version as soon as
    its socket opens, and every later one. The versions of one channel are posted one at a
    time, the newest last, so that the message nginx keeps is never an older one.
    """

    def __init__(
        self,
        url: str,
        transport: Any = None,
        aliases: Callable[[str], tuple[str, ...]] | None = None,
    ) -> None:
        """``url``: nginx's publishing address; ``transport``: httpx's (a test's stand-in);
        ``aliases``: the other names of a channel in nginx (a sheet's read-only address
        subscribes to a channel named after its token, which nginx cannot map to the sheet)."""
        import httpx  # only for a site behind nginx's pub/sub module

        self.url = url.rstrip("/") + "/"
        self._aliases = aliases or (lambda channel: ())
        self._client = httpx.AsyncClient(timeout=5, transport=transport)
        self._wanted: dict[str, int] = {}
        self._posting: dict[str, asyncio.Task[None]] = {}
        # The version last posted to nginx for each channel, and when.
        self._posted: dict[str, tuple[float, int]] = {}

    def serves(self, channel: str) -> bool:
        return channel.partition(":")[0] in FRONT_KINDS

    def announce(self, channel: str, version: int) -> None:
        """Post ``version`` of ``channel`` to nginx soon (after the posts under way)."""
        self._wanted[channel] = max(version, self._wanted.get(channel, version))
        if channel not in self._posting:
            task = asyncio.get_running_loop().create_task(self._pump(channel))
            self._posting[channel] = task

    async def ensure(self, channel: str, version: int) -> None:
        """Make sure nginx holds ``version`` of ``channel`` (or a newer one) before a socket
        of the channel is handed to it; post it unless it was posted lately."""
        posted = self._posted.get(channel)
        now = asyncio.get_running_loop().time()
        if posted is not None and posted[1] >= version and now - posted[0] < FRONT_FRESH_SECONDS:
            return
        self._posted.pop(channel, None)  # post it again, even if it is the version posted
        self.announce(channel, version)
        task = self._posting.get(channel)
        if task is not None:
            await asyncio.shield(task)

    async def _pump(self, channel: str) -> None:
        try:
            while channel in self._wanted:
                version = self._wanted.pop(channel)
                posted = self._posted.get(channel)
                if posted is None or posted[1] < version:  # never an older one after it
                    await self._post(channel, version)
        finally:
            del self._posting[channel]

    async def _post(self, channel: str, version: int) -> None:
        message = _compact({"t": "v", "v": version})
        try:
            for name in (channel, *self._aliases(channel)):
                answer = await self._client.post(self.url + name, content=message)
                answer.raise_for_status()
        except Exception as err:  # nginx away: its sockets are closed too, and reopen later
            log.warning("could not post %s version %s to nginx: %s", channel, version, err)
            self._posted.pop(channel, None)
            return
        if len(self._posted) > FRONT_REMEMBERED:
            self._posted.clear()
        self._posted[channel] = (asyncio.get_running_loop().time(), version)

    async def close(self) -> None:
        for task in list(self._posting.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._client.aclose()


FRONT_REMEMBERED = 10_000
"""Channels whose posted version a process remembers before it starts afresh."""


class Watcher(Protocol):
    """What `Hub.watch` keeps of one socket: ``last``, the last version it was sent (a version
    not above it is not offered again), and ``send``, which brings the socket to ``version`` of
    ``channel`` (it never raises for a closed socket: the socket's own task notices)."""

    last: int

    async def send(self, version: int, channel: str) -> None: ...


class OneAtATime:
    """The part of a watcher that sends a page one update at a time: `pump` runs ``_push`` and
    runs it again when announcements came meanwhile, so the page gets every change once and in
    order. A closed socket ends it quietly (the socket's own task notices); a channel that is
    gone closes the socket; any other failure is logged by ``_failed`` and the next
    announcement tries again."""

    __slots__ = ("again", "busy", "socket")

    def __init__(self, socket: WebSocket) -> None:
        self.socket = socket
        self.busy = False
        self.again = False

    async def _push(self) -> None:
        raise NotImplementedError

    def _failed(self) -> None:
        raise NotImplementedError

    async def pump(self) -> None:
        if self.busy:
            self.again = True
            return
        self.busy = True
        try:
            while True:
                self.again = False
                await self._push()
                if not self.again:
                    return
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
        except NotFound:
            with contextlib.suppress(Exception):
                await self.socket.close()
        except Exception:
            self._failed()
        finally:
            self.busy = False


REDIS_POLL_SECONDS = 30.0
"""Seconds between two polls of a watched channel while the Redis subscription listens."""


class Hub:
    def __init__(
        self,
        poll_seconds: float = 5.0,
        redis_url: str | None = None,
        prefix: str | None = None,
        redis_poll_seconds: float = REDIS_POLL_SECONDS,
        front: LiveFront | None = None,
    ) -> None:
        self._poll_seconds = poll_seconds
        self.front = front
        self.redis_poll_seconds = max(poll_seconds, redis_poll_seconds)
        self.redis_url = redis_url
        # True while the Redis subscription listens: the polls are then only the safety net.
        self.listening = False
        self.prefix = channel_prefix(redis_url, prefix)
        self._queues: defaultdict[str, set[asyncio.Queue[int]]] = defaultdict(set)
        self._redis: Any = None
        # The newest version known of each followed channel and when it was learnt: the
        # sockets of one channel share one read of the database per half poll interval.
        self._known: dict[str, tuple[float, int]] = {}
        self._reading: dict[str, asyncio.Future[int]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # The sockets served by `watch`, by channel, and each watched channel's poller.
        self._watchers: dict[str, set[Watcher]] = {}
        self._pollers: dict[str, asyncio.Task[None]] = {}
        self._readers: dict[str, Versions] = {}
        self._step_heard: dict[str, StepHeard] = {}

    @property
    def poll_seconds(self) -> float:
        """Seconds between two polls of a quiet channel now (longer while Redis listens)."""
        return self.redis_poll_seconds if self.listening else self._poll_seconds

    def publish(
        self, channel: str, version: int, step: JSON = None, *, remote: bool = True
    ) -> None:
        """Tell the subscribers of ``channel`` (here, and through Redis elsewhere unless not
        ``remote``) that it is now at ``version``; ``step``, the change that made it, goes
        with it to the other processes (see `on_step`), and to nginx when it holds the
        channel's sockets (`LiveFront`)."""
        self._deliver(channel, version)
        if self.front is not None and self.front.serves(channel):
            self.front.announce(channel, version)
        if self._redis is not None and remote:
            message = str(version) if step is None else f"{version} {_compact(step)}"
            task = asyncio.get_running_loop().create_task(self._publish_remote(channel, message))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def on_step(self, kind: str, heard: StepHeard) -> None:
        """Have ``heard`` given each step published with its version by another process on a
        channel named ``<kind>:…``, before the channel's watchers are told of the version."""
        self._step_heard[kind] = heard

    async def _heard(self, heard: StepHeard, channel: str, version: int, step: JSON) -> None:
        try:
            await heard(channel, version, step)
        except Exception:  # the watchers still hear the version, and read it from the database
            log.exception("%s: the step of version %s could not be taken", channel, version)
        self._deliver(channel, version)

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
            await watchers[0].send(version, channel)
        elif watchers:
            await asyncio.gather(*(w.send(version, channel) for w in watchers))

    async def _publish_remote(self, channel: str, message: str) -> None:
        try:
            await self._redis.publish(self.prefix + channel, message)
        except Exception as err:  # Redis away: the other processes poll the database
            log.warning("could not publish to Redis: %s", err)

    async def start(self) -> None:
        """Connect to Redis (when configured) and listen to the other processes."""
        if not self.redis_url:
            return
        self._redis = redis_client(self.redis_url)
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
        if self.front is not None:
            await self.front.close()

    async def _listen(self) -> None:
        delay = 0.5
        prefix = self.prefix.encode()
        while True:
            try:
                pubsub = self._redis.pubsub()
                await pubsub.psubscribe(_pattern(self.prefix))
                delay = 0.5
                self.listening = True
                self._spawn(self._read_all())
                async for message in pubsub.listen():
                    if message.get("type") != "pmessage":
                        continue
                    name = message["channel"]
                    if not name.startswith(prefix):
                        continue
                    channel = name[len(prefix) :].decode()
                    with contextlib.suppress(ValueError):
                        self._hear(channel, message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as err:  # reconnect; meanwhile the polling keeps pages current
                log.warning("Redis subscription lost: %s", err)
                self.listening = False
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)

    def _hear(self, channel: str, data: bytes) -> None:
        """A message from another process: ``<version>`` or ``<version> <step as JSON>`` (a
        step that cannot be read is left out: the version alone sends the readers to the
        database)."""
        text, _, step = data.partition(b" ")
        version = int(text)
        heard = self._step_heard.get(channel.partition(":")[0]) if step else None
        if heard is not None:
            try:
                self._spawn(self._heard(heard, channel, version, json.loads(step)))
                return
            except ValueError:
                log.warning("%s: the step of version %s could not be read", channel, version)
        self._deliver(channel, version)

    async def _read_all(self) -> None:
        """Every watched channel's version from the database, sent to its watchers: what was
        published while the subscription was down (at the first subscription, nothing is
        watched yet)."""
        for channel, current_version in list(self._readers.items()):
            self._known.pop(channel, None)
            try:
                version = await self._current(channel, current_version)
            except Exception as err:  # the database away: the pollers try again
                log.warning("could not read the version of %s: %s", channel, err)
                continue
            await self._send_all(channel, version)

    def _learn(self, channel: str, version: int) -> None:
        known = self._known.get(channel)
        now = asyncio.get_running_loop().time()
        self._known[channel] = (now, max(version, known[1] if known else version))

    async def _current(self, channel: str, current_version: Versions) -> int:
        """The channel's version: from the database, unless a socket of the channel asked
        (or a change was published) less than half a poll interval ago; the sockets that ask
        while a read is under way share it."""
        known = self._known.get(channel)
        now = asyncio.get_running_loop().time()
        if known is not None and now - known[0] < self._poll_seconds / 2:
            return known[1]
        reading = self._reading.get(channel)
        if reading is None:
            reading = asyncio.ensure_future(self._read(channel, current_version))
            self._reading[channel] = reading
            self._tasks.add(reading)
            reading.add_done_callback(self._tasks.discard)
        return await asyncio.shield(reading)

    async def _read(self, channel: str, current_version: Versions) -> int:
        try:
            version = await current_version()
            self._learn(channel, version)
            return version
        finally:
            self._reading.pop(channel, None)

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

    async def follow(self, websocket: WebSocket, channel: str, current_version: Versions) -> None:
        """Serve one WebSocket: send the version now and whenever it grows, until it closes
        (the database is asked at the start and after each quiet ``poll_seconds``, once for
        all the sockets of the channel)."""
        await websocket.accept()
        watcher = _Watcher(websocket)
        self.watch(channel, watcher, current_version)
        try:
            await watcher.send(await self._current(channel, current_version), channel)
            await drain(websocket)
        finally:
            self.unwatch(channel, watcher)

    async def version(self, channel: str, current_version: Versions) -> int:
        """The channel's newest version (see `_current`)."""
        return await self._current(channel, current_version)

    def watch(self, channel: str, watcher: Watcher, current_version: Versions) -> None:
        """Send ``watcher`` every new version of ``channel`` until `unwatch` (the channel's
        poller reads ``current_version`` after each quiet poll interval)."""
        self._watchers.setdefault(channel, set()).add(watcher)
        if channel not in self._pollers:
            self._readers[channel] = current_version
            self._pollers[channel] = asyncio.ensure_future(self._poll(channel, current_version))

    def unwatch(self, channel: str, watcher: Watcher) -> None:
        watchers = self._watchers.get(channel)
        if watchers is None:
            return
        watchers.discard(watcher)
        if not watchers:
            del self._watchers[channel]
            if channel not in self._queues:
                self._known.pop(channel, None)
            self._readers.pop(channel, None)
            poller = self._pollers.pop(channel, None)
            if poller is not None:
                poller.cancel()

    async def _poll(self, channel: str, current_version: Versions) -> None:
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


def _compact(data: JSON) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _pattern(prefix: str) -> str:
    """The Redis pattern of every channel under ``prefix`` (its glob characters escaped)."""
    escaped = "".join("\\" + c if c in "*?[]\\" else c for c in prefix)
    return escaped + "*"


class _Watcher:
    """One socket served by `Hub.follow`: the socket and the last version sent to it."""

    __slots__ = ("last", "socket")

    def __init__(self, socket: WebSocket) -> None:
        self.socket = socket
        self.last = -1

    async def send(self, version: int, channel: str = "") -> None:
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
