"""Several server processes on one database: no lost write, and live pages follow each other.

This is the scale-out set-up of the design (PostgreSQL, any number of app processes). The same
test runs on one SQLite file shared by two processes.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from browser import LiveServer
from websockets.sync.client import connect

ROUND = {"t": "round", "entries": [{"p": 0, "v": 0, "out": True}, {"p": 1, "v": 10}]}


def test_two_processes_share_one_sheet(database_url: str, tmp_path: Path) -> None:
    fast = {"RUMMYKIT_POLL_SECONDS": "0.3"}
    first = LiveServer(database_url, log=tmp_path / "first.log", environment=fast)
    second = LiveServer(database_url, log=tmp_path / "second.log", environment=fast)
    with first, second:
        created = httpx.post(
            f"{first.url}/api/sheets", json={"name": "x", "players": ["A", "B"]}
        ).json()
        sheet_id = created["id"]
        socket_url = f"ws://127.0.0.1:{second.port}/ws/sheet/{sheet_id}"
        with connect(socket_url, open_timeout=10) as socket:
            assert json.loads(socket.recv(timeout=10)) == {"t": "v", "v": 0}

            # Both processes receive the same round at the same version: one wins.
            def post(server: LiveServer) -> int:
                return httpx.post(
                    f"{server.url}/api/sheets/{sheet_id}/actions",
                    json={"version": 0, "action": ROUND},
                    timeout=10,
                ).status_code

            with ThreadPoolExecutor(2) as pool:
                statuses = sorted(pool.map(post, (first, second, first, second)))
            assert statuses == [200, 409, 409, 409]

            # The socket on the second process learns of it, whichever process wrote.
            assert json.loads(socket.recv(timeout=10)) == {"t": "v", "v": 1}
            httpx.post(
                f"{first.url}/api/sheets/{sheet_id}/actions",
                json={"version": 1, "action": {"t": "join", "name": "C"}},
            )
            assert json.loads(socket.recv(timeout=10)) == {"t": "v", "v": 2}
        for server in (first, second):
            data = httpx.get(f"{server.url}/api/sheets/{sheet_id}").json()
            assert data["version"] == 2
            assert len(data["sheet"]["rounds"]) == 1
