"""The game API: creating games, seats and their tokens, every action and the rules' refusals
(translated), versions, hints, replays and resuming from the database."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit import romme, tiles
from rummykit.cards import Card
from rummykit.web.language import site_translations
from rummykit.web.play.adapter import adapter
from rummykit.web.play.service import PlayService, channel

from .helpers import act, create, romme_seed, seeded, settle, tiles_seed, view
from .tables_helpers import join, make_table, post

QUICK = {"rounds": 1, "stock_exhausted": "end_round"}


def error(response: Any) -> dict[str, Any]:
    data: dict[str, Any] = response.json()["error"]
    return data


# --- creating games ------------------------------------------------------------------------


def test_a_new_game_gives_the_seat_a_token_and_a_cookie(client: TestClient) -> None:
    game_id, token, data = create(client, opponents=2, level="random")
    assert data["seat"] == 0 and data["url"] == f"/en/romme/{game_id}"
    assert client.cookies.get(f"rk_seat_{game_id}") == token
    first = data["view"]
    assert first["seat"] == 0 and first["players"] == 3
    assert len(first["hand"]) == first["hand_sizes"][0]
    settle(client, game_id)
    assert view(client, game_id, token)["to_move"] in (0, None)


def test_the_computer_preset_is_the_default(client: TestClient) -> None:
    game_id, _token, data = create(client, level="random")
    live = client.portal.call(lambda: _live(client, game_id))  # type: ignore[union-attr]
    assert live.rules == romme.Rules.preset("computer")
    assert data["view"]["discard_pickup"] == "free" and data["view"]["rounds"] == 3


async def _live(client: TestClient, game_id: str) -> Any:
    from rummykit.web.play.service import service

    return await service(client.app).get(game_id)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess"}, "bad_game"),
        ({"game": "romme", "opponents": 9}, "bad_opponents"),
        ({"game": "romme", "opponents": 0}, "bad_opponents"),
        ({"game": "romme", "level": "grandmaster"}, "bad_level"),
        ({"game": "romme", "preset": "tournament"}, "bad_rules"),
        ({"game": "romme", "rules": {"opening_min": 35}}, "bad_rules"),
        ({"game": "tiles", "opponents": 4}, "bad_opponents"),
        ({"game": "tiles", "rules": {"jokers": 9}}, "bad_rules"),
    ],
)
def test_a_game_that_cannot_be_made_is_refused(
    client: TestClient, body: dict[str, Any], code: str
) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    assert error(response)["code"] == code
    assert error(response)["message"]


def test_the_form_creates_the_game_and_the_table_page_follows(client: TestClient) -> None:
    page = client.get("/fr/romme/new")
    assert page.status_code == 200
    form = {
        "fields": "1",
        "preset": "computer",
        "opponents": "2",
        "level": "random",
        **{f"opt_{k}": v for k, v in _form_values(romme.Rules.preset("computer")).items()},
    }
    form["opt_opening_min"] = "40"
    response = client.post("/fr/romme/new", data=form)
    assert response.status_code == 303
    game_url = response.headers["location"]
    game_id = game_url.rsplit("/", 1)[1]
    assert client.cookies.get(f"rk_seat_{game_id}")
    table = client.get(game_url)
    assert table.status_code == 200
    assert "Premier meld" in table.text or "40" in table.text
    live = client.portal.call(lambda: _live(client, game_id))  # type: ignore[union-attr]
    assert live.rules.opening_min == 40


def _form_values(rules: romme.Rules) -> dict[str, str]:
    from rummykit.web.play.pages import value_text

    return {k: value_text(v) for k, v in rules.to_json().items() if v is not False}


def test_an_invalid_option_shows_the_form_again_with_the_reason(client: TestClient) -> None:
    response = client.post(
        "/de/romme/new",
        data={"fields": "1", "preset": "computer", "opponents": "2", "opt_hand_size": "15"},
    )
    assert response.status_code == 422
    assert 'role="alert"' in response.text
    assert "hand_size" in response.text


def test_every_option_of_the_rules_has_its_anchor_on_the_form(client: TestClient) -> None:
    for kind, rules in (("romme", romme.Rules()), ("tiles", tiles.Rules())):
        page = client.get(f"/en/{kind}/new").text
        fields = [o.field for o in adapter(kind).options()]
        for field in fields:
            assert f'id="opt-{field}"' in page, (kind, field)
        rules_page = client.get(f"/en/rules/{kind}").text
        for anchor in re.findall(r"#opt-(\w+)", rules_page):
            assert f'id="opt-{anchor}"' in page, (kind, anchor)
        shown = set(rules.to_json()) - {"numbers", "copies"}
        assert shown <= set(fields), (kind, shown - set(fields))


def test_the_home_page_links_both_games(client: TestClient) -> None:
    home = client.get("/en/").text
    assert 'href="/en/romme"' in home and 'href="/en/tiles"' in home


# --- seats and tokens ----------------------------------------------------------------------


def test_every_request_needs_the_seats_token(client: TestClient) -> None:
    game_id, token, _ = create(client, level="random")
    _other_id, other_token, _ = create(client, level="random")
    client.cookies.clear()
    for headers in ({}, {"X-Seat-Token": "not-a-token"}, {"X-Seat-Token": other_token}):
        assert client.get(f"/api/games/{game_id}", headers=headers).status_code == 403
        answer = client.post(
            f"/api/games/{game_id}/actions", json={"action": {"t": "draw"}}, headers=headers
        )
        assert answer.status_code == 403
        assert error(answer)["code"] == "not_your_game"
        assert client.get(f"/api/games/{game_id}/hint", headers=headers).status_code == 403
    page = client.get(f"/en/romme/{game_id}")
    assert page.status_code == 403 and "data-game-data" not in page.text
    assert (
        client.get("/api/games/nosuchgame123", headers={"X-Seat-Token": token}).status_code == 404
    )
    client.cookies.set(f"rk_seat_{game_id}", token)
    assert client.get(f"/en/romme/{game_id}").status_code == 200
    assert client.get(f"/en/tiles/{game_id}").status_code == 404


# --- actions and refusals, Rommé -----------------------------------------------------------


def _low_group(state: romme.State) -> list[Card] | None:
    """Three naturals of one rank 2..9 in different suits in seat 0's hand."""
    hand = state.hands[0]
    for rank in range(2, 10):
        suits: dict[Any, Card] = {}
        for card in hand:
            if card.rank is not None and int(card.rank) == rank:
                suits.setdefault(card.suit, card)
        if len(suits) >= 3:
            return list(suits.values())[:3]
    return None


