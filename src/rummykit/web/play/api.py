"""The JSON API and the WebSocket of games against the computer, the same for every game.

- ``POST /api/games`` ``{"game": "romme", "preset": "computer", "rules": {...}, "opponents": 2,
  "level": "medium"}`` creates a game; the answer holds its id, the player's seat, the seat's
  token (also set as a cookie) and the first view.
- ``GET /api/games/{id}``: the view of the seat whose token comes with the request (cookie
  ``rk_seat_<id>`` or header ``X-Seat-Token``).
- ``POST /api/games/{id}/actions`` ``{"seq": <version seen>, "action": {...}}``: 200 with the
  new view; 422 with the translated reason when the rules refuse it (nothing changed); 409 with
  the current view when the game has moved on since ``seq``; 403 without the seat's token. In
  a lesson's game, a move that is not the step's is refused the same way, with the step's
  instruction (`rummykit.web.play.lessons`; its step: ``GET /api/games/{id}/lesson``).
- ``GET /api/games/{id}/hint``: the computer's suggestion for the seat on move, the same shape
  for every game: ``{"action": {...}, "reason": {"code": ..., **params}, "text": ..., "seq"}``.
- ``POST /api/games/{id}/melds`` ``{"melds": [{"cards": [...]}, ...]}``: what each new meld the
  page is building is worth as the engine counts it, or why it is no meld (Rommé only).
- ``GET /api/games/{id}/replay``: every step of a finished game as the seat saw it.
- ``WS /ws/games/{id}?since=<seq>&lang=<fr|es|de|en>``: ``{"t": "view", "v": seq, "d": view}``
  for each step.

Every event of a view carries ``text``: the event in words for the seat, in the reader's
language (``?lang=`` of the request, else the page's language: cookie, then Accept-Language).

Views never hold a card the seat may not see: the engines' views are the only source.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import JSONResponse, Response

from rummykit.core import JSON, IllegalAction
from rummykit.i18n import LANGUAGES
from rummykit.store import Conflict, NotFound
from rummykit.web.language import site_translations
from rummykit.web.play import lessons, messages
from rummykit.web.play.adapter import AnyGame, SeatInfo, adapter
from rummykit.web.play.pool import WorkerLost
from rummykit.web.play.service import AnyLive, NotYourGame, StaleVersion, service
from rummykit.web.rendering import request_language
from rummykit.web.validation import (
    GameAction,
    NewGame,
    NewMelds,
    check_rules,
    json_body,
    read_object,
    refusals,
    since_param,
)

router = APIRouter()

GAME_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")
COOKIE_DAYS = 120


def cookie_name(game_id: str) -> str:
    return f"rk_seat_{game_id}"


def set_seat_cookie(
    response: Response, game_id: str, token: str, request: Request | None = None
) -> None:
    """The seat's token in this browser (see `set_secret_cookie`)."""
    set_secret_cookie(response, cookie_name(game_id), token, request)


def set_secret_cookie(
    response: Response, name: str, token: str, request: Request | None = None
) -> None:
    """A seat's or a table's token, for this browser only: not readable by scripts, not sent
    by other sites' forms, and only over HTTPS when the site is served over HTTPS."""
    response.set_cookie(
        name,
        token,
        max_age=COOKIE_DAYS * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=request is not None and request.url.scheme == "https",
        path="/",
    )


def token_of(request: Request | WebSocket, game_id: str) -> str | None:
    return request.headers.get("x-seat-token") or request.cookies.get(cookie_name(game_id))


async def seated(request: Request | WebSocket, game_id: str) -> tuple[AnyLive, int]:
    """The live game and the seat the request's token claims (`NotFound`, `NotYourGame`)."""
    if not GAME_ID.fullmatch(game_id):
        raise NotFound(game_id)
    play = service(request.app)
    live = await play.get(game_id)
    token = token_of(request, game_id)
    if token is None:  # a table's player: the table's token is the seat's in its every game
        for candidate in table_tokens(request):
            try:
                return live, await play.seat_of(live, candidate)
            except NotYourGame:
                continue
    seat = await play.seat_of(live, token)
    return live, seat


