"""Stored games: records, the append-only action log, lost races, seat tokens."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import inspect, text

from rummykit.core import Record
from rummykit.store import Conflict, Database, GameRepository, NotFound, hash_token

pytestmark = pytest.mark.anyio

RULES = {"preset": "computer", "opening_min": 30}


async def test_a_created_game_loads_back_as_its_record(db: Database) -> None:
    games = GameRepository(db)
    new = await games.create_game("romme", RULES, 2**40 + 7, ["Ann", "bot:strong"], [0])
    record = await games.load_record(new.id)
    assert record == Record("romme", RULES, 2**40 + 7, ("Ann", "bot:strong"), ())
    info = await games.info(new.id)
    assert (info.kind, info.status, info.human_seats, info.last_seq) == ("romme", "active", (0,), 0)


async def test_actions_are_appended_in_order_and_replayed_from_the_record(db: Database) -> None:
    games = GameRepository(db)
    new = await games.create_game("tiles", {}, 1, ["A", "B"])
    actions = [{"t": "draw"}, {"t": "play", "melds": [["r1", "r2", "r3"]]}, {"t": "pass"}]
    for seq, action in enumerate(actions, start=1):
        await games.append_action(new.id, seq, action)
    assert list((await games.load_record(new.id)).actions) == actions
    assert await games.actions_since(new.id, 1) == [(2, actions[1]), (3, actions[2])]
    assert (await games.info(new.id)).last_seq == 3


async def test_a_position_already_written_is_a_conflict_and_nothing_is_overwritten(
    db: Database,
) -> None:
    games = GameRepository(db)
    new = await games.create_game("romme", {}, 1, ["A", "B"])
    await games.append_action(new.id, 1, {"t": "draw"})
    with pytest.raises(Conflict) as err:
        await games.append_action(new.id, 1, {"t": "discard"})
    assert err.value.current == 1
    with pytest.raises(Conflict):  # a gap is refused too
        await games.append_action(new.id, 3, {"t": "discard"})
    assert list((await games.load_record(new.id)).actions) == [{"t": "draw"}]


async def test_two_writers_racing_on_one_position_cannot_both_win(database_url: str) -> None:
    # Two separate engines, as two processes would have.
    first, second = Database(database_url), Database(database_url)
    await first.migrate()
    try:
        new = await GameRepository(first).create_game("romme", {}, 1, ["A", "B"])
        for seq in range(1, 6):
            results = await asyncio.gather(
                GameRepository(first).append_action(new.id, seq, {"by": "first"}),
                GameRepository(second).append_action(new.id, seq, {"by": "second"}),
                return_exceptions=True,
            )
            assert sum(r is None for r in results) == 1, results
            assert sum(isinstance(r, Conflict) for r in results) == 1, results
        record = await GameRepository(first).load_record(new.id)
        assert len(record.actions) == 5
    finally:
        await first.dispose()
        await second.dispose()


async def test_steps_written_together_are_refused_one_by_one(db: Database) -> None:
    # Many games' steps at once: on a SQLite file they go in one transaction of its writer;
    # a refused one (taken or out of order) leaves the others written.
    games = GameRepository(db)
    ids = [(await games.create_game("romme", {}, n, ["A", "B"])).id for n in range(6)]
    await games.append_action(ids[0], 1, {"t": "first"})
    seqs = [1, 1, 1, 2, 1, 1]  # the first game's 1 is taken, the fourth game has no 1
    results = await asyncio.gather(
        *(games.append_action(i, seq, {"t": "x"}) for i, seq in zip(ids, seqs, strict=True)),
        games.set_status(ids[5], "over"),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == [
        "Conflict",
        "NoneType",
        "NoneType",
        "Conflict",
        "NoneType",
        "NoneType",
        "NoneType",
    ]
    lengths = [len((await games.load_record(i)).actions) for i in ids]
    assert lengths == [1, 1, 1, 0, 1, 1]
    assert (await games.info(ids[5])).status == "over"


async def test_seat_tokens_are_secret_and_stored_only_hashed(db: Database) -> None:
    games = GameRepository(db)
    new = await games.create_game("romme", {}, 1, ["Ann", "Bob", "bot"], [0, 1])
    assert set(new.seat_tokens) == {0, 1}
    assert len(set(new.seat_tokens.values())) == 2
    assert all(len(token) >= 22 for token in new.seat_tokens.values())
    assert await games.seat_of(new.id, new.seat_tokens[1]) == 1
    assert await games.seat_of(new.id, "not-a-token") is None
    assert await games.seat_of(new.id, None) is None
    assert await games.seat_of("no-such-game", new.seat_tokens[0]) is None
    async with db.session() as session:
        from rummykit.store.models import Game

        row = await session.get(Game, new.id)
        assert row is not None
        assert new.seat_tokens[0] not in str(row.seat_token_hashes)
        assert row.seat_token_hashes == [
            hash_token(new.seat_tokens[0]),
            hash_token(new.seat_tokens[1]),
            None,
        ]


async def test_status_changes_and_unknown_games(db: Database) -> None:
    games = GameRepository(db)
    new = await games.create_game("rummoli", {}, 3, ["A", "B", "C"])
    await games.set_status(new.id, "over")
    assert (await games.info(new.id)).status == "over"
    with pytest.raises(ValueError):
        await games.set_status(new.id, "paused")
    for call in (
        games.load_record("nope"),
        games.info("nope"),
        games.append_action("nope", 1, {}),
        games.set_status("nope", "over"),
    ):
        with pytest.raises(NotFound):
            await call
    with pytest.raises(ValueError):
        await games.create_game("romme", {}, 1, ["A"], [1])


async def test_migrations_create_every_table_and_are_idempotent(db: Database) -> None:
    await db.migrate()
    async with db.engine.connect() as connection:
        tables = await connection.run_sync(lambda c: set(inspect(c).get_table_names()))
    assert {"games", "game_actions", "score_sheets", "score_sheet_entries"} <= tables
    assert "alembic_version" in tables


@pytest.mark.postgres
async def test_on_postgresql_a_step_is_one_statement_without_begin_or_commit(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step is stored by one statement that commits by itself: the driver sends no BEGIN
    (nor the COMMIT after it), which were two round trips of their own for every step."""
    from asyncpg.transaction import Transaction

    db = Database(postgres_url, pool_size=1, max_overflow=0)
    await db.migrate()
    games = GameRepository(db)
    try:
        new = await games.create_game("romme", {}, 1, ["A", "B"])
        begun: list[Transaction] = []  # each a BEGIN sent by asyncpg
        start = Transaction.start

        async def counted(self: Transaction) -> None:
            begun.append(self)
            await start(self)

        monkeypatch.setattr(Transaction, "start", counted)
        await games.append_action(new.id, 1, {"t": "draw"})
        await games.set_status(new.id, "over")
        assert begun == []
        # The connection goes back to the pool transactional again: a session begins.
        assert await games.actions_since(new.id, 0) == [(1, {"t": "draw"})]
        assert len(begun) == 1
        with pytest.raises(Conflict):  # a lost race is refused as before
            await games.append_action(new.id, 1, {"t": "discard"})
    finally:
        async with db.engine.begin() as connection:
            await connection.execute(text("TRUNCATE games, game_actions CASCADE"))
        await db.dispose()