def test_rommé_actions_and_refusals(client: TestClient) -> None:
    rules = romme.Rules.preset("computer").replace(**QUICK)
    seed = romme_seed(rules, 3, lambda s: _low_group(s) is not None)
    state = romme.State(rules, 3, seed)
    group = _low_group(state)
    assert group is not None
    game_id, tokens = seeded(client, "romme", rules.to_json(), seed)
    token = tokens[0]
    first = view(client, game_id, token)
    assert first["phase"] == "play" and first["to_move"] == 0 and len(first["hand"]) == 14

    def refused(action: dict[str, Any], code: str, **params: Any) -> dict[str, Any]:
        answer = act(client, game_id, token, action)
        assert answer.status_code == 422, answer.text
        found = error(answer)
        assert found["code"] == code, found
        for key, value in params.items():
            assert found["params"][key] == value
        assert found["message"] and "(" + code + ")" not in found["message"]
        return found

    codes = [c.code for c in group]
    found = refused({"t": "play", "melds": [{"cards": codes}]}, "opening_below_minimum", minimum=30)
    assert found["params"]["value"] == sum(int(c.rank) for c in group if c.rank)
    assert str(found["params"]["value"]) in found["message"]
    refused({"t": "play"}, "empty_play")
    mixed = [state.hands[0][0], state.hands[0][1], state.hands[0][2]]
    refused({"t": "play", "melds": [{"cards": [c.code for c in mixed]}]}, "invalid_meld")
    refused({"t": "play", "layoffs": [{"card": codes[0], "meld": 7}]}, "layoff_before_opening")
    refused(
        {"t": "play", "exchanges": [{"meld": 7, "joker": "JK#5", "card": codes[0]}]},
        "exchange_before_opening",
    )
    missing = next(Card.from_id(i) for i in range(104) if Card.from_id(i) not in state.hands[0])
    refused({"t": "discard", "card": missing.code}, "card_not_in_hand")
    refused({"t": "draw", "source": "stock"}, "already_drawn")
    refused({"t": "next_round"}, "round_not_over")
    refused({"t": "fly"}, "bad_action")
    refused({"t": "discard", "card": 999}, "bad_action")
    # Nothing was written by the refusals.
    assert view(client, game_id, token)["seq"] == 0

    # A stale version is refused with the current view.
    discard = act(client, game_id, token, {"t": "discard", "card": codes[0]}, seq=0)
    assert discard.status_code == 200
    after = discard.json()
    assert after["seq"] == 1 and after["step"] is True
    assert after["events"][-1]["code"] == "discard" and after["events"][-1]["card"] == codes[0]
    stale = act(client, game_id, token, {"t": "draw"}, seq=0)
    assert stale.status_code == 409
    assert error(stale)["code"] == "game_changed" and stale.json()["view"]["seq"] >= 1

    settle(client, game_id)
    mine = view(client, game_id, token)
    if mine["phase"] != "draw":
        pytest.skip("the computer ended the round")
    refused({"t": "discard", "card": mine["hand"][0]}, "must_draw_first")
    taken = act(client, game_id, token, {"t": "draw", "source": "discard"}, seq=mine["seq"])
    assert taken.status_code == 200
    top = mine["discard"][-1]
    assert taken.json()["picked"] == top and top in taken.json()["hand"]
    refused({"t": "discard", "card": top}, "discard_picked_card")


