"""The JSON API and the WebSocket of tables with friends (see `rummykit.web.play.tables`).

- ``POST /api/tables`` creates a table (the host at seat 0) and sets the host's cookie;
  ``GET /api/tables/code/{code}`` finds a table by its code; ``GET /api/tables/{id}`` is the
  table as the requester sees it (a player, or a visitor).
- ``POST /api/tables/{id}/join | nickname | start | leave | extra-time | say | rematch |
  takeback`` change it; each answers the new table view (``join`` also the seat and token).
- ``GET /api/tables/{id}/game``: the current game's view for the requester's seat, or the
  public view (no hand) for a spectator; ``WS /ws/tables/{id}/game`` follows it like
  ``/ws/games/{id}`` does.
- ``WS /ws/tables/{id}?lang=``: ``{"t": "table", "v": version, "d": view}`` at once and after
  every change.

The player's token travels in the cookie ``rk_table_<id>`` (or the header ``X-Table-Token``).
Refusals are ``{"error": {"code", "params", "message"}}``, the message in the reader's
language: 404 for an unknown table or code, 403 for what only a seated player or the host may
do, 409 when the table's state refuses it (full, started, taken, not over), 422 for a request
that is not valid, 429 for too many messages.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import JSONResponse, Response

from rummykit.core import JSON, IllegalAction
from rummykit.store import NotFound
from rummykit.web.play.adapter import adapter
from rummykit.web.play.api import (
    GAME_ID,
    answer_language,
    chosen_rules,
    error_json,
    follow_game,
    reader_language,
    set_secret_cookie,
)
from rummykit.web.play.service import service
from rummykit.web.play.tables import (
    DEFAULT_GRACE,
    DEFAULT_TIMER,
    TableService,
    tables,
)
from rummykit.web.rendering import request_language
from rummykit.web.validation import (
    Body,
    JoinTable,
    NewTable,
    SayAtTable,
    StartTable,
    TableNickname,
    json_body,
    read_object,
    refusals,
)

router = APIRouter()

STATUS = {
    "bad_table_code": 404,
    "not_found": 404,
    "not_host": 403,
    "not_at_table": 403,
    "spectators_off": 403,
    "table_full": 409,
    "table_started": 409,
    "seat_taken": 409,
    "nickname_taken": 409,
    "seats_free": 409,
    "rematch_too_soon": 409,
    "not_your_turn": 409,
    "extra_time_used_up": 409,
    "too_many_messages": 429,
}
"""The status of each refusal (422 for the others)."""


def cookie_name(table_id: str) -> str:
    return f"rk_table_{table_id}"


def table_token(request: Request | WebSocket, table_id: str) -> str | None:
    return request.headers.get("x-table-token") or request.cookies.get(cookie_name(table_id))


def set_table_cookie(request: Request, response: Response, table_id: str, token: str) -> None:
    set_secret_cookie(response, cookie_name(table_id), token, request)


def refused(request: Request, error: IllegalAction) -> Response:
    return error_json(request, error, STATUS.get(error.code, 422))


def _table_id(table_id: str) -> str:
    if not GAME_ID.fullmatch(table_id):
        raise NotFound(table_id)
    return table_id


async def _seated(request: Request, table_id: str) -> tuple[TableService, int]:
    """The service and the requester's player number at the table (which stays the same when
    the seats move at a rematch); `IllegalAction("not_at_table")` without a seat."""
    service_ = tables(request.app)
    token = table_token(request, table_id)
    table = await service_.table(_table_id(table_id))
    seat = service_.seat_of(table, token)
    if seat is None and token:  # seated at another process since this one read the table?
        seat = service_.seat_of(await service_.table(table_id, fresh=True), token)
    if seat is None:
        raise IllegalAction("not_at_table")
    service_.watch(table_id)
    return service_, int((await service_.table(table_id)).seats[seat]["pid"])


async def _answer(
    request: Request, service_: TableService, table_id: str, status: int = 200, **extra: JSON
) -> Response:
    table = await service_.table(table_id)
    seat = service_.seat_of(table, table_token(request, table_id))
    if seat is None and "token" in extra:
        seat = service_.seat_of(table, str(extra["token"]))
    view = await service_.view(table, seat, reader_language(request))
    return JSONResponse({**extra, "table": view} if extra else view, status_code=status)


async def table_view(request: Request, table_id: str) -> dict[str, JSON]:
    """The table as the request's player (its table cookie or ``X-Table-Token``) or a visitor
    sees it, in the request's language: what ``GET /api/tables/{id}`` answers, for a page
    handler in the same process; `NotFound` for an unknown table."""
    service_ = tables(request.app)
    table = await service_.table(_table_id(table_id), fresh=True)
    service_.watch(table_id)
    seat = service_.seat_of(table, table_token(request, table_id))
    return await service_.view(table, seat, reader_language(request))


@router.post("/api/tables", name="api.tables.create", status_code=201, **json_body(NewTable))
async def create(request: Request) -> Response:
    try:
        data = NewTable.read(await read_object(request))
        game = adapter(data.game)
        rules = chosen_rules(game, data.preset, data.rules)
        lang = answer_language(request, data.lang)
        seats = [(s.kind, s.level or game.default_level()) for s in data.seats]
        settings = {
            "timer": data.timer if data.timer is not None else DEFAULT_TIMER,
            "grace": data.grace if data.grace is not None else DEFAULT_GRACE,
            "standin": data.standin,
            "spectators": data.spectators,
            "free_text": data.free_text,
        }
        service_ = tables(request.app)
        table, token = await service_.create(
            data.game, rules, data.name, data.nickname, seats, settings, lang
        )
    except IllegalAction as err:
        return refused(request, err)
    view = await service_.view(table, 0, reader_language(request))
    body = {"id": table.id, "code": table.code, "url": view["url"], "token": token, "table": view}
    response = JSONResponse(body, status_code=201)
    set_table_cookie(request, response, table.id, token)
    return response


@router.get("/api/tables/code/{code}", name="api.tables.code", responses=refusals(404))
async def by_code(request: Request, code: str) -> Response:
    try:
        table_id = await tables(request.app).find_code(code[:40])
    except IllegalAction as err:
        return refused(request, err)
    lang = request_language(request)
    return JSONResponse({"id": table_id, "url": f"/{lang}/t/{table_id}"})


@router.get("/api/tables/{table_id}", name="api.tables.view", responses=refusals(404))
async def view(request: Request, table_id: str) -> Response:
    return JSONResponse(await table_view(request, table_id))


@router.post(
    "/api/tables/{table_id}/join", name="api.tables.join", **json_body(JoinTable, 404, 409)
)
async def join(request: Request, table_id: str) -> Response:
    service_ = tables(request.app)
    try:
        data = JoinTable.read(await read_object(request))
        _, seat, token = await service_.join(
            _table_id(table_id), table_token(request, table_id), data.nickname, data.seat
        )
    except IllegalAction as err:
        return refused(request, err)
    response = await _answer(request, service_, table_id, seat=seat, token=token)
    set_table_cookie(request, response, table_id, token)
    return response


def _change(
    name: str,
    act: Callable[[TableService, str, int, Any], Awaitable[object]],
    body: type[Body] | None = None,
    *,
    path: str = "",
    empty_body: bool = False,
    responses: tuple[int, ...] = (),
) -> None:
    """The route of a change a seated player makes: ``act(service, table id, player, body)``
    with the request's ``body`` read (None without one; with ``empty_body``, an empty request
    reads as the body's defaults), answered with the table as the player now sees it."""

    async def route(request: Request, table_id: str) -> Response:
        try:
            service_, pid = await _seated(request, table_id)
            data = None
            if body is not None:
                empty = empty_body and not (await request.body()).strip()
                data = body() if empty else body.read(await read_object(request))
            await act(service_, table_id, pid, data)
        except IllegalAction as err:
            return refused(request, err)
        return await _answer(request, service_, table_id)

    route.__name__ = name
    statuses = responses or (403, 404, 409, 422, 429)
    router.add_api_route(
        f"/api/tables/{{table_id}}/{path or name}",
        route,
        methods=["POST"],
        name=f"api.tables.{name}",
        **({"responses": refusals(*statuses)} if body is None else json_body(body, *statuses)),
    )