TABLE_COOKIE = "rk_table_"
TABLE_TOKENS_TRIED = 8


def table_tokens(request: Request | WebSocket) -> list[str]:
    """The tokens of the tables this browser sits at (header ``X-Table-Token``, cookies
    ``rk_table_<id>``), a few at most."""
    found = [request.headers.get("x-table-token") or ""]
    found += [v for k, v in reversed(request.cookies.items()) if k.startswith(TABLE_COOKIE)]
    return [token for token in found if token][:TABLE_TOKENS_TRIED]


def reader_language(request: Request | WebSocket) -> str:
    """The language the answer's sentences are written in: ``?lang=``, else the ``lang``
    cookie or Accept-Language (see `rummykit.web.rendering.request_language`)."""
    return request_language(request)


def error_json(request: Request, error: IllegalAction, status: int, **extra: Any) -> Response:
    translations = site_translations(request_language(request))
    body: dict[str, JSON] = {"error": messages.describe(error, translations), **extra}
    return JSONResponse(body, status_code=status)


def not_yours(request: Request) -> Response:
    """The answer to a request without a seat in the game (the app answers every `NotYourGame`
    a route lets through with it)."""
    return error_json(request, IllegalAction("not_your_game"), 403)


async def changed(request: Request, live: AnyLive, seat: int) -> Response:
    async with live.lock:  # not while a step is being stored (see `PlayService.follow`)
        view = live.view(seat, lang=reader_language(request))
    return error_json(request, IllegalAction("game_changed"), 409, view=view)


