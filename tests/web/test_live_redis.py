"""Redis carries the hub's versions between processes, and only between the processes of one
site: publish and subscribe ignore the database number, so the channel names carry it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from rummykit.web.live import Hub, channel_prefix

from .databases import redis_server


class Heard:
    """A watcher that notes every version it is sent."""

    def __init__(self) -> None:
        self.last = -1
        self.versions: list[int] = []
        self.arrived = asyncio.Event()

    async def send(self, version: int, channel: str = "") -> None:
        self.last = version
        self.versions.append(version)
        self.arrived.set()


async def _zero() -> int:
    return 0


async def listening(*hubs: Hub) -> None:
    """Wait until the hubs' Redis subscriptions listen (each then reads the version of what it
    watches: watchers added before would be sent version 0)."""
    for _ in range(200):
        if all(hub.listening for hub in hubs):
            return
        await asyncio.sleep(0.05)
    raise TimeoutError("a hub's subscription did not start")


def test_the_channel_prefix_carries_the_database_number_or_the_one_chosen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RUMMYKIT_REDIS_PREFIX", raising=False)
    assert channel_prefix("redis://127.0.0.1:6379/5") == "rummykit:5:"
    assert channel_prefix("redis://127.0.0.1:6379/6") == "rummykit:6:"
    assert channel_prefix("redis://127.0.0.1:6379") == "rummykit:0:"
    assert channel_prefix("unix:///run/redis.sock?db=3") == "rummykit:3:"
    monkeypatch.setenv("RUMMYKIT_REDIS_PREFIX", "shop:")
    assert channel_prefix("redis://127.0.0.1:6379/5") == "shop:"
    assert Hub(redis_url="redis://127.0.0.1:6379/5").prefix == "shop:"


def test_sites_on_different_redis_databases_do_not_hear_each_other(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RUMMYKIT_REDIS_PREFIX", raising=False)
    with redis_server(tmp_path) as url:
        base = url.rsplit("/", 1)[0]

        async def main() -> None:
            # Two processes of one site (database 5) and one of another site (database 6),
            # and a fourth site on database 5 with a prefix of its own.
            first = Hub(poll_seconds=60, redis_url=f"{base}/5")
            second = Hub(poll_seconds=60, redis_url=f"{base}/5")
            other = Hub(poll_seconds=60, redis_url=f"{base}/6")
            named = Hub(poll_seconds=60, redis_url=f"{base}/5", prefix="shop:")
            hubs = (first, second, other, named)
            for hub in hubs:
                await hub.start()
            await listening(*hubs)
            here, there, elsewhere, apart = Heard(), Heard(), Heard(), Heard()
            first.watch("sheet:abc", here, _zero)
            second.watch("sheet:abc", there, _zero)
            other.watch("sheet:abc", elsewhere, _zero)
            named.watch("sheet:abc", apart, _zero)
            try:
                first.publish("sheet:abc", 7)
                await asyncio.wait_for(there.arrived.wait(), 10)
                await asyncio.sleep(0.5)  # time enough for a stray message to arrive
                assert here.versions == [7] and there.versions == [7]
                assert elsewhere.versions == [] and apart.versions == []
                other.publish("sheet:abc", 3)
                await asyncio.wait_for(elsewhere.arrived.wait(), 10)
                await asyncio.sleep(0.5)
                assert here.versions == [7] and there.versions == [7] and apart.versions == []
            finally:
                for hub, heard in zip(hubs, (here, there, elsewhere, apart), strict=True):
                    hub.unwatch("sheet:abc", heard)
                    await hub.stop()

        asyncio.run(main())


def test_a_games_step_goes_with_its_version_and_is_taken_before_the_pages_hear_of_it(
    tmp_path: Path,
) -> None:
    import redis.asyncio as redis

    with redis_server(tmp_path) as url:

        async def main() -> None:
            first, second = Hub(poll_seconds=1, redis_url=url), Hub(poll_seconds=1, redis_url=url)
            for hub in (first, second):
                await hub.start()
            there = Heard()
            taken: list[tuple[str, int, object, list[int]]] = []

            async def take(channel: str, version: int, step: object) -> None:
                taken.append((channel, version, step, list(there.versions)))

            second.on_step("game", take)
            await listening(first, second)
            second.watch("game:abc", there, _zero)
            try:
                # The subscription listens: the polls are only a safety net.
                assert second.poll_seconds == 30 and Hub(poll_seconds=1).poll_seconds == 1
                first.publish("game:abc", 4, {"t": "draw"})
                await asyncio.wait_for(there.arrived.wait(), 10)
                # The step was taken before the watcher heard of version 4.
                assert taken == [("game:abc", 4, {"t": "draw"}, [])] and there.versions == [4]
                # Heard here only: a process that caught up from the database tells no other.
                there.arrived.clear()
                first.publish("game:abc", 5, remote=False)
                first.publish("game:abc", 6)  # a version without its step: only announced
                await asyncio.wait_for(there.arrived.wait(), 10)
                assert there.versions == [4, 6] and len(taken) == 1
                # A step that cannot be read: the version still comes (its readers read the
                # database).
                there.arrived.clear()
                raw = redis.Redis.from_url(url)
                await raw.publish(f"{second.prefix}game:abc", "7 {not json")
                await raw.aclose()
                await asyncio.wait_for(there.arrived.wait(), 10)
                assert there.versions == [4, 6, 7] and len(taken) == 1
            finally:
                second.unwatch("game:abc", there)
                for hub in (first, second):
                    await hub.stop()

        asyncio.run(main())


def test_when_its_subscription_comes_back_a_hub_reads_what_it_watches(tmp_path: Path) -> None:
    """What was published while a process's subscription was down never reaches it: when it
    listens again, it reads the version of every channel it watches and tells the pages."""
    import redis.asyncio as redis

    with redis_server(tmp_path) as url:

        async def main() -> None:
            hub = Hub(poll_seconds=1, redis_url=url)
            await hub.start()
            await listening(hub)
            stored = 0

            async def version() -> int:
                return stored

            here = Heard()
            hub.watch("sheet:abc", here, version)
            admin = redis.Redis.from_url(url)
            try:
                stored = 3  # written by another process while this one does not listen
                await admin.client_kill_filter(_type="pubsub")
                await asyncio.wait_for(here.arrived.wait(), 10)
                assert here.versions == [3] and hub.listening
            finally:
                hub.unwatch("sheet:abc", here)
                await admin.aclose()
                await hub.stop()

        asyncio.run(main())
