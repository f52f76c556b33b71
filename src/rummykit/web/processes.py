"""Several server processes for one site: started, watched and stopped together.

``rummykit serve --workers N`` runs N ordinary servers on the ports ``port`` … ``port + N - 1``
of one machine, for a reverse proxy in front (``deploy/nginx.conf``). Any of them serves any
game: the games' state is in the database, which refuses a second write of one step
(``UNIQUE(game_id, seq)``), and every new step is published on Redis to the processes that
hold the game's sockets. Hence several processes need PostgreSQL (SQLite lets one process
write at a time, on one machine) and Redis (without it a page on another process would learn of
a move only at the next poll).

The supervisor brings the database to the newest revision once, then starts the servers, each
set to die with it, and starts again a server that stops on its own (a crash): the proxy sends
its requests to the others meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import os
import signal
import subprocess
import sys
import time
from types import FrameType

from sqlalchemy.engine import make_url

from rummykit.web.live import REDIS_POLL_SECONDS

RESTART_PAUSE = 1.0
"""Seconds before a server that stopped on its own is started again."""


def refusal(url: str, redis_url: str | None) -> str | None:
    """Why several processes cannot serve with this database and Redis, or None.

    >>> refusal("sqlite:///site.sqlite3", "redis://localhost")
    'several processes need PostgreSQL: SQLite lets one process write at a time (--database postgresql://…)'
    >>> refusal("postgresql://me@db/site", None)
    'several processes need Redis to tell each other of every move (--redis redis://…)'
    >>> refusal("postgresql://me@db/site", "redis://localhost") is None
    True
    """
    if make_url(url).get_backend_name() != "postgresql":
        return (
            "several processes need PostgreSQL: SQLite lets one process write at a time "
            "(--database postgresql://…)"
        )
    if not redis_url:
        return "several processes need Redis to tell each other of every move (--redis redis://…)"
    return None


def supervise(
    host: str,
    port: int,
    workers: int,
    url: str,
    redis_url: str | None,
    poll_seconds: float,
    redis_poll_seconds: float = REDIS_POLL_SECONDS,
) -> int:
    """Run ``workers`` servers until a signal stops this process; the exit status."""
    from rummykit.store import Database

    async def migrate() -> None:
        db = Database(url)
        try:
            await db.migrate()
        finally:
            await db.dispose()

    asyncio.run(migrate())
    env = {**os.environ, "RUMMYKIT_DATABASE_URL": url}
    if redis_url:
        env["RUMMYKIT_REDIS_URL"] = redis_url
    ports = [port + i for i in range(workers)]
    stopping = False

    def stop(signum: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def start(number: int) -> subprocess.Popen[bytes]:
        command = [
            sys.executable,
            "-c",
            "from rummykit.cli import main; main()",
            "serve",
            "--host",
            host,
            "--port",
            str(number),
            "--poll-seconds",
            str(poll_seconds),
            "--redis-poll-seconds",
            str(redis_poll_seconds),
        ]
        return subprocess.Popen(command, env=env, preexec_fn=_die_with_parent)

    shown = f"[{host}]" if ":" in host else host
    print(
        f"rummykit: {workers} processes on http://{shown}:{ports[0]}/ to :{ports[-1]}/",
        flush=True,
    )
    running = {number: start(number) for number in ports}
    while not stopping:
        time.sleep(0.2)
        for number, process in list(running.items()):
            if process.poll() is not None and not stopping:
                print(f"rummykit: the process on port {number} stopped; starting it again")
                time.sleep(RESTART_PAUSE)
                running[number] = start(number)
    for process in running.values():
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
    for process in running.values():
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
    return 0


def _die_with_parent() -> None:
    """In a new server, before it runs: end it when the supervisor ends (Linux), so that a
    supervisor killed outright leaves no server behind."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
