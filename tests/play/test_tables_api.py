"""Tables with friends through the API: creating, joining by link and by code, nicknames,
starting, every refusal (with its code and its sentence in four languages), the table's token
in its games, stale moves, messages in each reader's language, spectators, extra time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.core import IllegalAction
from rummykit.web.language import site_translations
from rummykit.web.play import messages
from rummykit.web.play.tables import EMOTES

from .tables_helpers import (
    check_answers,
    join,
    live_game,
    make_table,
    no_card,
    person_move,
    post,
    settle,
    table_view,
)

THREE = ({"kind": "person"}, {"kind": "person"}, {"kind": "computer", "level": "random"})


def started(client: TestClient, **body: Any) -> tuple[str, str, str, str]:
    """A Rommé table of Ana (host), Ben and a computer, started: table id, game id, tokens."""
    made = make_table(client, seats=THREE, **body)
    guest = join(client, made["id"], "Ben").json()["token"]
    answer = post(client, made["id"], "start", made["token"])
    assert answer.status_code == 200, answer.text
    return made["id"], answer.json()["game_id"], made["token"], guest


def test_a_table_is_created_joined_by_its_code_and_started(client: TestClient) -> None:
    made = make_table(client, seats=THREE, name="Dimanche")
    table_id, host = made["id"], made["token"]
    assert made["url"] == f"/fr/t/{table_id}" or made["url"].endswith(f"/t/{table_id}")
    first = made["table"]
    assert first["me"] == 0 and first["host"] == 0 and first["status"] == "open"
    assert [s["free"] for s in first["seats"]] == [False, True, False]
    assert first["settings"]["timer"] == 60 and first["settings"]["grace"] == 90
    typed = "-".join([made["code"][:3].lower(), made["code"][3:].lower()])
    found = client.get(f"/api/tables/code/ {typed} ")
    assert found.status_code == 200 and found.json()["id"] == table_id
    joined = join(client, table_id, "Ben")
    assert joined.status_code == 200, joined.text
    guest = joined.json()["token"]
    assert joined.json()["seat"] == 1 and joined.json()["table"]["me"] == 1
    again = client.post(
        f"/api/tables/{table_id}/join", json={"nickname": "Other"}, headers={"X-Table-Token": guest}
    )
    assert again.json()["seat"] == 1 and again.json()["token"] == guest  # a no-op
    start = post(client, table_id, "start", host)
    assert start.status_code == 200, start.text
    view = start.json()
    assert view["status"] == "playing" and view["game_id"] and view["game_number"] == 1
    game_id = view["game_id"]
    # The table's token alone opens the seat in the game, for both people.
    for token, seat in ((host, 0), (guest, 1)):
        answer = client.get(f"/api/games/{game_id}", headers={"X-Table-Token": token})
        assert answer.status_code == 200 and answer.json()["seat"] == seat
        check_answers(client, game_id, [(seat, answer.json())])
    client.cookies.set(f"rk_table_{table_id}", guest)
    assert client.get(f"/api/games/{game_id}").json()["seat"] == 1
    client.cookies.clear()
    assert client.get(f"/api/games/{game_id}").status_code == 403
    no_card(table_view(client, table_id, host).json())


def test_nicknames_that_look_alike_are_one_nickname(client: TestClient) -> None:
    made = make_table(client, seats=({"kind": "person"},) * 4)
    for twin in ("ANA", "Ａｎａ", "\u0410na", " ana "):  # the last but one in Cyrillic
        answer = join(client, made["id"], twin)
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "nickname_taken"
    ben = join(client, made["id"], "Bill").json()["token"]
    assert join(client, made["id"], "Bi11").json()["error"]["code"] == "nickname_taken"
    renamed = post(client, made["id"], "nickname", ben, {"nickname": "ana"})
    assert renamed.json()["error"]["code"] == "nickname_taken"
    renamed = post(client, made["id"], "nickname", ben, {"nickname": "  Benoît  "})
    assert renamed.status_code == 200 and renamed.json()["seats"][1]["nickname"] == "Benoît"


def _refusals() -> dict[str, Callable[[TestClient], Any]]:
    def full(c: TestClient) -> Any:
        made = make_table(c)
        join(c, made["id"], "Ben")
        return join(c, made["id"], "Cleo")

    def late(c: TestClient) -> Any:
        table_id, *_ = started(c)
        return join(c, table_id, "Cleo")

    def taken(c: TestClient) -> Any:
        made = make_table(c, seats=THREE)
        return join(c, made["id"], "Ben", seat=0)

    def computer_seat(c: TestClient) -> Any:
        made = make_table(c, seats=THREE)
        return join(c, made["id"], "Ben", seat=2)

    def invisible(c: TestClient) -> Any:
        return join(c, make_table(c)["id"], "Ben\u200b")

    def empty(c: TestClient) -> Any:
        return join(c, make_table(c)["id"], "   ")

    def twin(c: TestClient) -> Any:
        return join(c, make_table(c)["id"], "ＡＮＡ")

    def free(c: TestClient) -> Any:
        made = make_table(c, seats=THREE)
        return post(c, made["id"], "start", made["token"])

    def guest_starts(c: TestClient) -> Any:
        made = make_table(c, seats=THREE)
        guest = join(c, made["id"], "Ben").json()["token"]
        return post(c, made["id"], "start", guest, {"fill": "random"})

    def restart(c: TestClient) -> Any:
        table_id, _game, host, _guest = started(c)
        return post(c, table_id, "start", host)

    def stranger(c: TestClient) -> Any:
        made = make_table(c)
        return post(c, made["id"], "say", "not-a-token", {"phrase": "hello"})

    def too_soon(c: TestClient) -> Any:
        table_id, _game, host, _guest = started(c)
        return post(c, table_id, "rematch", host)

    def no_free_text(c: TestClient) -> Any:
        made = make_table(c)
        return post(c, made["id"], "say", made["token"], {"text": "salut"})

    def no_phrase(c: TestClient) -> Any:
        made = make_table(c)
        return post(c, made["id"], "say", made["token"], {"phrase": "insult"})

    def no_timer(c: TestClient) -> Any:
        table_id, _game, host, _guest = started(c, timer=0)
        return post(c, table_id, "extra-time", host)

    def not_mine(c: TestClient) -> Any:
        table_id, game_id, host, guest = started(c)
        live = settle(c, game_id)
        other = guest if live.state.to_move == 0 else host
        return post(c, table_id, "extra-time", other)

    def no_spectators(c: TestClient) -> Any:
        table_id, *_ = started(c)
        return c.get(f"/api/tables/{table_id}/game")

    def wrong_code(c: TestClient) -> Any:
        return c.get("/api/tables/code/ABCDE0")

    def unknown_code(c: TestClient) -> Any:
        return c.get("/api/tables/code/ZZZZZZ")

    def bad_timer(c: TestClient) -> Any:
        return c.post(
            "/api/tables",
            json={"game": "romme", "nickname": "A", "seats": list(THREE), "timer": 45},
        )

    def bad_grace(c: TestClient) -> Any:
        return c.post(
            "/api/tables",
            json={"game": "romme", "nickname": "A", "seats": list(THREE), "grace": 5},
        )

    def host_not_person(c: TestClient) -> Any:
        return c.post(
            "/api/tables",
            json={"game": "tiles", "nickname": "A", "seats": [THREE[2], THREE[0]]},
        )

    return {
        "table_full": full,
        "table_started": late,
        "seat_taken": taken,
        "bad_seat": computer_seat,
        "bad_name": invisible,
        "empty_nickname": empty,
        "nickname_taken": twin,
        "seats_free": free,
        "not_host": guest_starts,
        "table_started/start": restart,
        "not_at_table": stranger,
        "rematch_too_soon": too_soon,
        "free_text_off": no_free_text,
        "bad_phrase": no_phrase,
        "timer_off": no_timer,
        "not_your_turn": not_mine,
        "spectators_off": no_spectators,
        "bad_table_code": wrong_code,
        "bad_table_code/unknown": unknown_code,
        "bad_timer": bad_timer,
        "bad_grace": bad_grace,
        "bad_seats": host_not_person,
    }


REFUSALS = _refusals()
STATUS = {"bad_table_code": 404, "not_host": 403, "not_at_table": 403, "spectators_off": 403}
CONFLICTS = {"table_full", "table_started", "seat_taken", "nickname_taken", "seats_free"}


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de"])
@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_every_refusal_has_its_code_and_its_sentence(
    client: TestClient, case: str, lang: str
) -> None:
    code = case.split("/")[0]
    client.headers["Accept-Language"] = lang
    answer = REFUSALS[case](client)
    expected = STATUS.get(code, 409 if code in CONFLICTS | {"rematch_too_soon"} else 422)
    if code == "not_your_turn":
        expected = 409
    assert answer.status_code == expected, answer.text
    error = answer.json()["error"]
    assert error["code"] == code
    said = messages.describe(IllegalAction(code, **error["params"]), site_translations(lang))
    assert error["message"] == said["message"]
    english = messages.describe(IllegalAction(code, **error["params"]), site_translations("en"))
    assert (error["message"] != english["message"]) == (lang != "en")


def test_a_stale_move_gets_the_current_view(client: TestClient) -> None:
    _table_id, game_id, host, guest = started(client)
    live = settle(client, game_id)
    seat = live.state.to_move
    token = host if seat == 0 else guest
    seq = live.seq
    move = person_move(live, seat)
    first = client.post(
        f"/api/games/{game_id}/actions",
        json={"seq": seq, "action": move},
        headers={"X-Table-Token": token},
    )
    assert first.status_code == 200, first.text
    stale = client.post(
        f"/api/games/{game_id}/actions",
        json={"seq": seq, "action": move},
        headers={"X-Table-Token": token},
    )
    assert stale.status_code == 409
    body = stale.json()
    assert body["error"]["code"] == "game_changed" and body["view"]["seq"] > seq
    check_answers(client, game_id, [(seat, body["view"]), (seat, first.json())])


def test_a_phrase_reaches_each_reader_in_their_language(client: TestClient) -> None:
    made = make_table(client, free_text=True)
    table_id, host = made["id"], made["token"]
    guest = join(client, table_id, "Ben").json()["token"]
    assert post(client, table_id, "say", host, {"phrase": "well_played"}).status_code == 200
    assert post(client, table_id, "say", guest, {"phrase": "thumbs_up"}).status_code == 200
    assert post(client, table_id, "say", guest, {"text": "  à  demain "}).status_code == 200
    seen = {
        lang: table_view(client, table_id, guest, lang).json()["messages"]
        for lang in ("fr", "de", "es", "en")
    }
    assert [m["text"] for m in seen["fr"]] == ["Bien joué !", EMOTES["thumbs_up"], "à demain"]
    assert seen["de"][0]["text"] == "Gut gespielt!"
    assert seen["es"][0]["text"] == "¡Bien jugado!"
    assert seen["en"][0] == {**seen["en"][0], "phrase": "well_played", "text": "Well played!"}
    assert [m["nickname"] for m in seen["en"]] == ["Ana", "Ben", "Ben"]
    phrases = table_view(client, table_id, guest, "de").json()["phrases"]
    assert {"code": "good_game", "text": "Gutes Spiel!"} in phrases
    bad = post(client, table_id, "say", guest, {"text": "a\u202eb"})
    assert bad.json()["error"]["code"] == "bad_name"
    flood = [post(client, table_id, "say", host, {"phrase": "oops"}) for _ in range(8)]
    assert flood[-1].status_code == 429
    assert flood[-1].json()["error"]["code"] == "too_many_messages"


def test_spectators_see_the_public_view_only(client: TestClient) -> None:
    table_id, game_id, host, _guest = started(client, spectators=True)
    watched = table_view(client, table_id).json()
    assert watched["spectator"] is True and watched["me"] is None
    no_card(watched)
    settle(client, game_id)
    public = client.get(f"/api/tables/{table_id}/game")
    assert public.status_code == 200 and public.json()["seat"] is None
    assert public.json()["hand"] == []
    with client.websocket_connect(f"/ws/tables/{table_id}/game") as socket:
        message = socket.receive_json()
        assert message["t"] == "view" and message["d"]["hand"] == []
    check_answers(client, game_id, [(None, public.json()), (None, message["d"])])
    with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        message = socket.receive_json()
        assert message["t"] == "table" and message["d"]["spectator"] is True
        no_card(message)
    assert post(client, table_id, "say", "", {"phrase": "hello"}).status_code == 403
    assert host


def test_a_table_without_spectators_closes_a_visitors_socket(client: TestClient) -> None:
    table_id, *_ = started(client)
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/ws/tables/{table_id}") as socket,
    ):
        socket.receive_json()
    assert closed.value.code == 4403


def test_extra_time_twice_per_game(client: TestClient) -> None:
    table_id, game_id, host, guest = started(client)
    live = settle(client, game_id)
    seat = live.state.to_move
    token = host if seat == 0 else guest
    before = table_view(client, table_id, token).json()["turn"]
    assert before["seat"] == seat and before["extra_left"] == 2 and before["deadline"]
    first = post(client, table_id, "extra-time", token)
    assert first.status_code == 200, first.text
    turn = first.json()["turn"]
    assert turn["extra_left"] == 1 and turn["deadline"] == before["deadline"] + 30_000
    second = post(client, table_id, "extra-time", token).json()["turn"]
    assert second["deadline"] == before["deadline"] + 60_000 and second["extra_left"] == 0
    third = post(client, table_id, "extra-time", token)
    assert third.status_code == 409
    assert third.json()["error"]["code"] == "extra_time_used_up"


def test_a_host_who_leaves_hands_the_table_on(client: TestClient) -> None:
    table_id, game_id, host, guest = started(client)
    left = post(client, table_id, "leave", host)
    assert left.status_code == 200 and left.json()["me"] is None  # the token has no seat now
    view = table_view(client, table_id, guest).json()
    assert view["host"] == 1
    assert view["seats"][0]["presence"] == "gone" and view["seats"][0]["standin"] is True
    assert live_game(client, game_id).standins == {0: "medium"}


def test_changes_made_by_another_process_are_never_lost(client: TestClient) -> None:
    """Two services on one database (two processes): each works from its own last reading of
    the table, and every change still lands on the stored one."""
    from rummykit.web.play.service import service
    from rummykit.web.play.tables import TableService, tables

    here = tables(client.app)  # type: ignore[arg-type]
    there = TableService(service(client.app), client.app.state.hub)  # type: ignore[arg-type]
    seats = [("person", None), ("person", None), ("person", None)]
    settings = {"timer": 60, "grace": 90, "standin": None}

    async def scenario() -> tuple[Any, list[str]]:
        made, _host = await here.create("romme", {}, "", "Ana", seats, settings, "en")
        await there.table(made.id)  # the other process reads the table once, then joins
        _t, seat_a, _ = await there.join(made.id, None, "Ben", None)
        _t, seat_b, _ = await here.join(made.id, None, "Cleo", None)
        nicknames = [s["nickname"] for s in (await here.table(made.id, fresh=True)).seats]
        # ``there`` still holds the table with one seat free: its start sees the new one.
        started = await there.start(made.id, 0, None)
        assert {seat_a, seat_b} == {1, 2}
        return started, nicknames

    started, nicknames = client.portal.call(scenario)  # type: ignore[union-attr]
    assert nicknames == ["Ana", "Ben", "Cleo"]
    assert started.status == "playing" and started.version == 3


def test_a_table_forgotten_by_this_process_is_read_again(client: TestClient) -> None:
    from rummykit.web.play.tables import tables

    table_id, _game, host, _guest = started(client)
    assert post(client, table_id, "say", host, {"phrase": "hello"}).status_code == 200
    service_ = tables(client.app)  # type: ignore[arg-type]
    service_.forget(table_id)
    assert table_id not in service_.records and table_id not in service_.watched
    view = table_view(client, table_id, host, "de").json()
    assert view["status"] == "playing" and view["messages"][0]["text"] == "Hallo!"


def test_two_starts_at_once_make_one_game(client: TestClient) -> None:
    """Two processes start the table at the same moment: one game is played, the other one,
    made for the start that lost, is abandoned at once."""
    from sqlalchemy import text

    from rummykit.web.play.service import service
    from rummykit.web.play.tables import TableService, tables

    here = tables(client.app)  # type: ignore[arg-type]
    there = TableService(service(client.app), client.app.state.hub)  # type: ignore[arg-type]
    seats = [("person", None), ("computer", "random")]
    settings = {"timer": 60, "grace": 90, "standin": None}

    async def scenario() -> tuple[list[Any], dict[str, int]]:
        made, _host = await here.create("romme", {}, "", "Ana", seats, settings, "en")
        await there.table(made.id)
        results = await asyncio.gather(
            here.start(made.id, 0, None), there.start(made.id, 0, None), return_exceptions=True
        )
        async with client.app.state.db.engine.connect() as connection:  # type: ignore[attr-defined]
            rows = await connection.execute(text("SELECT status, count(*) FROM games GROUP BY 1"))
            return list(results), {status: n for status, n in rows}

    results, games = client.portal.call(scenario)  # type: ignore[union-attr]
    refused = [r for r in results if isinstance(r, IllegalAction)]
    assert len(refused) == 1 and refused[0].code == "table_started"
    assert games == {"active": 1, "abandoned": 1}
