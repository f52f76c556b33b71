"""Servers for the benchmarks and the tests of several processes: rummykit and nginx.

`Server` runs ``rummykit serve`` in a child process and waits until it answers; `Front` runs
nginx from the shipped configuration (``deploy/nginx.sh``) in front of several of them;
`scratch_database` makes an empty PostgreSQL database for one run. Every simulated visitor
comes from one address, so the servers lift the per-client limits meant for one person.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

LOAD_LIMITS = {
    "RUMMYKIT_RATE_CREATE": "100000/minute",
    "RUMMYKIT_RATE_ACTIONS": "1000000/minute",
    "RUMMYKIT_SOCKETS_PER_CLIENT": "1000000",
    "RUMMYKIT_SOCKETS_PER_TABLE": "100000",
    "RUMMYKIT_MAX_CONNECTIONS": "100000",
}
"""The per-client limits lifted for a load that comes from one address."""

DEPLOY = Path(__file__).resolve().parents[3] / "deploy"
"""The shipped deployment files (in a checkout of the project)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until_up(url: str, process: subprocess.Popen[bytes] | None, log: Path) -> None:
    import httpx

    deadline = time.monotonic() + 60
    while True:
        if process is not None and process.poll() is not None:
            raise RuntimeError(log.read_text()[-2000:])
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not start: {log.read_text()[-2000:]}")
        time.sleep(0.1)


class Server:
    """``rummykit serve`` in a child process on ``database`` (default: a new SQLite file in
    ``folder``); ``profile`` runs it under cProfile, which writes there when it stops."""

    def __init__(
        self,
        folder: Path,
        database: str | None = None,
        *,
        redis: str | None = None,
        port: int | None = None,
        env: Mapping[str, str] | None = None,
        profile: str | None = None,
    ) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"server-{self.port}.log"
        environment = {
            **os.environ,
            **LOAD_LIMITS,
            "RUMMYKIT_DATABASE_URL": database or f"sqlite:///{folder / 'bench.sqlite3'}",
            **(env or {}),
        }
        if redis:
            environment["RUMMYKIT_REDIS_URL"] = redis
        script = "from rummykit.cli import main; main()"
        if profile:
            # uvicorn raises the stopping signal again once it has shut down: made an exit
            # here, so that cProfile writes its statistics.
            script = (
                "import cProfile, signal, sys; from rummykit.cli import main; "
                "signal.signal(signal.SIGTERM, lambda *_: sys.exit(0)); "
                f"cProfile.run('main()', {profile!r})"
            )
        command = [sys.executable, "-c", script, "serve", "--port", str(self.port)]
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(command, env=environment, stdout=out, stderr=out)
        try:
            wait_until_up(self.url, self.process, self.log)
        except BaseException:
            self.stop()
            raise

    @property
    def pid(self) -> int:
        return self.process.pid

    def kill(self) -> None:
        """``kill -9``: the process ends at once, without any shutdown."""
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()


class Front:
    """nginx from ``deploy/nginx.sh`` on a free port in front of ``servers`` (host:port)."""

    def __init__(
        self,
        folder: Path,
        servers: list[str],
        port: int | None = None,
        live_port: int | None = None,
    ) -> None:
        self.port = port or free_port()
        self.live_port = live_port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.prefix = folder / "nginx"
        script = str(DEPLOY / "nginx.sh")
        command = [script, "--port", str(self.port), "--prefix", str(self.prefix)]
        command += ["--live", f"127.0.0.1:{self.live_port}", *servers]
        subprocess.run(command, check=True, capture_output=True)
        wait_until_up(self.url, None, self.prefix / "logs" / "error.log")

    @staticmethod
    def live_url(live_port: int) -> str:
        """What the processes behind a front with this ``live_port`` take as
        ``RUMMYKIT_LIVE_FRONT``."""
        return f"http://127.0.0.1:{live_port}/_live/pub"

    @property
    def pids(self) -> list[int]:
        """nginx's master process and its workers."""
        with contextlib.suppress(OSError, ValueError):
            master = int((self.prefix / "nginx.pid").read_text())
            return [master, *sorted(descendants(master))]
        return []

    @property
    def access_log(self) -> Path:
        return self.prefix / "logs" / "access.log"

    def stop(self) -> None:
        script = str(DEPLOY / "nginx.sh")
        subprocess.run([script, "--prefix", str(self.prefix), "--stop"], capture_output=True)
        pid_file = self.prefix / "nginx.pid"
        deadline = time.monotonic() + 10
        while pid_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)


def admin_url(url: str) -> URL:
    """The address of ``url`` for asyncpg itself: the site's own (read by SQLAlchemy's asyncpg
    dialect) may say ``ssl=disable``, which asyncpg's address spells ``sslmode``; passed as it
    is, the server is asked to set a parameter named ``ssl`` and refuses.

    >>> admin_url("postgresql://me@db/games?ssl=disable").render_as_string()
    'postgresql://me@db/games?sslmode=disable'
    """
    from sqlalchemy.engine import make_url

    parsed = make_url(url).set(drivername="postgresql")
    query = dict(parsed.query)
    if "ssl" in query:
        query["sslmode"] = query.pop("ssl")
    return parsed.set(query=query)


@contextlib.contextmanager
def scratch_database(url: str | None) -> Iterator[str | None]:
    """A new, empty PostgreSQL database on the server of ``url``, dropped afterwards (so that
    a measure never starts from another run's rows); None or SQLite: unchanged."""
    if url is None or not url.startswith("postgresql"):
        yield url
        return
    import asyncpg  # type: ignore[import-untyped]
    from sqlalchemy.engine import make_url

    base = admin_url(url)
    name = f"rummykit_bench_{secrets.token_hex(4)}"

    async def admin(sql: str) -> None:
        connection = await asyncpg.connect(base.render_as_string(hide_password=False))
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def descendants(pid: int) -> set[int]:
    """The processes started by ``pid`` and by them, read from ``/proc`` (Linux)."""
    children: dict[int, set[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = (entry / "stat").read_text()
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, set()).add(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a running process (a zombie waiting for its parent is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"
