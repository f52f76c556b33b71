"""Playing games through the API and checking what every answer reveals."""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from fastapi.testclient import TestClient

from rummykit import romme, tiles
from rummykit.cards import Card
from rummykit.core import Record
from rummykit.store import Database, GameRepository
from rummykit.web.play.adapter import SeatInfo, adapter, derived_seed
from rummykit.web.play.service import service

CARD = re.compile(r"(?:10|[2-9AJQK])[♣♠♥♦](?:#1)?|JK(?:#[0-5])?")
TILE = re.compile(r"[rbky](?:1[0-3]|[1-9])(?:#1)?|\*(?:#[0-3])?")


SENTENCES = frozenset({"message", "text"})
"""The keys of sentences written for people: a refusal's ``message``, an event's ``text``."""


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, but the sentences written for people (`SENTENCES`), which
    name faces without their copy: `faces` checks those."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in SENTENCES:
                yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def mentions(value: Any, kind: str) -> set[str]:
    """Every card (or tile) code named anywhere in a JSON value, copies resolved exactly."""
    pattern = CARD if kind == "romme" else TILE
    found = set()
    for text in strings(value):
        text = re.sub(r"\([^)]*\)", " ", text)
        for token in re.split(r"[\s|,]+", text):
            if pattern.fullmatch(token):
                found.add(_exact(token, kind))
    return found


def faces(value: Any, kind: str) -> set[str]:
    """The faces (no copies) named by the sentences (``message``) of a JSON value."""
    pattern = CARD if kind == "romme" else TILE
    found = set()
    for text in messages_in(value):
        for token in re.split(r"[\s|,.:()]+", text):
            if pattern.fullmatch(token):
                found.add(token.split("#")[0])
    return found


def messages_in(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in SENTENCES and isinstance(item, str):
                yield item
            else:
                yield from messages_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from messages_in(item)


@functools.cache
def _exact(token: str, kind: str) -> str:
    if kind == "romme":
        return Card.parse(token).code
    return tiles.Tile.parse(token).code


class Knowledge:
    """What seat 0 may know at each step of a game: its hand or rack, the table, the discard
    pile, and every card or tile the public log has named so far (the log only grows)."""

    def __init__(self, by_step: Sequence[Any], kind: str, seat: int = 0) -> None:
        self.kind = kind
        self.seat = seat
        self.by_step = by_step
        game = adapter(kind)
        final = game.log(by_step[-1])
        self.prefix: list[set[str]] = [set()]
        for event in final:
            self.prefix.append(self.prefix[-1] | mentions(game.client_event(event), kind))
        self._cache: dict[int, set[str]] = {}

    def allowed(self, step: int) -> set[str]:
        if step not in self._cache:
            state = self.by_step[step]
            game = adapter(self.kind)
            self._cache[step] = own(state, self.seat, self.kind) | self.prefix[len(game.log(state))]
        return self._cache[step]


def own(state: Any, seat: int, kind: str) -> set[str]:
    if kind == "romme":
        known = {c.code for c in state.hands[seat]}
        known |= {c.code for m in state.table.values() for c in m.cards}
        known |= {c.code for c in state.discard_pile}
    else:
        known = {t.code for t in state.racks[seat]}
        known |= {t.code for t in tiles.table_tiles(state.table)}
    return known


def stood_for(state: Any) -> set[str]:
    """The faces the jokers on a Rommé table stand for: public, every page may name them
    ("joker for 7♠") whoever holds or has yet to draw a card of that face."""
    faces = set()
    for meld in state.table.values():
        reading = meld.reading()
        for index in range(len(meld.cards)):
            faces |= {f.code for f in romme.joker_stands_for(meld.cards, index, reading)}
    return faces


def hidden(state: Any, seat: int, kind: str) -> set[str]:
    """The cards or tiles ``seat`` may not see: the stock or pool and the others' hands."""
    if kind == "romme":
        out = {c.code for c in state.stock}
        for other, hand in enumerate(state.hands):
            if other != seat:
                out |= {c.code for c in hand}
    else:
        out = {t.code for t in state.pool}
        for other, rack in enumerate(state.racks):
            if other != seat:
                out |= {t.code for t in rack}
    return out


def create(client: TestClient, game: str = "romme", **body: Any) -> tuple[str, str, dict[str, Any]]:
    response = client.post("/api/games", json={"game": game, **body})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"], data


def seeded(
    client: TestClient,
    kind: str,
    rules: dict[str, Any],
    seed: int,
    seats: Sequence[str] = ("human", "bot:random", "bot:random"),
) -> tuple[str, dict[int, str]]:
    """A game stored with a chosen seed (what only a test may do), and its seats' tokens."""

    async def make() -> tuple[str, dict[int, str]]:
        repo = GameRepository(client.app.state.db)  # type: ignore[attr-defined]
        humans = [i for i, s in enumerate(seats) if s == "human"]
        new = await repo.create_game(kind, rules, seed, list(seats), humans)
        return new.id, new.seat_tokens

    return client.portal.call(make)  # type: ignore[union-attr]


def stored(
    url: str, kind: str, rules: dict[str, Any], seed: int, seats: Sequence[str]
) -> tuple[str, str]:
    """The same on a database of another process (a live server): id and seat 0's token."""

    async def make() -> tuple[str, str]:
        db = Database(url)
        try:
            await db.migrate()
            new = await GameRepository(db).create_game(kind, rules, seed, list(seats), [0])
        finally:
            await db.dispose()
        return new.id, new.seat_tokens[0]

    # In a thread of its own: Playwright's sync API keeps an event loop in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, make()).result()


def settle(client: TestClient, game_id: str) -> None:
    """Wait until the computer seats have played."""
    client.portal.call(service(client.app).settle, game_id)  # type: ignore[union-attr, arg-type]


def view(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": token})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def act(
    client: TestClient, game_id: str, token: str, action: dict[str, Any], seq: int | None = None
) -> Any:
    body: dict[str, Any] = {"action": action}
    if seq is not None:
        body["seq"] = seq
    return client.post(f"/api/games/{game_id}/actions", json=body, headers={"X-Seat-Token": token})


def record(client: TestClient, game_id: str) -> Record:
    async def load() -> Record:
        return await GameRepository(client.app.state.db).load_record(game_id)  # type: ignore[attr-defined]

    return client.portal.call(load)  # type: ignore[union-attr]


def states(record: Record) -> list[Any]:
    return list(adapter(record.game).replay_states(record))


def romme_seed(
    rules: romme.Rules, players: int, wanted: Callable[[romme.State], bool], start: int = 1
) -> int:
    """The first seed whose deal has seat 0 moving first and ``wanted`` true."""
    for seed in range(start, start + 20000):
        state = romme.State(rules, players, seed)
        if state.to_move == 0 and wanted(state):
            return seed
    raise AssertionError("no such deal")


def tiles_seed(
    rules: tiles.Rules, players: int, wanted: Callable[[tiles.State], bool], start: int = 1
) -> int:
    for seed in range(start, start + 20000):
        state = tiles.State(rules, players, seed)
        if state.to_move == 0 and wanted(state):
            return seed
    raise AssertionError("no such deal")


def bots_until_seat0(kind: str, state: Any, seats: Sequence[str], seed: int) -> None:
    """Play the computer seats as the server does (same bots, same seeds) until seat 0 moves."""
    game = adapter(kind)
    while not state.is_over and state.to_move not in (None, 0):
        seat = state.to_move
        level = SeatInfo.parse(seats[seat]).level or ""
        bot = game.make_bot(level, derived_seed(seed, "bot", seat, len(state.actions)))
        state.apply(bot.choose(state.view(seat)), seat)
