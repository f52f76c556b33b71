"""The sheets' sockets held by nginx's pub/sub module: what a process posts to it, and how
it hands a socket over (`rummykit.web.live.LiveFront`). The same through a real nginx is in
tests/web/test_processes.py."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from rummykit.web import create_app
from rummykit.web.live import Hub, LiveFront
from rummykit.web.routes.scoresheet import live_aliases

from .helpers import create_sheet, enter
from .test_web_sheet_view import view_link

FROM_NGINX = {"X-Rummykit-Front": "nchan"}


class Nginx:
    """Stands in for nginx's publishing address: the posts it got, in order."""

    def __init__(self, delay: float = 0.0, fail: bool = False) -> None:
        self.posts: list[tuple[str, dict[str, int]]] = []
        self.delay = delay
        self.fail = fail

    async def handle(self, request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(self.delay)
        if self.fail:
            return httpx.Response(502)
        channel = request.url.path.rsplit("/", 1)[1]
        self.posts.append((channel, json.loads(request.content)))
        return httpx.Response(201)

    def front(self, aliases: Callable[[str], tuple[str, ...]] | None = None) -> LiveFront:
        return LiveFront("http://nginx/_live/pub", httpx.MockTransport(self.handle), aliases)

    def versions(self, channel: str) -> list[int]:
        return [body["v"] for name, body in self.posts if name == channel]


def test_versions_reach_nginx_in_order_and_never_an_older_one_last() -> None:
    nginx = Nginx(delay=0.01)

    async def main() -> None:
        front = nginx.front()
        for version in (1, 2, 3):
            front.announce("sheet:a", version)
            await asyncio.sleep(0)
        front.announce("sheet:b", 7)
        await front.ensure("sheet:a", 3)  # waits for the posts under way
        front.announce("sheet:a", 2)  # late: nginx has 3 already
        await asyncio.sleep(0.05)
        await front.close()

    asyncio.run(main())
    # 2 and 3 came while 1 was on its way: only the newest follows it.
    assert nginx.versions("sheet:a") == [1, 3]
    assert nginx.versions("sheet:b") == [7]


def test_a_socket_handed_over_finds_the_version_at_nginx_posted_once() -> None:
    nginx = Nginx()

    async def main() -> None:
        front = nginx.front()
        await front.ensure("sheet:a", 4)
        await front.ensure("sheet:a", 4)  # posted a moment ago: nginx holds it
        await front.ensure("sheet:a", 5)
        await front.close()

    asyncio.run(main())
    assert nginx.versions("sheet:a") == [4, 5]


def test_a_post_that_fails_is_tried_again_at_the_next_socket(
    caplog: pytest.LogCaptureFixture,
) -> None:
    nginx = Nginx(fail=True)

    async def main() -> None:
        front = nginx.front()
        await front.ensure("sheet:a", 4)
        nginx.fail = False
        await front.ensure("sheet:a", 4)
        await front.close()

    asyncio.run(main())
    assert nginx.versions("sheet:a") == [4]
    assert "could not post sheet:a version 4 to nginx" in caplog.text


def test_the_hub_posts_the_sheets_versions_only() -> None:
    nginx = Nginx()

    async def main() -> None:
        hub = Hub(front=nginx.front())
        await hub.start()
        hub.publish("sheet:a", 1)
        hub.publish("game:g", 5)
        await asyncio.sleep(0.05)
        await hub.stop()

    asyncio.run(main())
    assert nginx.posts == [("sheet:a", {"t": "v", "v": 1})]


@pytest.fixture
def fronted(tmp_path: Path) -> Iterator[tuple[TestClient, Nginx]]:
    nginx = Nginx()
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite3'}", live_front="http://nginx/_live/pub")
    app.state.hub.front = nginx.front(live_aliases)
    with TestClient(app, follow_redirects=False) as client:
        yield client, nginx


def test_nginx_may_subscribe_a_sheets_sockets_once_it_holds_the_current_version(
    fronted: tuple[TestClient, Nginx],
) -> None:
    client, nginx = fronted
    path = create_sheet(client)
    sheet_id = path.rsplit("/", 1)[1]
    enter(client, path, {0: "0", 1: "25", 2: "40"}, out=0)
    answer = client.get(f"/ws/sheet/{sheet_id}", headers=FROM_NGINX)
    assert answer.status_code == 200
    # The version of the round entered is at nginx before the socket is, under the sheet's
    # channel and under its read-only address's, named by the token.
    token = view_link(client, path).rsplit("/", 1)[1]
    assert nginx.versions(f"sheet:{sheet_id}")[-1] == 1
    assert nginx.versions(f"view:{token}")[-1] == 1
    assert client.get(f"/ws/view/{token}", headers=FROM_NGINX).status_code == 200
    enter(client, path, {0: "10", 1: "0", 2: "5"}, out=1)
    assert nginx.versions(f"sheet:{sheet_id}")[-1] == 2
    assert nginx.versions(f"view:{token}")[-1] == 2


def test_no_socket_is_handed_over_for_a_sheet_that_is_not_there(
    fronted: tuple[TestClient, Nginx],
) -> None:
    client, nginx = fronted
    for address in ("/ws/sheet/AAAAAAAAAAAAAAAAAAAAAA", "/ws/sheet/..", "/ws/view/xxxxxxxxxx"):
        answer = client.get(address, headers=FROM_NGINX)
        assert answer.status_code == 404
    assert nginx.posts == []


def test_a_sockets_address_asked_for_without_nginx_is_not_found(client: TestClient) -> None:
    path = create_sheet(client)
    sheet_id = path.rsplit("/", 1)[1]
    assert client.get(f"/ws/sheet/{sheet_id}").status_code == 404
    # From nginx, to a process that was not told where nginx takes the versions.
    answer = client.get(f"/ws/sheet/{sheet_id}", headers=FROM_NGINX)
    assert answer.status_code == 503 and "RUMMYKIT_LIVE_FRONT" in answer.text
