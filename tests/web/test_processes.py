"""Several server processes: refusals of ``serve --workers``, workers that die with their
server, and a game that goes on through nginx when the process serving it is killed."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

import rummykit.cli.web  # noqa: F401  (attaches the commands)
from rummykit.bench.servers import Front, Server, alive, descendants, scratch_database
from rummykit.bench.web import _choose
from rummykit.cli.apps import app
from rummykit.store.sheets import view_token
from rummykit.web.play.adapter import adapter

POSTGRES_URL = os.environ.get(
    "RUMMYKIT_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("RUMMYKIT_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")

runner = CliRunner()


def test_serve_refuses_several_processes_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    result = runner.invoke(
        app, ["serve", "--workers", "2", "--database", url, "--redis", REDIS_URL]
    )
    assert result.exit_code == 2
    assert "several processes need PostgreSQL" in result.output


def test_serve_refuses_several_processes_without_redis() -> None:
    result = runner.invoke(
        app, ["serve", "--workers", "3", "--database", POSTGRES_URL], env={"RUMMYKIT_REDIS_URL": ""}
    )
    assert result.exit_code == 2
    assert "several processes need Redis" in result.output


def _wait(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting after {seconds} s: {what}")
        time.sleep(0.1)


def test_the_bot_workers_end_when_their_server_is_killed(tmp_path: Path) -> None:
    server = Server(tmp_path, env={"RUMMYKIT_BOT_WORKERS": "2"})
    try:
        answer = httpx.post(
            f"{server.url}/api/games", json={"game": "romme", "opponents": 2, "level": "easy"}
        )
        assert answer.status_code == 201
        _wait(lambda: len(descendants(server.pid)) >= 2, 30, "the two workers to start")
        children = descendants(server.pid)
        server.kill()
        _wait(lambda: not any(alive(c) for c in children), 20, f"{children} to end")
    finally:
        server.stop()
    assert not [c for c in children if alive(c)]


def _redis_answers() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_timeout=2).ping())
    except redis.RedisError:
        return False


class Player:
    """A page of one game through the proxy: its socket, its actions, what was acknowledged."""

    def __init__(self, base: str, game_id: str, token: str, view: dict[str, Any]) -> None:
        self.base = base
        self.id = game_id
        self.headers = {"X-Seat-Token": token}
        self.view = view
        self.acknowledged: dict[int, Any] = {}
        self.shown: list[int] = []
        self.socket: Any = None

    async def connect(self) -> None:
        import websockets

        url = self.base.replace("http", "ws") + f"/ws/games/{self.id}?since={self.view['seq']}"
        self.socket = await websockets.connect(url, additional_headers=self.headers)

    async def my_turn(self) -> None:
        """Wait on the socket until the player is to move, reconnecting as the page does."""
        import websockets

        while not (self.view["to_move"] == 0 or self.view["phase"] == "round_over"):
            try:
                message = json.loads(await asyncio.wait_for(self.socket.recv(), 30))
            except websockets.ConnectionClosed:
                await self.reconnect()
                continue
            self.shown.append(message["v"])
            if message["v"] > self.view["seq"]:
                self.view = message["d"]

    async def reconnect(self) -> None:
        import websockets

        for _ in range(100):
            try:
                await self.connect()
                return
            except (OSError, websockets.InvalidStatus, websockets.InvalidHandshake):
                await asyncio.sleep(0.1)
        raise AssertionError("the page could not reconnect through the proxy")

    async def act(self, client: httpx.AsyncClient) -> None:
        """One action of the player, sent again (with the version it saw) until it is answered."""
        await self.my_turn()
        action = _choose(self.view)
        for _ in range(100):
            answer = await client.post(
                f"/api/games/{self.id}/actions",
                json={"seq": self.view["seq"], "action": action},
                headers=self.headers,
            )
            if answer.status_code == 200:
                self.view = answer.json()
                self.acknowledged[self.view["seq"]] = action
                return
            if answer.status_code == 409:  # it moved on meanwhile: the current view is given
                self.view = answer.json()["view"]
                await self.my_turn()
                action = _choose(self.view)
                continue
            assert answer.status_code in (502, 503, 504), answer.text
            await asyncio.sleep(0.1)
        raise AssertionError("the action was never answered")


def _process_of(front: Front, game_id: str) -> int:
    """The port of the process that answered the game's last action (nginx's access log)."""
    lines = [line for line in front.access_log.read_text().splitlines() if game_id in line]
    ports = [re.search(r"upstream=[\d.]+:(\d+)", line) for line in lines if "/actions" in line]
    found = [int(m.group(1)) for m in ports if m]
    assert found, lines
    return found[-1]


@pytest.mark.postgres
def test_a_game_goes_on_through_nginx_when_the_process_serving_it_is_killed(
    tmp_path: Path,
) -> None:
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        if os.environ.get("CI") == "true":  # .ci/run installs it: missing there is a failure
            pytest.fail("nginx is not installed")
        pytest.skip("nginx is not installed")
    if not _redis_answers():
        pytest.skip("no Redis server")
    env = {"RUMMYKIT_BOT_WORKERS": "1"}
    with scratch_database(POSTGRES_URL) as url:
        first = Server(tmp_path, url, redis=REDIS_URL, env=env)
        second = Server(tmp_path, url, redis=REDIS_URL, env=env)
        servers = {first.port: first, second.port: second}
        front = Front(tmp_path, [f"127.0.0.1:{port}" for port in servers])
        try:
            player, killed, stored = asyncio.run(_play_kill_and_play(front, servers, url))
        finally:
            front.stop()
            for server in servers.values():
                server.stop()
    assert killed.process.returncode is not None
    # Every action the site acknowledged is in the log, at its place; nothing was shown that
    # the database does not hold.
    game = adapter("romme")
    rules = game.rules_from_json(dict(next(iter(game.presets().values()))))
    for seq, action in player.acknowledged.items():
        assert game.action_from_json(stored[seq], rules) == game.action_from_json(action, rules)
    assert max(player.shown) <= max(stored)
    assert len(player.acknowledged) == 6


async def _play_kill_and_play(
    front: Front, servers: dict[int, Server], url: str
) -> tuple[Player, Server, dict[int, Any]]:
    import asyncpg

    async with httpx.AsyncClient(base_url=front.url, timeout=30) as client:
        answer = await client.post(
            "/api/games", json={"game": "romme", "opponents": 2, "level": "easy"}
        )
        assert answer.status_code == 201
        data = answer.json()
        player = Player(front.url, data["id"], data["token"], data["view"])
        await player.connect()
        for _ in range(3):
            await player.act(client)
        killed = servers[_process_of(front, player.id)]
        killed.kill()
        started = time.monotonic()
        await player.act(client)
        print(f"played again {time.monotonic() - started:.2f} s after the kill")
        for _ in range(2):
            await player.act(client)
        await player.socket.close()
    dsn = url.replace("postgresql+asyncpg://", "postgresql://")
    connection = await asyncpg.connect(dsn)
    try:
        rows = await connection.fetch(
            "SELECT seq, action FROM game_actions WHERE game_id = $1", player.id
        )
    finally:
        await connection.close()
    stored = {row["seq"]: json.loads(row["action"]) for row in rows}
    return player, killed, stored


def test_the_load_generator_drives_games_watchers_and_a_fanout_and_prints_json() -> None:
    result = runner.invoke(
        app,
        ["bench", "load", "--computer", "2", "--watchers", "6", "--fanout", "4", "--seconds", "4"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["errors"] == 0, data["first_errors"]
    assert data["actions"] > 0 and data["action_latency_ms"]["count"] == data["actions"]
    assert data["watchers_open"] == 6 and data["fanout_watchers"] == 4
    # The sockets' memory: on average over all, and what the second half of them added.
    assert isinstance(data["server_bytes_per_idle_socket"], int)
    assert isinstance(data["server_bytes_per_added_socket"], int)
    # Each fan-out event reached all four pages (and the players' own steps came back).
    assert data["delivery_latency_ms"]["count"] >= 4
    assert data["server_rss_mb"] > 0


def test_the_load_generator_plays_tables_of_four_and_times_each_move_to_the_others() -> None:
    result = runner.invoke(
        app, ["bench", "load", "--computer", "0", "--tables", "2", "--seconds", "3"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["errors"] == 0, data["first_errors"]
    tables = data["tables"]
    assert tables["tables_playing"] == 2 and tables["players_per_table"] == 4
    assert tables["moves"] > 0 and tables["answer_ms"]["count"] == tables["moves"]
    # Every move reaches the three other players of its table: the pages listen on for a
    # while after the last move, so none is still on its way when the deliveries are counted.
    assert tables["delivery_ms"]["count"] == 3 * tables["moves"]
    assert tables["delivery_ms"]["p99"] > 0 and tables["sockets"] > 0


def test_the_load_generator_refuses_several_processes_on_sqlite() -> None:
    result = runner.invoke(app, ["bench", "load", "--processes", "2", "--seconds", "1"])
    assert result.exit_code == 2
    assert "PostgreSQL" in result.output


@pytest.mark.postgres
def test_serve_workers_restarts_a_killed_server_and_none_outlives_it(tmp_path: Path) -> None:
    import subprocess
    import sys

    from rummykit.bench.servers import free_port, wait_until_up

    if not _redis_answers():
        pytest.skip("no Redis server")
    port = free_port()
    while free_port() == port + 1:  # the second port must be free too (rarely not)
        port = free_port()
    log = tmp_path / "supervisor.log"
    with scratch_database(POSTGRES_URL) as url, log.open("wb") as out:
        assert url is not None
        command = [sys.executable, "-c", "from rummykit.cli import main; main()", "serve"]
        options = ["--workers", "2", "--port", str(port), "--database", url, "--redis", REDIS_URL]
        supervisor = subprocess.Popen([*command, *options], stdout=out, stderr=out)
        try:
            for number in (port, port + 1):
                wait_until_up(f"http://127.0.0.1:{number}", supervisor, log)
            servers = descendants(supervisor.pid)
            first = min(servers)
            os.kill(first, 9)
            _wait(lambda: "starting it again" in log.read_text(), 30, "a restart")
            wait_until_up(f"http://127.0.0.1:{port}", supervisor, log)
            everyone = descendants(supervisor.pid)
            assert first not in everyone and len(everyone) >= 2
            supervisor.kill()
            supervisor.wait()
            _wait(lambda: not any(alive(p) for p in everyone), 20, f"{everyone} to end")
        finally:
            if supervisor.poll() is None:
                supervisor.kill()
                supervisor.wait()


def _needs_nginx_with_nchan() -> None:
    missing = [
        what
        for what, there in (
            ("nginx", shutil.which("nginx") or Path("/usr/sbin/nginx").exists()),
            ("libnginx-mod-nchan", Path("/usr/lib/nginx/modules/ngx_nchan_module.so").exists()),
        )
        if not there
    ]
    if missing:
        if os.environ.get("CI") == "true":  # .ci/run installs them: missing there is a failure
            pytest.fail(f"not installed: {missing}")
        pytest.skip(f"not installed: {missing}")


def test_nginx_holds_the_sheets_sockets_and_sends_every_version(tmp_path: Path) -> None:
    _needs_nginx_with_nchan()
    from rummykit.bench.servers import free_port

    live_port = free_port()
    server = Server(tmp_path, env={"RUMMYKIT_LIVE_FRONT": Front.live_url(live_port)})
    front = Front(tmp_path, [f"127.0.0.1:{server.port}"], live_port=live_port)
    try:
        asyncio.run(_follow_a_sheet_through_nginx(front))
    finally:
        front.stop()
        server.stop()


async def _follow_a_sheet_through_nginx(front: Front) -> None:
    import websockets

    ws = front.url.replace("http", "ws")

    async def version(socket: Any) -> int:
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
        assert message["t"] == "v"
        return int(message["v"])

    async with httpx.AsyncClient(base_url=front.url, timeout=10) as client:
        answer = await client.post("/api/sheets", json={"name": "Held", "players": ["A", "B"]})
        sheet = answer.json()
        sheet_id = sheet["id"]

        async def enter_round(seen: int) -> None:
            entries = [{"p": 0, "v": 0, "out": True}, {"p": 1, "v": 9}]
            action = {"version": seen, "action": {"t": "round", "entries": entries}}
            answer = await client.post(f"/api/sheets/{sheet_id}/actions", json=action)
            assert answer.status_code == 200, answer.text

        # The read-only link's socket hears the same versions, through its token's channel.
        viewing = f"{ws}/ws/view/{view_token(sheet_id)}"
        async with websockets.connect(f"{ws}/ws/sheet/{sheet_id}") as first:
            assert await version(first) == 0  # at once, as from a server process
            async with websockets.connect(viewing) as second:
                assert await version(second) == 0
                await enter_round(0)
                assert await version(first) == await version(second) == 1
                await enter_round(1)
                assert await version(first) == await version(second) == 2
        # A page that reconnects hears at once how far the sheet is.
        async with websockets.connect(f"{ws}/ws/sheet/{sheet_id}") as again:
            assert await version(again) == 2
        # The server process holds none of these sockets: nginx answered their handshakes.
        # (nginx writes a socket's line once it is closed: the last one may come a moment late.)
        addresses = (f"/ws/sheet/{sheet_id}", f"/ws/view/{view_token(sheet_id)}")
        for _ in range(50):
            log = front.access_log.read_text()
            handshakes = [line for line in log.splitlines() if any(a in line for a in addresses)]
            if len(handshakes) >= 3:
                break
            await asyncio.sleep(0.1)
        assert len(handshakes) == 3 and all(" 101 " in line for line in handshakes), handshakes
        # An unknown sheet's socket is refused, and the publishing address is not public.
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(f"{ws}/ws/sheet/AAAAAAAAAAAAAAAAAAAAAA")
        answer = await client.post(f"/_live/pub/sheet:{sheet_id}", content=b'{"t":"v","v":99}')
        assert answer.status_code != 201
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(f"{ws}/_live/check")