def test_not_your_turn_for_the_other_person(client: TestClient) -> None:
    rules = romme.Rules.preset("computer").replace(**QUICK)
    seed = romme_seed(rules, 2, lambda s: True)
    game_id, tokens = seeded(client, "romme", rules.to_json(), seed, ("human", "human"))
    second = view(client, game_id, tokens[1])
    assert second["to_move"] == 0 and len(second["hand"]) == 13
    answer = act(client, game_id, tokens[1], {"t": "discard", "card": second["hand"][0]})
    assert answer.status_code == 422 and error(answer)["code"] == "not_your_turn"


def test_messages_are_in_the_language_of_the_request(client: TestClient) -> None:
    game_id, token, _ = create(client, level="random")
    settle(client, game_id)
    english = "The round is still being played."
    for lang in ("es", "de", "fr"):
        client.cookies.set("lang", lang)
        answer = client.post(
            f"/api/games/{game_id}/actions",
            json={"action": {"t": "next_round"}},
            headers={"X-Seat-Token": token, "Accept-Language": lang},
        )
        assert answer.status_code == 422
        assert error(answer)["code"] == "round_not_over"
        assert error(answer)["message"] == site_translations(lang).gettext(english) != english


# --- tile rummy ------------------------------------------------------------------------------


def test_tile_rummy_actions_and_refusals(client: TestClient) -> None:
    rules = tiles.Rules(rack_size=14)
    seed = tiles_seed(rules, 2, lambda s: True)
    game_id, tokens = seeded(client, "tiles", rules.to_json(), seed, ("human", "bot:random"))
    token = tokens[0]
    first = view(client, game_id, token)
    assert first["to_move"] == 0 and len(first["rack"]) == 14 and first["pool"] == 106 - 28

    def refused(table: list[str], code: str) -> None:
        answer = act(client, game_id, token, {"t": "play", "table": table})
        assert answer.status_code == 422, answer.text
        assert error(answer)["code"] == code, error(answer)
        assert error(answer)["message"]

    rack = first["rack"]
    refused([], "no_rack_tile_played")
    refused([" ".join(rack[:2])], "set_too_small")
    held = set(rack)
    stranger = next(t.code for t in tiles.Rules().pool() if t.code not in held and not t.is_joker)
    refused([f"{stranger} {rack[0]} {rack[1]}"], "tile_not_held")
    refused([f"{rack[0]} {rack[0]} {rack[1]}"], "bad_action")
    low = _low_run_or_group(rack)
    if low:
        refused([" ".join(low)], "first_meld_below_minimum")
    drawn = act(client, game_id, token, {"t": "draw"}, seq=0)
    assert drawn.status_code == 200
    said = {"code": "draw", "seat": 0, "pool": 106 - 29, "text": "You draw a tile."}
    assert drawn.json()["events"][-1] == said
    assert len(drawn.json()["rack"]) == 15


def _low_run_or_group(rack: list[str]) -> list[str] | None:
    parsed = [tiles.Tile.parse(c) for c in rack]
    for number in range(1, 10):
        colours = {t.colour: t for t in parsed if t.number == number}
        if len(colours) >= 3:
            return [t.code for t in list(colours.values())[:3]]
    return None


# --- hints, replays, resuming ---------------------------------------------------------------


