"""Rummoli against the computer through the site: the form, the API, stored and resumed games,
and what every answer reveals (never a card the seat may not see)."""

from __future__ import annotations

import dataclasses
import gettext
import json
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.core import Record
from rummykit.rummoli import Rules, State, replay_states
from rummykit.rummoli.poker import index_card
from rummykit.rummoli.table import WIDOW
from rummykit.store import GameRepository
from rummykit.web import catalogs, create_app, errors
from rummykit.web.language import site_translations
from rummykit.web.play import rummoli as rummoli_play
from rummykit.web.play.service import service

CARD = re.compile(r"(?:10|[2-9AJQK])[♣♠♥♦]")


@pytest.fixture
def game_client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'game.sqlite3'}", poll_seconds=0.2)
    with TestClient(app, follow_redirects=False) as client:
        yield client


def settle(client: TestClient, game_id: str) -> None:
    client.portal.call(service(client.app).settle, game_id)  # type: ignore[union-attr, arg-type]


def create(client: TestClient, **body: Any) -> tuple[str, str]:
    response = client.post("/api/games", json={"game": "rummoli", **body})
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"]


def seeded(client: TestClient, rules: Rules, seed: int, bots: int, level: str = "random") -> str:
    """A game stored with a chosen seed (what only a test may do); returns seat 0's token."""

    async def make() -> tuple[str, str]:
        repo = GameRepository(client.app.state.db)  # type: ignore[attr-defined]
        seats = ["human", *([f"bot:{level}"] * bots)]
        new = await repo.create_game("rummoli", rules.to_json(), seed, seats, [0])
        return new.id, new.seat_tokens[0]

    game_id, token = client.portal.call(make)  # type: ignore[union-attr]
    client.cookies.set(f"rk_seat_{game_id}", token)
    return game_id


