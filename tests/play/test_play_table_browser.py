"""The table as a new player meets it, in a real browser: playing Rommé by keyboard alone,
refusals that are seen where the player is looking and go away once a move succeeds, and a
tile game on a phone whose first screen shows the rack."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from rummykit import romme, tiles

from .helpers import romme_seed, stored, tiles_seed
from .test_play_browser import (
    TILES,
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


# --- refusals ---------------------------------------------------------------------------------


def tiles_game(server: Any) -> tuple[str, str]:
    rules = tiles.Rules(rack_size=14)
    seed = tiles_seed(rules, 2, lambda s: True)
    return stored(db_url(server), "tiles", rules.to_json(), seed, ("human", "bot:random"))


def box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.locator(selector).bounding_box()
    return found


def in_sight(page: Any, selector: str) -> bool:
    """Whether the element is wholly on the screen as it is scrolled now."""
    return bool(
        page.eval_on_selector(
            selector,
            "e => { const r = e.getBoundingClientRect();"
            " return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }",
        )
    )


def test_a_refusal_stands_by_the_buttons_and_goes_with_the_next_move(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    game_id, token = tiles_game(live_server)
    page = new_page(locale="en-GB", viewport={"width": 1280, "height": 900})
    open_stored(page, live_server, "tiles", "en", game_id, token)
    page.locator("[data-rack] [data-code]").first.click()
    page.click("[data-act=new-set]")
    buttons = [box(page, f"[data-act={name}]") for name in ("done", "undo", "draw")]
    # A set of one tile: refused, and the message does not move the buttons.
    page.click("[data-act=done]")
    error = page.locator("[data-error]")
    error.wait_for(state="visible")
    assert error.get_attribute("role") == "alert"
    assert [box(page, f"[data-act={name}]") for name in ("done", "undo", "draw")] == buttons
    assert in_sight(page, "[data-error]") and in_sight(page, "[data-act=done]")
    screenshot(page, "refused")
    # The next move (the tile taken back) is accepted: the refusal goes.
    page.click("[data-act=undo]")
    assert error.is_hidden()
    assert table_state(page, TILES)["seq"] == 0


def test_tile_rummy_on_a_phone_shows_the_rack_and_the_refusal_in_sight(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    game_id, token = tiles_game(live_server)
    page = new_page(locale="de-DE", phone=True)
    open_stored(page, live_server, "tiles", "de", game_id, token)
    # The first screen, not scrolled: the whole rack is on it.
    assert page.evaluate("scrollY") == 0
    assert in_sight(page, "[data-rack]")
    screenshot(page, "first-screen")
    page.locator("[data-rack] [data-code]").first.tap()
    page.tap("[data-act=new-set]")
    page.tap("[data-act=done]")
    page.locator("[data-error]").wait_for(state="visible")
    # The refusal is on the screen with the button that was tapped.
    assert in_sight(page, "[data-error]") and in_sight(page, "[data-act=done]")
    screenshot(page, "refused")