@pytest.mark.parametrize("kind", ["romme", "tiles", "rummoli"])
def test_a_hint_is_a_legal_move_with_its_reason(client: TestClient, kind: str) -> None:
    game_id, token, _ = create(client, kind, level="random")
    settle(client, game_id)
    mine = view(client, game_id, token)
    if mine["to_move"] != 0:
        pytest.skip("the round ended before the player's turn")
    answer = client.get(f"/api/games/{game_id}/hint", headers={"X-Seat-Token": token})
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    assert set(hint) == {"action", "reason", "text", "seq"}  # the same for every game
    assert hint["seq"] == mine["seq"] and hint["reason"]["code"]
    assert isinstance(hint["text"], str) and hint["text"]
    action = hint["action"]
    if kind == "tiles" and action["t"] == "play":
        action = {"t": "play", "table": [" ".join(s["tiles"]) for s in action["table"]]}
    assert act(client, game_id, token, action, seq=mine["seq"]).status_code == 200


def two_people_playing(client: TestClient) -> tuple[str, list[str]]:
    """A Rommé game of two people at a table: its id and the seats' table tokens."""
    made = make_table(client)
    guest = join(client, made["id"], "Ben").json()["token"]
    started = post(client, made["id"], "start", made["token"])
    assert started.status_code == 200, started.text
    return started.json()["game_id"], [made["token"], guest]


def test_a_hint_only_on_the_players_turn(client: TestClient) -> None:
    """Of two people at a table, the one not on move is refused a hint; the one on move gets
    it. (Against computers, they may have played back to the person before the hint is asked.)"""
    game_id, tokens = two_people_playing(client)
    shown = client.get(f"/api/games/{game_id}", headers={"X-Table-Token": tokens[0]}).json()
    on_move = shown["to_move"]
    assert on_move in (0, 1)
    refused = client.get(
        f"/api/games/{game_id}/hint", headers={"X-Table-Token": tokens[1 - on_move]}
    )
    assert refused.status_code == 422 and error(refused)["code"] == "not_your_turn"
    answered = client.get(f"/api/games/{game_id}/hint", headers={"X-Table-Token": tokens[on_move]})
    assert answered.status_code == 200 and answered.json()["seq"] == shown["seq"]


def test_a_game_resumes_from_the_database_after_a_restart(tmp_path: Any) -> None:
    from rummykit.web import create_app

    url = f"sqlite:///{tmp_path / 'restart.sqlite3'}"
    rules = romme.Rules.preset("computer").replace(**QUICK)
    seed = next(s for s in range(1, 100) if romme.State(rules, 3, s).to_move == 1)
    with TestClient(create_app(url, poll_seconds=0.2), follow_redirects=False) as first:
        # Stored while no computer seat could play: the first player is a computer.
        game_id, tokens = seeded(first, "romme", rules.to_json(), seed)
        assert getattr(first.app.state, "play", None) is None  # type: ignore[attr-defined]
    with TestClient(create_app(url, poll_seconds=0.2), follow_redirects=False) as second:
        token = tokens[0]
        view(second, game_id, token)  # loading the game starts the computer seats
        settle(second, game_id)
        before = view(second, game_id, token)
        assert before["to_move"] == 0 and before["seq"] >= 2
    with TestClient(create_app(url, poll_seconds=0.2), follow_redirects=False) as third:
        after = view(third, game_id, token)
        assert (after["seq"], after["hand"], after["table"]) == (
            before["seq"],
            before["hand"],
            before["table"],
        )


def test_the_replay_needs_a_finished_game(client: TestClient) -> None:
    game_id, token, _ = create(client, level="random")
    answer = client.get(f"/api/games/{game_id}/replay", headers={"X-Seat-Token": token})
    assert answer.status_code == 422 and error(answer)["code"] == "game_not_over"


def test_the_new_melds_being_built_are_valued_by_the_engine(client: TestClient) -> None:
    game_id, token, _ = create(client, "romme", lang="de")
    headers = {"X-Seat-Token": token, "Accept-Language": "de"}
    melds = [{"cards": ["K♥#0", "A♥#0", "Q♥#0"]}, {"cards": ["4♠#0", "4♠#1", "4♣#0"]}]
    response = client.post(f"/api/games/{game_id}/melds", json={"melds": melds}, headers=headers)
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["melds"][0] == {"value": 31}
    assert data["melds"][1]["error"]["code"] == "invalid_meld"
    assert data["melds"][1]["error"]["message"] == site_translations("de").gettext(
        "%(cards)s is neither a group nor a run."
    ) % {"cards": "4♠ 4♠ 4♣"}
    assert data["total"] == 31
    # Tile rummy has no such check; another browser's seat gets nothing.
    tiles_id, tiles_token, _ = create(client, "tiles")
    answer = client.post(
        f"/api/games/{tiles_id}/melds", json={"melds": []}, headers={"X-Seat-Token": tiles_token}
    )
    assert answer.status_code == 404
    stranger = {"X-Seat-Token": "not-the-seat-token"}
    answer = client.post(f"/api/games/{game_id}/melds", json={"melds": melds}, headers=stranger)
    assert answer.status_code == 403


