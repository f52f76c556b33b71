"""The pages of tables with friends: a new table, joining by code, and the table itself.

- ``/{lang}/tables/new?game=romme`` (``tables.new``): the new-table form, the rules part shared
  with the new-game form (`rummykit.web.play.pages.rules_form`), plus the table's name, each
  seat (a person or a computer of a level), the turn timer, the grace period, the stand-in's
  level, spectators, free text and the host's nickname. ``POST`` (``tables.create``) creates
  the table and goes to it.
- ``/{lang}/join`` (``tables.join``): a code typed in (any case, spaces and dashes ignored)
  leads to its table; a wrong code is said on the page.
- ``/{lang}/t/{table_id}`` (``tables.table``): before the start, the lobby (seats, the invite
  link with its code and QR code, a nickname for a newcomer, "Start" for the host); once
  started, the game's own table for the reader's seat with the table's strip above it
  (presence, countdown, messages, standings, rematch), drawn by ``static/js/tables.js``.
  ``POST …/join``, ``…/nickname``, ``…/start`` and ``…/leave`` are the same steps without
  JavaScript.

The pages know tables only through the JSON API of tables (`api_call`): the same answers,
refusals and cookies the browser's scripts get.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import segno
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData

from rummykit.core import JSON, IllegalAction
from rummykit.store import NotFound
from rummykit.web.errors import N_
from rummykit.web.language import site_translations
from rummykit.web.play import messages
from rummykit.web.play.adapter import ADAPTERS, AnyGame, adapter
from rummykit.web.play.api import GAME_ID
from rummykit.web.play.pages import page_data, rules_form, rules_from_form, value_text
from rummykit.web.play.service import service
from rummykit.web.play.tables_api import table_view
from rummykit.web.rendering import render, url_for
from rummykit.web.validation import form_schema, read_form, whole_number

router = APIRouter()

TIMERS = (0, 30, 60, 120, 180)
DEFAULT_TIMER = 60
GRACE = (30, 300)
DEFAULT_GRACE = 90
NICKNAME_MAX = 24
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

TEXTS: dict[str, str] = {
    # presence of a seat
    "connected": N_("connected"),
    "away": N_("away"),
    "gone": N_("gone"),
    "computer": N_("computer"),
    "standin": N_("the computer plays for now"),
    "free": N_("free seat"),
    "host": N_("host"),
    "you": N_("you"),
    # the strip
    "seconds_left": N_("%(seconds)s s"),
    "time_warning": N_("%(seconds)s seconds left in your turn: press T for more time."),
    "turn_of": N_("Turn of %(name)s"),
    "your_turn": N_("Your turn"),
    "timer_off": N_("No time limit"),
    "extra_left": N_("More time (%(n)s left)"),
    "joined": N_("%(name)s has joined the table."),
    "is_away": N_("%(name)s is away."),
    "is_back": N_("%(name)s is back."),
    "has_left": N_("%(name)s has left the table; the computer plays the seat."),
    "standin_plays": N_("The computer plays for %(name)s until they come back."),
    "said": N_("%(name)s: %(text)s"),
    "mute": N_("Mute %(name)s"),
    "unmute": N_("Hear %(name)s again"),
    "muted": N_("%(name)s is muted: their messages are hidden."),
    "game_over_rematch": N_("The game is over. The host may start a rematch."),
    "game_over_wait": N_("The game is over. The host may start a rematch: wait here."),
    "connection_lost": N_("The connection to the table was lost: trying again…"),
    "connection_back": N_("Connected to the table again."),
    "copied": N_("Copied"),
    "starting": N_("The game starts…"),
    "lobby_waiting": N_("Waiting for the host to start the game."),
    "seat_n": N_("Seat %(n)s"),
}


@dataclass
class ApiAnswer:
    status: int
    data: Any
    cookies: list[bytes] = field(default_factory=list)


async def api_call(
    request: Request, method: str, path: str, body: Mapping[str, JSON] | None = None
) -> ApiAnswer:
    """An in-process request to the site's JSON API with the browser's cookies and language:
    the pages go through the very answers and refusals the scripts get."""
    payload = b"" if body is None else json.dumps(body).encode()
    headers = [
        (b"accept", b"application/json"),
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
        (b"host", request.headers.get("host", "localhost").encode()),
    ]
    for name in ("cookie", "accept-language", "user-agent"):
        if value := request.headers.get(name):
            headers.append((name.encode(), value.encode()))
    path, _, query = path.partition("?")
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": request.url.scheme,
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": headers,
        "client": request.scope.get("client"),
        "server": request.scope.get("server"),
        "state": dict(request.scope.get("state") or {}),
    }
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": payload, "more_body": False}

    status = 500
    chunks: list[bytes] = []
    cookies: list[bytes] = []

    async def send(message: Mapping[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
            cookies.extend(v for k, v in message.get("headers", []) if k.lower() == b"set-cookie")
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await request.app(scope, receive, send)
    raw = b"".join(chunks)
    try:
        data = json.loads(raw) if raw else None
    except ValueError:
        data = None
    return ApiAnswer(status, data, cookies)


def pass_cookies(response: Response, answer: ApiAnswer) -> Response:
    """The cookies the API set (the table's player token), passed on to the browser."""
    for cookie in answer.cookies:
        response.raw_headers.append((b"set-cookie", cookie))
    return response


def error_text(answer: ApiAnswer, lang: str) -> str:
    """The API's refusal in words (already in the reader's language)."""
    error = answer.data.get("error") if isinstance(answer.data, dict) else None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return str(error["message"])
    t = site_translations(lang)
    return str(messages.describe(IllegalAction("bad_request"), t)["message"])


def texts(lang: str) -> dict[str, str]:
    t = site_translations(lang)
    return {key: t.gettext(text) for key, text in TEXTS.items()}


def script_json(data: Mapping[str, Any]) -> str:
    # Inside a <script> element: "</" must not end it.
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def games() -> list[str]:
    return list(ADAPTERS)


def normal_code(text: str) -> str:
    """A typed code as the API reads it: capitals, no spaces or dashes."""
    return "".join(c for c in text.upper() if c not in " -\t")


def qr_svg(link: str) -> str:
    """The invite link as a QR code: an inline SVG, black on the page's white square."""
    code = segno.make(link, error="m", micro=False)
    svg: str = code.svg_inline(scale=4, border=2, dark="#000", light=None, omitsize=True)
    return svg


# --- a new table ------------------------------------------------------------------------------


def default_seats(game: AnyGame) -> list[str]:
    """Seat 1 a friend, seat 2 a computer (when the game takes three), the rest empty."""
    seats = ["person"]
    if game.max_players >= 3:
        seats.append(f"computer:{game.default_level()}")
    while len(seats) < game.max_players - 1:
        seats.append("none")
    return seats


async def new_form(
    request: Request,
    lang: str,
    kind: str,
    status: int = 200,
    form: FormData | None = None,
    error: str | None = None,
) -> Response:
    game = adapter(kind)
    preset, values = None, None
    if form is not None:
        try:
            preset, values = rules_from_form(game, form)
        except IllegalAction:
            preset, values = None, None
    got = (lambda name, default: str(form.get(name, default))) if form else (lambda n, d: d)
    seats = default_seats(game)
    chosen = [got(f"seat_{i + 1}", seat) for i, seat in enumerate(seats)]
    return render(
        request,
        "tables/new.html",
        status_code=status,
        title=N_("Play with friends"),
        game=game,
        kind=kind,
        games=[(name, adapter(name).title) for name in games()],
        **rules_form(request, lang, game, preset, values),
        levels=game.levels(),
        seats=chosen,
        timers=TIMERS,
        timer=got("timer", str(DEFAULT_TIMER)),
        grace=got("grace", str(DEFAULT_GRACE)),
        grace_range=GRACE,
        standin=got("standin", game.default_level()),
        spectators=got("spectators", "") in ("true", "on"),
        free_text=got("free_text", "") in ("true", "on"),
        name=got("name", ""),
        nickname=got("nickname", ""),
        nickname_max=NICKNAME_MAX,
        error=error,
        join_url=url_for(request, lang, "tables.join"),
    )


def table_body(game: AnyGame, form: FormData, lang: str) -> dict[str, JSON]:
    """The new-table form as the API's ``POST /api/tables`` body (`IllegalAction` when a
    value of the form itself cannot be read)."""
    preset, values = rules_from_form(game, form)
    # The options of the form only: the preset gives the rest.
    rules: dict[str, JSON] = {o.field: values[o.field] for o in game.options() if o.field in values}
    seats: list[JSON] = [{"kind": "person"}]
    levels = {level.name for level in game.levels()}
    for index in range(1, game.max_players):
        choice = str(form.get(f"seat_{index}", "none"))
        if choice == "person":
            seats.append({"kind": "person"})
        elif choice.startswith("computer:") and choice.removeprefix("computer:") in levels:
            seats.append({"kind": "computer", "level": choice.removeprefix("computer:")})
        elif choice != "none":
            raise IllegalAction("bad_seat", seat=index)
    timer = whole_number(str(form.get("timer", DEFAULT_TIMER)), 0, 180)
    grace = whole_number(str(form.get("grace", DEFAULT_GRACE)), *GRACE)
    if timer is None or timer not in TIMERS:
        raise IllegalAction("bad_rules", field="timer")
    if grace is None:
        raise IllegalAction("bad_rules", field="grace")
    return {
        "game": game.kind,
        "preset": preset,
        "rules": rules,
        "name": str(form.get("name", "")).strip(),
        "nickname": str(form.get("nickname", "")).strip(),
        "seats": seats,
        "timer": timer,
        "grace": grace,
        "standin": str(form.get("standin", game.default_level())),
        "spectators": str(form.get("spectators", "")) in ("true", "on"),
        "free_text": str(form.get("free_text", "")) in ("true", "on"),
        "lang": lang,
    }


def kind_of(request: Request) -> str:
    kind = request.query_params.get("game", "")
    return kind if kind in ADAPTERS else next(iter(ADAPTERS))


@router.get("/{lang:lang}/tables/new", name="tables.new")
async def new(request: Request, lang: str) -> Response:
    return await new_form(request, lang, kind_of(request))


NEW_FIELDS = [
    "game",
    "preset",
    "fields",
    "name",
    "nickname",
    "timer",
    "grace",
    "standin",
    "spectators",
    "free_text",
    *(f"seat_{i}" for i in range(1, 8)),
]


@router.post(
    "/{lang:lang}/tables/new", name="tables.create", openapi_extra=form_schema(*NEW_FIELDS)
)
async def create(request: Request, lang: str) -> Response:
    form = await read_form(request)
    kind = str(form.get("game", ""))
    if kind not in ADAPTERS:
        kind = next(iter(ADAPTERS))
    game = adapter(kind)
    try:
        body = table_body(game, form, lang)
    except IllegalAction as err:
        message = messages.describe(err, site_translations(lang))["message"]
        return await new_form(request, lang, kind, 422, form, str(message))
    answer = await api_call(request, "POST", "/api/tables", body)
    if answer.status != 201 or not isinstance(answer.data, dict):
        return await new_form(request, lang, kind, 422, form, error_text(answer, lang))
    target = url_for(request, lang, "tables.table", table_id=answer.data["id"])
    return pass_cookies(RedirectResponse(target, status_code=303), answer)


# --- joining by code ----------------------------------------------------------------------------


@router.get("/{lang:lang}/join", name="tables.join")
async def join_by_code(request: Request, lang: str) -> Response:
    typed = request.query_params.get("code", "")
    error = None
    if typed:
        code = normal_code(typed)
        answer = None
        if 0 < len(code) <= 12 and all(c in CODE_ALPHABET for c in code):
            answer = await api_call(request, "GET", f"/api/tables/code/{code}")
        if answer is not None and answer.status == 200 and isinstance(answer.data, dict):
            target = url_for(request, lang, "tables.table", table_id=answer.data["id"])
            return RedirectResponse(target, status_code=303)
        if answer is not None and answer.status not in (404, 422):
            error = error_text(answer, lang)
        else:
            t = site_translations(lang)
            error = t.gettext(
                N_("No open table has the code %(code)s. Check it with the person who sent it.")
            ) % {"code": typed.strip()[:20]}
    return render(
        request,
        "tables/join.html",
        status_code=404 if error else 200,
        title=N_("Join a table"),
        code=typed[:20],
        error=error,
        new_url=url_for(request, lang, "tables.new"),
    )


# --- the table ----------------------------------------------------------------------------------


def seat_names(view: Mapping[str, Any], t: Any) -> list[str]:
    """Each seat's name as the table shows it: the nickname, else the computer's name as the
    game's sentences say it ("Computer 1"), else "Seat n" for a seat still free."""
    names = []
    computers = 0
    for seat in view.get("seats", []):
        nickname = seat.get("nickname")
        if seat.get("kind") == "computer":
            computers += 1
            names.append(t.gettext(messages.CLIENT["computer"]) % {"n": computers})
        elif nickname:
            names.append(str(nickname))
        else:
            names.append(t.gettext(TEXTS["seat_n"]) % {"n": seat["seat"] + 1})
    return names


def watching(view: Mapping[str, Any]) -> bool:
    """Whether the reader watches the table's game: no seat, and the table allows it."""
    return view.get("me") is None and bool(view.get("settings", {}).get("spectators"))


def rules_list(game: AnyGame, view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The table's rules as (label, value), both in the reader's language."""
    t = site_translations(view.get("lang") or "en").gettext
    labels = {o.field: o.label for o in game.options()}
    return [(t(labels.get(f, f)), str(value)) for f, value in view.get("rules", [])]


def strip_data(request: Request, lang: str, view: Mapping[str, Any]) -> dict[str, Any]:
    table_id = view["id"]
    return {
        "id": table_id,
        "lang": lang,
        "view": view,
        "names": seat_names(view, site_translations(lang)),
        "texts": texts(lang),
        "api": f"/api/tables/{table_id}",
        "ws": f"/ws/tables/{table_id}",
        "urls": {"table": url_for(request, lang, "tables.table", table_id=table_id)},
    }


@router.get("/{lang:lang}/t/{table_id}", name="tables.table")
async def table(request: Request, lang: str, table_id: str) -> Response:
    if not GAME_ID.fullmatch(table_id):
        raise NotFound(table_id)
    view: dict[str, Any] = await table_view(request, table_id)
    headers = {"Cache-Control": "no-store"}
    me = view.get("me")
    game_id = view.get("game_id")
    seated = isinstance(me, int)
    if view.get("status") != "open" and isinstance(game_id, str) and (seated or watching(view)):
        return await playing(request, lang, view, game_id, me if seated else None, headers)
    link = str(request.base_url).rstrip("/") + url_for(
        request, lang, "tables.table", table_id=table_id
    )
    game = adapter(view["game"])
    return render(
        request,
        "tables/lobby.html",
        headers=headers,
        title=N_("Play with friends"),
        table=view,
        game=game,
        kind=view["game"],
        names=seat_names(view, site_translations(lang)),
        link=link,
        qr=qr_svg(link),
        code_shown=f"{view['code'][:3]} {view['code'][3:]}",
        levels=game.levels(),
        nickname_max=NICKNAME_MAX,
        data=script_json(strip_data(request, lang, view)),
        rules=rules_list(game, {**view, "lang": lang}),
        rules_url=url_for(request, lang, f"rules.{view['game']}"),
    )


async def playing(
    request: Request,
    lang: str,
    view: dict[str, Any],
    game_id: str,
    seat: int | None,
    headers: dict[str, str],
) -> Response:
    """The game's own table for the reader's seat (or a spectator's public view) with the
    table's strip."""
    kind = str(view["game"])
    game = adapter(kind)
    live = await service(request.app).get(game_id, fresh=True)
    names = seat_names(view, site_translations(lang))
    # A spectator follows the public view on the table's own game socket.
    socket = None if seat is not None else f"/ws/tables/{view['id']}/game"
    data = page_data(request, lang, live, seat, names=names, ws=socket)
    extra = strip_data(request, lang, view)
    return render(
        request,
        "tables/game.html",
        headers=headers,
        title=game.title,
        game_template=f"{kind}/game.html",
        kind=kind,
        live=live,
        data=data,
        table=view,
        names=names,
        strip=script_json(extra),
        rules_rows=rules_rows(game, live.rules, lang),
        rules_url=url_for(request, lang, f"rules.{kind}"),
        new_url=url_for(request, lang, "tables.new") + f"?game={kind}",
    )


def rules_rows(game: AnyGame, rules: Any, lang: str) -> list[tuple[str, str, str]]:
    t = site_translations(lang).gettext
    labels = {o.field: o.label for o in game.options()}
    return [(f, t(labels[f]), t(value)) for f, value in game.rules_summary(rules)]


async def _step(
    request: Request, lang: str, table_id: str, step: str, body: dict[str, JSON]
) -> Response:
    if not GAME_ID.fullmatch(table_id):
        raise NotFound(table_id)
    answer = await api_call(request, "POST", f"/api/tables/{table_id}/{step}", body)
    target = url_for(request, lang, "tables.table", table_id=table_id)
    if answer.status >= 400:
        t = site_translations(lang)
        return render(
            request,
            "tables/closed.html",
            status_code=answer.status if answer.status < 500 else 503,
            title=N_("Play with friends"),
            message=error_text(answer, lang),
            back_url=target,
            new_url=url_for(request, lang, "tables.new"),
            back_label=t.gettext(N_("Back to the table")),
        )
    if step == "leave":
        target = url_for(request, lang, "home")
    return pass_cookies(RedirectResponse(target, status_code=303), answer)


@router.post(
    "/{lang:lang}/t/{table_id}/join",
    name="tables.join_seat",
    openapi_extra=form_schema("nickname", "seat"),
)
async def join_seat(request: Request, lang: str, table_id: str) -> Response:
    form = await read_form(request)
    body: dict[str, JSON] = {"nickname": str(form.get("nickname", "")).strip()}
    seat = whole_number(str(form.get("seat", "")), 0, 7)
    if seat is not None:
        body["seat"] = seat
    return await _step(request, lang, table_id, "join", body)


@router.post(
    "/{lang:lang}/t/{table_id}/nickname",
    name="tables.nickname",
    openapi_extra=form_schema("nickname"),
)
async def nickname(request: Request, lang: str, table_id: str) -> Response:
    form = await read_form(request)
    body: dict[str, JSON] = {"nickname": str(form.get("nickname", "")).strip()}
    return await _step(request, lang, table_id, "nickname", body)


@router.post(
    "/{lang:lang}/t/{table_id}/start", name="tables.start", openapi_extra=form_schema("fill")
)
async def start(request: Request, lang: str, table_id: str) -> Response:
    form = await read_form(request)
    fill = str(form.get("fill", ""))
    return await _step(request, lang, table_id, "start", {"fill": fill} if fill else {})


@router.post("/{lang:lang}/t/{table_id}/leave", name="tables.leave", openapi_extra=form_schema())
async def leave(request: Request, lang: str, table_id: str) -> Response:
    return await _step(request, lang, table_id, "leave", {})


__all__ = ["normal_code", "qr_svg", "router", "table_body", "value_text"]
