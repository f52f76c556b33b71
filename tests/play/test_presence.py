"""Presence across processes: each process keeps in Redis which players have a table socket
open in it, renewed by a heartbeat, so that the others show them connected."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from web.databases import redis_server

from rummykit.web.play import tables
from rummykit.web.play.tables import PRESENCE_TTL, Presence


def test_the_heartbeat_keeps_the_players_of_every_table_connected_for_the_other_processes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables, "HEARTBEAT", 0.05)
    with redis_server(tmp_path) as url:

        async def main() -> None:
            moment = [1000.0]
            here, there = Presence(url, lambda: moment[0]), Presence(url, lambda: moment[0])
            try:
                await here.opened("t1", 7)
                await here.opened("t2", 8)
                await here.opened("t2", 9)
                assert (await there.snapshot("t2"))[9] == (True, 1000.0)
                # The entries written at the opening have expired; the beat renews them all.
                moment[0] += PRESENCE_TTL + 1
                await asyncio.sleep(0.5)
                renewed = moment[0]
                assert await there.snapshot("t1") == {7: (True, renewed)}
                assert await there.snapshot("t2") == {8: (True, renewed), 9: (True, renewed)}
                # A socket closed: the others see the player gone from then on, seen then.
                await here.closed("t2", 9)
                moment[0] += 1
                await asyncio.sleep(0.2)
                assert await there.snapshot("t2") == {8: (True, moment[0]), 9: (False, renewed)}
                # A process that dies renews nothing: past the entries' life, nobody is here.
                await here.close()
                moment[0] += PRESENCE_TTL + 1
                assert (await there.snapshot("t1"))[7][0] is False
            finally:
                await here.close()
                await there.close()

        asyncio.run(main())
