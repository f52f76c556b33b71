"""The score sheet over HTTP: forms, the JSON API, CSV, print, live socket, bad input."""

from __future__ import annotations

import csv
import io
from html import unescape

from fastapi.testclient import TestClient

from rummykit.scoresheet import replay
from rummykit.store import SheetRepository

from .helpers import create_sheet, enter, version


def sheet_json(client: TestClient, path: str) -> dict:  # type: ignore[type-arg]
    return client.get(f"/api/sheets/{path.rsplit('/', 1)[1]}").json()  # type: ignore[no-any-return]


# -- Creating ------------------------------------------------------------------------------


def test_a_sheet_is_created_from_the_form_with_an_unguessable_link(client: TestClient) -> None:
    first = create_sheet(client, "de", players=("Anna", "Ben", "", "  "))
    second = create_sheet(client, "de")
    assert first.startswith("/de/sheet/") and first != second
    assert len(first.rsplit("/", 1)[1]) >= 22
    data = sheet_json(client, first)
    assert [p["name"] for p in data["sheet"]["players"]] == ["Anna", "Ben"]
    assert data["sheet"]["settings"] == {"name": "Friday", "limit": 500}


def test_the_limit_is_chosen_from_the_presets_or_typed(client: TestClient) -> None:
    cases = (("300", "", 300), ("1000", "", 1000), ("other", "750", 750), ("500", "650", 650))
    for choice, other, limit in cases:
        path = create_sheet(client, limit=choice, limit_other=other)
        assert sheet_json(client, path)["sheet"]["settings"]["limit"] == limit


def test_bad_new_sheets_are_refused_with_a_translated_message_and_nothing_stored(
    client: TestClient,
) -> None:
    cases = [
        ({"name": "", "limit": "500", "player": ["A", "B"]}, "Bitte der Liste einen Namen geben."),
        ({"name": "x", "limit": "500", "player": ["A"]}, "mindestens 2 Spieler"),
        (
            {"name": "x", "limit": "500", "player": ["A", "a"]},
            "Es gibt schon einen Spieler namens a.",
        ),
        (
            {"name": "x", "limit": "other", "limit_other": "abc", "player": ["A", "B"]},
            "Punktelimit",
        ),
        (
            {"name": "x", "limit": "other", "limit_other": "5", "player": ["A", "B"]},
            "von 10 bis 100000",
        ),
        ({"name": "x", "limit": "123", "player": ["A", "B"]}, "Punktelimit"),
    ]
    for data, message in cases:
        response = client.post("/de/sheet/new", data=data)
        assert response.status_code == 422, data
        assert message in unescape(response.text), (data, response.text)
        assert 'role="alert"' in unescape(response.text)
        # The input is kept for the next try.
        for player in data["player"]:
            assert f'value="{player}"' in unescape(response.text)


# -- Rounds --------------------------------------------------------------------------------


def test_a_round_is_entered_with_went_out_and_a_credit(client: TestClient) -> None:
    path = create_sheet(client)
    response = enter(client, path, {0: "", 1: "25", 2: "40"}, out=0)  # empty + went out = 0
    assert response.status_code == 303
    assert response.headers["location"] == f"{path}?ok=round"
    response = enter(client, path, {0: "30", 1: "−100", 2: " 12 "}, out=1)  # typographic minus
    assert response.status_code == 303
    data = sheet_json(client, path)
    assert data["version"] == 2
    assert [p["total"] for p in data["sheet"]["players"]] == [30, -75, 52]
    page = unescape(client.get(response.headers["location"]).text)
    assert "Round 2 saved." in page


def test_round_input_errors_are_shown_per_field_and_nothing_is_saved(client: TestClient) -> None:
    path = create_sheet(client, "fr")
    cases = [
        ({0: "12", 1: "abc", 2: "3"}, None, "Bob : saisissez un nombre entier"),
        ({0: "12", 1: "", 2: "3"}, None, "il manque Bob"),
        ({0: "12", 1: "4", 2: "3"}, 0, "Ann est sorti et ne peut pas avoir 12 points"),
        (
            {0: "1000", 1: "4", 2: "3"},
            None,
            "Ann : les points doivent être compris entre -999 et 999",
        ),
        ({0: "1", 1: "4", 2: "3", 7: "2"}, 7, "Ce joueur n'est pas sur cette feuille."),
    ]
    for points, out, message in cases:
        response = enter(client, path, points, out=out)
        assert response.status_code == 422, points
        assert message in unescape(response.text), (points, response.text)
        assert 'aria-invalid="true"' in unescape(response.text) or "Ce joueur" in message
        assert version(client, path) == 0
    response = enter(client, path, {0: "0", 1: "0", 2: "3"}, out=None, version=0)
    assert response.status_code == 303
    two_outs = client.post(
        f"{path}/round", data={"p0": "0", "p1": "0", "p2": "5", "out": ["0", "1"], "version": "1"}
    )
    assert two_outs.status_code == 422
    assert "Un seul joueur peut sortir par manche." in unescape(two_outs.text)
    assert version(client, path) == 1


