"""The database: one async engine, its sessions, and the migrations that create the tables.

``Database(url)`` accepts the usual SQLAlchemy URLs and picks the async driver itself:
``sqlite:///rummykit.sqlite3`` (the default: a file in the working directory, WAL journal,
created on first start) or ``postgresql://user@host/db``. `Database.migrate` brings the schema
to the newest Alembic revision shipped in ``rummykit/store/migrations``.

Connections come from a pool that keeps ``$RUMMYKIT_DB_POOL_SIZE`` of them open (default 10).
Every session (and `statement`) first takes its turn at a gate as wide as that, first come
first served: a burst of requests waits in line for the connections, each held only for its
statement or transaction, instead of racing for them (where a late comer may take a
connection freed for one who waited longer, and one who waits more than the pool's timeout
fails). ``$RUMMYKIT_DB_MAX_OVERFLOW`` (default 5) more may be opened only by what does not pass
the gate (the migrations): an overflow connection is opened for one use and closed after it,
and when the gate was as wide as the pool and its overflow together, busy PostgreSQL servers
spent a quarter of their event loop opening and closing connections (profile of `rummykit
bench load --computer 100 --database postgresql://…`). On a SQLite file the games' steps
and statuses are written apart, by one thread with a connection of its own that writes all those
waiting in one transaction (`rummykit.store.writer.Writer`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from rummykit.store.writer import Writer

DEFAULT_URL = "sqlite:///rummykit.sqlite3"
URL_VARIABLE = "RUMMYKIT_DATABASE_URL"
POOL_SIZE = 10
MAX_OVERFLOW = 5
POOL_TIMEOUT = 300.0
"""Seconds a connection may be waited for in the pool itself (``$RUMMYKIT_DB_POOL_TIMEOUT``):
the gate keeps the waiting to itself, so only a connection taken without it
(``engine.connect()``) may wait there."""

_ASYNC_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}


def database_url(url: str | None = None) -> str:
    """The URL to use: the one given, else ``$RUMMYKIT_DATABASE_URL``, else the SQLite file."""
    return url or os.environ.get(URL_VARIABLE) or DEFAULT_URL


def async_url(url: str) -> URL:
    """The same database, with the async driver rummykit uses.

    >>> async_url("postgresql://me@localhost/games").drivername
    'postgresql+asyncpg'
    >>> async_url("sqlite:///x.sqlite3").render_as_string()
    'sqlite+aiosqlite:///x.sqlite3'
    """
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend not in _ASYNC_DRIVERS:
        raise ValueError(f"unsupported database {backend!r}: use sqlite or postgresql")
    return parsed.set(drivername=_ASYNC_DRIVERS[backend])


def migrations_config() -> Config:
    """The Alembic configuration of the migrations shipped in the package."""
    config = Config()
    location = resources.files("rummykit.store").joinpath("migrations")
    config.set_main_option("script_location", str(location))
    config.set_main_option("path_separator", "os")
    return config


class Database:
    """An async engine with a session factory; `migrate` before first use. ``pool_size`` and
    ``max_overflow`` (default: from the environment, see the module) size its pool."""

    def __init__(
        self,
        url: str | None = None,
        *,
        pool_size: int | None = None,
        max_overflow: int | None = None,
        **engine_options: Any,
    ) -> None:
        self.url = async_url(database_url(url))
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        file = self.url.database
        memory = file in (None, "", ":memory:")
        if self.is_sqlite and file and not memory:
            Path(file).parent.mkdir(parents=True, exist_ok=True)
        size = pool_size if pool_size is not None else _setting("RUMMYKIT_DB_POOL_SIZE", POOL_SIZE)
        overflow = (
            max_overflow
            if max_overflow is not None
            else _setting("RUMMYKIT_DB_MAX_OVERFLOW", MAX_OVERFLOW)
        )
        if not (self.is_sqlite and memory) and "poolclass" not in engine_options:
            engine_options.setdefault("pool_size", max(1, size))
            engine_options.setdefault("max_overflow", max(0, overflow))
            timeout = os.environ.get("RUMMYKIT_DB_POOL_TIMEOUT", "")
            engine_options.setdefault("pool_timeout", _seconds(timeout, POOL_TIMEOUT))
        self.slots = max(1, size)
        """How many sessions may hold a connection at once (the width of the gate): the
        connections the pool keeps open."""
        self._gate: asyncio.Semaphore | None = None
        self.engine: AsyncEngine = create_async_engine(self.url, **engine_options)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.writer = Writer(self.url, _sqlite_pragmas) if self.is_sqlite and not memory else None
        """For a SQLite file: the thread that writes the games' steps (see `Writer`)."""
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    def gate(self) -> asyncio.Semaphore:
        """The first-come-first-served line to the pool's connections."""
        if self._gate is None:
            self._gate = asyncio.Semaphore(self.slots)
        return self._gate

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """A session inside one transaction: committed on success, rolled back on error."""
        async with self.gate(), self.sessions() as session, session.begin():
            yield session

    @asynccontextmanager
    async def statement(self) -> AsyncIterator[AsyncConnection]:
        """A connection, through the gate, whose statements each commit by themselves: one
        statement is one round trip (in a transaction, the driver sends BEGIN and COMMIT in
        trips of their own: three for a game's step on PostgreSQL)."""
        async with self.gate(), self.engine.connect() as connection:
            await connection.execution_options(isolation_level="AUTOCOMMIT")
            yield connection

    async def migrate(self) -> None:
        """Create or upgrade the tables to the newest revision."""
        async with self.engine.begin() as connection:
            await connection.run_sync(_upgrade)

    async def dispose(self) -> None:
        if self.writer is not None:
            await asyncio.to_thread(self.writer.close)
        await self.engine.dispose()


def _setting(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    return int(text) if text.isdigit() else default


def _seconds(text: str, default: float) -> float:
    try:
        value = float(text)
    except ValueError:
        return default
    return value if value > 0 else default


def _upgrade(connection: Connection) -> None:
    config = migrations_config()
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()
