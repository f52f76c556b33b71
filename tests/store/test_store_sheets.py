"""Stored score sheets: versions, the entry log, conflicts, survival across engines."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import text

from rummykit.scoresheet import EnterRound, Join, replay
from rummykit.store import Conflict, Database, NotFound, SheetRepository

pytestmark = pytest.mark.anyio


async def test_a_sheet_is_created_with_an_unguessable_id_and_loads_back(db: Database) -> None:
    sheets = SheetRepository(db)
    ids = {await sheets.create("Friday", 500, ["Ann", "Bob"], "de") for _ in range(3)}
    assert len(ids) == 3 and all(len(i) >= 22 for i in ids)
    stored = await sheets.load(ids.pop())
    assert stored.version == 0 and stored.lang == "de"
    sheet = replay(stored.record)
    assert sheet.settings.name == "Friday" and sheet.limit == 500
    assert [p.name for p in sheet.players] == ["Ann", "Bob"]


async def test_entries_are_kept_in_order_and_replay_to_the_sheet(db: Database) -> None:
    sheets = SheetRepository(db)
    sheet_id = await sheets.create("Ä sheet — ünïcode", 300, ["Jürgen", "Zoë"], "fr")
    actions = [
        EnterRound.of({0: 0, 1: 40}, went_out=0),
        Join("Ñoño"),
        EnterRound.of({0: 12, 1: -100, 2: 3}, went_out=1),
    ]
    for version, action in enumerate(actions):
        assert await sheets.append(sheet_id, version, action.to_json()) == version + 1
    stored = await sheets.load(sheet_id)
    assert stored.version == 3
    sheet = replay(stored.record)
    assert sheet.totals() == {0: 12, 1: -60, 2: 43}
    assert [p.name for p in sheet.players] == ["Jürgen", "Zoë", "Ñoño"]
    assert [seq for seq, _ in await sheets.entries_since(sheet_id, 1)] == [2, 3]


async def test_a_stale_version_is_a_conflict_and_nothing_is_written(db: Database) -> None:
    sheets = SheetRepository(db)
    sheet_id = await sheets.create("x", 500, ["A", "B"], "en")
    await sheets.append(sheet_id, 0, {"n": 1})
    with pytest.raises(Conflict) as err:
        await sheets.append(sheet_id, 0, {"n": 2})
    assert err.value.current == 1
    stored = await sheets.load(sheet_id)
    assert (stored.version, list(stored.record.actions)) == (1, [{"n": 1}])
    with pytest.raises(NotFound):
        await sheets.append("missing", 0, {})
    with pytest.raises(NotFound):
        await sheets.load("missing")
    with pytest.raises(NotFound):
        await sheets.version("missing")


async def test_two_phones_entering_at_once_never_overwrite_each_other(database_url: str) -> None:
    first, second = Database(database_url), Database(database_url)
    await first.migrate()
    try:
        sheet_id = await SheetRepository(first).create("race", 500, ["A", "B"], "en")
        for version in range(4):
            results = await asyncio.gather(
                SheetRepository(first).append(sheet_id, version, {"phone": 1}),
                SheetRepository(second).append(sheet_id, version, {"phone": 2}),
                return_exceptions=True,
            )
            assert sum(r == version + 1 for r in results) == 1, results
            assert sum(isinstance(r, Conflict) for r in results) == 1, results
        stored = await SheetRepository(second).load(sheet_id)
        assert stored.version == 4 and len(stored.record.actions) == 4
    finally:
        await first.dispose()
        await second.dispose()


async def test_sqlite_uses_a_write_ahead_log_and_creates_its_file(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "dir" / "new.sqlite3"
    database = Database(f"sqlite:///{path}")
    await database.migrate()
    try:
        async with database.engine.connect() as connection:
            mode = (await connection.execute(text("PRAGMA journal_mode"))).scalar()
            keys = (await connection.execute(text("PRAGMA foreign_keys"))).scalar()
        assert (mode, keys) == ("wal", 1)
        assert path.exists()
    finally:
        await database.dispose()


async def test_the_url_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("RUMMYKIT_DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite3'}")
    database = Database()
    assert database.url.database == str(tmp_path / "env.sqlite3")
    assert database.url.drivername == "sqlite+aiosqlite"
    await database.dispose()
    with pytest.raises(ValueError):
        Database("mysql://x/y")
