"""One table served by two server processes on PostgreSQL with Redis between them: its players
connected to different processes see each other's presence, changes, messages and moves at
once, and a move raced on both processes is written once."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from browser import LiveServer
from web.databases import postgres_database, redis_server
from websockets.sync.client import ClientConnection, connect

from .tables_helpers import no_card

SEATS = [{"kind": "person"}, {"kind": "person"}, {"kind": "computer", "level": "random"}]


_views: dict[int, dict[str, Any]] = {}
"""The last table view of each socket: its first message is whole, the next ones what changed."""


def until(socket: ClientConnection, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first table view on ``socket`` that is ``wanted`` (within 10 s)."""
    deadline = time.monotonic() + 10
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the view never came"
        message = json.loads(socket.recv(timeout=left))
        no_card(message)  # a table's socket never names a card
        if message["t"] != "table":
            continue
        if "d" in message:
            _views[id(socket)] = message["d"]
        else:
            _views[id(socket)] = {**_views[id(socket)], **message["p"]}
        view = _views[id(socket)]
        if wanted(view):
            return view


def until_step(socket: ClientConnection, seq: int) -> dict[str, Any]:
    """The first game view on ``socket`` past version ``seq`` (within 10 s)."""
    deadline = time.monotonic() + 10
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the step never came"
        message = json.loads(socket.recv(timeout=left))
        if message["t"] == "view" and message["v"] > seq:
            view: dict[str, Any] = message["d"]
            return view


def test_one_table_over_two_processes(tmp_path: Path) -> None:
    with postgres_database() as url, redis_server(tmp_path) as redis:
        # Polling twice a minute: only Redis can bring the news within the seconds allowed.
        env = {
            "RUMMYKIT_POLL_SECONDS": "30",
            "RUMMYKIT_REDIS_URL": redis,
            "RUMMYKIT_BOT_WORKERS": "0",
            "RUMMYKIT_RATE_ACTIONS": "10000/minute",
        }
        first = LiveServer(url, log=tmp_path / "first.log", environment=env)
        second = LiveServer(url, log=tmp_path / "second.log", environment=env)
        with first, second:
            made = httpx.post(
                f"{first.url}/api/tables",
                json={"game": "romme", "nickname": "Ana", "seats": SEATS, "lang": "fr"},
            ).json()
            table_id, host = made["id"], made["token"]
            joined = httpx.post(
                f"{second.url}/api/tables/{table_id}/join", json={"nickname": "Ben"}
            ).json()
            guest = joined["token"]
            tokens = {0: host, 1: guest}
            servers = {0: first, 1: second}
            path = f"/ws/tables/{table_id}"
            with (
                connect(
                    f"ws://127.0.0.1:{first.port}{path}?lang=fr",
                    additional_headers={"X-Table-Token": host},
                ) as ana,
                connect(
                    f"ws://127.0.0.1:{second.port}{path}?lang=de",
                    additional_headers={"X-Table-Token": guest},
                ) as ben,
            ):
                # Each sees the other connected, though the other's socket is elsewhere.
                until(ana, lambda d: d["seats"][1]["presence"] == "connected")
                until(ben, lambda d: d["seats"][0]["presence"] == "connected")
                started = httpx.post(
                    f"{first.url}/api/tables/{table_id}/start", headers={"X-Table-Token": host}
                )
                assert started.status_code == 200, started.text
                game_id = started.json()["game_id"]
                until(ben, lambda d: d["status"] == "playing" and d["game_id"] == game_id)
                said = httpx.post(
                    f"{first.url}/api/tables/{table_id}/say",
                    json={"phrase": "well_played"},
                    headers={"X-Table-Token": host},
                )
                assert said.status_code == 200
                heard = until(ben, lambda d: bool(d["messages"]))
                assert heard["messages"][-1]["text"] == "Gut gespielt!"

                opened = contextlib.ExitStack()
                games = {
                    seat: opened.enter_context(
                        connect(
                            f"ws://127.0.0.1:{servers[seat].port}/ws/games/{game_id}",
                            additional_headers={"X-Table-Token": tokens[seat]},
                        )
                    )
                    for seat in (0, 1)
                }
                moved = 0
                for _ in range(40):
                    turn = httpx.get(
                        f"{second.url}/api/tables/{table_id}", headers={"X-Table-Token": guest}
                    ).json()["turn"]
                    if turn is None or moved >= 6:
                        break
                    seat = turn["seat"]
                    if seat not in tokens:
                        time.sleep(0.2)
                        continue
                    server, token = servers[seat], tokens[seat]
                    hint = httpx.get(
                        f"{server.url}/api/games/{game_id}/hint",
                        headers={"X-Table-Token": token},
                        timeout=20,
                    ).json()
                    if "seq" not in hint:
                        # The table's turn was read from the other process a moment ago; the
                        # computers may have moved since: read the turn again.
                        assert hint["error"]["code"] == "not_your_turn", hint
                        time.sleep(0.2)
                        continue
                    answer = httpx.post(
                        f"{server.url}/api/games/{game_id}/actions",
                        json={"seq": hint["seq"], "action": hint["action"]},
                        headers={"X-Table-Token": token},
                    )
                    assert answer.status_code == 200, answer.text
                    moved += 1
                    # The other player, on the other process, learns of the move at once: on
                    # the table's socket and on the game's.
                    watcher = ben if seat == 0 else ana
                    until(
                        watcher,
                        lambda d, s=hint["seq"]: d["turn"] is None or d["turn"]["seq"] > s,
                    )
                    step = until_step(games[1 - seat], hint["seq"])
                    assert step["seat"] == 1 - seat and "hand" in step
                opened.close()
                assert moved >= 2

                # One move sent to both processes at once: written once, the other refused.
                turn = httpx.get(
                    f"{first.url}/api/tables/{table_id}", headers={"X-Table-Token": host}
                ).json()["turn"]
                if turn is not None and turn["seat"] in tokens:
                    seat = turn["seat"]
                    hint = httpx.get(
                        f"{first.url}/api/games/{game_id}/hint",
                        headers={"X-Table-Token": tokens[seat]},
                        timeout=20,
                    ).json()

                    def send(server: LiveServer) -> int:
                        return httpx.post(
                            f"{server.url}/api/games/{game_id}/actions",
                            json={"seq": hint["seq"], "action": hint["action"]},
                            headers={"X-Table-Token": tokens[seat]},
                        ).status_code

                    with ThreadPoolExecutor(2) as pool:
                        statuses = sorted(pool.map(send, [first, second]))
                    assert statuses == [200, 409]

            # Ben's sockets are closed: Ana's process shows him away within seconds.
            with connect(
                f"ws://127.0.0.1:{first.port}{path}?lang=fr",
                additional_headers={"X-Table-Token": host},
            ) as ana:
                until(ana, lambda d: d["seats"][1]["presence"] == "away")
        for server in (first, second):  # no request or socket failed on either side
            assert "Traceback" not in server.log.read_text()
