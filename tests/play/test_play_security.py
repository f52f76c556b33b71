"""The server is the only authority and never shows a card a seat may not see.

Whole games are played through the API (the player follows the computer's hints), and every
answer — pages, views, action answers, refusals, hints, WebSocket messages and the replay — is
checked against the game replayed to the same step: each card or tile it names is in the
seat's own hand, on the table, on the discard pile or named by the public log; the stock order,
the other hands and the seed never appear.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit import romme, tiles

from .helpers import Knowledge, act, faces, hidden, mentions, record, seeded, settle, states, view

ROMME_RULES = romme.Rules.preset("computer").replace(rounds=2, stock_exhausted="end_round")
TILES_RULES = tiles.Rules(rack_size=14, rounds=2)


def page_data(text: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" data-game-data>(.*?)</script>', text, re.S)
    assert match is not None
    data: dict[str, Any] = json.loads(match.group(1).replace("<\\/", "</"))
    return data


def play_whole_game(
    client: TestClient, kind: str, game_id: str, token: str
) -> list[tuple[int, Any]]:
    """Play to the end, following the hints; every answer with the version it shows."""
    seen: list[tuple[int, Any]] = []
    headers = {"X-Seat-Token": token}
    page = client.get(f"/en/{kind}/{game_id}", headers=headers)
    assert page.status_code == 200
    outside = re.sub(r"<script.*?</script>", "", page.text, flags=re.S)
    data = page_data(page.text)
    seen.append((data["view"]["seq"], data))
    seen.append((data["view"]["seq"], html.unescape(outside)))
    turns = 0
    with client.websocket_connect(f"/ws/games/{game_id}?since=0", headers=headers) as socket:
        while True:
            settle(client, game_id)
            current = view(client, game_id, token)
            seen.append((current["seq"], current))
            while True:
                message = socket.receive_json()
                assert message["t"] == "view" and message["v"] == message["d"]["seq"]
                seen.append((message["v"], message["d"]))
                if message["v"] >= current["seq"]:
                    break
            if current["phase"] == "game_over":
                break
            if current["phase"] == "round_over":
                answer = act(client, game_id, token, {"t": "next_round"}, current["seq"])
                seen.append((answer.json()["seq"], answer.json()))
                continue
            assert current["to_move"] == 0
            turns += 1
            hint = client.get(f"/api/games/{game_id}/hint", headers=headers)
            assert hint.status_code == 200, hint.text
            seen.append((current["seq"], hint.json()))
            action = hint.json()["action"]
            if kind == "tiles" and action["t"] == "play":
                action = {"t": "play", "table": [" ".join(s["tiles"]) for s in action["table"]]}
            if turns % 4 == 1:
                # A refusal answers too: it must not reveal anything either.
                wrong = (
                    {"t": "play", "melds": [{"cards": current["hand"][:2]}]}
                    if kind == "romme"
                    else {"t": "play", "table": [" ".join(current["rack"][:2])]}
                )
                refused = act(client, game_id, token, wrong, current["seq"])
                assert refused.status_code == 422
                seen.append((current["seq"], refused.json()))
            answer = act(client, game_id, token, action, current["seq"])
            assert answer.status_code == 200, (action, answer.text)
            seen.append((answer.json()["seq"], answer.json()))
            assert turns < 400
    replay = client.get(f"/api/games/{game_id}/replay", headers=headers)
    assert replay.status_code == 200
    for step, frame in enumerate(replay.json()["frames"]):
        seen.append((step, frame))
    return seen


@pytest.mark.parametrize("kind", ["romme", "tiles"])
def test_no_answer_ever_shows_a_hidden_card(client: TestClient, kind: str) -> None:
    if kind == "romme":
        rules, seats = ROMME_RULES.to_json(), ("human", "bot:random", "bot:random")
    else:
        rules, seats = TILES_RULES.to_json(), ("human", "bot:random")
    seed = 8_271_364_519_003
    game_id, tokens = seeded(client, kind, rules, seed, seats)
    answers = play_whole_game(client, kind, game_id, tokens[0])
    by_step = states(record(client, game_id))
    knowledge = Knowledge(by_step, kind)
    leaks = 0
    checked_hidden = 0
    for seq, answer in answers:
        state = by_step[seq]
        text = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
        assert str(seed) not in text
        named = mentions(answer if not isinstance(answer, str) else [answer], kind)
        known = knowledge.allowed(seq)
        secret = hidden(state, 0, kind) - known
        checked_hidden += len(secret)
        leaked = named & secret
        leaks += len(leaked)
        assert not leaked, (seq, sorted(leaked), text[:400])
        assert named <= known, (seq, sorted(named - known), text[:600])
        said = faces(answer if not isinstance(answer, str) else [answer], kind)
        assert said <= {c.split("#")[0] for c in known}, (seq, said)
        if isinstance(answer, dict):
            _own_hand_only(answer, state, kind)
    assert leaks == 0 and checked_hidden > 1000
    assert by_step[-1].is_over


def _own_hand_only(answer: dict[str, Any], state: Any, kind: str) -> None:
    data = answer.get("view", answer)
    key, pile = ("hand", "stock") if kind == "romme" else ("rack", "pool")
    if key in data and "phase" in data:
        own = state.hands[0] if kind == "romme" else state.racks[0]
        assert sorted(data[key]) == sorted(c.code for c in own)
    if pile in data:
        assert isinstance(data[pile], int)


def test_the_websocket_sends_every_step_then_jumps_when_far_behind(client: TestClient) -> None:
    rules = ROMME_RULES.to_json()
    seed = next(s for s in range(1, 200) if romme.State(ROMME_RULES, 3, s).to_move == 1)
    game_id, tokens = seeded(client, "romme", rules, seed)
    headers = {"X-Seat-Token": tokens[0]}
    view(client, game_id, tokens[0])
    settle(client, game_id)
    current = view(client, game_id, tokens[0])
    assert current["seq"] >= 2
    with client.websocket_connect(f"/ws/games/{game_id}?since=0", headers=headers) as socket:
        steps = [socket.receive_json() for _ in range(current["seq"])]
    assert [m["v"] for m in steps] == list(range(1, current["seq"] + 1))
    assert all(m["d"]["step"] for m in steps)
    assert steps[0]["d"]["events"][0]["code"] in ("draw", "discard", "play")
    with client.websocket_connect(f"/ws/games/{game_id}", headers=headers) as socket:
        jump = socket.receive_json()
    assert jump["v"] == current["seq"] and jump["d"]["step"] is False
    with (
        pytest.raises(Exception),  # noqa: B017 - the socket is closed at once without a seat
        client.websocket_connect(f"/ws/games/{game_id}") as socket,
    ):
        socket.receive_json()
