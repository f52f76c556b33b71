"""A new game plugs into the play layer through the contract alone: the toy game of the
contract's tests (High Card), given only its presentation here, is created, played against the
computer through the API and the WebSocket, replayed, and no answer names a card its seat may
not see."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from contract import toy
from fastapi.testclient import TestClient

from rummykit.core import JSON, thaw
from rummykit.web.play.adapter import ADAPTERS, FormPreset, Level, Option, PlayGame
from rummykit.web.play.sentences import Reader, advises, describes

from .helpers import act, create, record, settle, states, view


def draw_view(state: toy.State, seat: int | None) -> dict[str, JSON]:
    """The toy table: the own hand, the other's count, the trick, the scores."""
    seen = state.view(seat)
    return {
        "phase": "game_over" if seen.to_move is None else "play",
        "to_move": seen.to_move,
        "hand": [c.number for c in seen.hand],
        "hand_sizes": list(seen.hand_sizes),
        "trick": [c.number for c in seen.trick],
        "scores": list(seen.scores),
    }


ADAPTER = PlayGame(
    toy.GAME,
    title="High Card",
    offered=(Level("random", "Random", "Any card."), Level("high", "High", "Its highest card.")),
    option_list=(Option("hand_size", "Cards per hand", "", kind="number", low=1, high=50),),
    form_presets={"short": FormPreset("Three cards each", "short")},
    bot_budget=0.1,
    draw_view=draw_view,
    draw_event=thaw,
    travels=False,  # the worker processes know only the games of the site
)


@describes("toy")
def sentences(event: Mapping[str, JSON], r: Reader) -> list[str]:
    if event.get("code") == "play":
        return [
            r.pick(
                event.get("seat"),
                "You play %(card)s.",
                "%(name)s plays %(card)s.",
                card=event["card"],
            )
        ]
    return []


@advises("toy")
def hint_words(reason: Mapping[str, JSON], r: Reader) -> str:
    return "Play your highest card."


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(ADAPTERS, "toy", __name__)
    yield


def named(value: Any, key: str = "") -> set[int]:
    """The cards an answer names: the numbers of its hands, tricks and played cards."""
    if isinstance(value, Mapping):
        return {n for k, v in value.items() for n in named(v, str(k))}
    if isinstance(value, list):
        if key in ("hand", "trick"):
            return {v for v in value if isinstance(v, int)}
        return {n for v in value for n in named(v)}
    if key == "card" and isinstance(value, int):
        return {value}
    return set()


def secret(state: toy.State, seat: int = 0) -> set[int]:
    """What ``seat`` may not see: the other hand and the cards nobody was dealt."""
    return {c.number for c in state.hands[1 - seat]} | {c.number for c in state.unused}


def test_the_toy_game_is_created_played_and_replayed_without_a_leak(client: TestClient) -> None:
    game_id, token, created = create(client, "toy", opponents=1, level="random")
    headers = {"X-Seat-Token": token}
    answers: list[tuple[int, Any]] = [(0, created["view"])]
    received = 0
    with client.websocket_connect(f"/ws/games/{game_id}?since=0", headers=headers) as socket:
        for _ in range(20):
            settle(client, game_id)
            current = view(client, game_id, token)
            answers.append((current["seq"], current))
            while received < current["seq"]:
                message = socket.receive_json()
                answers.append((message["v"], message["d"]))
                received = message["v"]
            if current["to_move"] is None:
                break
            hint = client.get(f"/api/games/{game_id}/hint", headers=headers).json()
            assert set(hint) == {"action", "reason", "text", "seq"}
            assert hint["reason"]["code"] == "play_highest"
            assert hint["action"] == {"t": "play", "card": max(current["hand"])}
            answer = act(client, game_id, token, hint["action"], current["seq"])
            assert answer.status_code == 200, answer.text
            answers.append((answer.json()["seq"], answer.json()))
    assert current["to_move"] is None
    replay = client.get(f"/api/games/{game_id}/replay", headers=headers)
    assert replay.status_code == 200
    answers += list(enumerate(replay.json()["frames"]))

    by_step = states(record(client, game_id))
    assert by_step[-1].is_over and by_step[-1].snapshot() == by_step[-1].copy().snapshot()
    checked = 0
    for seq, answer in answers:
        hidden = secret(by_step[seq])
        checked += len(hidden)
        assert not named(answer) & hidden, (seq, answer)
        if "hand" in answer:
            assert answer["hand"] == [c.number for c in by_step[seq].hands[0]]
        for event in answer.get("events", []):
            assert isinstance(event["text"], str)
    assert checked > 0
    plays = [e["text"] for e in replay.json()["frames"][-1]["events"] if e["code"] == "play"]
    assert plays and all(t.startswith(("You play", "Computer 1 plays")) for t in plays)
