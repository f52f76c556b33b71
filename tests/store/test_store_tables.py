"""Stored tables: codes, whole-row changes guarded by the version, the messages' numbers, and
where a turn's clock starts; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from rummykit.store import Conflict, Database, GameRepository, NotFound
from rummykit.store.models import utcnow
from rummykit.store.tables import (
    CODE_ALPHABET,
    Message,
    StoredTable,
    TableRepository,
    read_code,
)

pytestmark = pytest.mark.anyio


def a_table() -> StoredTable:
    return StoredTable(
        id="",
        code="",
        kind="romme",
        name="Dimanche",
        lang="fr",
        rules={"rounds": 1},
        settings={"timer": 60},
        seats=[{"pid": 0, "kind": "person", "nickname": "Ana", "token": "h"}],
        host=0,
        status="open",
        game_id=None,
        games=[],
        standings={},
        extra={},
    )


async def test_a_table_gets_an_unguessable_id_and_a_code_to_type(db: Database) -> None:
    tables = TableRepository(db)
    made = [await tables.create(a_table()) for _ in range(5)]
    assert len({t.id for t in made}) == 5 and all(len(t.id) >= 22 for t in made)
    assert all(len(t.code) == 6 and set(t.code) <= set(CODE_ALPHABET) for t in made)
    assert not set("01OIL") & set(CODE_ALPHABET)
    typed = f" {made[0].code[:2].lower()}-{made[0].code[2:]} "
    assert await tables.find_code(read_code(typed) or "") == made[0].id
    with pytest.raises(NotFound):
        await tables.find_code("ZZZZZZ" if made[0].code != "ZZZZZZ" else "YYYYYY")
    loaded = await tables.load(made[0].id)
    assert loaded.seats == made[0].seats and loaded.version == 0


async def test_a_change_from_an_old_version_is_a_conflict(db: Database) -> None:
    tables = TableRepository(db)
    made = await tables.create(a_table())
    first, second = made.mutable(), made.mutable()
    first.seats.append({"pid": 1, "kind": "person", "nickname": "Ben", "token": "b"})
    second.seats.append({"pid": 1, "kind": "person", "nickname": "Cleo", "token": "c"})
    results = await asyncio.gather(tables.save(first), tables.save(second), return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["Conflict", "StoredTable"]
    stored = await tables.load(made.id)
    assert stored.version == 1 and len(stored.seats) == 2
    with pytest.raises(Conflict) as lost:
        await tables.save(made.mutable())
    assert lost.value.current == 1
    with pytest.raises(NotFound):
        await tables.save(replace(made, id="nothing-here"))


async def test_messages_are_numbered_with_the_change_they_make(db: Database) -> None:
    tables = TableRepository(db)
    table = await tables.create(a_table())
    for text in ("hello", None, "bye"):
        message = Message(0, 0, "Ana", None if text else "good_game", text, utcnow())
        table = await tables.save(table.mutable(), message)
    stored = await tables.messages(table.id, last=2)
    assert [(m.n, m.phrase, m.text) for m in stored] == [(2, "good_game", None), (3, None, "bye")]
    assert table.version == 3


async def test_a_turn_starts_at_the_last_action(db: Database) -> None:
    games = GameRepository(db)
    new = await games.create_game("romme", {}, 1, ["human", "bot:random"], [0])
    tables = TableRepository(db)
    seq, created = await tables.last_action_at(new.id)
    assert seq == 0
    await games.append_action(new.id, 1, {"t": "draw", "source": "stock"})
    seq, acted = await tables.last_action_at(new.id)
    assert seq == 1 and acted.replace(tzinfo=None) >= created.replace(tzinfo=None)
    with pytest.raises(NotFound):
        await tables.last_action_at("no-such-game")
