"""Tables in play: a whole game of each kind between two people and a computer through the API
(nothing hidden in any answer or socket message of another seat or a spectator), the turn
timer's safe move, an away player's seat played by the stand-in and taken back, the rematch
with its seats rotated and the standings kept."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.core.values import thaw

from .helpers import record, states
from .tables_helpers import (
    SHORT,
    Clock,
    check_answers,
    join,
    live_game,
    make_table,
    no_card,
    person_move,
    post,
    settle,
    table_view,
    with_clock,
)

SEATS = ({"kind": "person"}, {"kind": "person"}, {"kind": "computer", "level": "random"})


def start_table(client: TestClient, kind: str, **body: Any) -> tuple[str, str, dict[int, str]]:
    """A started table of Ana, Ben and a computer: table id, game id, token of each seat."""
    made = make_table(client, kind, seats=SEATS, rules=SHORT[kind], spectators=True, **body)
    guest = join(client, made["id"], "Ben").json()["token"]
    started = post(client, made["id"], "start", made["token"])
    assert started.status_code == 200, started.text
    return made["id"], started.json()["game_id"], {0: made["token"], 1: guest}


def play_to_the_end(
    client: TestClient,
    table_id: str,
    game_id: str,
    tokens: dict[int, str],
    seen: list[tuple[int | None, dict[str, Any]]] | None = None,
) -> int:
    """The people's turns from their views until the game is over; every answer checked against
    the game as it was at the answer's step."""
    seen = [] if seen is None else seen
    for moves in range(5000):
        live = settle(client, game_id)
        if live.is_over:
            check_answers(client, game_id, seen)
            return moves
        seat = live.state.to_move
        assert seat in tokens, f"seat {seat} is to move and nobody plays it"
        action = person_move(live, seat)
        answer = client.post(
            f"/api/games/{game_id}/actions",
            json={"seq": live.seq, "action": action},
            headers={"X-Table-Token": tokens[seat]},
        )
        assert answer.status_code == 200, answer.text
        seen.append((seat, answer.json()))
        if moves % 5 == 0:  # the other seat's and a spectator's views now
            other = 1 - seat
            theirs = client.get(f"/api/games/{game_id}", headers={"X-Table-Token": tokens[other]})
            seen.append((other, theirs.json()))
            seen.append((None, client.get(f"/api/tables/{table_id}/game").json()))
            no_card(table_view(client, table_id, tokens[other]).json())
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("kind", ["romme", "tiles", "rummoli"])
def test_two_people_and_a_computer_play_a_whole_game(client: TestClient, kind: str) -> None:
    table_id, game_id, tokens = start_table(client, kind)
    with client.websocket_connect(
        f"/ws/games/{game_id}", headers={"X-Table-Token": tokens[1]}
    ) as socket:
        first = socket.receive_json()
        assert first["d"]["seat"] == 1
    seen: list[tuple[int | None, dict[str, Any]]] = [(1, first["d"])]
    moves = play_to_the_end(client, table_id, game_id, tokens, seen)
    assert moves > 0
    # The events name the other people by their nicknames, in the reader's language: the whole
    # log as the first seat reads it (which steps' events its answers carried depends on when
    # the computer moved).
    live = settle(client, game_id)
    log: Any = live.told({"events": [thaw(e) for e in live.log()]}, 0, "en")["events"]
    told = [e.get("text", "") for e in log]
    assert any("Ben" in text for text in told) or kind == "rummoli", told[:5]
    service = with_clock(client, Clock())
    client.portal.call(service.check, table_id)  # type: ignore[union-attr]
    view = table_view(client, table_id, tokens[0]).json()
    assert view["status"] == "over" and view["turn"] is None
    assert sum(s["games_won"] for s in view["standings"]) >= 1


def test_a_rematch_rotates_the_seats_and_keeps_the_standings(client: TestClient) -> None:
    table_id, game_id, tokens = start_table(client, "romme")
    play_to_the_end(client, table_id, game_id, tokens)
    service = with_clock(client, Clock())
    client.portal.call(service.check, table_id)  # type: ignore[union-attr]
    before = table_view(client, table_id, tokens[0]).json()
    guest_try = post(client, table_id, "rematch", tokens[1])
    assert guest_try.status_code == 403
    again = post(client, table_id, "rematch", tokens[0])
    assert again.status_code == 200, again.text
    after = again.json()
    assert after["game_number"] == 2 and after["game_id"] != game_id
    assert after["status"] == "playing" and after["me"] == 1 and after["host"] == 1
    names = [s["nickname"] for s in after["seats"]]
    assert names == [None, "Ana", "Ben"]
    by_name = {s["nickname"]: s for s in before["standings"]}
    for row in after["standings"]:
        old = by_name[row["nickname"]]
        assert (row["games_won"], row["points"]) == (old["games_won"], old["points"])
    # The same tokens open the new game at the new seats.
    new_game = after["game_id"]
    for token, seat in ((tokens[0], 1), (tokens[1], 2)):
        answer = client.get(f"/api/games/{new_game}", headers={"X-Table-Token": token})
        assert answer.status_code == 200 and answer.json()["seat"] == seat
    assert (
        post(client, table_id, "rematch", tokens[0]).json()["error"]["code"] == "rematch_too_soon"
    )


