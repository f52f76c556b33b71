"""The FastAPI application: database, live hub, static files, routes and error pages."""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rummykit.core import IllegalAction
from rummykit.store import Database, NotFound
from rummykit.web import errors, rules, security
from rummykit.web.language import site_translations
from rummykit.web.live import FRONT_VARIABLE, REDIS_POLL_SECONDS, Hub, LiveFront
from rummykit.web.play.api import not_yours
from rummykit.web.play.service import NotYourGame
from rummykit.web.rendering import render, request_language
from rummykit.web.routes import routers, scoresheet

SECRET_PAGE = re.compile(r"^/[a-z]{2}/sheet/(?!new$)|^/api/sheets/.")


def create_app(
    database_url: str | None = None,
    *,
    poll_seconds: float = 5.0,
    redis_poll_seconds: float = REDIS_POLL_SECONDS,
    redis_url: str | None = None,
    limits: security.Settings | None = None,
    settle: bool = False,
    live_front: str | None = None,
) -> FastAPI:
    """The site, on the database at ``database_url`` (default: ``$RUMMYKIT_DATABASE_URL`` or
    the SQLite file), created and migrated at start-up. ``redis_url`` (default:
    ``$RUMMYKIT_REDIS_URL``) links the live updates of several processes, and counts the
    rate limits of all of them. ``live_front`` (default: ``$RUMMYKIT_LIVE_FRONT``) is where
    nginx's pub/sub module takes the versions of the channels whose sockets it holds
    (`rummykit.web.live.LiveFront`). ``limits`` (default: from the environment,
    `rummykit.web.security.Settings.from_env`) are the request limits; ``settle`` runs
    `rummykit.web.play.workers.settle` once started (for a process that serves the app and
    nothing else, ``rummykit serve``)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(database_url)
        await db.migrate()
        app.state.db = db
        await app.state.hub.start()
        if settle:
            from rummykit.web.play import workers  # loads every engine: only when asked

            workers.settle()
        try:
            yield
        finally:
            tables = getattr(app.state, "tables", None)
            if tables is not None:  # the tables' watcher and presence (rummykit.web.play)
                await tables.close()
            play = getattr(app.state, "play", None)
            if play is not None:  # the games' computer seats (rummykit.web.play)
                await play.close()
            await app.state.hub.stop()
            await db.dispose()

    # FastAPI's own OpenTelemetry layer asks the global providers on every request whether
    # anything listens; nothing does here (the site ships no exporter), so it is off.
    app = FastAPI(
        title="rummykit",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    redis_url = redis_url or os.environ.get("RUMMYKIT_REDIS_URL") or None
    live_front = live_front or os.environ.get(FRONT_VARIABLE) or None
    app.state.hub = Hub(
        poll_seconds=poll_seconds,
        redis_url=redis_url,
        redis_poll_seconds=redis_poll_seconds,
        front=LiveFront(live_front, aliases=scoresheet.live_aliases) if live_front else None,
    )
    static = resources.files("rummykit.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    # Fixed paths first: a game's pages take /{lang}/<game>/{game_id}, which must not shadow
    # /{lang}/rummoli/demo or /{lang}/rummoli/cheatsheet.pdf.
    app.include_router(rules.router)
    for router in routers():
        app.include_router(router)

    # A sheet's address is its key: never send it to another site, never let a search engine
    # keep it (a plain ASGI layer: it only adds headers, so it keeps the requests' own task).
    app.add_middleware(PrivacyHeaders)

    # Outermost: limits and security headers before anything else runs.
    app.state.limits = limits or security.Settings.from_env(redis_url)
    app.add_middleware(security.Guard, settings=app.state.limits, refuse=_refusal)

    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.add_exception_handler(IllegalAction, _illegal_action)  # type: ignore[arg-type]
    app.add_exception_handler(NotFound, _not_found)  # type: ignore[arg-type]
    app.add_exception_handler(NotYourGame, _not_your_game)  # type: ignore[arg-type]
    return app


class PrivacyHeaders:
    """Adds the privacy headers to every HTTP answer that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secret = bool(SECRET_PAGE.search(scope["path"]))

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.setdefault("Referrer-Policy", "same-origin")
                headers.setdefault("X-Content-Type-Options", "nosniff")
                if secret:
                    headers.setdefault("X-Robots-Tag", "noindex, nofollow")
            await send(message)

        await self.app(scope, receive, send_with_headers)


def wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def error_response(request: Request, status: int, code: str, params: dict[str, object]) -> Response:
    """An error as JSON for the API, else as a page, translated either way."""
    translations = site_translations(request_language(request))
    text = errors.message(code, params, translations)
    if wants_json(request):
        return JSONResponse(
            {"error": {"code": code, "params": params, "message": text}}, status_code=status
        )
    return render(request, "error.html", status_code=status, status=status, message=text)


async def _refusal(request: Request, status: int, code: str, params: dict[str, object]) -> Response:
    return error_response(request, status, code, params)


async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
    if exc.status_code == 404:
        return error_response(request, 404, "not_found", {})
    if exc.status_code == 405:
        return error_response(request, 405, "bad_request", {})
    return error_response(request, exc.status_code, "bad_request", {})


async def _validation_error(request: Request, exc: RequestValidationError) -> Response:
    return error_response(request, 422, "bad_request", {})


async def _illegal_action(request: Request, exc: IllegalAction) -> Response:
    return error_response(request, 422, exc.code, exc.to_json()["params"])


async def _not_found(request: Request, exc: NotFound) -> Response:
    return error_response(request, 404, "not_found", {})


async def _not_your_game(request: Request, exc: NotYourGame) -> Response:
    return not_yours(request)