def view(client: TestClient, game_id: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def act(client: TestClient, game_id: str, action: dict[str, Any], seq: int | None = None) -> Any:
    body: dict[str, Any] = {"action": action}
    if seq is not None:
        body["seq"] = seq
    return client.post(f"/api/games/{game_id}/actions", json=body)


def record(client: TestClient, game_id: str) -> Record:
    async def load() -> Record:
        return await GameRepository(client.app.state.db).load_record(game_id)  # type: ignore[attr-defined]

    return client.portal.call(load)  # type: ignore[union-attr]


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def mentioned(value: Any) -> set[str]:
    """The cards a view names about the hand in play: its fields, and the events of its log
    since this hand's deal (the log's earlier hands name the cards of earlier deals, and the
    final poker hand or cut deals from a fresh pack)."""
    if isinstance(value, dict) and "events" in value:
        events = list(value["events"])
        starts = [i for i, e in enumerate(events) if e.get("code") == "hand_start"]
        events = events[starts[-1] :] if starts else events
        events = [e for e in events if e.get("code") not in ("final_show", "cut")]
        value = {**value, "events": events}
    return {m for text in strings(value) for m in CARD.findall(text)}


def secret(state: State, seat: int = 0) -> set[str]:
    """The cards ``seat`` may not see now: the others' hands and a widow it never held, but
    for what this hand made public: the showdown's cards, and a widow card the sequence
    stopped at (nobody could play it, so everyone knows where it lies)."""
    out = set()
    for index, holder in enumerate(state.holder):
        if (holder >= 0 and holder != seat) or (holder == WIDOW and state.widow_known_by != seat):
            out.add(index_card(index).code)
    shown = set()
    for event in rummoli_play.hand_events(state):
        if event["code"] == "poker_show":
            shown.update(str(c) for c in event["cards"])  # type: ignore[union-attr]
        elif event["code"] == "stop" and "missing" in event:
            shown.add(str(event["missing"]))
    return out - shown


def choose(data: dict[str, Any]) -> dict[str, Any]:
    """A plain decision for seat 0: keep the hand, bid once, call or check, lead the first."""
    legal = data["legal"]
    for kind in ("keep_hand", "check", "call", "play"):
        for action in legal:
            if action["t"] == kind:
                return dict(action)
    bids = [a for a in legal if a["t"] == "bid"]
    if bids and data["high_bid"] == 0:
        return dict(bids[0])
    return next(dict(a) for a in legal if a["t"] in ("pass", "fold"))


# --- the new-game form ------------------------------------------------------------------------


def test_the_form_holds_every_option_of_the_rules_with_its_anchor(client: TestClient) -> None:
    html = client.get("/en/rummoli/new").text
    for field in dataclasses.fields(Rules):
        assert f'id="opt-{field.name}"' in html, field.name
        assert f'name="opt_{field.name}"' in html, field.name
    for preset in rummoli_play.PRESETS:
        assert f'name="preset" value="{preset}"' in html
    assert client.get("/de/rummoli").status_code == 200


def test_the_rules_page_links_each_variant_to_its_option(client: TestClient) -> None:
    html = client.get("/fr/rules/rummoli").text
    for field in ("poker", "combos", "widow_payers_barred", "final_split", "starting_chips"):
        assert f'href="/fr/rummoli/new#opt-{field}"' in html
    assert 'href="/fr/rummoli"' in html or 'href="/fr/rummoli/new"' in html


def test_the_form_starts_a_game_with_every_option_it_was_given(client: TestClient) -> None:
    form = {
        "fields": "1",
        "preset": "standard",
        "opponents": "7",
        "level": "easy",
        "opt_starting_chips": "25",
        "opt_hands": "3",
        "opt_poker": "betting",
        "opt_max_bet": "4",
        "opt_combos": "last_card",
        "opt_widow_payers_barred": "true",
        "opt_final_split": "cut",
    }
    response = client.post("/es/rummoli/new", data=form)
    assert response.status_code == 303
    game_id = response.headers["location"].rsplit("/", 1)[1]
    stored = record(client, game_id)
    assert stored.seats == ("human", *(["bot:easy"] * 7))
    assert Rules.from_json(stored.rules) == Rules(
        starting_chips=25,
        hands=3,
        poker="betting",
        max_bet=4,
        combos="last_card",
        widow_payers_barred=True,
        final_split="cut",
    )
    page = client.get(response.headers["location"])
    assert page.status_code == 200 and "data-rummoli-table" in page.text
    # Left empty, the number of hands means: play on.
    form.update(opt_hands="", opponents="1")
    again = client.post("/es/rummoli/new", data=form)
    other = again.headers["location"].rsplit("/", 1)[1]
    assert Rules.from_json(record(client, other).rules).hands is None


def test_a_wrong_option_shows_the_form_again_with_the_reason(client: TestClient) -> None:
    form = {"fields": "1", "preset": "standard", "opponents": "3", "level": "hard"}
    form.update(
        opt_starting_chips="5",
        opt_hands="10",
        opt_poker="showdown",
        opt_max_bet="5",
        opt_combos="strict",
        opt_final_split="poker",
    )
    response = client.post("/de/rummoli/new", data=form)
    assert response.status_code == 422
    assert "starting_chips" in response.text


# --- playing through the API ------------------------------------------------------------------


def test_a_whole_game_through_the_api_never_shows_a_hidden_card(game_client: TestClient) -> None:
    client = game_client
    game_id = seeded(client, Rules(hands=2, poker="betting"), seed=41, bots=3)
    seen_secrets = 0
    answers: list[Any] = []
    for _ in range(400):
        settle(client, game_id)
        live = client.portal.call(service(client.app).get, game_id)  # type: ignore[union-attr, arg-type]
        hidden = secret(live.state)
        seen_secrets += len(hidden)
        data = view(client, game_id)
        assert not mentioned(data) & hidden
        page = client.get(f"/en/rummoli/{game_id}").text
        blob = page.split("data-game-data>")[1].split("</script>")[0]
        start = json.loads(blob)
        assert not mentioned(start.pop("view")) & hidden
        assert not mentioned(start) & hidden
        assert data["hand"] == [c.code for c in live.state.cards_of(0)]
        if data["is_over"]:
            break
        assert data["to_move"] == 0
        response = act(client, game_id, choose(data), seq=data["seq"])
        assert response.status_code == 200, response.text
        answers.append(response.json())
    assert data["is_over"]
    assert seen_secrets > 0
    # The stored record replays to the same game, and its replay hides what it must.
    stored = record(client, game_id)
    frames = client.get(f"/api/games/{game_id}/replay").json()["frames"]
    states = list(replay_states(stored))
    # Each answer hides what was hidden at its own step (the computers may have played on to
    # the next hand by the time it is read, and a new deal hides other cards).
    for answer in answers:
        at = states[answer["seq"]]
        assert at.hand_number == answer["hand_number"]
        assert not mentioned(answer) & secret(at)
    assert len(frames) == len(states)
    for frame, state in zip(frames, states, strict=True):
        assert not mentioned(frame) & secret(state)
    assert sum(states[-1].chips) + sum(states[-1].board) == 4 * 40


def test_a_refusal_is_said_in_the_players_language(game_client: TestClient) -> None:
    client = game_client
    game_id = seeded(client, Rules(), seed=3, bots=2)
    settle(client, game_id)
    data = view(client, game_id)
    assert data["phase"] == "widow" and data["to_move"] == 0
    expected = {
        ("bid", "wrong_phase"): "Ce n'est pas possible à ce moment de la donne.",
        ("fold", "no_betting_round"): (
            "Pas d'enchères dans cette partie : la main de poker se joue à découvert."
        ),
    }
    for (kind, code), text in expected.items():
        action: dict[str, Any] = {"t": kind, "chips": 2} if kind == "bid" else {"t": kind}
        response = client.post(
            f"/api/games/{game_id}/actions",
            json={"seq": data["seq"], "action": action},
            headers={"Accept-Language": "fr"},
        )
        assert response.status_code == 422
        assert response.json()["error"]["code"] == code
        assert response.json()["error"]["message"] == text
    # Nothing changed: the dealer still decides.
    assert view(client, game_id)["seq"] == data["seq"]
    assert act(client, game_id, {"t": "keep_hand"}, seq=data["seq"]).status_code == 200


def test_a_game_resumes_after_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'resume.sqlite3'}"
    with TestClient(create_app(url, poll_seconds=0.2), follow_redirects=False) as first:
        game_id, token = create(first, opponents=3, level="random", preset="standard")
        settle(first, game_id)
        data = view(first, game_id)
        act(first, game_id, choose(data), seq=data["seq"])
        settle(first, game_id)
        before = view(first, game_id)
    with TestClient(create_app(url, poll_seconds=0.2), follow_redirects=False) as second:
        second.cookies.set(f"rk_seat_{game_id}", token)
        settle(second, game_id)
        after = view(second, game_id)
        assert after["seq"] == before["seq"]
        assert after["hand"] == before["hand"] and after["board"] == before["board"]
        assert second.get(f"/fr/rummoli/{game_id}").status_code == 200
        # Somebody else's browser has no seat at this table.
        second.cookies.clear()
        assert second.get(f"/fr/rummoli/{game_id}").status_code == 403


