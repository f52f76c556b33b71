"""What stands between the network and the routes: limits, rate limits and security headers.

`Guard` is one ASGI middleware around the whole site. Before a request reaches a route it
refuses:

- more than ``max_headers`` headers or more than ``max_header_bytes`` bytes of them (431);
- a body longer than ``max_action_body`` bytes on an action (a move, a hint, a round of the
  score sheet) or ``max_body`` bytes elsewhere (413); the body is read here, whatever
  ``Content-Length`` claims, and handed on only when it fits;
- more creations (new games, new sheets) or actions from one client than the rates allow
  (429 with ``Retry-After``), counted with the `limits` library in memory, or in Redis when
  the site has a Redis URL, so that several processes share the count;
- a WebSocket from another site's page (its ``Origin`` is neither the site's own nor one of
  ``allowed_origins``), or one more socket than ``sockets_per_table`` on one table or
  ``sockets_per_client`` from one client (the handshake is refused, 403).

Every answer gets the security headers (`HEADERS`: a Content-Security-Policy without inline
script or ``eval``, no framing, no MIME sniffing, the referrer kept on the site), and every
answer of the API ``Cache-Control: no-store``: they hold a player's view or a sheet.

Each limit is set by an environment variable (`Settings.from_env`) and named in the
deployment guide (``docs/deploy.md``, "Limits").
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from limits import RateLimitItem, parse_many
from limits.aio.storage import Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

KB = 1024

CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""The site's Content-Security-Policy: its own scripts, styles and images only, no inline
script, no ``eval``, never inside another site's frame. (The JSON data blocks of the game pages
are ``<script type="application/json">``, which a browser does not run.)"""

HEADERS: dict[str, str] = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}
"""The headers every answer carries."""

DOCS_PATH = "/api/docs"


def docs_csp(page: bytes) -> str:
    """The policy of the API's documentation page, FastAPI's Swagger UI: its inline scripts
    allowed by their hashes, its script and style from the CDN it names."""
    scripts = re.findall(rb"<script>(.*?)</script>", page, flags=re.S)
    hashes = " ".join(f"'sha256-{_b64(hashlib.sha256(script).digest())}'" for script in scripts)
    cdn = "https://cdn.jsdelivr.net"
    return (
        CSP.replace("script-src 'self'", f"script-src 'self' {cdn} {hashes}")
        .replace("style-src 'self'", f"style-src 'self' {cdn}")
        .replace("img-src 'self' data:", "img-src 'self' data: https://fastapi.tiangolo.com")
    )


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


_LANG = r"/[a-z]{2}"
CREATE_PATHS = re.compile(rf"^(/api/games|/api/sheets|/api/tables|{_LANG}/[a-z]+/new)$")
"""POST to these creates a game or a sheet."""
ACTION_PATHS = re.compile(
    rf"^(/api/games/[^/]+/(actions|hint|melds)|/api/sheets/[^/]+/actions"
    rf"|/api/tables/[^/]+/(join|nickname|start|leave|extra-time|say|rematch|takeback)"
    rf"|{_LANG}/sheet/[^/]+/(round|round/[0-9]+|join|leave|hand|claim|chips))$"
)
"""These act on a game or a sheet (a hint costs the computer's thinking like a move)."""
SOCKET_TABLE = re.compile(r"^/ws/[a-z]+/[^/]+(/game)?$")


