"""Every storage test runs twice: on a fresh SQLite file and on a fresh PostgreSQL database.

PostgreSQL is the local server (``127.0.0.1:5432``, trust authentication, database ``test``, or
``$RUMMYKIT_TEST_POSTGRES_URL``). Each test session creates its own database there and drops it
at the end. Without a server the PostgreSQL tests are skipped, except in CI, where they fail.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from rummykit.store import Database

POSTGRES_URL = os.environ.get(
    "RUMMYKIT_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)


def _asyncpg_dsn(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _admin(sql: str) -> None:
    connection = await asyncpg.connect(_asyncpg_dsn(POSTGRES_URL), timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The URL of a database of our own on the local PostgreSQL, dropped afterwards."""
    name = f"rummykit_test_{secrets.token_hex(6)}"
    try:
        asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    except (OSError, asyncpg.PostgresError, TimeoutError) as err:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required in CI: {err}")
        pytest.skip(f"no PostgreSQL server: {err}")
    yield make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    database = Database(database_url)
    await database.migrate()
    yield database
    if not database.is_sqlite:
        # Every test starts from empty tables on the shared PostgreSQL database.
        async with database.engine.begin() as connection:
            await connection.execute(
                text(
                    "TRUNCATE games, game_actions, score_sheets, score_sheet_entries,"
                    " tables, table_messages CASCADE"
                )
            )
    await database.dispose()