async def test_steps_of_many_games_stored_at_once_are_each_written_or_refused(
    db: Database,
) -> None:
    """Steps that arrive together (on PostgreSQL one statement writes them): each is written
    in its place; a step at a position already taken is refused alone; two steps of one game
    sent together are both written, in order."""
    games = GameRepository(db)
    made = [await games.create_game("romme", RULES, i, ["A", "B"]) for i in range(12)]
    for new in made:
        await games.append_action(new.id, 1, {"t": "draw"})
    steps = [
        games.append_action(new.id, 1, {"t": "taken"})
        if i == 5
        else games.append_action(new.id, 2, {"t": "discard", "i": i})
        for i, new in enumerate(made)
    ]
    steps.append(games.append_action(made[0].id, 3, {"t": "draw", "name": "Zoë"}))
    results = await asyncio.gather(*steps, return_exceptions=True)
    assert isinstance(results[5], Conflict) and results[5].current == 1
    assert [r for i, r in enumerate(results) if i != 5] == [None] * 12
    for i, new in enumerate(made):
        expected = [{"t": "draw"}] + ([] if i == 5 else [{"t": "discard", "i": i}])
        if i == 0:
            expected.append({"t": "draw", "name": "Zoë"})
        assert list((await games.load_record(new.id)).actions) == expected