def _env_int(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    return int(text) if text.isascii() and text.isdigit() else default


@dataclass(frozen=True)
class Settings:
    """The limits; see the module's documentation and the deployment guide."""

    create_rate: str = "20/minute;200/hour"
    """Games and sheets one client may create (``limits`` notation, ``;`` between rates)."""
    action_rate: str = "120/minute;3000/hour"
    """Actions one client may send."""
    max_body: int = 32 * KB
    max_action_body: int = 8 * KB
    max_headers: int = 64
    max_header_bytes: int = 16 * KB
    sockets_per_table: int = 16
    sockets_per_client: int = 32
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the site's own whose pages may open its WebSockets (the public address
    when a proxy gives the site another ``Host``)."""
    redis_url: str | None = None
    """Where several processes count requests together (the site's live-update Redis)."""

    @classmethod
    def from_env(cls, redis_url: str | None = None, **given: Any) -> Settings:
        """The limits from ``RUMMYKIT_*`` variables; ``given`` values win."""
        defaults = cls()
        env = os.environ
        origins = env.get("RUMMYKIT_ALLOWED_ORIGINS", "")
        values: dict[str, Any] = {
            "create_rate": env.get("RUMMYKIT_RATE_CREATE") or defaults.create_rate,
            "action_rate": env.get("RUMMYKIT_RATE_ACTIONS") or defaults.action_rate,
            "max_body": _env_int("RUMMYKIT_MAX_BODY", defaults.max_body),
            "max_action_body": _env_int("RUMMYKIT_MAX_ACTION_BODY", defaults.max_action_body),
            "max_headers": _env_int("RUMMYKIT_MAX_HEADERS", defaults.max_headers),
            "max_header_bytes": _env_int("RUMMYKIT_MAX_HEADER_BYTES", defaults.max_header_bytes),
            "sockets_per_table": _env_int("RUMMYKIT_SOCKETS_PER_TABLE", defaults.sockets_per_table),
            "sockets_per_client": _env_int(
                "RUMMYKIT_SOCKETS_PER_CLIENT", defaults.sockets_per_client
            ),
            "allowed_origins": tuple(
                o.strip().rstrip("/") for o in origins.split(",") if o.strip()
            ),
            "redis_url": redis_url,
        }
        values.update(given)
        return cls(**values)


WS_MAX_MESSAGE = 64 * KB
"""The largest WebSocket message the server takes (pages send none but pings)."""
MAX_CONNECTIONS = 1000
"""Connections one server process serves at once before it answers 503."""


def server_options() -> dict[str, Any]:
    """What the server itself limits (uvicorn): the bytes of an unfinished request head, the
    size of a WebSocket message and the connections served at once
    (``$RUMMYKIT_MAX_CONNECTIONS``); and no per-message compression on the sockets unless
    ``$RUMMYKIT_WS_DEFLATE`` is 1.

    Compression keeps two zlib streams for the life of each socket, about 46 KB of the
    about 90 KB an idle socket cost; the site's messages are a few bytes to a few KB
    (a version, a view), so the memory buys little bandwidth."""
    settings = Settings.from_env()
    return {
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "ws_max_size": WS_MAX_MESSAGE,
        "ws_per_message_deflate": _env_int("RUMMYKIT_WS_DEFLATE", 0) == 1,
        "limit_concurrency": _env_int("RUMMYKIT_MAX_CONNECTIONS", MAX_CONNECTIONS),
    }


Refusal = Callable[[Request, int, str, dict[str, object]], Awaitable[Response]]
"""How the site answers a refusal: request, status, error code, parameters."""


@dataclass
class _Sockets:
    tables: Counter[str] = field(default_factory=Counter)
    clients: Counter[str] = field(default_factory=Counter)


class RateLimits:
    """Per-client rates of creations and actions, in memory or in Redis."""

    def __init__(self, settings: Settings) -> None:
        url = settings.redis_url
        self.limiter: MovingWindowRateLimiter | None = None
        self.windows: MovingWindows | None = None
        if url:
            scheme = url.split("://", 1)[0]
            storage = storage_from_string(
                f"async+{scheme}://{url.split('://', 1)[1]}", implementation="redispy"
            )
            assert isinstance(storage, Storage)
            self.limiter = MovingWindowRateLimiter(storage)
        else:
            self.windows = MovingWindows()
        self.rates: dict[str, list[RateLimitItem]] = {
            "create": parse_many(settings.create_rate),
            "action": parse_many(settings.action_rate),
        }

    async def hit(self, kind: str, client: str) -> int | None:
        """Count one request; None when it is allowed, else the seconds to wait."""
        for rate in self.rates[kind]:
            if self.windows is not None:
                wait = self.windows.hit(rate.amount, rate.get_expiry(), (str(rate), kind, client))
                if wait is not None:
                    return max(1, int(wait) + 1)
                continue
            assert self.limiter is not None
            if not await self.limiter.hit(rate, "rummykit", kind, client):
                stats = await self.limiter.get_window_stats(rate, "rummykit", kind, client)
                return max(1, int(stats.reset_time - time.time()) + 1)
        return None


class MovingWindows:
    """Moving windows in this process's memory, counted as the ``limits`` library counts them
    (a hit is allowed while fewer than ``amount`` were allowed in the last ``seconds``; a
    refused one does not count), without its memory storage, which sends every key to a
    thread of its own to expire it after each hit (a tenth of the server's time under load).

    >>> windows = MovingWindows()
    >>> [windows.hit(2, 60, "me") is None for _ in range(3)]
    [True, True, False]
    >>> 59 < windows.hit(2, 60, "me") <= 60
    True
    """

    SWEEP = 1000
    """Hits between two sweeps of the windows left empty."""

    def __init__(self) -> None:
        self.hits: dict[object, tuple[float, deque[float]]] = {}
        self.count = 0

    def hit(self, amount: int, seconds: float, key: object) -> float | None:
        """Count a hit of ``key``: None when allowed, else the seconds until it would be."""
        now = time.monotonic()
        self.count += 1
        if self.count % self.SWEEP == 0:
            self._sweep(now)
        found = self.hits.get(key)
        if found is None:
            found = self.hits[key] = (seconds, deque())
        times = found[1]
        while times and times[0] <= now - seconds:
            times.popleft()
        if len(times) >= amount:
            return times[-amount] + seconds - now if amount > 0 else seconds
        times.append(now)
        return None

    def _sweep(self, now: float) -> None:
        """Forget the windows whose hits are all older than the window."""
        for key in [k for k, (span, t) in self.hits.items() if not t or t[-1] <= now - span]:
            del self.hits[key]


def client_of(scope: Scope) -> str:
    """Who sent the request: the peer's address (behind a proxy, the address the server's
    ``--proxy-headers`` took from ``X-Forwarded-For``)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def own_origins(scope: Scope) -> set[str]:
    """The origins of the site's own pages for this request: its ``Host``, over HTTP or HTTPS."""
    host = ""
    for name, value in scope.get("headers", []):
        if name == b"host":
            host = value.decode("latin-1")
    return {f"http://{host}", f"https://{host}"} if host else set()


class Guard:
    """The ASGI middleware described in the module's documentation."""

    def __init__(self, app: ASGIApp, settings: Settings, refuse: Refusal) -> None:
        self.app = app
        self.settings = settings
        self.refuse = refuse
        self.rates = RateLimits(settings)
        self.sockets = _Sockets()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # -- HTTP ------------------------------------------------------------------------------

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        send = self._with_headers(scope, send)
        headers = scope.get("headers", [])
        size = sum(len(name) + len(value) for name, value in headers)
        if len(headers) > self.settings.max_headers or size > self.settings.max_header_bytes:
            await self._refuse(scope, receive, send, 431, "headers_too_large", {})
            return
        path: str = scope["path"]
        method: str = scope["method"]
        kind = None
        if method == "POST" and CREATE_PATHS.match(path):
            kind = "create"
        elif ACTION_PATHS.match(path) and (method == "POST" or path.endswith("/hint")):
            kind = "action"
        limit = self.settings.max_action_body if kind == "action" else self.settings.max_body
        body = await self._read_body(scope, receive, limit)
        if body is None:
            await self._refuse(scope, receive, send, 413, "too_large", {"maximum": limit})
            return
        if kind is not None:
            wait = await self.rates.hit(kind, client_of(scope))
            if wait is not None:
                await self._refuse(
                    scope, receive, send, 429, "too_many_requests", {}, {"Retry-After": str(wait)}
                )
                return
        await self.app(scope, _replay(body, receive), send)

    async def _read_body(self, scope: Scope, receive: Receive, limit: int) -> bytes | None:
        """The whole body, or None as soon as it passes ``limit`` bytes."""
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                text = value.decode("latin-1").strip()
                if not (text.isascii() and text.isdigit()) or len(text) > 12 or int(text) > limit:
                    return None
        chunks: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away: the app sees an empty body and the same end
            chunk = message.get("body", b"")
            total += len(chunk)
            if total > limit:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)

    def _with_headers(self, scope: Scope, send: Send) -> Send:
        path: str = scope["path"]
        api = path.startswith("/api/")
        held: list[Message] = []

        def headed(message: Message, csp: str) -> Message:
            raw = list(message.get("headers", []))
            present = {name.lower() for name, _ in raw}
            extra = dict(HEADERS, **{"Content-Security-Policy": csp})
            if api:
                extra["Cache-Control"] = "no-store"
            for name, value in extra.items():
                if name.lower().encode() not in present:
                    raw.append((name.lower().encode(), value.encode()))
            return {**message, "headers": raw}

        async def sending(message: Message) -> None:
            if path == DOCS_PATH:
                # The documentation page's policy names its inline scripts: wait for its body.
                if message["type"] == "http.response.start":
                    held.append(message)
                    return
                if held and message["type"] == "http.response.body":
                    await send(headed(held.pop(), docs_csp(message.get("body", b""))))
            elif message["type"] == "http.response.start":
                message = headed(message, CSP)
            await send(message)

        return sending

    async def _refuse(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        status: int,
        code: str,
        params: dict[str, object],
        headers: Mapping[str, str] | None = None,
    ) -> None:
        request = Request(scope)
        response = await self.refuse(request, status, code, params)
        for name, value in (headers or {}).items():
            response.headers[name] = value
        await response(scope, _replay(b"", receive), send)

    # -- WebSockets ------------------------------------------------------------------------

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        origin = None
        for name, value in scope.get("headers", []):
            if name == b"origin":
                origin = value.decode("latin-1").rstrip("/")
        allowed = own_origins(scope) | set(self.settings.allowed_origins)
        if origin is not None and origin not in allowed:
            await _close(receive, send)
            return
        path: str = scope["path"]
        table = path if SOCKET_TABLE.match(path) else ""
        client = client_of(scope)
        sockets = self.sockets
        if (
            sockets.tables[table] >= self.settings.sockets_per_table
            or sockets.clients[client] >= self.settings.sockets_per_client
        ):
            await _close(receive, send)
            return
        sockets.tables[table] += 1
        sockets.clients[client] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            for counter, key in ((sockets.tables, table), (sockets.clients, client)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]


async def _close(receive: Receive, send: Send) -> None:
    """Refuse a WebSocket handshake (the client sees 403)."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close", "code": 1008})


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the app the body already read, then the connection's own
    messages (its end)."""
    sent = False

    async def replaying() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replaying


def csv_cell(value: object) -> object:
    """A CSV cell a spreadsheet will not run: a text that starts with ``=``, ``+``, ``-``,
    ``@``, a tab or a carriage return is prefixed with ``'`` (the OWASP advice on CSV
    injection); numbers stay numbers.

    >>> csv_cell('=HYPERLINK("http://x.ex","ok")'), csv_cell("Ann"), csv_cell(-100)
    ('\\'=HYPERLINK("http://x.ex","ok")', 'Ann', -100)
    """
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
