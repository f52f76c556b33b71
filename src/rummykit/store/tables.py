"""Stored tables: a row per table (settings, seats, games, standings) and its messages.

A table changes by whole rows: the caller reads a `StoredTable`, changes a copy and writes it
back with `TableRepository.save`, which updates the row only if it is still at the version
read (``UPDATE … WHERE version = expected``) and raises `Conflict` otherwise, so two requests
or two processes never lose each other's change: the loser reads again and retries. A message
of the table's strip is written in the same transaction as the version it makes, numbered from
1 with the unique ``(table_id, n)``.
"""

from __future__ import annotations

import copy
import secrets
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError

from rummykit.store.errors import Conflict, NotFound
from rummykit.store.models import Game, GameAction, Table, TableMessage, utcnow
from rummykit.store.repository import Repository, get_row

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""The letters of a table's code: no 0/O, no 1/I/L, nothing to mistake when typed."""
CODE_LENGTH = 6


def new_code() -> str:
    """A table's code, 6 characters of `CODE_ALPHABET`.

    >>> code = new_code()
    >>> len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    True
    """
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: str) -> str | None:
    """A typed code as stored (case-insensitive; spaces and dashes ignored), or None when it
    cannot be one.

    >>> read_code(" ab-c 2d3 "), read_code("ABC0D3")
    ('ABC2D3', None)
    """
    cleaned = "".join(c for c in text.upper() if c not in " -\t")
    if len(cleaned) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in cleaned):
        return None
    return cleaned


@dataclass(frozen=True)
class Message:
    """A message of a table's strip."""

    n: int
    seat: int
    nickname: str
    phrase: str | None
    text: str | None
    at: datetime


@dataclass
class StoredTable:
    """A table as stored. Change only a copy made by `mutable` (a deep copy of the JSON
    fields), then save it: the one read stays as it was read."""

    id: str
    code: str
    kind: str
    name: str
    lang: str
    rules: dict[str, Any]
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    host: int
    status: str
    game_id: str | None
    games: list[str]
    standings: dict[str, Any]
    extra: dict[str, Any]
    version: int = 0
    created_at: datetime = field(default_factory=utcnow)

    def mutable(self) -> StoredTable:
        """A copy whose JSON fields may be changed without touching this one."""
        return replace(
            self,
            rules=copy.deepcopy(self.rules),
            settings=copy.deepcopy(self.settings),
            seats=copy.deepcopy(self.seats),
            games=list(self.games),
            standings=copy.deepcopy(self.standings),
            extra=copy.deepcopy(self.extra),
        )


_FIELDS = (
    "name",
    "rules",
    "settings",
    "seats",
    "host",
    "status",
    "game_id",
    "games",
    "standings",
    "extra",
)


def _stored(row: Table) -> StoredTable:
    """The table as stored in ``row`` (each field read from the column of its name)."""
    values = {f.name: getattr(row, f.name) for f in fields(StoredTable)}
    return StoredTable(**{**values, "games": list(row.games)})


class TableRepository(Repository):
    """Create tables, read them by id or code, save their changes, keep their messages."""

    async def create(self, table: StoredTable) -> StoredTable:
        """Store a new table (its ``id`` and ``code`` are chosen here; a code already taken
        is drawn again). Returns it as stored, at version 0."""
        for _ in range(20):
            made = replace(table, id=secrets.token_urlsafe(16), code=new_code(), version=0)
            try:
                async with self.db.session() as session:
                    session.add(
                        Table(
                            id=made.id,
                            code=made.code,
                            kind=made.kind,
                            lang=made.lang,
                            version=0,
                            created_at=made.created_at,
                            **{name: getattr(made, name) for name in _FIELDS},
                        )
                    )
            except IntegrityError:
                continue
            return made
        raise RuntimeError("no free table code")

    async def load(self, table_id: str) -> StoredTable:
        async with self.db.session() as session:
            return _stored(await get_row(session, Table, table_id))

    async def find_code(self, code: str) -> str:
        """The id of the table whose code is ``code`` (as `read_code` gives it)."""
        async with self.db.session() as session:
            found = await session.scalar(select(Table.id).where(Table.code == code))
            if found is None:
                raise NotFound(code)
            return str(found)

    async def save(self, table: StoredTable, message: Message | None = None) -> StoredTable:
        """Write ``table`` if the row is still at ``table.version``; returns it at the new
        version. ``message`` (its ``n`` is chosen here) is written with the change.

        Raises `Conflict` (with the current version) when someone else wrote first, and
        `NotFound` for an unknown table.
        """
        try:
            async with self.db.session() as session:
                result = await session.execute(
                    update(Table)
                    .where(Table.id == table.id, Table.version == table.version)
                    .values(
                        version=table.version + 1,
                        updated_at=utcnow(),
                        **{name: getattr(table, name) for name in _FIELDS},
                    )
                )
                if result.rowcount == 0:  # type: ignore[attr-defined]
                    current = await session.scalar(
                        select(Table.version).where(Table.id == table.id)
                    )
                    if current is None:
                        raise NotFound(table.id)
                    raise Conflict(int(current))
                if message is not None:
                    last = await session.scalar(
                        select(func.coalesce(func.max(TableMessage.n), 0)).where(
                            TableMessage.table_id == table.id
                        )
                    )
                    session.add(
                        TableMessage(
                            table_id=table.id,
                            n=int(last or 0) + 1,
                            seat=message.seat,
                            nickname=message.nickname,
                            phrase=message.phrase,
                            text=message.text,
                            created_at=message.at,
                        )
                    )
        except IntegrityError:
            raise Conflict(table.version) from None
        return replace(table, version=table.version + 1)

    async def messages(self, table_id: str, last: int = 30) -> list[Message]:
        """The last ``last`` messages of the table, oldest first."""
        async with self.db.session() as session:
            rows = await session.scalars(
                select(TableMessage)
                .where(TableMessage.table_id == table_id)
                .order_by(TableMessage.n.desc())
                .limit(last)
            )
            found = [Message(r.n, r.seat, r.nickname, r.phrase, r.text, r.created_at) for r in rows]
        return found[::-1]

    async def last_action_at(self, game_id: str) -> tuple[int, datetime]:
        """The position of a game's last action and when it was written (the game's creation
        for a game without actions): where a turn's clock starts."""
        async with self.db.session() as session:
            row = (
                await session.execute(
                    select(GameAction.seq, GameAction.created_at)
                    .where(GameAction.game_id == game_id)
                    .order_by(GameAction.seq.desc())
                    .limit(1)
                )
            ).first()
            if row is not None:
                return int(row[0]), row[1]
            created = await session.scalar(select(Game.created_at).where(Game.id == game_id))
            if created is None:
                raise NotFound(game_id)
            return 0, created


def as_json(table: StoredTable) -> dict[str, Any]:
    """Every field of a stored table as plain data (for logs and tests)."""
    return {
        "id": table.id,
        "code": table.code,
        "kind": table.kind,
        "lang": table.lang,
        "version": table.version,
        **{name: getattr(table, name) for name in _FIELDS},
    }
