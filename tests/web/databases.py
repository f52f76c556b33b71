"""A database of a test's own on the local PostgreSQL, a Redis server of its own, and the rows
stored in any database."""

from __future__ import annotations

import asyncio
import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.engine import make_url

POSTGRES_URL = os.environ.get(
    "RUMMYKIT_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
)
TABLES = ("games", "game_actions", "score_sheets", "score_sheet_entries")


@contextmanager
def postgres_database() -> Iterator[str]:
    """The URL of a fresh database, dropped afterwards; the test is skipped without a server
    (and fails in CI, where PostgreSQL is required)."""
    server = make_url(POSTGRES_URL)
    admin = server.set(drivername="postgresql").render_as_string(hide_password=False)
    name = f"rummykit_test_{secrets.token_hex(6)}"

    async def run(sql: str) -> None:
        connection = await asyncpg.connect(admin, timeout=5)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()

    try:
        asyncio.run(run(f'CREATE DATABASE "{name}"'))
    except (OSError, asyncpg.PostgresError, TimeoutError) as err:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required in CI: {err}")
        pytest.skip(f"no PostgreSQL server: {err}")
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def stored_rows(client: TestClient) -> dict[str, int]:
    """How many rows each table of the client's app holds."""

    async def count() -> dict[str, int]:
        async with client.app.state.db.engine.connect() as conn:  # type: ignore[attr-defined]
            return {
                t: (await conn.execute(text(f"SELECT count(*) FROM {t}"))).scalar_one()
                for t in TABLES
            }

    return client.portal.call(count)  # type: ignore[union-attr, arg-type]


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A Redis server of the test's own on a free port (the Debian package's binary)."""
    binary = shutil.which("redis-server")
    if binary is None:
        if os.environ.get("CI") == "true":
            pytest.fail("redis-server is required in CI")
        pytest.skip("no redis-server")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)