def test_a_stale_form_is_refused_and_the_loser_is_told(client: TestClient) -> None:
    path = create_sheet(client, "de")
    assert enter(client, path, {0: "0", 1: "10", 2: "20"}, out=0, version=0).status_code == 303
    late = enter(client, path, {0: "5", 1: "0", 2: "7"}, out=1, version=0)
    assert late.status_code == 409
    assert "Gerade hat jemand anderes die Liste geändert." in unescape(late.text)
    assert 'value="7"' in unescape(late.text)  # the loser's input is kept
    data = sheet_json(client, path)
    assert data["version"] == 1
    assert [p["total"] for p in data["sheet"]["players"]] == [0, 10, 20]
    bad = client.post(f"{path}/round", data={"p0": "1", "p1": "0", "p2": "2", "version": "x"})
    assert bad.status_code == 422


def test_a_double_tap_or_a_retry_saves_the_round_once(client: TestClient) -> None:
    path = create_sheet(client)
    for _ in range(3):
        response = enter(client, path, {0: "0", 1: "25", 2: "40"}, out=0, version=0)
        assert (response.status_code, response.headers["location"]) == (303, f"{path}?ok=round")
    data = sheet_json(client, path)
    assert data["version"] == 1 and len(data["sheet"]["rounds"]) == 1
    # The same for a join; a different entry at the old version is still a conflict.
    for _ in range(2):
        assert client.post(f"{path}/join", data={"name": "Dora", "version": "1"}).status_code == 303
    assert enter(client, path, {0: "0", 1: "26", 2: "40"}, out=0, version=0).status_code == 409
    assert sheet_json(client, path)["version"] == 2


def test_players_join_and_leave_with_the_starting_total_choice(client: TestClient) -> None:
    path = create_sheet(client, "es")
    enter(client, path, {0: "0", 1: "35", 2: "50"}, out=0)
    assert client.post(f"{path}/join", data={"name": "Dora", "version": "1"}).status_code == 303
    assert (
        client.post(
            f"{path}/join", data={"name": "Eve", "start": "zero", "version": "2"}
        ).status_code
        == 303
    )
    players = sheet_json(client, path)["sheet"]["players"]
    assert [(p["name"], p["start_total"]) for p in players][3:] == [("Dora", 50), ("Eve", 0)]
    assert client.post(f"{path}/leave", data={"player": "1", "version": "3"}).status_code == 303
    page = unescape(client.get(path).text)
    assert "Dora entró antes de la ronda 2, empezando con 50 puntos." in page
    assert "Bob se fue después de la ronda 1." in page
    for data, status, text in (
        ({"name": "dora", "version": "4"}, 422, "Ya hay un jugador llamado dora."),
        ({"name": "Finn", "start": "middle", "version": "4"}, 422, "Elige cómo empieza"),
        ({"name": "Finn", "version": "3"}, 409, "Otra persona acaba de cambiar la hoja."),
    ):
        response = client.post(f"{path}/join", data=data)
        assert response.status_code == status and text in unescape(response.text), data
    response = client.post(f"{path}/leave", data={"player": "1", "version": "4"})
    assert response.status_code == 422 and "Bob ya ha dejado la partida." in unescape(response.text)
    assert version(client, path) == 4


def test_a_past_round_is_corrected(client: TestClient) -> None:
    path = create_sheet(client)
    enter(client, path, {0: "0", 1: "25", 2: "40"}, out=0)
    enter(client, path, {0: "10", 1: "0", 2: "5"}, out=1)
    form = client.get(f"{path}/round/1")
    assert form.status_code == 200 and 'value="25"' in unescape(form.text)
    response = client.post(
        f"{path}/round/1", data={"p0": "0", "p1": "52", "p2": "40", "out": "0", "version": "2"}
    )
    assert response.status_code == 303
    data = sheet_json(client, path)
    assert [p["total"] for p in data["sheet"]["players"]] == [10, 52, 45]
    assert data["sheet"]["rounds"][0]["corrections"] == 1
    assert "corrected" in client.get(path).text
    assert client.get(f"{path}/round/3").status_code == 404
    assert client.post(f"{path}/round/9", data={"version": "3"}).status_code == 404


