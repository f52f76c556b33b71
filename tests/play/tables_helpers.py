"""Tables through the API: creating, joining, playing people's turns, checking what leaks."""

from __future__ import annotations

import time
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from fastapi.testclient import TestClient

from rummykit import tiles
from rummykit.web.play.adapter import adapter, derived_seed
from rummykit.web.play.service import AnyLive, service
from rummykit.web.play.tables import TableService, tables

from .helpers import Knowledge, hidden, mentions, record, states

SHORT = {
    "romme": {"rounds": 1, "stock_exhausted": "end_round"},
    "tiles": {"rounds": 1},
    "rummoli": {"hands": 1},
}
"""Rules of a game that ends soon."""


class Clock:
    """A clock the tests move forward (the service's timer and presence read it)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


def with_clock(client: TestClient, clock: Clock) -> TableService:
    """The app's table service, on a clock of the test's own."""
    app: Any = client.app
    found = tables(app)
    found.clock = clock
    found.presence.clock = clock
    return found


def make_table(
    client: TestClient,
    game: str = "romme",
    seats: Sequence[dict[str, Any]] = ({"kind": "person"}, {"kind": "person"}),
    **body: Any,
) -> dict[str, Any]:
    payload = {"game": game, "nickname": "Ana", "seats": list(seats), "lang": "fr", **body}
    response = client.post("/api/tables", json=payload)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    client.cookies.clear()  # every player of a test names their token in a header
    return data


def join(client: TestClient, table_id: str, nickname: str, **body: Any) -> Any:
    """A newcomer (no token) asks for a seat."""
    response = client.post(f"/api/tables/{table_id}/join", json={"nickname": nickname, **body})
    client.cookies.clear()
    return response


def post(
    client: TestClient, table_id: str, what: str, token: str, body: Any = None, **kw: Any
) -> Any:
    return client.post(
        f"/api/tables/{table_id}/{what}",
        json={} if body is None else body,
        headers={"X-Table-Token": token, **kw.pop("headers", {})},
        **kw,
    )


def table_view(client: TestClient, table_id: str, token: str = "", lang: str = "en") -> Any:
    return client.get(
        f"/api/tables/{table_id}", headers={"X-Table-Token": token}, params={"lang": lang}
    )


def live_game(client: TestClient, game_id: str) -> AnyLive:
    async def get() -> AnyLive:
        return await service(client.app).get(game_id, fresh=True)

    return client.portal.call(get)  # type: ignore[union-attr, no-any-return]


def settle(client: TestClient, game_id: str) -> AnyLive:
    async def wait() -> AnyLive:
        return await service(client.app).settle(game_id)

    return client.portal.call(wait)  # type: ignore[union-attr, no-any-return]


def person_move(live: AnyLive, seat: int) -> dict[str, Any]:
    """What a person at ``seat`` plays now: the beginner computer's choice from the seat's
    view (what the page would send)."""
    bot = live.adapter.make_bot("random", derived_seed(live.seed, "test", seat, live.seq))
    action = bot.choose(live.state.view(seat))
    data: dict[str, Any] = action.to_json()
    return data


def no_hidden_card(value: Any, live: Any, seat: int | None) -> None:
    """Nothing in ``value`` names a card or tile ``seat`` may not see in ``live.state`` (None: a
    spectator, who may see no hand at all); Rummoli views: a spectator's holds no hand."""
    kind = live.kind
    if kind not in ("romme", "tiles"):
        if seat is None:
            assert not value.get("hand"), value.get("hand")
        return
    state = live.state
    secret = hidden(state, seat if seat is not None else -1, kind)
    leaked = mentions(value, kind) & secret
    assert not leaked, leaked


def no_card(value: Any) -> None:
    """A table view names no card and no tile at all."""
    assert not mentions(value, "romme"), mentions(value, "romme")
    assert not mentions(value, "tiles"), mentions(value, "tiles")


def game_players(live: AnyLive) -> Sequence[int]:
    return [i for i, s in enumerate(live.seats) if s.human]


def levels(kind: str) -> list[str]:
    return [level.name for level in adapter(kind).levels()]


def check_answers(
    client: TestClient, game_id: str, seen: list[tuple[int | None, dict[str, Any]]]
) -> None:
    """No answer named a card its reader could not see at the step it shows: its own hand,
    the table and discard pile, and what the public log had named (the existing leak check,
    `Knowledge`, per seat; a spectator knows no hand)."""
    live = live_game(client, game_id)
    kind = live.kind
    by_step = states(record(client, game_id))
    knowing = {seat: Knowledge(by_step, kind, seat) for seat in (0, 1)} if kind != "rummoli" else {}
    for seat, answer in seen:
        step = answer["seq"]
        if kind == "rummoli":
            no_hidden_card(answer, SimpleNamespace(kind=kind, state=by_step[step]), seat)
            continue
        if seat is None:
            assert answer["seat"] is None and not answer.get("hand") and not answer.get("rack")
            known = set()
            for at in by_step[step : step + 2]:
                known |= knowing[0].prefix[len(adapter(kind).log(at))] | public(at, kind)
        else:
            known = knowing[seat].allowed(step)
            if step + 1 < len(by_step):
                # A view built while a computer's move is being stored shows the state after
                # it under the version before it: what the seat may know there counts too.
                known |= knowing[seat].allowed(step + 1)
        leaked = mentions(answer, kind) - known
        assert not leaked, (seat, step, leaked)


def public(state: Any, kind: str) -> set[str]:
    """What lies open: the table (and the discard pile)."""
    if kind == "romme":
        found = {c.code for m in state.table.values() for c in m.cards}
        return found | {c.code for c in state.discard_pile}
    return {t.code for t in tiles.table_tiles(state.table)}
