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
            here, there, elsewhere, apart = Heard(), Heard(), Heard(), Heard()
            first.watch("sheet:abc", here, _zero)
            second.watch("sheet:abc", there, _zero)
            other.watch("sheet:abc", elsewhere, _zero)
            named.watch("sheet:abc", apart, _zero)
            try:
                await asyncio.sleep(0.5)  # the subscriptions are in place
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
