"""The whole HTTP API fuzzed from its OpenAPI schema (schemathesis, in process).

Every operation of the schema gets requests built from its declared parameters and bodies, and
their negations (wrong types, missing fields, strings of every kind), against the app on a fresh
database holding one score sheet and one game of each kind, whose ids and seat token the
generated requests use (random ids would only ever meet 404). Each answer must:

- not be a server error (no 5xx: a traceback in the log is a 500);
- match the schema (status code declared, body of the declared shape, JSON where JSON is
  declared; the pages are checked for the first only, they answer HTML);
- change nothing stored when it refuses the request (4xx): the rows of every table are counted
  before and after, once the computer seats have finished moving.

The tests run a few examples per operation (``$RUMMYKIT_FUZZ_EXAMPLES``, default 5), always
the same ones; ``make fuzz`` runs many more, drawn afresh, on SQLite and then on a database of
its own on the local PostgreSQL (``$RUMMYKIT_FUZZ_DATABASE=postgresql``; skipped without one).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from fastapi.testclient import TestClient  # noqa: E402

from rummykit.web import create_app  # noqa: E402
from rummykit.web.play.service import PlayService, service  # noqa: E402

from .databases import postgres_database, stored_rows  # noqa: E402

EXAMPLES = int(os.environ.get("RUMMYKIT_FUZZ_EXAMPLES", "5"))
API_CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

schema = schemathesis.openapi.from_dict(create_app("sqlite://").openapi())


class Fuzzed:
    """The app under fuzzing, with real ids to aim at and a count of the stored rows."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        created = client.post("/api/sheets", json={"name": "Fuzz", "players": ["Ann", "Bob"]})
        self.sheet_id = created.json()["id"]
        self.games: dict[str, tuple[str, str]] = {}
        for kind in ("romme", "tiles", "rummoli"):
            game = client.post("/api/games", json={"game": kind, "opponents": 1}).json()
            self.games[kind] = (game["id"], game["token"])
        client.cookies.clear()  # the seats' tokens go with the requests that are meant to have them
        self.requests = 0
        self.failures: set[str] = set()

    def rows(self) -> dict[str, int]:
        """The rows stored, once the computer seats have moved."""
        play = service(self.client.app)  # type: ignore[arg-type]
        for game_id, _ in self.games.values():
            self.client.portal.call(play.settle, game_id)  # type: ignore[union-attr, arg-type]
        return stored_rows(self.client)


@pytest.fixture(scope="module")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if os.environ.get("RUMMYKIT_FUZZ_DATABASE") != "postgresql":
        yield f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'fuzz.sqlite3'}"
        return
    with postgres_database() as url:
        yield url


@pytest.fixture(scope="module")
def fuzzed(database_url: str) -> Iterator[Fuzzed]:
    app = create_app(database_url, poll_seconds=0.2)
    with TestClient(app, follow_redirects=False, raise_server_exceptions=False) as client:
        app.state.play = PlayService(app.state.db, app.state.hub, bot_workers=0)
        fuzzed = Fuzzed(client)
        yield fuzzed
        print(f"\nfuzz: {fuzzed.requests} requests")


def aim(case: Any, fuzzed: Fuzzed) -> dict[str, str]:
    """Point the case at the stored sheet or a stored game (by the game its path names), and
    give it the seat's token; every fourth request keeps the id it was made with, or goes
    without the token."""
    path = case.path_parameters or {}
    headers: dict[str, str] = {}
    astray = fuzzed.requests % 4 == 3
    if "sheet_id" in path and not astray:
        path["sheet_id"] = fuzzed.sheet_id
    if "game_id" in path:
        kind = next((k for k in fuzzed.games if f"/{k}/" in case.path), "romme")
        game_id, token = fuzzed.games[kind]
        path["game_id"] = game_id
        if not astray:
            headers["X-Seat-Token"] = token
    if "lang" in path and path["lang"] not in ("en", "fr", "es", "de"):
        path["lang"] = "en"  # other languages are 404 before any route: not worth the examples
    return headers


def send(client: TestClient, case: Any, headers: dict[str, str]) -> Any:
    kwargs = case.as_transport_kwargs(base_url="http://testserver", headers=headers)
    body: dict[str, Any] = {}
    if "json" in kwargs:
        body["json"] = kwargs["json"]
    elif isinstance(kwargs.get("data"), dict):
        body["data"] = kwargs["data"]
    elif kwargs.get("data") is not None:
        body["content"] = kwargs["data"]
    return client.request(
        kwargs["method"],
        kwargs["url"],
        params=kwargs.get("params"),
        headers=kwargs.get("headers"),
        **body,
    )


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=os.environ.get("RUMMYKIT_FUZZ_RANDOM") is None,
)
def test_the_api_never_fails_and_refusals_change_nothing(case: Any, fuzzed: Fuzzed) -> None:
    headers = aim(case, fuzzed)
    before = fuzzed.rows()
    response = send(fuzzed.client, case, headers)
    fuzzed.requests += 1
    api = case.path.startswith("/api/")
    case.validate_response(response, checks=API_CHECKS if api else [not_a_server_error])
    if 400 <= response.status_code < 500:
        assert fuzzed.rows() == before, (case.method, case.path, response.status_code)
