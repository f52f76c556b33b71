"""Alembic environment. `rummykit db upgrade` (or `Database.migrate`) hands in a connection;
run by the ``alembic`` command itself, the URL comes from ``$RUMMYKIT_DATABASE_URL``."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from rummykit.store.database import async_url, database_url
from rummykit.store.models import Base


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_with_own_engine() -> None:
    engine = create_async_engine(async_url(database_url()))
    async with engine.begin() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


def main() -> None:
    given = context.config.attributes.get("connection")
    if given is not None:
        _run(given)
    else:
        asyncio.run(_run_with_own_engine())


# Alembic runs this file as a script; a plain import (doctest collection) only defines.
if hasattr(context, "config"):
    main()
