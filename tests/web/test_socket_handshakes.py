"""A burst of WebSocket handshakes against a database pool of two connections: every socket
opens, each handshake holds a connection only while it reads, and none keeps one open.

The pool's own timeout is set short (0.2 s): a handshake that waited for a connection past it
would be answered 500. The database's gate lines the handshakes up first come first served,
so none waits in the pool itself.
"""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from rummykit.web.app import create_app
from rummykit.web.security import Settings

TABLES = 6
SHEET_SOCKETS = 120
SPECTATORS = 4
"""Per table: visitors on the table's socket and on its game's."""


def _free_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])


async def _table(client: httpx.AsyncClient) -> tuple[str, str, list[str]]:
    seats = [{"kind": "person"}] * 4
    made = await client.post(
        "/api/tables",
        json={"game": "romme", "nickname": "P0", "seats": seats, "timer": 0, "spectators": True},
    )
    assert made.status_code == 201, made.text
    table_id, tokens = made.json()["id"], [made.json()["token"]]
    client.cookies.clear()
    for index in range(1, 4):
        joined = await client.post(f"/api/tables/{table_id}/join", json={"nickname": f"P{index}"})
        assert joined.status_code == 200, joined.text
        client.cookies.clear()
        tokens.append(joined.json()["token"])
    started = await client.post(
        f"/api/tables/{table_id}/start", headers={"X-Table-Token": tokens[0]}
    )
    assert started.status_code == 200, started.text
    return table_id, started.json()["game_id"], tokens


async def _first_message(url: str, headers: dict[str, str]) -> tuple[Any, dict[str, Any]]:
    opened = await websockets.connect(url, additional_headers=headers, open_timeout=60)
    return opened, json.loads(await asyncio.wait_for(opened.recv(), 60))


def test_a_burst_of_handshakes_queues_for_a_pool_of_two_and_none_keeps_a_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUMMYKIT_DB_POOL_SIZE", "2")
    monkeypatch.setenv("RUMMYKIT_DB_MAX_OVERFLOW", "0")
    monkeypatch.setenv("RUMMYKIT_DB_POOL_TIMEOUT", "0.2")
    monkeypatch.setenv("RUMMYKIT_BOT_WORKERS", "0")
    limits = Settings(create_rate="1000/minute", sockets_per_table=1000, sockets_per_client=100_000)
    app = create_app(f"sqlite:///{tmp_path / 'site.sqlite3'}", poll_seconds=60.0, limits=limits)
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)

    async def main() -> None:
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        ws = f"ws://127.0.0.1:{port}"
        db = app.state.db
        assert db.engine.pool.size() == 2
        try:
            async with httpx.AsyncClient(base_url=base, timeout=30) as client:
                made = await client.post("/api/sheets", json={"name": "x", "players": ["A", "B"]})
                sheet_id = made.json()["id"]
                tables = [await _table(client) for _ in range(TABLES)]
            # Each handshake reads the database; the pool serves two at a time. The most
            # connections taken at once is sampled while they open.
            most = 0

            async def sample() -> None:
                nonlocal most
                while True:
                    most = max(most, db.engine.pool.checkedout())
                    await asyncio.sleep(0.001)

            sampler = asyncio.create_task(sample())
            openings = [
                _first_message(f"{ws}/ws/sheet/{sheet_id}", {}) for _ in range(SHEET_SOCKETS)
            ]
            for table_id, game_id, tokens in tables:
                for token in tokens:
                    seat = {"X-Table-Token": token}
                    openings.append(_first_message(f"{ws}/ws/games/{game_id}", seat))
                    openings.append(_first_message(f"{ws}/ws/tables/{table_id}", seat))
                for _ in range(SPECTATORS):
                    openings.append(_first_message(f"{ws}/ws/tables/{table_id}", {}))
                    openings.append(_first_message(f"{ws}/ws/tables/{table_id}/game", {}))
            opened = await asyncio.gather(*openings)
            sampler.cancel()
            kinds = sorted({first["t"] for _, first in opened})
            assert kinds == ["table", "v", "view"]
            assert len(opened) == SHEET_SOCKETS + TABLES * (8 + 2 * SPECTATORS)
            assert most <= 2
            # Open and idle, the sockets hold no connection.
            await asyncio.sleep(0.2)
            assert db.engine.pool.checkedout() == 0
            await asyncio.gather(*(s.close() for s, _ in opened))
            assert db.engine.pool.checkedout() == 0
        finally:
            server.should_exit = True
            await serving

    asyncio.run(main())