_change("nickname", lambda s, table, pid, data: s.rename(table, pid, data.nickname), TableNickname)
_change(
    "start", lambda s, table, pid, data: s.start(table, pid, data.fill), StartTable, empty_body=True
)
_change("leave", lambda s, table, pid, _: s.leave(table, pid))
_change("extra_time", lambda s, table, pid, _: s.extra_time(table, pid), path="extra-time")
_change("rematch", lambda s, table, pid, _: s.rematch(table, pid))
_change("takeback", lambda s, table, pid, _: s.take_back(table, pid))
_change(
    "say",
    lambda s, table, pid, data: s.say(table, pid, data.phrase, data.text),
    SayAtTable,
    responses=(403, 404, 422, 429),
)


async def _game_seat(request: Request | WebSocket, table_id: str) -> tuple[str, int | None]:
    """The current game of a table and the requester's seat in it (None: a spectator);
    `IllegalAction` when a visitor may not watch or nothing is played yet."""
    service_ = tables(request.app)
    table = await service_.table(_table_id(table_id), fresh=True)
    seat = service_.seat_of(table, table_token(request, table_id))
    if seat is None and not table.settings.get("spectators"):
        raise IllegalAction("spectators_off")
    if table.game_id is None:
        raise NotFound(table_id)
    return table.game_id, seat


@router.get("/api/tables/{table_id}/game", name="api.tables.game", responses=refusals(403, 404))
async def game_view(request: Request, table_id: str) -> Response:
    try:
        game_id, seat = await _game_seat(request, table_id)
    except IllegalAction as err:
        return refused(request, err)
    live = await service(request.app).get(game_id, fresh=True)
    return JSONResponse(live.view(seat, lang=reader_language(request)))


@router.websocket("/ws/tables/{table_id}/game", name="tables.game_live")
async def game_updates(websocket: WebSocket, table_id: str) -> None:
    try:
        game_id, seat = await _game_seat(websocket, table_id)
    except (IllegalAction, NotFound):
        await websocket.close(code=4403)
        return
    live = await service(websocket.app).get(game_id)
    await follow_game(websocket, live, seat)


@router.websocket("/ws/tables/{table_id}", name="tables.live")
async def table_updates(websocket: WebSocket, table_id: str) -> None:
    service_ = tables(websocket.app)
    try:
        table = await service_.table(_table_id(table_id), fresh=True)
    except NotFound:
        await websocket.close(code=4404)
        return
    seat = service_.seat_of(table, table_token(websocket, table_id))
    if seat is None and not table.settings.get("spectators"):
        await websocket.close(code=4403)
        return
    pid = None if seat is None else int(table.seats[seat]["pid"])
    await service_.follow(websocket, table_id, pid, reader_language(websocket))
