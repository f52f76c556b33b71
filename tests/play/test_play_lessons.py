"""The lessons through the site (`rummykit.web.routes.learn`): the lesson's deal stored and
replayed, each step in the page's language with what to mark, a wrong move refused with the
engine's own reason and the step's instruction (nothing stored), and the whole script played
through the API to its end, the computer playing as in any game."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.core import IllegalAction
from rummykit.lesson import Lesson
from rummykit.web.language import site_translations
from rummykit.web.play import messages
from rummykit.web.play.lessons import BACK_TO_STEP, LESSONS, STEPS
from rummykit.web.play.service import service

from .helpers import record, settle, view


def begin(client: TestClient, kind: str, lang: str = "en") -> str:
    """Deal the lesson from its page's button; the id of its game."""
    response = client.post(f"/{lang}/{kind}/learn")
    assert response.status_code == 303
    location = response.headers["location"]
    assert location.startswith(f"/{lang}/{kind}/") and "guide" not in location
    return location.rsplit("/", 1)[1]


def step(client: TestClient, game_id: str, lang: str = "en") -> dict[str, Any]:
    settle(client, game_id)
    response = client.get(f"/api/games/{game_id}/lesson?lang={lang}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def move(
    client: TestClient, game_id: str, action: dict[str, Any], seq: int, lang: str = "en"
) -> Any:
    return client.post(
        f"/api/games/{game_id}/actions?lang={lang}", json={"seq": seq, "action": action}
    )


def sent(action: dict[str, Any]) -> dict[str, Any]:
    """The step's move as a page sends it (a tile play's sets written as text; no jokers)."""
    if action["t"] == "play" and "table" in action:
        return {"t": "play", "table": [" ".join(s["tiles"]) for s in action["table"]]}
    return action


def live_state(client: TestClient, game_id: str) -> Any:
    async def get() -> Any:
        return (await service(client.app).get(game_id)).state

    return client.portal.call(get)  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", ["romme", "tiles"])
def test_the_lesson_is_dealt_from_its_own_deal_and_replays(client: TestClient, kind: str) -> None:
    game_id = begin(client, kind)
    lesson: Lesson[Any, Any] = LESSONS[kind]
    stored = record(client, game_id)
    assert stored.seed == lesson.seed and stored.rules == lesson.record_rules()
    assert stored.seats == ("human", f"bot:{lesson.opponent}")
    page = client.get(f"/en/{kind}/{game_id}")
    assert f"/api/games/{game_id}/lesson" in page.text


@pytest.mark.parametrize(("kind", "lang"), [("romme", "fr"), ("tiles", "de")])
def test_the_whole_lesson_plays_through_the_api(client: TestClient, kind: str, lang: str) -> None:
    game_id = begin(client, kind, lang)
    t = site_translations(lang)
    steps = len(LESSONS[kind].steps)
    for number in range(1, steps + 1):
        data = step(client, game_id, lang)
        assert data["step"] == number and data["steps"] == steps and not data["done"]
        explanation, _ = STEPS[(kind, data["code"])]
        heading = t.gettext("Step %(step)s of %(steps)s.") % {"step": number, "steps": steps}
        assert data["text"].startswith(heading)
        assert data["text"] != explanation  # told in the page's language
        answer = move(client, game_id, sent(data["action"]), data["seq"], lang)
        assert answer.status_code == 200, answer.text
    data = step(client, game_id, lang)
    assert data["done"] and data["text"]
    state = live_state(client, game_id)
    assert LESSONS[kind].is_over(state)
    if kind == "romme":
        assert state.is_over and state.winners == [0]


def test_a_move_the_rules_refuse_is_told_with_the_engines_reason(client: TestClient) -> None:
    game_id = begin(client, "romme", "de")
    first = step(client, game_id, "de")
    assert first["code"] == "draw" and first["highlight"] == ["stock"]
    # Discarding before drawing: the engine refuses, the lesson says which step it is.
    hand = view(client, game_id, _token(client, game_id))["hand"]
    answer = move(client, game_id, {"t": "discard", "card": hand[0]}, first["seq"], "de")
    assert answer.status_code == 422
    error = answer.json()["error"]
    t = site_translations("de")
    engine = messages.describe(IllegalAction("must_draw_first"), t)["message"]
    instruction = t.gettext(STEPS[("romme", "draw")][1])
    assert error["code"] == "must_draw_first" and error["step"] == "draw"
    assert error["message"] == f"{engine} {t.gettext(BACK_TO_STEP) % {'instruction': instruction}}"
    assert len(record(client, game_id).actions) == first["seq"]  # nothing stored


def test_a_legal_move_that_is_not_the_step_is_refused_too(client: TestClient) -> None:
    game_id = begin(client, "tiles", "fr")
    first = step(client, game_id, "fr")
    assert first["code"] == "open" and set(first["highlight"]) == {"k9", "k10", "k11"}
    answer = move(client, game_id, {"t": "draw"}, first["seq"], "fr")
    assert answer.status_code == 422
    error = answer.json()["error"]
    t = site_translations("fr")
    assert error["code"] == "lesson_step" and error["step"] == "open"
    assert error["message"].startswith(
        t.gettext("The rules allow that move, but this step teaches another one.")
    )
    assert step(client, game_id, "fr")["step"] == 1  # the lesson has not moved


def test_a_game_that_is_no_lesson_has_no_lesson(client: TestClient) -> None:
    response = client.post("/api/games", json={"game": "tiles", "level": "random"})
    game_id = response.json()["id"]
    assert client.get(f"/api/games/{game_id}/lesson").status_code == 404


def _token(client: TestClient, game_id: str) -> str:
    token = client.cookies.get(f"rk_seat_{game_id}")
    assert token
    return token


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de"])
def test_the_lessons_are_linked_from_the_home_page_and_the_rules_pages(
    client: TestClient, lang: str
) -> None:
    home = client.get(f"/{lang}/").text
    for kind in ("romme", "tiles"):
        assert f'href="/{lang}/{kind}/learn"' in home
        assert f'href="/{lang}/{kind}/learn"' in client.get(f"/{lang}/rules/{kind}").text