def test_a_hint_asked_of_a_process_whose_copy_is_behind_catches_up_first(tmp_path: Any) -> None:
    """Two processes share a site: the turn passed in one of them, and the other, which has not
    heard of it yet, is asked for the new player's hint. It reads the steps it missed before it
    answers, rather than refusing with ``not_your_turn``."""
    from rummykit.web import create_app

    url = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    # The second process hears of nothing by itself within the test (its poll is an hour).
    with (
        TestClient(create_app(url, poll_seconds=0.2), follow_redirects=False) as first,
        TestClient(create_app(url, poll_seconds=3600), follow_redirects=False) as second,
    ):
        for app in (first.app, second.app):  # hints in threads: no worker processes to start
            state: Any = app.state  # type: ignore[attr-defined]
            state.play = PlayService(state.db, state.hub, bot_workers=0)
        game_id, tokens = two_people_playing(first)
        seated = [{"X-Table-Token": token} for token in tokens]
        mover = second.get(f"/api/games/{game_id}", headers=seated[0]).json()["to_move"]
        headers = seated[mover]
        shown = second.get(f"/api/games/{game_id}", headers=headers).json()
        seq = shown["seq"]
        if shown["phase"] == "draw":
            drawn = first.post(
                f"/api/games/{game_id}/actions",
                json={"seq": seq, "action": {"t": "draw"}},
                headers=headers,
            )
            assert drawn.status_code == 200, drawn.text
            shown = drawn.json()
        discarded = first.post(
            f"/api/games/{game_id}/actions",
            json={"seq": shown["seq"], "action": {"t": "discard", "card": shown["hand"][0]}},
            headers=headers,
        )
        assert discarded.status_code == 200, discarded.text
        assert discarded.json()["to_move"] == 1 - mover
        answered = second.get(f"/api/games/{game_id}/hint", headers=seated[1 - mover])
        assert answered.status_code == 200, answered.text
        assert answered.json()["seq"] == discarded.json()["seq"]


def test_a_step_published_on_redis_is_applied_by_a_copy_one_step_behind_without_a_read(
    tmp_path: Any,
) -> None:
    """Two processes share a site through Redis: a move made in one reaches the other's copy of
    the game with its action, and the copy, one step behind, applies it without reading the
    database. A copy further behind still reads the steps it misses."""
    from web.databases import redis_server

    from rummykit.web import create_app

    url = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    with (
        redis_server(tmp_path) as redis_url,
        TestClient(create_app(url, poll_seconds=0.2, redis_url=redis_url)) as first,
        TestClient(create_app(url, poll_seconds=3600, redis_url=redis_url)) as second,
    ):
        game_id, tokens = two_people_playing(first)
        seated = [{"X-Table-Token": token} for token in tokens]
        mover = second.get(f"/api/games/{game_id}", headers=seated[0]).json()["to_move"]
        headers = seated[mover]
        shown = second.get(f"/api/games/{game_id}", headers=headers).json()
        play: Any = second.app.state.play  # type: ignore[attr-defined]
        reads: list[int] = []
        read = play.repo.actions_since

        async def counted(game: str, after: int) -> Any:
            reads.append(after)
            return await read(game, after)

        play.repo.actions_since = counted
        action = (
            {"t": "draw"}
            if shown["phase"] == "draw"
            else {"t": "discard", "card": shown["hand"][0]}
        )
        moved = first.post(
            f"/api/games/{game_id}/actions",
            json={"seq": shown["seq"], "action": action},
            headers=headers,
        )
        assert moved.status_code == 200, moved.text
        deadline = time.monotonic() + 10
        while play.games[game_id].seq < shown["seq"] + 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert play.games[game_id].seq == shown["seq"] + 1
        assert reads == []
        fields = ("seq", "to_move", "phase", "hand", "table", "discard")
        here, there = (
            c.get(f"/api/games/{game_id}", headers=headers).json() for c in (first, second)
        )
        assert [there[f] for f in fields] == [here[f] for f in fields]
        # (A page's view reads what another process may have written, whatever it heard.)
        # A step two ahead of the copy is not applied: the copy's readers read the database.
        reads.clear()
        live = play.games[game_id]
        second.portal.call(play._heard_step, channel(game_id), live.seq + 2, {"t": "draw"})
        assert play.games[game_id].seq == here["seq"] and reads == []
