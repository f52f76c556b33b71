"""The tables: games as append-only action logs, and score sheets as versioned entry logs.

Nothing computed is stored: a game is its record (kind, rules, seed, seats and the actions in
order) and a score sheet is its settings and entries; the engines rebuild the rest. The unique
``(game_id, seq)`` and ``(sheet_id, seq)`` pairs make a lost race an error instead of a silent
overwrite, even between several processes on one database.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Stable constraint names, so that migrations can refer to them on every database.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

# SQLite only auto-increments a column declared exactly INTEGER PRIMARY KEY.
BigId = BigInteger().with_variant(Integer(), "sqlite")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Game(Base):
    """A game against the computer or between people: everything but its actions."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32), index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[list[str]] = mapped_column(JSON)
    # One entry per seat: the SHA-256 of the seat's secret token, or None for a computer seat.
    seat_token_hashes: Mapped[list[str | None]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="active")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LogColumns:
    """The columns of an entry of an append-only log but its owner's id, which each log names
    itself: the entry, and its ``seq``, counted from 1 per owner without gaps. (``id`` sorts
    first, so that the owner's id stands second, as the migrations made the tables.)"""

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True, sort_order=-1)
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[Any] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GameAction(LogColumns, Base):
    """One action of a game; ``seq`` counts from 1 and has no gaps."""

    __tablename__ = "game_actions"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_game_actions_game_id_seq"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))


class ScoreSheet(Base):
    """A score sheet. Its id is the secret part of its link; ``version`` counts its entries.

    ``point_limit`` is None when the game is a number of rounds; ``rules`` holds the settings
    beyond the name and the limit (None for a sheet whose limit is reached, the first kind);
    ``view_hash`` is the SHA-256 of the token of its read-only link (see `view_token`).
    """

    __tablename__ = "score_sheets"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    point_limit: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rules: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    view_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    players: Mapped[list[str]] = mapped_column(JSON)
    lang: Mapped[str] = mapped_column(String(8))
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ScoreSheetEntry(LogColumns, Base):
    """One change of a score sheet (a round, a correction, a join, a leave), never rewritten."""

    __tablename__ = "score_sheet_entries"
    __table_args__ = (
        UniqueConstraint("sheet_id", "seq", name="uq_score_sheet_entries_sheet_id_seq"),
    )

    sheet_id: Mapped[str] = mapped_column(ForeignKey("score_sheets.id", ondelete="CASCADE"))


class Table(Base):
    """A table of people and computers: its settings, seats and games. ``version`` counts its
    changes; every change is written only if the row is still at the version it was read at.

    ``seats`` holds one object per seat (kind, level, nickname, the SHA-256 of the person's
    token, whether the person left or a computer stands in); ``games`` the ids of its games in
    order; ``standings`` each person's games won and points across them.
    """

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    code: Mapped[str] = mapped_column(String(8), unique=True)
    kind: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(120))
    lang: Mapped[str] = mapped_column(String(8))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    host: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    games: Mapped[list[str]] = mapped_column(JSON)
    standings: Mapped[dict[str, Any]] = mapped_column(JSON)
    extra: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableMessage(Base):
    """A message of a table's strip (a preset phrase by its code, or free text), never
    rewritten; ``n`` counts from 1 per table."""

    __tablename__ = "table_messages"
    __table_args__ = (UniqueConstraint("table_id", "n", name="uq_table_messages_table_id_n"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    n: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    nickname: Mapped[str] = mapped_column(String(120))
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    text: Mapped[str | None] = mapped_column(String(400), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
