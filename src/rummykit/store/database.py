"""The database: one async engine, its sessions, and the migrations that create the tables.

``Database(url)`` accepts the usual SQLAlchemy URLs and picks the async driver itself:
``sqlite:///rummykit.sqlite3`` (the default: a file in the working directory, WAL journal,
created on first start) or ``postgresql://user@host/db``. `Database.migrate` brings the schema
to the newest Alembic revision shipped in ``rummykit/store/migrations``.
"""

from __future__ import annotations

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
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

DEFAULT_URL = "sqlite:///rummykit.sqlite3"
URL_VARIABLE = "RUMMYKIT_DATABASE_URL"

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
    """An async engine with a session factory; `migrate` before first use."""

    def __init__(self, url: str | None = None, **engine_options: Any) -> None:
        self.url = async_url(database_url(url))
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        if self.is_sqlite and self.url.database not in (None, "", ":memory:"):
            Path(self.url.database).parent.mkdir(parents=True, exist_ok=True)
        self.engine: AsyncEngine = create_async_engine(self.url, **engine_options)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """A session inside one transaction: committed on success, rolled back on error."""
        async with self.sessions() as session, session.begin():
            yield session

    async def migrate(self) -> None:
        """Create or upgrade the tables to the newest revision."""
        async with self.engine.begin() as connection:
            await connection.run_sync(_upgrade)

    async def dispose(self) -> None:
        await self.engine.dispose()


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
