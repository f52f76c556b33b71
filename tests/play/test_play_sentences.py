"""The log's sentences, written on the server for every game: a form for "you" and one for a
name, counts through ``ngettext``, the reader's language, and a ``text`` on every event sent."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.i18n import LANGUAGES
from rummykit.web.language import site_translations
from rummykit.web.play.adapter import SeatInfo
from rummykit.web.play.sentences import Reader, event_text, seat_names

from .helpers import create, settle, view

DEALS = {
    "en": ("Round 1: you deal.", "Round 1: Anna deals."),
    "fr": ("Manche 1 : vous distribuez.", "Manche 1 : Anna distribue."),
    "es": ("Ronda 1: repartes tú.", "Ronda 1: reparte Anna."),
    "de": ("Runde 1: Du gibst.", "Runde 1: Anna gibt."),
}


def reader(lang: str = "en", seat: int | None = 0) -> Reader:
    return Reader(site_translations(lang), ("You", "Anna", "Bruno"), seat)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_dealer_is_told_as_you_or_by_name(lang: str) -> None:
    deal = {"code": "deal", "round": 1, "dealer": 0, "first": 1}
    you, named = DEALS[lang]
    assert event_text("romme", deal, reader(lang)) == you
    assert event_text("romme", {**deal, "dealer": 1}, reader(lang)) == named
    assert event_text("romme", deal, reader(lang, seat=None)) == named.replace("Anna", "You")


def test_counts_take_their_plural_form() -> None:
    one = {"code": "play", "seat": 1, "melds": [{"cards": ["A♠", "2♠", "3♠"]}], "opening_value": 1}
    assert event_text("romme", one, reader()) == "Anna lays A♠ 2♠ 3♠. Anna opens with 1 point."
    many = {**one, "seat": 0, "opening_value": 31}
    assert event_text("romme", many, reader()) == "You lay A♠ 2♠ 3♠. You open with 31 points."
    play = {"code": "play", "seat": 2, "tiles": "r1 r2 *", "value": 6, "first_meld": False}
    said = event_text("tiles", play, reader("fr"))
    assert said == "Bruno pose 1 rouge, 2 rouge, joker (6 points)."


def test_the_winners_of_a_game_are_you_or_a_list_of_names() -> None:
    assert event_text("romme", {"code": "game_end", "winners": [0]}, reader()) == (
        "The game is over: you won."
    )
    both = {"code": "game_end", "winners": [1, 2]}
    assert (
        event_text("tiles", both, reader("fr")) == "La partie est finie : Anna et Bruno ont gagné."
    )
    assert event_text("tiles", {**both, "winners": [2]}, reader("fr")) == (
        "La partie est finie : Bruno a gagné."
    )


def test_rummoli_events_are_told_by_the_same_function() -> None:
    event = {"code": "hand_start", "hand": 2, "dealer": 0}
    assert event_text("rummoli", event, reader()) == "Hand 2: you deal."
    assert event_text("rummoli", {**event, "dealer": 1}, reader("de")) == "Spiel 2: Anna gibt."


def events_of(data: Any) -> list[dict[str, Any]]:
    return list(data.get("events", []))


@pytest.mark.parametrize(
    ("game", "rules"),
    [
        ("romme", {"rounds": 1, "stock_exhausted": "end_round"}),
        ("tiles", {"rounds": 1}),
        ("rummoli", {"hands": 1}),
    ],
)
def test_every_event_sent_carries_its_text_in_the_readers_language(
    client: TestClient, game: str, rules: dict[str, Any]
) -> None:
    game_id, token, _ = create(client, game, rules=rules, opponents=2, level="random")
    settle(client, game_id)
    english = view(client, game_id, token)
    response = client.get(f"/api/games/{game_id}?lang=fr", headers={"X-Seat-Token": token})
    french = response.json()
    assert events_of(english) and len(events_of(english)) == len(events_of(french))
    for en, fr in zip(events_of(english), events_of(french), strict=True):
        assert isinstance(en["text"], str) and isinstance(fr["text"], str)
        assert {k: v for k, v in en.items() if k != "text"} == {
            k: v for k, v in fr.items() if k != "text"
        }
    told = [e for e in events_of(english) if e["text"]]
    assert told, "no event of the log was told"
    assert any(
        en["text"] != fr["text"]
        for en, fr in zip(events_of(english), events_of(french), strict=True)
    )
    with client.websocket_connect(
        f"/ws/games/{game_id}?since=-1&lang=de", headers={"X-Seat-Token": token}
    ) as socket:
        message = socket.receive_json()
    german = events_of(message["d"])
    seats = [SeatInfo(s["human"], s["level"]) for s in message["d"]["seats"]]
    t = site_translations("de")
    page_reader = Reader(t, seat_names(seats, 0, t), 0)
    assert [e["text"] for e in german] == [
        event_text(game, {k: v for k, v in e.items() if k != "text"}, page_reader)
        for e in events_of(english)
    ]
