"""The tile rummy sheet on the site: the same sheet, the tile scorings."""

from __future__ import annotations

from html import unescape

from fastapi.testclient import TestClient

from .helpers import create_sheet, enter


def sheet_json(client: TestClient, path: str) -> dict:  # type: ignore[type-arg]
    return client.get(f"/api/sheets/{path.rsplit('/', 1)[1]}").json()  # type: ignore[no-any-return]


def test_the_tile_rules_lead_to_a_new_tile_sheet_of_a_number_of_rounds(client: TestClient) -> None:
    page = unescape(client.get("/de/sheet/new?game=tiles").text)
    assert 'name="game" value="tiles" checked' in page
    assert 'name="end" value="rounds" checked' in page


def test_a_classic_tile_sheet_to_the_end(client: TestClient) -> None:
    path = create_sheet(
        client, "fr", limit="500", game="tiles", scoring="plus_minus", end="rounds", rounds="2"
    )
    settings = sheet_json(client, path)["sheet"]["settings"]
    assert settings["game"] == "tiles" and settings["scoring"] == "plus_minus"
    page = unescape(client.get(path).text)
    assert "(décompte classique)" in page and "un joker compte 30" in page
    refused = enter(client, path, {0: "5", 1: "12", 2: "30"})
    assert refused.status_code == 422
    assert "Indiquez qui a gagné la manche" in unescape(refused.text)
    enter(client, path, {0: "", 1: "12", 2: "30"}, out=0)
    enter(client, path, {0: "4", 1: "", 2: "10"}, out=1)
    data = sheet_json(client, path)["sheet"]
    assert [p["total"] for p in data["players"]] == [38, 2, -40]
    assert data["over"] and data["winners"] == [0]
    assert [s["name"] for s in data["standings"]] == ["Ann", "Bob", "Cleo"]


def test_the_leaflet_tile_sheet_keeps_the_lowest_total(client: TestClient) -> None:
    path = create_sheet(client, game="tiles", end="rounds", rounds="1")
    enter(client, path, {0: "", 1: "30", 2: "8"}, out=0)
    data = sheet_json(client, path)["sheet"]
    assert data["winners"] == [0] and [p["total"] for p in data["players"]] == [0, 30, 8]


def test_the_classic_scoring_needs_a_number_of_rounds(client: TestClient) -> None:
    data = {"name": "x", "limit": "500", "game": "tiles", "scoring": "plus_minus"}
    response = client.post("/en/sheet/new", data={**data, "player": ["A", "B"]})
    assert response.status_code == 422
    assert "played over a number of rounds" in unescape(response.text)
