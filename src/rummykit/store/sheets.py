"""Stored score sheets: settings, first players and a versioned log of entries.

The id of a sheet is the secret part of its link. ``version`` is the number of entries; an
entry is appended only if the caller saw the current version (optimistic concurrency): a
second phone that entered the same round a moment later gets `Conflict` and nothing is written.
The conditional ``UPDATE … WHERE version = expected`` and the unique ``(sheet_id, seq)`` both
guard this, so it holds across several processes too.

A sheet also has a read-only link (for a screen at the table): its token is derived from the
sheet's id with HMAC (`view_token`), so whoever has the sheet can show that link again, while
the read-only token leads back to nothing but the sheet's display. Only its hash is stored.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from rummykit.core import JSON, Record
from rummykit.store.errors import Conflict, NotFound
from rummykit.store.games import hash_token, new_token
from rummykit.store.models import ScoreSheet, ScoreSheetEntry, utcnow
from rummykit.store.repository import Repository, get_row, log_since

GAME = "scoresheet"


def view_token(sheet_id: str) -> str:
    """The token of a sheet's read-only link (128 bits; it does not reveal the sheet's id).

    >>> len(view_token("abcdefghijklmnopqrstuv")), view_token("a") != view_token("b")
    (22, True)
    """
    digest = hmac.new(sheet_id.encode(), b"rummykit read-only sheet", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def view_hash(sheet_id: str) -> str:
    """What is stored of the read-only token: its SHA-256."""
    return hash_token(view_token(sheet_id))


@dataclass(frozen=True)
class StoredSheet:
    """A sheet as stored: its record (settings as rules, first players as seats, entries as
    actions), its version and the language it was created in."""

    id: str
    record: Record
    version: int
    lang: str
    created_at: datetime
    updated_at: datetime


class SheetRepository(Repository):
    async def create(
        self,
        name: str,
        limit: int | None,
        players: Sequence[str],
        lang: str,
        rules: dict[str, JSON] | None = None,
    ) -> str:
        """Store a new sheet and return its id (an unguessable token).

        ``rules`` are the settings beyond the name and the limit (how the game ends…), given
        back in the record's rules when the sheet is loaded.
        """
        sheet_id = new_token()
        async with self.db.session() as session:
            session.add(
                ScoreSheet(
                    id=sheet_id,
                    name=name,
                    point_limit=limit,
                    rules=rules or None,
                    view_hash=view_hash(sheet_id),
                    players=list(players),
                    lang=lang,
                    version=0,
                )
            )
        return sheet_id

    async def load(self, sheet_id: str) -> StoredSheet:
        async with self.db.session() as session:
            sheet = await get_row(session, ScoreSheet, sheet_id)
            entries = await log_since(session, ScoreSheetEntry, sheet_id)
            actions = tuple(action for _, action in entries)
            record = Record(
                GAME,
                {**(sheet.rules or {}), "name": sheet.name, "limit": sheet.point_limit},
                0,
                tuple(sheet.players),
                actions,
            )
            return StoredSheet(
                id=sheet.id,
                record=record,
                version=sheet.version,
                lang=sheet.lang,
                created_at=sheet.created_at,
                updated_at=sheet.updated_at,
            )

    async def find_view(self, token: str) -> str:
        """The id of the sheet whose read-only token is ``token``, or `NotFound`."""
        async with self.db.session() as session:
            found = await session.scalar(
                select(ScoreSheet.id).where(ScoreSheet.view_hash == hash_token(token))
            )
            if found is None:
                raise NotFound(token)
            return str(found)

    async def version(self, sheet_id: str) -> int:
        async with self.db.session() as session:
            value = await session.scalar(
                select(ScoreSheet.version).where(ScoreSheet.id == sheet_id)
            )
            if value is None:
                raise NotFound(sheet_id)
            return int(value)

    async def append(self, sheet_id: str, expected_version: int, action: JSON) -> int:
        """Append an entry if the sheet is still at ``expected_version``; return the new one.

        Raises `Conflict` (with the current version) when someone else wrote first.
        """
        try:
            async with self.db.session() as session:
                result = await session.execute(
                    update(ScoreSheet)
                    .where(ScoreSheet.id == sheet_id, ScoreSheet.version == expected_version)
                    .values(version=expected_version + 1, updated_at=utcnow())
                )
                if result.rowcount == 0:  # type: ignore[attr-defined]
                    current = await session.scalar(
                        select(ScoreSheet.version).where(ScoreSheet.id == sheet_id)
                    )
                    if current is None:
                        raise NotFound(sheet_id)
                    raise Conflict(int(current))
                session.add(
                    ScoreSheetEntry(sheet_id=sheet_id, seq=expected_version + 1, action=action)
                )
        except IntegrityError:
            raise Conflict(await self.version(sheet_id)) from None
        return expected_version + 1

    async def entries_since(self, sheet_id: str, version: int) -> list[tuple[int, JSON]]:
        async with self.db.session() as session:
            return await log_since(session, ScoreSheetEntry, sheet_id, version)
