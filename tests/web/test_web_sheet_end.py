"""How the game ends, chosen on the new-sheet form (or through the API) and shown on the pages."""

from __future__ import annotations

from html import unescape

from fastapi.testclient import TestClient

from .helpers import create_sheet, enter


def sheet_json(client: TestClient, path: str) -> dict:  # type: ignore[type-arg]
    return client.get(f"/api/sheets/{path.rsplit('/', 1)[1]}").json()  # type: ignore[no-any-return]


def test_the_form_offers_the_three_endings_in_every_language(client: TestClient) -> None:
    expected = {
        "en": "Whoever goes over the limit loses",
        "fr": "Qui dépasse la limite perd",
        "es": "Quien supera el límite pierde",
        "de": "Wer die Grenze überschreitet, verliert",
    }
    for lang, text in expected.items():
        page = unescape(client.get(f"/{lang}/sheet/new").text)
        assert text in page
        for value in ("reach", "exceed", "rounds"):
            assert f'name="end" value="{value}"' in page
        assert 'name="end" value="reach" checked' in page


def test_a_sheet_whose_limit_must_be_exceeded(client: TestClient) -> None:
    path = create_sheet(client, "fr", limit="300", end="exceed")
    assert sheet_json(client, path)["sheet"]["settings"] == {
        "name": "Friday",
        "limit": 300,
        "end": "exceed",
    }
    enter(client, path, {0: "0", 1: "300", 2: "20"}, out=0)
    page = unescape(client.get(path).text)
    assert "Limite de 300 points : qui la dépasse perd" in page
    assert "Partie terminée" not in page and "data-round-form" in page
    enter(client, path, {0: "0", 1: "1", 2: "20"}, out=0)
    page = unescape(client.get(path).text)
    assert "Au-delà de la limite de 300 : Bob" in page
    assert "Vainqueur : Ann" in page
    data = sheet_json(client, path)["sheet"]
    assert data["over"] and data["winners"] == [0]


def test_a_sheet_of_a_fixed_number_of_rounds_with_a_shared_victory(client: TestClient) -> None:
    path = create_sheet(client, "de", limit="500", end="rounds", rounds="2")
    assert sheet_json(client, path)["sheet"]["settings"] == {
        "name": "Friday",
        "limit": None,
        "end": "rounds",
        "rounds": 2,
    }
    page = unescape(client.get(path).text)
    assert "2 Runden" in page and "Als Nächstes Runde 1 von 2" in page
    assert "Bis zum Limit" not in page
    enter(client, path, {0: "0", 1: "10", 2: "20"}, out=0)
    enter(client, path, {0: "20", 1: "10", 2: "5"})
    page = unescape(client.get(path).text)
    assert "Geteilter Sieg: Ann, Bob, Cleo" not in page
    assert "Geteilter Sieg: Ann, Bob" in page
    assert "Alle 2 Runden sind gespielt." in page
    assert "data-round-form" not in page
    printed = unescape(client.get(f"{path}/print").text)
    assert "Geteilter Sieg: Ann, Bob" in printed and "Bis zum Limit" not in printed
    late = enter(client, path, {0: "1", 1: "2", 2: "0"}, out=2)
    assert late.status_code == 422 and "Die Partie ist vorbei." in unescape(late.text)


def test_a_bad_number_of_rounds_is_refused_and_the_choice_kept(client: TestClient) -> None:
    for rounds in ("", "0", "abc", "101"):
        data = {
            "name": "x",
            "limit": "500",
            "end": "rounds",
            "rounds": rounds,
            "player": ["A", "B"],
        }
        response = client.post("/es/sheet/new", data=data)
        assert response.status_code == 422, rounds
        page = unescape(response.text)
        assert "El número de rondas debe ser un número entero de 1 a 100." in page
        assert 'name="end" value="rounds" checked' in page
    response = client.post("/en/sheet/new", data={"name": "x", "limit": "500", "end": "never"})
    assert response.status_code == 422


def test_the_api_creates_sheets_with_every_ending(client: TestClient) -> None:
    body = {"name": "API", "players": ["A", "B"], "lang": "en", "end": "rounds", "rounds": 3}
    response = client.post("/api/sheets", json=body)
    assert response.status_code == 201
    assert response.json()["sheet"]["settings"]["rounds"] == 3
    body = {"name": "API", "players": ["A", "B"], "limit": 200, "end": "exceed"}
    assert client.post("/api/sheets", json=body).json()["sheet"]["settings"]["end"] == "exceed"
    refused = client.post("/api/sheets", json={**body, "end": "rounds", "rounds": 0})
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "bad_rounds"
