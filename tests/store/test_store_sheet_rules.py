"""Stored sheets keep how their game ends; sheets stored before that setting existed still load."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text

from rummykit.scoresheet import End, EnterRound, Settings, replay
from rummykit.store import Database, NotFound, SheetRepository, view_token
from rummykit.store.database import migrations_config

pytestmark = pytest.mark.anyio


async def test_a_sheet_played_over_a_number_of_rounds_loads_back(db: Database) -> None:
    sheets = SheetRepository(db)
    sheet_id = await sheets.create(
        "Ten", None, ["Ann", "Bob"], "en", {"end": "rounds", "rounds": 10}
    )
    await sheets.append(sheet_id, 0, EnterRound.of({0: 0, 1: 12}, went_out=0).to_json())
    sheet = replay((await sheets.load(sheet_id)).record)
    assert sheet.settings == Settings("Ten", None, End.ROUNDS, 10)
    assert sheet.rounds_left == 9


async def test_a_sheet_whose_limit_is_exceeded_loads_back(db: Database) -> None:
    sheets = SheetRepository(db)
    sheet_id = await sheets.create("Over", 300, ["Ann", "Bob"], "en", {"end": "exceed"})
    sheet = replay((await sheets.load(sheet_id)).record)
    assert sheet.settings == Settings("Over", 300, End.EXCEED)


async def test_a_sheet_stored_before_the_migration_keeps_its_limit(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'old.sqlite3'}")

    def to_first_revision(connection: object) -> None:
        config = migrations_config()
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")

    async with db.engine.begin() as connection:
        await connection.run_sync(to_first_revision)
        await connection.execute(
            text(
                "INSERT INTO score_sheets (id, name, point_limit, players, lang, version, "
                "created_at, updated_at) VALUES ('abcdefghijklmnopqrstuv', 'Old', 300, "
                "'[\"Ann\", \"Bob\"]', 'de', 0, '2026-01-01', '2026-01-01')"
            )
        )
    await db.migrate()
    try:
        sheet = replay((await SheetRepository(db).load("abcdefghijklmnopqrstuv")).record)
        assert sheet.settings == Settings("Old", 300, End.REACH)
        # The sheet has its read-only link too.
        token = view_token("abcdefghijklmnopqrstuv")
        assert await SheetRepository(db).find_view(token) == "abcdefghijklmnopqrstuv"
    finally:
        await db.dispose()


async def test_a_read_only_token_leads_to_its_sheet_only(db: Database) -> None:
    sheets = SheetRepository(db)
    first = await sheets.create("A", 300, ["Ann", "Bob"], "en")
    second = await sheets.create("B", 300, ["Ann", "Bob"], "en")
    assert await sheets.find_view(view_token(first)) == first
    assert await sheets.find_view(view_token(second)) == second
    with pytest.raises(NotFound):
        await sheets.find_view(first)