def test_the_adapter_words_every_option_and_preset() -> None:
    adapter = rummoli_play.ADAPTER
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert {o.field for o in adapter.options()} == fields
    for name, rules in adapter.presets().items():
        assert Rules.from_json(rules).to_json() == rules, name
        assert name in adapter.preset_labels()
    summary = dict(adapter.rules_summary(Rules.preset("house")))
    assert summary["widow_payers_barred"] == "yes" and summary["hands"] == "none"
    t = site_translations("de")
    for _, label in adapter.rules_summary(Rules(poker="betting", hands=4)):
        assert t.gettext(label)


def test_the_fallback_decision_is_always_legal() -> None:
    for rules in (Rules(), Rules(poker="betting"), Rules.preset("house")):
        state = State(rules, 4, 9)
        while state.hand_number <= 2 and not state.is_over:
            seat = state.to_move
            assert seat is not None
            action = rummoli_play.ADAPTER.fallback_action(state, seat)
            assert state.can_apply(action, seat)
            state.apply(action, seat)


def test_the_engines_refusals_have_sentences_in_every_language() -> None:
    params = {
        "minimum": 2,
        "available": 3,
        "card": "Q♣",
        "playable": "5♣, 5♠",
        "owed": 2,
        "limit": 3,
        "maximum": 5,
    }
    english = gettext.NullTranslations()
    for code in rummoli_play.ERRORS:
        said = errors.message(code, params, english)
        assert "%(" not in said and code not in said, code
        for lang in ("fr", "es", "de"):
            assert errors.message(code, params, site_translations(lang)) != said, (lang, code)


@pytest.mark.parametrize("lang", ["fr", "es", "de"])
def test_the_form_and_the_table_show_no_english(game_client: TestClient, lang: str) -> None:
    client = game_client
    game_id = seeded(client, Rules(), seed=5, bots=3)
    translations = site_translations(lang)
    english = set()
    for message in catalogs.extract("rummoli"):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for text in ids:
            if text and translations.gettext(text) != text:
                english.update(p.strip() for p in re.split(r"%\(\w+\)s", text) if len(p) >= 12)
    for path in (f"/{lang}/rummoli/new", f"/{lang}/rummoli/{game_id}"):
        response = client.get(path)
        assert response.status_code == 200, path
        body = re.sub(r"<(script|style)\b.*?</\1>", " ", response.text, flags=re.S)
        text = unescape(re.sub(r"<[^>]*>", " ", body))
        for part in english:
            assert part not in text, f"{path} shows the English {part!r}"
    # The words of the table's script come in the page's language.
    said = client.get(f"/{lang}/rummoli/say.json").json()
    assert said["client"]["next_hand"] == translations.gettext(rummoli_play.CLIENT["next_hand"])
    assert said["client"]["next_hand"] != rummoli_play.CLIENT["next_hand"]
    assert set(said["client"]) == set(rummoli_play.CLIENT) | {"you"}
