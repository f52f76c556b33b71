"""Stored games: a row per game and its append-only action log.

A game is created with its kind, rules, seed and seats; each human seat gets a secret token
(returned once, stored only as its SHA-256). Actions are appended one at a time with the
position the caller expects (``seq``, counting from 1): if another request or process wrote
that position first, `append_action` raises `Conflict` and nothing is written; the caller
reloads the record and tells the player.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Integer, String, bindparam, func, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from rummykit.core import JSON, Record
from rummykit.store.database import Database
from rummykit.store.errors import Conflict, NotFound
from rummykit.store.models import Game, GameAction, utcnow
from rummykit.store.repository import Repository, get_row, log_since
from rummykit.store.writer import Batch, GroupCommit

STATUSES = ("active", "over", "abandoned")


def new_token() -> str:
    """An unguessable token for a link or a seat (128 random bits)."""
    return secrets.token_urlsafe(16)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class NewGame:
    """A created game: its id and the token of each human seat (seat number -> token)."""

    id: str
    seat_tokens: dict[int, str]


@dataclass(frozen=True)
class GameInfo:
    """What the store holds of a game beside its actions."""

    id: str
    kind: str
    """The game's name in records (``romme``, ``tiles``, ``rummoli``)."""
    status: str
    """One of `STATUSES`."""
    seats: tuple[str, ...]
    """Each seat's name: a person's, or the level of the computer playing it."""
    human_seats: tuple[int, ...]
    """The seats played by people, each with a token of its own."""
    last_seq: int
    """The number of the last action stored (0 before the first)."""
    created_at: datetime
    updated_at: datetime