def _int(value: Any, low: int, high: int, code: str, **params: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise IllegalAction(code, **params)
    return value


def chosen_rules(game: AnyGame, preset: str | None, changes: dict[str, JSON]) -> dict[str, JSON]:
    """The rules a request asks for: a preset of the game (its first by default) with the
    request's changes, each checked against the new-game form's options."""
    presets = game.presets()
    name = next(iter(presets)) if preset is None else preset
    if name not in presets:
        raise IllegalAction("bad_rules", field="preset", value=name)
    rules = dict(presets[name])
    check_rules(game.options(), changes)
    rules.update(changes)
    return rules


def answer_language(request: Request, lang: str | None) -> str:
    """The language a request asks its answer in, else the page's."""
    chosen = lang or request_language(request)
    if chosen not in LANGUAGES:
        raise IllegalAction("bad_request")
    return chosen


def seats_for(kind: str, opponents: int, level: str) -> list[SeatInfo]:
    """The person at seat 0 and ``opponents`` computer seats of one level."""
    game = adapter(kind)
    low, high = game.min_players - 1, game.max_players - 1
    _int(opponents, low, high, "bad_opponents", minimum=low, maximum=high)
    return [SeatInfo(True), *(SeatInfo(False, level) for _ in range(opponents))]


@router.post("/api/games", name="api.games.create", status_code=201, **json_body(NewGame))
async def create(request: Request) -> Response:
    try:
        data = NewGame.read(await read_object(request))
        game = adapter(data.game)
        kind = data.game
        rules = chosen_rules(game, data.preset, data.rules)
        level = data.level or game.default_level()
        seats = seats_for(kind, 1 if data.opponents is None else data.opponents, level)
        lang = answer_language(request, data.lang)
        play = service(request.app)
        new = await play.create(kind, rules, seats)
    except IllegalAction as err:
        return error_json(request, err, 422)
    token = new.seat_tokens[0]
    live = await play.get(new.id)
    body = {
        "id": new.id,
        "seat": 0,
        "token": token,
        "url": f"/{lang}/{kind}/{new.id}",
        "view": live.view(0, lang=lang),
    }
    response = JSONResponse(body, status_code=201)
    set_seat_cookie(response, new.id, token, request)
    return response


@router.get("/api/games/{game_id}", name="api.games.view", responses=refusals(403, 404))
async def view(request: Request, game_id: str) -> Response:
    live, seat = await seated(request, game_id)
    live = await service(request.app).get(game_id, fresh=True)
    async with live.lock:  # not while a step is being stored (see `PlayService.follow`)
        data = live.view(seat, lang=reader_language(request))
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


@router.post(
    "/api/games/{game_id}/actions", name="api.games.act", **json_body(GameAction, 403, 404, 409)
)
async def act(request: Request, game_id: str) -> Response:
    live, seat = await seated(request, game_id)
    play = service(request.app)
    try:
        data = GameAction.read(await read_object(request))
        # A lesson's game plays only the step's move (see `rummykit.web.play.lessons`); other
        # games pay for no lock or translation here.
        if lessons.lesson_of(live) is not None:
            async with live.lock:
                t = site_translations(reader_language(request))
                refused = lessons.refusal(live, seat, data.action, t)
            if refused is not None:
                return JSONResponse({"error": refused, "seq": live.seq}, status_code=422)
        live = await play.act(live, seat, data.seq, data.action)
    except IllegalAction as err:
        return error_json(request, err, 422, seq=live.seq)
    except (StaleVersion, Conflict):
        live = await play.get(game_id, fresh=True)
        return await changed(request, live, seat)
    return Response(live.step_view(seat, reader_language(request)), media_type="application/json")


@router.get(
    "/api/games/{game_id}/hint", name="api.games.hint", responses=refusals(403, 404, 422, 429, 503)
)
async def hint(request: Request, game_id: str) -> Response:
    live, seat = await seated(request, game_id)
    try:
        data = await service(request.app).hint(live, seat, reader_language(request))
    except IllegalAction as err:
        return error_json(request, err, 422)
    except (TimeoutError, WorkerLost):
        return error_json(request, IllegalAction("hint_timeout"), 503)
    return JSONResponse(data, headers={"Cache-Control": "no-store"})


@router.post("/api/games/{game_id}/melds", name="api.games.melds", **json_body(NewMelds, 403, 404))
async def melds(request: Request, game_id: str) -> Response:
    """What the new melds the page is building are worth, as the engine counts them:
    ``{"melds": [{"cards": [...]}, ...]}`` answers ``{"melds": [{"value": n} or {"error":
    {...}}, ...], "total": n}`` (the total of the valid ones); 404 for a game without them."""
    live, _seat = await seated(request, game_id)
    value_melds = live.adapter.value_melds
    if value_melds is None:
        raise NotFound(game_id)
    translations = site_translations(request_language(request))
    try:
        data = NewMelds.read(await read_object(request))
        found = value_melds(live.state, list(data.melds))
    except IllegalAction as err:
        return error_json(request, err, 422)
    answers: list[JSON] = [
        {"value": v} if isinstance(v, int) else {"error": messages.describe(v, translations)}
        for v in found
    ]
    total = sum(v for v in found if isinstance(v, int))
    return JSONResponse({"melds": answers, "total": total}, headers={"Cache-Control": "no-store"})


@router.get(
    "/api/games/{game_id}/replay", name="api.games.replay", responses=refusals(403, 404, 422)
)
async def replay(request: Request, game_id: str) -> Response:
    live, seat = await seated(request, game_id)
    try:
        frames = await service(request.app).replay(live, seat, reader_language(request))
    except IllegalAction as err:
        return error_json(request, err, 422)
    return JSONResponse(
        {
            "game": live.kind,
            "id": live.id,
            "seat": seat,
            "seats": [s.to_json() for s in live.seats],
            "frames": frames,
        }
    )


@router.websocket("/ws/games/{game_id}", name="games.live")
async def live_updates(websocket: WebSocket, game_id: str) -> None:
    try:
        live, seat = await seated(websocket, game_id)
    except (NotFound, NotYourGame):
        await websocket.close(code=4403)
        return
    await follow_game(websocket, live, seat)


async def follow_game(websocket: WebSocket, live: AnyLive, seat: int | None) -> None:
    """Serve a page's socket on a game (see `PlayService.follow`) for ``seat`` (``None``: a
    spectator): the steps after ``?since=``, told in the reader's language."""
    seen = since_param(websocket.query_params.get("since"))
    await service(websocket.app).follow(websocket, live, seat, seen, reader_language(websocket))
