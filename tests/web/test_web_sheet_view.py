"""The read-only link: a separate token that shows the sheet (and its large display), changes
nothing, follows every change and never leads back to the sheet's own link."""

from __future__ import annotations

import re
from html import unescape

from fastapi.testclient import TestClient

from rummykit.store import hash_token, view_token

from .helpers import create_sheet, enter


def view_link(client: TestClient, path: str) -> str:
    page = client.get(path).text
    found = re.search(r'id="view-link" type="text" readonly value="http://[^/]+(/[^"]+)"', page)
    assert found, "the sheet page shows its read-only link"
    return found.group(1)


def test_the_sheet_page_shows_a_read_only_link_with_its_own_token(client: TestClient) -> None:
    path = create_sheet(client)
    sheet_id = path.rsplit("/", 1)[1]
    link = view_link(client, path)
    token = link.rsplit("/", 1)[1]
    assert link == f"/en/view/{token}" and token == view_token(sheet_id)
    assert token != sheet_id and len(token) >= 22
    assert view_link(client, path) == link  # the same link every time


def test_the_read_only_page_shows_the_sheet_without_any_form_or_the_sheet_link(
    client: TestClient,
) -> None:
    path = create_sheet(client, "de", limit="300")
    sheet_id = path.rsplit("/", 1)[1]
    enter(client, path, {0: "0", 1: "25", 2: "40"}, out=0)
    link = view_link(client, path)
    response = client.get(link)
    assert response.status_code == 200
    page = unescape(response.text)
    assert "Bob" in page and "25" in page
    assert "<form" not in page and "data-round-form" not in page
    assert sheet_id not in page
    display = unescape(client.get(f"{link}/display").text)
    assert 'class="read-only display"' in display and sheet_id not in display
    assert "<form" not in display


def test_only_the_hash_of_the_read_only_token_is_stored(client: TestClient) -> None:
    path = create_sheet(client)
    sheet_id = path.rsplit("/", 1)[1]
    token = view_token(sheet_id)
    db = client.app.state.db  # type: ignore[attr-defined]

    async def stored_hashes() -> list[str]:
        from sqlalchemy import text

        async with db.session() as session:
            rows = await session.execute(text("SELECT view_hash FROM score_sheets"))
            return [r[0] for r in rows]

    hashes = client.portal.call(stored_hashes)  # type: ignore[union-attr]
    assert hashes == [hash_token(token)] and token not in hashes


def test_a_wrong_read_only_token_finds_nothing(client: TestClient) -> None:
    path = create_sheet(client)
    sheet_id = path.rsplit("/", 1)[1]
    for token in (sheet_id, "x" * 22, "short", "../etc"):
        assert client.get(f"/en/view/{token}").status_code == 404


def test_the_read_only_socket_follows_the_sheet(client: TestClient) -> None:
    path = create_sheet(client)
    token = view_link(client, path).rsplit("/", 1)[1]
    with client.websocket_connect(f"/ws/view/{token}") as socket:
        assert socket.receive_json() == {"t": "v", "v": 0}
        enter(client, path, {0: "0", 1: "25", 2: "40"}, out=0)
        assert socket.receive_json() == {"t": "v", "v": 1}


def test_the_read_only_page_of_an_own_hand_sheet_shows_who_is_missing(
    client: TestClient,
) -> None:
    path = create_sheet(client, "fr", own="1")
    client.post(f"{path}/hand", data={"player": "1", "points": "12", "round": "1", "version": "0"})
    page = unescape(client.get(view_link(client, path)).text)
    assert "En attente de : Ann, Cleo" in page and "<form" not in page