def test_the_end_when_someone_reaches_the_limit(client: TestClient) -> None:
    path = create_sheet(client, "de", limit="300")
    enter(client, path, {0: "0", 1: "150", 2: "20"}, out=0)
    enter(client, path, {0: "40", 1: "150", 2: "0"}, out=2)
    page = unescape(client.get(path).text)
    assert "Partie beendet" in page
    assert "Gewonnen: Cleo" in page
    assert "Limit von 300 erreicht: Bob" in page
    assert "data-round-form" not in page
    late = enter(client, path, {0: "1", 1: "2", 2: "0"}, out=2)
    assert late.status_code == 422 and "Die Partie ist vorbei" in unescape(late.text)


# -- Export, print -------------------------------------------------------------------------


def test_csv_export_has_every_round_the_totals_and_places(client: TestClient) -> None:
    path = create_sheet(client, "de", name="Freitag bei Müllers")
    enter(client, path, {0: "0", 1: "25", 2: "40"}, out=0)
    client.post(f"{path}/join", data={"name": "Dora", "version": "1"})
    enter(client, path, {0: "10", 1: "-100", 2: "5", 3: "7"}, out=1)
    response = client.get(f"{path}/export.csv")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert "Freitag-bei-M%C3%BCllers.csv" in response.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(response.text.lstrip("\ufeff"))))
    assert rows == [
        ["Runde", "Ann", "Bob", "Cleo", "Dora", "Zugemacht"],
        ["Start", "", "", "", "40", ""],
        ["1", "0", "25", "40", "", "Ann"],
        ["2", "10", "-100", "5", "7", "Bob"],
        ["Summe", "10", "-75", "45", "47", ""],
        ["Platz", "2", "1", "3", "4", ""],
    ]


def test_the_printable_page_has_the_ranking_and_rounds(client: TestClient) -> None:
    path = create_sheet(client, "fr")
    enter(client, path, {0: "0", 1: "25", 2: "40"}, out=0)
    page = client.get(f"{path}/print")
    assert page.status_code == 200
    assert "print-page" in unescape(page.text) and "1 manche jouée" in unescape(page.text)
    assert "<form" not in unescape(page.text)


def test_a_sheet_is_never_indexed_and_its_address_never_sent_elsewhere(client: TestClient) -> None:
    path = create_sheet(client)
    for url in (path, f"{path}/print", f"{path}/export.csv"):
        headers = client.get(url).headers
        assert headers["x-robots-tag"] == "noindex, nofollow"
        assert headers["referrer-policy"] == "same-origin"
    assert "x-robots-tag" not in client.get("/en/sheet/new").headers


def test_reloading_the_address_of_a_refused_form_shows_the_sheet(client: TestClient) -> None:
    path = create_sheet(client)
    for action in ("round", "join", "leave"):
        response = client.get(f"{path}/{action}")
        assert (response.status_code, response.headers["location"]) == (303, path)


def test_a_wrong_or_malformed_link_finds_nothing(client: TestClient) -> None:
    for path in ("/en/sheet/AAAAAAAAAAAAAAAAAAAAAA", "/en/sheet/short", "/en/sheet/a%20b/print"):
        assert client.get(path).status_code == 404, path
    response = client.post(
        "/en/sheet/AAAAAAAAAAAAAAAAAAAAAA/round", data={"p0": "1", "version": "0"}
    )
    assert response.status_code == 404


# -- JSON API ------------------------------------------------------------------------------


def test_the_api_creates_reads_and_changes_a_sheet(client: TestClient) -> None:
    created = client.post("/api/sheets", json={"name": "API", "players": ["A", "B"], "lang": "es"})
    assert created.status_code == 201
    body = created.json()
    sheet_id = body["id"]
    assert body["url"] == f"/es/sheet/{sheet_id}" and body["version"] == 0
    action = {"t": "round", "entries": [{"p": 0, "v": 0, "out": True}, {"p": 1, "v": 12}]}
    changed = client.post(f"/api/sheets/{sheet_id}/actions", json={"version": 0, "action": action})
    assert changed.status_code == 200 and changed.json()["version"] == 1
    again = client.post(f"/api/sheets/{sheet_id}/actions", json={"version": 0, "action": action})
    assert again.status_code == 200 and again.json()["version"] == 1  # a retry, stored once
    assert len(again.json()["sheet"]["rounds"]) == 1
    other = {"t": "leave", "player": 0}
    stale = client.post(f"/api/sheets/{sheet_id}/actions", json={"version": 0, "action": other})
    assert stale.status_code == 409
    assert stale.json()["error"]["code"] == "sheet_changed"
    assert stale.json()["version"] == 1


