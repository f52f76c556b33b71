"""Sheets stored before today's name rule still load: the names the rule refuses are cleaned
as the sheet is read back, and the sheet goes on from there."""

from __future__ import annotations

import pytest

from rummykit.scoresheet import EnterRound, Join, Start, replay, replay_chips
from rummykit.store import Database, SheetRepository

pytestmark = pytest.mark.anyio

ZERO_WIDTH, SOFT_HYPHEN, RIGHT_TO_LEFT = "\u200b", "\u00ad", "\u202e"


async def test_an_old_sheet_with_invisible_characters_in_its_names_replays(db: Database) -> None:
    sheets = SheetRepository(db)
    # Stored as an older version of the site kept them: the repository writes what it is given.
    sheet_id = await sheets.create(
        f"Fri{ZERO_WIDTH}day",
        500,
        [f"Ann{ZERO_WIDTH}", "Ann", f"Bo{SOFT_HYPHEN}b", RIGHT_TO_LEFT],
        "en",
    )
    await sheets.append(sheet_id, 0, {"t": "join", "name": f"Cleo{RIGHT_TO_LEFT}", "start": "zero"})
    await sheets.append(sheet_id, 1, EnterRound.of({0: 5, 1: 0, 2: 7, 3: 9, 4: 2}, 1).to_json())

    sheet = replay((await sheets.load(sheet_id)).record)

    assert sheet.settings.name == "Friday"
    # The clean name already taken ("Ann") keeps it; the salvaged one is numbered, and a name
    # left empty gets a mark of its own.
    assert [p.name for p in sheet.players] == ["Ann 2", "Ann", "Bob", "?", "Cleo"]
    assert sheet.total(4) == 2 and len(sheet.rounds) == 1
    # The sheet goes on: a new player is checked against the cleaned names.
    sheet.apply(Join("Dan", Start.ZERO))
    assert sheet.players[-1].name == "Dan"


async def test_a_sheet_with_clean_names_loads_back_unchanged(db: Database) -> None:
    sheets = SheetRepository(db)
    sheet_id = await sheets.create("Friday", 500, ["Ann", "Bob"], "en")
    record = (await sheets.load(sheet_id)).record
    assert [p.name for p in replay(record).players] == ["Ann", "Bob"]
    assert list(record.seats) == ["Ann", "Bob"]


async def test_an_old_chip_keeper_with_invisible_characters_in_its_names_replays(
    db: Database,
) -> None:
    sheets = SheetRepository(db)
    sheet_id = await sheets.create(
        f"Rummoli{SOFT_HYPHEN}",
        None,
        [f"Ann{ZERO_WIDTH}", "Bob", f"B{ZERO_WIDTH}ob"],
        "en",
        {"game": "rummoli", "chips": 40},
    )
    keeper = replay_chips((await sheets.load(sheet_id)).record)
    assert keeper.settings.name == "Rummoli"
    assert list(keeper.names) == ["Ann", "Bob", "Bob 2"]
