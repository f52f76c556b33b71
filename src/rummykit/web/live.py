"""Live updates: WebSocket subscribers told the newest version of what they watch.

A page that shows something others change (a score sheet, a game) opens a WebSocket and
subscribes to a channel such as ``"sheet:<id>"``. Messages follow one shape, ``{"t": "v",
"v": <version>}``: the server sends the current version as soon as the socket opens and again
after every change, so a client that reconnects after a lost connection sees at once that it is
behind and reloads what it missed; nothing rides on the socket that the database does not hold.

`Hub.publish` reaches the subscribers of this process. When several processes serve one
database, `Hub.follow` also asks the database for the version every ``poll_seconds``, so a
change written by another process arrives within that time without any broker.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect


class Hub:
    def __init__(self, poll_seconds: float = 10.0) -> None:
        self.poll_seconds = poll_seconds
        self._queues: defaultdict[str, set[asyncio.Queue[int]]] = defaultdict(set)

    def publish(self, channel: str, version: int) -> None:
        """Tell this process's subscribers of ``channel`` that it is now at ``version``."""
        for queue in list(self._queues.get(channel, ())):
            queue.put_nowait(version)

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

    async def follow(
        self,
        websocket: WebSocket,
        channel: str,
        current_version: Callable[[], Awaitable[int]],
    ) -> None:
        """Serve one WebSocket: send the version now and whenever it changes, until it closes."""
        await websocket.accept()
        async with self.subscribe(channel) as queue:
            last = -1
            reader = asyncio.create_task(_drain(websocket))
            try:
                while not reader.done():
                    version = await current_version()
                    if version != last:
                        await websocket.send_json({"t": "v", "v": version})
                        last = version
                    getter = asyncio.create_task(queue.get())
                    done, _ = await asyncio.wait(
                        {getter, reader},
                        timeout=self.poll_seconds,
                        return_when=asyncio.FIRST_COMPLETED,
                    )
                    if getter not in done:
                        getter.cancel()
            except (WebSocketDisconnect, RuntimeError, OSError):
                pass
            finally:
                reader.cancel()


async def _drain(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, so that its closing is noticed."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
