"""Several server processes on one database: no lost write, and live pages follow each other.

This is the scale-out set-up of the design (PostgreSQL, any number of app processes, Redis
optional). The same tests run on one SQLite file shared by two processes.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from browser import LiveServer, free_port
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
        with connect(socket_url, open_timeout=10) as live:
            assert json.loads(live.recv(timeout=10)) == {"t": "v", "v": 0}

            # Both processes receive different rounds at the same version: one wins.
            def post(job: tuple[LiveServer, int]) -> int:
                server, points = job
                action = {
                    "t": "round",
                    "entries": [{"p": 0, "v": 0, "out": True}, {"p": 1, "v": points}],
                }
                return httpx.post(
                    f"{server.url}/api/sheets/{sheet_id}/actions",
                    json={"version": 0, "action": action},
                    timeout=10,
                ).status_code

            jobs = [(first, 10), (second, 20), (first, 30), (second, 40)]
            with ThreadPoolExecutor(4) as pool:
                statuses = sorted(pool.map(post, jobs))
            assert statuses == [200, 409, 409, 409]

            # The socket on the second process learns of it, whichever process wrote.
            assert json.loads(live.recv(timeout=10)) == {"t": "v", "v": 1}
            httpx.post(
                f"{first.url}/api/sheets/{sheet_id}/actions",
                json={"version": 1, "action": {"t": "join", "name": "C"}},
            )
            assert json.loads(live.recv(timeout=10)) == {"t": "v", "v": 2}
        for server in (first, second):
            data = httpx.get(f"{server.url}/api/sheets/{sheet_id}").json()
            assert data["version"] == 2
            assert len(data["sheet"]["rounds"]) == 1


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Redis server of our own on a free port (the Debian package's binary)."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is required in CI")
        pytest.skip("no redis-server")
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    process.terminate()
    process.wait(timeout=10)


def test_with_redis_a_change_reaches_the_other_process_at_once(
    redis_url: str, tmp_path: Path
) -> None:
    database_url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    # Polling once a minute: only Redis can bring the news within the few seconds allowed.
    slow = {"RUMMYKIT_POLL_SECONDS": "60", "RUMMYKIT_REDIS_URL": redis_url}
    first = LiveServer(database_url, log=tmp_path / "first.log", environment=slow)
    second = LiveServer(database_url, log=tmp_path / "second.log", environment=slow)
    with first, second:
        created = httpx.post(
            f"{first.url}/api/sheets", json={"name": "x", "players": ["A", "B"]}
        ).json()
        sheet_id = created["id"]
        with connect(f"ws://127.0.0.1:{second.port}/ws/sheet/{sheet_id}") as live:
            assert json.loads(live.recv(timeout=10)) == {"t": "v", "v": 0}
            response = httpx.post(
                f"{first.url}/api/sheets/{sheet_id}/actions",
                json={"version": 0, "action": ROUND},
            )
            assert response.status_code == 200
            assert json.loads(live.recv(timeout=5)) == {"t": "v", "v": 1}