def test_the_api_answers_bad_input_with_codes_and_translated_messages(client: TestClient) -> None:
    sheet_id = client.post("/api/sheets", json={"name": "x", "players": ["A", "B"]}).json()["id"]
    url = f"/api/sheets/{sheet_id}/actions"
    de = {"Accept-Language": "de"}
    cases = [
        (client.post(url, content=b"{not json", headers=de), 422, "bad_json"),
        (client.post(url, json=[1], headers=de), 422, "bad_request"),
        (client.post(url, json={"version": "0", "action": {}}, headers=de), 422, "bad_version"),
        (
            client.post(url, json={"version": 0, "action": {"t": "x"}}, headers=de),
            422,
            "bad_action",
        ),
        (
            client.post(
                url, json={"version": 0, "action": {"t": "leave", "player": 5}}, headers=de
            ),
            422,
            "unknown_player",
        ),
        (
            client.post("/api/sheets", json={"name": "x", "players": ["A"]}, headers=de),
            422,
            "too_few_players",
        ),
        (
            client.post("/api/sheets", json={"name": "x", "players": "AB"}, headers=de),
            422,
            "bad_request",
        ),
        (
            client.post("/api/sheets", json={"name": 5, "players": ["A", "B"]}, headers=de),
            422,
            "empty_sheet_name",
        ),
        (
            client.post(
                "/api/sheets", json={"name": "x", "limit": 3, "players": ["A", "B"]}, headers=de
            ),
            422,
            "bad_limit",
        ),
    ]
    for response, status, code in cases:
        assert response.status_code == status, (code, response.text)
        error = response.json()["error"]
        assert error["code"] == code
        assert error["message"] and error["message"] != code
    assert client.get(f"/api/sheets/{sheet_id}").json()["version"] == 0
    german = client.post(
        url, json={"version": 0, "action": {"t": "leave", "player": 5}}, headers=de
    )
    assert german.json()["error"]["message"] == "Diesen Spieler gibt es auf dieser Liste nicht."


# -- Live ----------------------------------------------------------------------------------


def test_the_socket_sends_the_version_at_once_and_after_every_change(client: TestClient) -> None:
    path = create_sheet(client)
    sheet_id = path.rsplit("/", 1)[1]
    with client.websocket_connect(f"/ws/sheet/{sheet_id}") as socket:
        assert socket.receive_json() == {"t": "v", "v": 0}
        enter(client, path, {0: "0", 1: "25", 2: "40"}, out=0)
        assert socket.receive_json() == {"t": "v", "v": 1}
        client.post(f"{path}/join", data={"name": "Dora", "version": "1"})
        assert socket.receive_json() == {"t": "v", "v": 2}
    # A client that reconnects learns at once how far the sheet is.
    with client.websocket_connect(f"/ws/sheet/{sheet_id}") as socket:
        assert socket.receive_json() == {"t": "v", "v": 2}


def test_the_socket_sees_changes_written_by_another_process(client: TestClient) -> None:
    path = create_sheet(client)
    sheet_id = path.rsplit("/", 1)[1]
    app = client.app
    with client.websocket_connect(f"/ws/sheet/{sheet_id}") as socket:
        assert socket.receive_json() == {"t": "v", "v": 0}

        async def write_behind_the_hub() -> None:
            repo = SheetRepository(app.state.db)  # type: ignore[attr-defined]
            stored = await repo.load(sheet_id)
            assert replay(stored.record).next_round == 1
            await repo.append(sheet_id, 0, {"t": "join", "name": "Zed", "start": "zero"})

        client.portal.call(write_behind_the_hub)  # type: ignore[union-attr]
        assert socket.receive_json() == {"t": "v", "v": 1}  # found by polling the database


def test_the_pages_of_one_sheet_share_one_poll_of_the_database(client: TestClient) -> None:
    path = create_sheet(client)
    sheet_id = path.rsplit("/", 1)[1]
    app = client.app
    hub = app.state.hub  # type: ignore[attr-defined]
    with (
        client.websocket_connect(f"/ws/sheet/{sheet_id}") as first,
        client.websocket_connect(f"/ws/sheet/{sheet_id}") as second,
    ):
        assert first.receive_json() == second.receive_json() == {"t": "v", "v": 0}
        assert list(hub._pollers) == [f"sheet:{sheet_id}"]

        async def write_behind_the_hub() -> None:
            repo = SheetRepository(app.state.db)  # type: ignore[attr-defined]
            await repo.append(sheet_id, 0, {"t": "join", "name": "Zed", "start": "zero"})

        client.portal.call(write_behind_the_hub)  # type: ignore[union-attr]
        assert first.receive_json() == second.receive_json() == {"t": "v", "v": 1}
    # The last page gone, nothing of the sheet stays in the hub.
    assert not hub._pollers and not hub._watchers


def test_the_socket_of_an_unknown_sheet_is_closed(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    try:
        with client.websocket_connect("/ws/sheet/AAAAAAAAAAAAAAAAAAAAAA") as socket:
            socket.receive_json()
    except WebSocketDisconnect as closed:
        assert closed.code == 4404
    else:
        raise AssertionError("the socket should have been closed")