class GameRepository(Repository):
    """Create games, append their actions, load them back as records."""

    async def create_game(
        self,
        kind: str,
        rules: JSON,
        seed: int,
        seats: Sequence[str],
        human_seats: Iterable[int] = (),
        token_hashes: Mapping[int, str] | None = None,
    ) -> NewGame:
        """Store a new game; ``human_seats`` get a token each, the other seats are bots.

        ``token_hashes`` gives the human seats the hashes of tokens they already hold (the
        players of a table): no new token is made for them."""
        humans = set(human_seats)
        if not humans <= set(range(len(seats))):
            raise ValueError("a human seat is not a seat of the game")
        given = dict(token_hashes or {})
        tokens = {seat: new_token() for seat in sorted(humans) if seat not in given}
        hashes = {seat: hash_token(token) for seat, token in tokens.items()} | given
        game_id = secrets.token_urlsafe(12)
        row = {
            "id": game_id,
            "kind": kind,
            "rules": rules,
            "seed": seed,
            "seats": list(seats),
            "seat_token_hashes": [hashes.get(s) for s in range(len(seats))],
            "status": "active",
        }
        if self.db.writer is not None:  # with the steps, rather than waiting for the file
            await self.db.writer.write(_game_rows, row)
        else:
            async with self.db.session() as session:
                session.add(Game(**row))
        return NewGame(game_id, tokens)

    async def append_action(self, game_id: str, seq: int, action: JSON) -> None:
        """Write the action at position ``seq`` (1 for the first), which must be the next one.

        One statement in one round trip: the row is inserted only when ``seq`` follows the last
        stored position, and ``UNIQUE(game_id, seq)`` refuses the second of two writers racing
        for it. Raises `Conflict` when that position is taken (a lost race) or is not the next
        one, and `NotFound` for an unknown game; only these refusals read the log. On a SQLite
        file the statement goes to the database's `rummykit.store.writer.Writer`, with the
        other steps waiting at that moment, in one transaction; it returns once committed.
        """
        row = {"game_id": game_id, "seq": seq, "previous": seq - 1, "action": action}
        try:
            if self.db.writer is not None:
                written = await self.db.writer.write(_append_rows, row | {"at": utcnow()})
            elif not self.db.is_sqlite:
                written = await _steps(self.db).write(row | {"at": utcnow()})
            else:
                written = await _append_one(self.db, row | {"at": utcnow()})
        except IntegrityError:
            written = False
        if not written:
            await self._refuse(game_id)

    async def _refuse(self, game_id: str) -> None:
        """Why an append wrote nothing: `NotFound` or `Conflict` with the last position."""
        async with self.db.session() as session:
            if await session.get(Game, game_id) is None:
                raise NotFound(game_id)
            raise Conflict(await self._last_seq(session, game_id))

    async def set_status(self, game_id: str, status: str) -> None:
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        row = {"game_id": game_id, "status": status, "at": utcnow()}
        if self.db.writer is not None:
            found = await self.db.writer.write(_status_rows, row)
        else:
            async with self.db.statement() as connection:
                found = (await connection.execute(_STATUS, row)).rowcount == 1
        if not found:
            raise NotFound(game_id)

    async def load_record(self, game_id: str) -> Record:
        """The game's record: everything needed to replay it."""
        return (await self.load_game(game_id))[0]

    async def load_game(self, game_id: str) -> tuple[Record, tuple[str | None, ...]]:
        """The game's record and the SHA-256 of each seat's token (None: a computer's)."""
        async with self.db.session() as session:
            game = await get_row(session, Game, game_id)
            actions = tuple(action for _, action in await log_since(session, GameAction, game_id))
            record = Record(game.kind, game.rules, game.seed, tuple(game.seats), actions)
            return record, tuple(game.seat_token_hashes)

    async def actions_since(self, game_id: str, seq: int) -> list[tuple[int, JSON]]:
        """The actions after position ``seq``, for a client that reconnects."""
        async with self.db.session() as session:
            return await log_since(session, GameAction, game_id, seq)

    async def info(self, game_id: str) -> GameInfo:
        async with self.db.session() as session:
            game = await get_row(session, Game, game_id)
            # Appending an action leaves the game's row alone: its last change is its newest
            # action's time.
            last_action = await session.scalar(
                select(func.max(GameAction.created_at)).where(GameAction.game_id == game_id)
            )
            return GameInfo(
                id=game.id,
                kind=game.kind,
                status=game.status,
                seats=tuple(game.seats),
                human_seats=tuple(i for i, h in enumerate(game.seat_token_hashes) if h),
                last_seq=await self._last_seq(session, game_id),
                created_at=game.created_at,
                updated_at=max(_aware(game.updated_at), _aware(last_action or game.updated_at)),
            )

    async def seat_of(self, game_id: str, token: str | None) -> int | None:
        """The seat that ``token`` claims in the game, or None (checked in constant time)."""
        if not token:
            return None
        async with self.db.session() as session:
            game = await session.get(Game, game_id)
            if game is None:
                return None
            wanted = hash_token(token)
            for seat, stored in enumerate(game.seat_token_hashes):
                if stored and hmac.compare_digest(stored, wanted):
                    return seat
            return None

    @staticmethod
    async def _last_seq(session: AsyncSession, game_id: str) -> int:
        value = await session.scalar(
            select(func.coalesce(func.max(GameAction.seq), 0)).where(GameAction.game_id == game_id)
        )
        return int(value or 0)


_APPEND = insert(GameAction).from_select(
    ["game_id", "seq", "action", "created_at"],
    select(
        bindparam("game_id", type_=String()),
        bindparam("seq", type_=Integer()),
        bindparam("action", type_=GameAction.__table__.c.action.type),
        bindparam("at", type_=GameAction.__table__.c.created_at.type),
    ).where(
        select(func.coalesce(func.max(GameAction.seq), 0))
        .where(GameAction.game_id == bindparam("game_id"))
        .scalar_subquery()
        == bindparam("previous")
    ),
)
"""A game's next step: inserted only when the one before it is the last stored."""

_STATUS = (
    update(Game)
    .where(Game.id == bindparam("game_id"))
    .values(status=bindparam("status"), updated_at=bindparam("at"))
)


_APPEND_MANY = text(
    """
    INSERT INTO game_actions (game_id, seq, action, created_at)
    SELECT v.game_id, v.seq, CAST(v.action AS JSON), v.at
    FROM unnest(
        CAST(:game_ids AS VARCHAR[]), CAST(:seqs AS INTEGER[]), CAST(:previous AS INTEGER[]),
        CAST(:actions AS TEXT[]), CAST(:ats AS TIMESTAMPTZ[])
    ) AS v(game_id, seq, previous, action, at)
    WHERE (
        SELECT coalesce(max(a.seq), 0) FROM game_actions a WHERE a.game_id = v.game_id
    ) = v.previous
    RETURNING game_id, seq
    """
)
"""PostgreSQL: several games' next steps in one statement (`_APPEND` for each row, the
condition read before the statement: so at most one step of a game in it), naming those it
wrote."""


