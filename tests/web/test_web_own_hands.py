"""Own-hand sheets over HTTP: each phone claims a name once and enters its own hand."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from rummykit.scoresheet import EnterHand, action_from_json
from rummykit.store import SheetRepository, hash_token
from rummykit.web import create_app

from .helpers import create_sheet, version


def sheet_id(path: str) -> str:
    return path.rsplit("/", 1)[1]


def sheet_json(client: TestClient, path: str) -> dict:  # type: ignore[type-arg]
    return client.get(f"/api/sheets/{sheet_id(path)}").json()  # type: ignore[no-any-return]


@pytest.fixture
def phones(tmp_path: Path) -> list[TestClient]:
    """Three phones on one server: three cookie jars."""
    app = create_app(f"sqlite:///{tmp_path / 'own.sqlite3'}", poll_seconds=0.2)
    clients = [TestClient(app, follow_redirects=False) for _ in range(3)]
    for c in clients:
        c.__enter__()
    yield clients  # type: ignore[misc]
    for c in clients:
        c.__exit__(None, None, None)


def claim(phone: TestClient, path: str, player: int) -> None:
    response = phone.post(f"{path}/claim", data={"player": str(player), "version": "0"})
    assert response.status_code == 303, unescape(response.text)


def hand(
    phone: TestClient, path: str, player: int, points: str, out: bool = False, **extra: str
) -> object:
    data = {"player": str(player), "points": points, "round": "1", "version": "0"}
    if out:
        data["out"] = "1"
    return phone.post(f"{path}/hand", data=data | extra)


def test_the_form_offers_own_hand_entry(client: TestClient) -> None:
    page = unescape(client.get("/fr/sheet/new").text)
    assert 'name="own"' in page
    path = create_sheet(client, own="1")
    assert sheet_json(client, path)["sheet"]["settings"]["own"] is True


def test_each_phone_claims_its_name_once_and_keeps_a_secret_cookie(
    phones: list[TestClient],
) -> None:
    path = create_sheet(phones[0], own="1")
    # Each phone claims its name, even from a page that is already out of date.
    for player, phone in enumerate(phones):
        claim(phone, path, player)
        cookie = phone.cookies.get(f"rk_hand_{sheet_id(path)}")
        assert cookie and len(cookie) >= 22
    page = unescape(phones[1].get(path).text)
    assert "Your hand, Bob" in page and "I am" not in page
    again = phones[0].post(f"{path}/claim", data={"player": "1", "version": "3"})
    assert again.status_code == 422
    stranger = TestClient(phones[0].app, follow_redirects=False)
    taken = stranger.post(f"{path}/claim", data={"player": "1", "version": "3"})
    assert taken.status_code == 422 and "Bob is already entered from another phone" in unescape(
        taken.text
    )
    # The secret is stored only as its hash: not in the sheet, not on any page.
    secret = phones[0].cookies.get(f"rk_hand_{sheet_id(path)}")
    assert secret not in str(sheet_json(phones[0], path)) and secret not in phones[2].get(path).text


def test_three_phones_enter_their_own_hands_and_the_round_closes_by_itself(
    phones: list[TestClient],
) -> None:
    path = create_sheet(phones[0], own="1")
    for player, phone in enumerate(phones):
        claim(phone, path, player)
    # Every phone saw version 3; entries for different players do not get in each other's way.
    seen = str(version(phones[0], path))
    assert hand(phones[1], path, 1, "25", version=seen).status_code == 303  # type: ignore[attr-defined]
    page = unescape(phones[2].get(path).text)
    assert "Waiting for: Ann, Cleo" in page
    assert hand(phones[0], path, 0, "", out=True, version=seen).status_code == 303  # type: ignore[attr-defined]
    data = sheet_json(phones[0], path)["sheet"]
    assert data["waiting"] == [2] and data["rounds"] == []
    assert hand(phones[2], path, 2, "40", version=seen).status_code == 303  # type: ignore[attr-defined]
    data = sheet_json(phones[0], path)["sheet"]
    assert data["rounds"][0]["entries"] == [
        {"p": 0, "v": 0, "out": True},
        {"p": 1, "v": 25},
        {"p": 2, "v": 40},
    ]
    assert data["waiting"] == [0, 1, 2] and data["pending"] == []


def test_a_change_to_the_same_hand_since_the_page_was_loaded_is_a_conflict(
    phones: list[TestClient],
) -> None:
    path = create_sheet(phones[0], own="1")
    claim(phones[0], path, 0)
    claim(phones[1], path, 1)
    seen = str(version(phones[0], path))
    assert hand(phones[1], path, 1, "25", version=seen).status_code == 303  # type: ignore[attr-defined]
    late = hand(phones[0], path, 1, "52", version=seen)  # Ann, from the same old page
    assert late.status_code == 409  # type: ignore[attr-defined]
    assert sheet_json(phones[0], path)["sheet"]["pending"] == [{"p": 1, "v": 25}]


def test_anyone_corrects_any_entry_and_the_log_says_who(phones: list[TestClient]) -> None:
    path = create_sheet(phones[0], "de", own="1")
    claim(phones[0], path, 0)
    claim(phones[1], path, 1)
    hand(phones[1], path, 1, "52", version=str(version(phones[0], path)))
    hand(phones[0], path, 1, "25", version=str(version(phones[0], path)))
    hand(phones[2], path, 2, "4", version=str(version(phones[0], path)))  # claimed nobody
    stored = sheet_json(phones[0], path)["sheet"]
    assert stored["pending"] == [{"p": 1, "v": 25}, {"p": 2, "v": 4}]
    page = unescape(phones[2].get(path).text)
    assert "Ann hat die Hand von Bob in Runde 1 eingetragen: 25." in page
    assert "Bob hat die eigene Hand von Runde 1 eingetragen: 52." in page


def test_the_api_takes_the_author_of_a_hand_from_the_cookie(phones: list[TestClient]) -> None:
    path = create_sheet(phones[0], own="1")
    sid = sheet_id(path)
    response = phones[0].post(
        f"/api/sheets/{sid}/actions",
        json={"version": 0, "action": {"t": "claim", "player": 0, "key": ""}},
    )
    assert response.status_code == 200 and phones[0].cookies.get(f"rk_hand_{sid}")
    forged = {"t": "hand", "round": 1, "p": 1, "v": 7, "by": 1}
    response = phones[0].post(f"/api/sheets/{sid}/actions", json={"version": 1, "action": forged})
    assert response.status_code == 200
    response = phones[1].post(f"/api/sheets/{sid}/actions", json={"version": 2, "action": forged})
    assert response.status_code == 200
    bys = [a["by"] for a in stored_actions(phones[0], path) if a["t"] == "hand"]
    assert bys == [0, None]  # Ann's phone, then a phone that claimed nobody: never "Bob"


def test_hands_are_refused_on_a_sheet_made_for_one_phone(client: TestClient) -> None:
    path = create_sheet(client)
    response = client.post(f"{path}/claim", data={"player": "0", "version": "0"})
    assert response.status_code == 422
    assert "one phone enters the whole round" in unescape(response.text)


def stored_actions(phone: TestClient, path: str) -> list[dict]:  # type: ignore[type-arg]
    repo = SheetRepository(phone.app.state.db)  # type: ignore[attr-defined]
    stored = phone.portal.call(repo.load, sheet_id(path))  # type: ignore[union-attr]
    return list(stored.record.actions)


def test_every_hand_is_in_the_stored_log(phones: list[TestClient]) -> None:
    path = create_sheet(phones[0], own="1")
    for player, phone in enumerate(phones):
        claim(phone, path, player)
    hand(phones[0], path, 0, "0", out=True, version="3")
    hand(phones[1], path, 1, "12", version="3")
    hand(phones[2], path, 2, "-3", version="3")
    hands = [a for a in stored_actions(phones[0], path) if a["t"] == "hand"]
    assert hands == [
        {"t": "hand", "round": 1, "p": 0, "v": 0, "out": True, "by": 0},
        {"t": "hand", "round": 1, "p": 1, "v": 12, "by": 1},
        {"t": "hand", "round": 1, "p": 2, "v": -3, "by": 2},
    ]
    claims = [a for a in stored_actions(phones[0], path) if a["t"] == "claim"]
    secrets = [p.cookies.get(f"rk_hand_{sheet_id(path)}") for p in phones]
    assert [c["key"] for c in claims] == [hash_token(s) for s in secrets if s]


def test_entries_decode_as_hands() -> None:
    assert action_from_json({"t": "hand", "round": 2, "p": 1, "v": 5, "by": None}) == EnterHand(
        1, 5, False, 2, None
    )
