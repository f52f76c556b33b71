"""What every repository shares: its database, a row by its id, an append-only log's entries."""

from __future__ import annotations

from typing import TypeVar

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from rummykit.core import JSON
from rummykit.store.database import Database
from rummykit.store.errors import NotFound
from rummykit.store.models import Base, GameAction, ScoreSheetEntry

Row = TypeVar("Row", bound=Base)

LogEntry = type[GameAction] | type[ScoreSheetEntry]
"""The rows of an append-only log: ``seq`` counts from 1 for each owner."""


class Repository:
    """A part of the store, with the database it reads and writes."""

    def __init__(self, db: Database) -> None:
        self.db = db


async def get_row(session: AsyncSession, model: type[Row], key: str) -> Row:
    """The row of ``model`` whose id is ``key``; `NotFound` when there is none."""
    row = await session.get(model, key)
    if row is None:
        raise NotFound(key)
    return row


async def log_since(
    session: AsyncSession, entry: LogEntry, owner_id: str, after: int = 0
) -> list[tuple[int, JSON]]:
    """The ``(seq, action)`` of the log of ``owner_id`` after position ``after``, in order."""
    owner: InstrumentedAttribute[str] = (
        entry.game_id if issubclass(entry, GameAction) else entry.sheet_id
    )
    rows = await session.execute(
        select(entry.seq, entry.action)
        .where(owner == owner_id, entry.seq > after)
        .order_by(entry.seq)
    )
    return [(seq, action) for seq, action in rows]
