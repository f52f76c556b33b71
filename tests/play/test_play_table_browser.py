"""The table as a new player meets it, in a real browser: playing Rommé by keyboard alone,
refusals that are seen where the player is looking and go away once a move succeeds, and a
tile game on a phone whose first screen shows the rack."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from rummykit import romme

from .helpers import romme_seed, stored
from .test_play_browser import (
    TWO_SEATS,
    db_url,
    hand,
    open_stored,
    table_state,
    wait_seq_above,
)

pytestmark = pytest.mark.browser

FOCUS_IN_HAND = "!!document.activeElement?.closest('[data-hand]')"


def at_draw(server: Any, game_id: str, token: str) -> None:
    """Seat 0 discards its first card through the API, then waits for its next turn to draw."""
    headers = {"X-Seat-Token": token}
    api = f"{server.url}/api/games/{game_id}"
    current = httpx.get(api, headers=headers).json()
    body = {"seq": current["seq"], "action": {"t": "discard", "card": current["hand"][0]}}
    assert httpx.post(f"{api}/actions", json=body, headers=headers).status_code == 200
    deadline = time.monotonic() + 30
    while not (current["to_move"] == 0 and current["phase"] == "draw"):
        assert time.monotonic() < deadline
        time.sleep(0.05)
        current = httpx.get(api, headers=headers).json()


def test_romme_by_keyboard_alone_keeps_the_focus_on_the_hand(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    rules = romme.Rules.preset("computer")
    seed = romme_seed(rules, 2, lambda s: True)
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), seed, TWO_SEATS)
    at_draw(live_server, game_id, token)
    page = new_page(locale="en-GB")
    open_stored(page, live_server, "romme", "en", game_id, token)
    # Nothing has the focus yet: S draws from the stock all the same.
    assert not page.evaluate(FOCUS_IN_HAND)
    seq = table_state(page)["seq"]
    page.keyboard.press("s")
    wait_seq_above(page, seq)
    assert len(hand(page)) == 14
    assert page.evaluate(FOCUS_IN_HAND)
    # Three cards chosen with the arrows and Space, laid out as a meld with M: the focus stays
    # on the hand, and U takes the meld back with the focus still there.
    for _ in range(3):
        page.keyboard.press("Space")
        page.keyboard.press("ArrowRight")
    page.keyboard.press("m")
    assert page.locator(".meld-new .pc").count() == 3
    assert len(hand(page)) == 11
    assert page.evaluate(FOCUS_IN_HAND)
    page.keyboard.press("u")
    assert page.locator(".meld-new").count() == 0
    assert len(hand(page)) == 14
    assert page.evaluate(FOCUS_IN_HAND)
    # One card chosen and discarded with D: the computer's turn follows, the focus is kept.
    page.keyboard.press("Space")
    seq = table_state(page)["seq"]
    page.keyboard.press("d")
    wait_seq_above(page, seq)
    assert len(hand(page)) == 13
    assert page.evaluate(FOCUS_IN_HAND)