@pytest.mark.parametrize("kind", ["romme", "tiles", "rummoli"])
def test_the_timer_plays_the_safe_move_at_the_deadline(client: TestClient, kind: str) -> None:
    clock = Clock()
    service = with_clock(client, clock)
    table_id, game_id, tokens = start_table(client, kind, timer=30)
    live = settle(client, game_id)
    seat, seq = live.state.to_move, live.seq
    assert seat in tokens
    turn = table_view(client, table_id, tokens[seat]).json()["turn"]
    assert turn["seat"] == seat and turn["seq"] == seq
    assert post(client, table_id, "extra-time", tokens[seat]).status_code == 200
    clock.advance(31)
    client.portal.call(service.check, table_id)  # type: ignore[union-attr]
    assert live_game(client, game_id).seq == seq  # the extra time holds the clock
    clock.advance(30)
    client.portal.call(service.check, table_id)  # type: ignore[union-attr]
    live = live_game(client, game_id)
    assert live.seq > seq and (live.state.to_move != seat or live.is_over)
    played = _actions(client, game_id)[seq:]
    expected = live.adapter.fallback_action(_state_at(client, game_id, seq), seat).to_json()
    assert played[0] == expected
    if kind == "romme":  # drawn from the stock, then discarded (or discarded: the first turn)
        kinds = [a["t"] for a in played]
        assert kinds[:2] == ["draw", "discard"] or kinds[0] == "discard", kinds


def _state_at(client: TestClient, game_id: str, step: int) -> Any:
    return states(record(client, game_id))[step]


def _actions(client: TestClient, game_id: str) -> list[dict[str, Any]]:
    from rummykit.store import GameRepository

    async def load() -> list[dict[str, Any]]:
        record = await GameRepository(client.app.state.db).load_record(game_id)  # type: ignore[attr-defined]
        return list(record.actions)

    return client.portal.call(load)  # type: ignore[union-attr]


def test_an_away_seat_is_played_by_the_stand_in_and_taken_back(client: TestClient) -> None:
    clock = Clock()
    service = with_clock(client, clock)
    table_id, game_id, tokens = start_table(client, "romme", grace=30, standin="random")
    with client.websocket_connect(
        f"/ws/tables/{table_id}", headers={"X-Table-Token": tokens[0]}
    ) as ana:
        first = ana.receive_json()["d"]
        assert first["seats"][0]["presence"] == "connected"
        no_card(first)
        clock.advance(6)
        view = table_view(client, table_id, tokens[0]).json()
        assert [s["presence"] for s in view["seats"]] == ["connected", "away", None]
        clock.advance(25)
        client.portal.call(service.check, table_id)  # type: ignore[union-attr]
        view = table_view(client, table_id, tokens[0]).json()
        assert [s["standin"] for s in view["seats"]] == [False, True, False]
        live = settle(client, game_id)
        assert live.standins == {1: "random"}
        assert live.is_over or live.state.to_move == 0  # Ben's turns were played
        with client.websocket_connect(
            f"/ws/tables/{table_id}", headers={"X-Table-Token": tokens[1]}
        ) as ben:
            back = ben.receive_json()["d"]
            no_card(back)
            assert back["me"] == 1 and back["seats"][1]["standin"] is False
            assert back["seats"][1]["presence"] == "connected"
            assert live_game(client, game_id).standins == {}
        # Gone again for the grace period: the stand-in again; Ben asks for his seat back.
        clock.advance(31)
        client.portal.call(service.check, table_id)  # type: ignore[union-attr]
        assert table_view(client, table_id, tokens[1]).json()["seats"][1]["standin"] is True
        back = post(client, table_id, "takeback", tokens[1])
        assert back.status_code == 200 and back.json()["seats"][1]["standin"] is False
        assert live_game(client, game_id).standins == {}


def test_a_table_socket_sends_its_view_whole_then_only_what_changed(client: TestClient) -> None:
    """The first message of a table's socket is the reader's whole view; after a move, only
    the parts that changed (the turn), which laid over the last view give the view served
    over HTTP."""
    table_id, game_id, tokens = start_table(client, "romme")
    with client.websocket_connect(
        f"/ws/tables/{table_id}", headers={"X-Table-Token": tokens[0]}
    ) as socket:
        first = socket.receive_json()
        assert first["t"] == "table" and "p" not in first
        shown = first["d"]
        live = settle(client, game_id)
        seat, seq = live.state.to_move, live.seq
        assert shown["turn"]["seq"] == seq
        answer = client.post(
            f"/api/games/{game_id}/actions",
            json={"seq": seq, "action": person_move(live, seat)},
            headers={"X-Table-Token": tokens[seat]},
        )
        assert answer.status_code == 200, answer.text
        while shown["turn"]["seq"] == seq:
            message = socket.receive_json()
            assert message["t"] == "table" and "d" not in message
            part = message["p"]
            assert "turn" in part and "now" in part
            assert not {"phrases", "seats", "standings", "rules", "messages"} & part.keys()
            shown = {**shown, **part}
        settle(client, game_id)
        served = table_view(client, table_id, tokens[0]).json()
        if served["turn"]["seq"] == shown["turn"]["seq"]:  # no computer move meanwhile
            assert {k: v for k, v in shown.items() if k != "now"} == {
                k: v for k, v in served.items() if k != "now"
            }