async def _append_one(db: Database, row: dict[str, Any]) -> bool:
    async with db.statement() as connection:
        return bool((await connection.execute(_APPEND, row)).rowcount == 1)


class _Steps(GroupCommit):
    """On PostgreSQL, the steps waiting to be stored at one moment, written together: one
    statement and one commit for all (a group commit, like SQLite's `Writer`), where each step
    was a round trip of its own and the server's largest cost under load. Each step is answered
    only once its statement has committed; when the statement fails whole (two processes
    racing for one step), each of its steps is written again alone, so that one refusal never
    undoes another."""

    def __init__(self, db: Database) -> None:
        super().__init__()
        self.db = db

    async def write(self, row: dict[str, Any]) -> bool:
        """Whether the step was written (see `_APPEND`)."""
        written: bool = await self.submit(row)
        return written

    def _take(self, waiting: list[Any]) -> tuple[list[Any], list[Any]]:
        # `_APPEND_MANY` reads each game's last step before the statement: one step a game.
        batch: list[Any] = []
        later: list[Any] = []
        games: set[str] = set()
        for entry in waiting:
            game_id = entry[0]["game_id"]
            (later if game_id in games else batch).append(entry)
            games.add(game_id)
        return batch, later

    async def _commit(self, items: list[Any]) -> list[tuple[bool, Any]]:
        try:
            written = await self._write(items)
        except Exception as err:
            return [(False, err)] if len(items) == 1 else await self._one_by_one(items)
        return [(True, (row["game_id"], row["seq"]) in written) for row in items]

    async def _write(self, rows: list[dict[str, Any]]) -> set[tuple[str, int]]:
        if len(rows) == 1:  # alone, the one-row statement (the one the server prepared)
            (row,) = rows
            return {(row["game_id"], row["seq"])} if await _append_one(self.db, row) else set()
        values = {
            "game_ids": [r["game_id"] for r in rows],
            "seqs": [r["seq"] for r in rows],
            "previous": [r["previous"] for r in rows],
            "actions": [json.dumps(r["action"], ensure_ascii=False) for r in rows],
            "ats": [r["at"] for r in rows],
        }
        async with self.db.statement() as connection:
            result = await connection.execute(_APPEND_MANY, values)
            return {(game_id, seq) for game_id, seq in result}

    async def _one_by_one(self, rows: list[dict[str, Any]]) -> list[tuple[bool, Any]]:
        outcomes: list[tuple[bool, Any]] = []
        for row in rows:
            try:
                outcomes.append((True, await _append_one(self.db, row)))
            except IntegrityError:
                outcomes.append((True, False))
            except Exception as err:
                outcomes.append((False, err))
        return outcomes


def _steps(db: Database) -> _Steps:
    """The database's batch of steps (one for all its repositories)."""
    batch = _BATCHES.get(db)
    if batch is None:
        batch = _BATCHES[db] = _Steps(db)
    return batch


_BATCHES: weakref.WeakKeyDictionary[Database, _Steps] = weakref.WeakKeyDictionary()


def _append_rows(connection: Connection, rows: Sequence[dict[str, Any]]) -> list[bool]:
    """In the writer's thread: whether each step was written (all of them in one statement;
    when some were not, `Batch` has them written one at a time to tell which)."""
    written = connection.execute(_APPEND, list(rows)).rowcount
    if len(rows) > 1 and written != len(rows):
        raise Batch(f"{written} of {len(rows)} steps written")
    return [written == 1] if len(rows) == 1 else [True] * len(rows)


def _game_rows(connection: Connection, rows: Sequence[dict[str, Any]]) -> list[None]:
    """In the writer's thread: new games."""
    connection.execute(insert(Game), list(rows))
    return [None] * len(rows)


def _status_rows(connection: Connection, rows: Sequence[dict[str, Any]]) -> list[bool]:
    """In the writer's thread: whether each game's status was set (its row exists)."""
    return [connection.execute(_STATUS, row).rowcount == 1 for row in rows]


def _aware(moment: datetime) -> datetime:
    """A stored time in UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
