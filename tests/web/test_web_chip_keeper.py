"""The Rummoli chip keeper on the site: the same machinery as the score sheet (versioned log,
live socket, read-only link), its own page."""

from __future__ import annotations

from html import unescape

from fastapi.testclient import TestClient

from rummykit.store import SheetRepository


def create(client: TestClient, lang: str = "en", chips: str = "20") -> str:
    data = {"name": "Rummoli night", "chips": chips, "player": ["Ann", "Bob", ""]}
    response = client.post(f"/{lang}/chips/new", data=data)
    assert response.status_code == 303, unescape(response.text)
    return str(response.headers["location"])


def act(client: TestClient, path: str, version: int, **data: str) -> object:
    return client.post(f"{path}/chips", data={"version": str(version), **data})


def state(client: TestClient, path: str) -> dict:  # type: ignore[type-arg]
    return client.get(f"/api/sheets/{path.rsplit('/', 1)[1]}").json()  # type: ignore[no-any-return]


def test_a_chip_keeper_through_a_hand_with_an_undo(client: TestClient) -> None:
    path = create(client)
    assert act(client, path, 0, do="ante").status_code == 303  # type: ignore[attr-defined]
    act(client, path, 1, do="take", box="box:queen_clubs", to="p:1")
    act(client, path, 2, do="move", **{"from": "p:0", "to": "p:1", "n": "3"})
    act(client, path, 3, do="undo", change="3")
    data = state(client, path)
    assert data["version"] == 4
    sheet = data["sheet"]
    assert [p["chips"] for p in sheet["players"]] == [11, 13]
    assert sheet["boxes"]["queen_clubs"] == 0 and sheet["total"] == 40
    assert [c["undone"] for c in sheet["changes"]] == [False, False, True, False]
    page = unescape(client.get(path).text)
    assert "3 from Ann to Bob." in page and "Change 3 undone." in page


def test_a_change_from_an_older_page_still_counts_if_the_chips_are_there(
    client: TestClient,
) -> None:
    path = create(client)
    act(client, path, 0, do="ante")
    late = act(client, path, 0, do="move", **{"from": "p:0", "to": "box:poker", "n": "2"})
    assert late.status_code == 303  # type: ignore[attr-defined]
    refused = act(client, path, 0, do="move", **{"from": "p:0", "to": "box:poker", "n": "50"})
    assert refused.status_code == 422  # type: ignore[attr-defined]
    assert state(client, path)["version"] == 2


def test_the_sheet_forms_are_not_the_chip_keeper_s(client: TestClient) -> None:
    path = create(client)
    response = client.post(f"{path}/round", data={"version": "0", "p0": "1", "p1": "2"})
    assert response.status_code == 404
    api = client.post(
        f"/api/sheets/{path.rsplit('/', 1)[1]}/actions",
        json={"version": 0, "action": {"t": "round", "entries": []}},
    )
    assert api.status_code == 422


def test_the_read_only_link_shows_the_board_without_forms(client: TestClient) -> None:
    path = create(client, "de")
    act(client, path, 0, do="ante")
    page = client.get(path).text
    start = page.index('id="view-link"')
    link = page[start:].split('value="', 1)[1].split('"', 1)[0]
    link = "/" + link.split("/", 3)[3]
    view = unescape(client.get(link).text)
    assert "<form" not in view and 'data-box="poker"' in view


def test_bad_chip_keepers_are_refused(client: TestClient) -> None:
    for data in (
        {"name": "x", "chips": "0", "player": ["A", "B"]},
        {"name": "x", "chips": "40", "player": ["A"]},
        {"name": "", "chips": "40", "player": ["A", "B"]},
    ):
        assert client.post("/en/chips/new", data=data).status_code == 422


def test_every_change_is_in_the_stored_log(client: TestClient) -> None:
    path = create(client)
    act(client, path, 0, do="ante")
    act(client, path, 1, do="take", box="box:rummoli", to="p:0")
    repo = SheetRepository(client.app.state.db)  # type: ignore[attr-defined]
    stored = client.portal.call(repo.load, path.rsplit("/", 1)[1])  # type: ignore[union-attr]
    assert list(stored.record.actions) == [
        {"t": "ante"},
        {"t": "move", "from": "box:rummoli", "to": "p:0", "n": 2},
    ]


def test_each_rules_page_links_the_companion_of_its_game(client: TestClient) -> None:
    for game, target in (
        ("rummoli", "/fr/chips/new"),
        ("tiles", "/fr/sheet/new/tiles"),
        ("romme", "/fr/sheet/new"),
    ):
        page = client.get(f"/fr/rules/{game}").text
        assert f'href="{target}"' in page, game
    tiles = unescape(client.get("/fr/sheet/new/tiles").text)
    assert 'name="game" value="tiles" checked' in tiles
