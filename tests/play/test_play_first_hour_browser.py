"""What a new player trips over at the tables, in a real browser: the speed menu keeps its words
on a phone, the scores say that the lowest total wins, the table's melds spread out while the
table has room, and the Rummoli status reads across the table on a desktop."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from rummykit import romme, tiles

from .test_play_browser import TILES, TWO_SEATS, db_url, open_stored, stored

pytestmark = pytest.mark.browser

THREE_EASY = ("human", "bot:easy", "bot:easy")


def seat0_plays_until(server: Any, game_id: str, token: str, done: Callable[[Any], bool]) -> Any:
    """Seat 0 draws from the stock and discards its first card until ``done(view)``; the
    computers play their own turns meanwhile. The last view."""
    headers = {"X-Seat-Token": token}
    api = f"{server.url}/api/games/{game_id}"
    deadline = time.monotonic() + 90
    while True:
        view = httpx.get(api, headers=headers).json()
        if done(view):
            return view
        assert view["phase"] not in ("round_over", "game_over"), "the round ended first"
        if view["to_move"] == 0:
            if view["phase"] == "draw":
                action: dict[str, Any] = {"t": "draw", "source": "stock"}
            else:
                card = next(c for c in view["hand"] if c != view["picked"])
                action = {"t": "discard", "card": card}
            body = {"seq": view["seq"], "action": action}
            assert httpx.post(f"{api}/actions", json=body, headers=headers).status_code == 200
        else:
            time.sleep(0.05)
        assert time.monotonic() < deadline


def test_the_speed_menu_keeps_its_label_on_a_phone(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    rules = tiles.Rules.preset("leaflet")
    game_id, token = stored(db_url(live_server), "tiles", rules.to_json(), 3, TWO_SEATS)
    page = new_page(locale="en-GB", phone=True)
    open_stored(page, live_server, "tiles", "en", game_id, token)
    label = page.locator(f"{TILES} .speed span:visible")
    box = label.bounding_box()
    screenshot(page, "phone")
    # Words are drawn on the screen beside the menu they name (short ones, as the row is
    # narrow), and they are the menu's name for a screen reader too.
    assert label.inner_text() == "Speed"
    assert box is not None and box["width"] > 20 and box["height"] > 8
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    menu = page.get_by_role("combobox", name="Speed", exact=True)
    assert menu.evaluate("(el) => el.matches('[data-speed]')")
    menu_box = menu.bounding_box()
    assert menu_box is not None and abs(menu_box["x"] - box["x"]) < 80
    # On a desktop the long words stand there instead.
    wide = new_page(locale="en-GB")
    open_stored(wide, live_server, "tiles", "en", game_id, token)
    assert wide.locator(f"{TILES} .speed span:visible").inner_text() == "Computer speed"


def test_the_romme_scores_say_that_the_lowest_total_wins(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    rules = romme.Rules.preset("computer").replace(rounds=2, stock_exhausted="end_round")
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), 5, TWO_SEATS)
    page = new_page(locale="en-GB")
    open_stored(page, live_server, "romme", "en", game_id, token)
    # The panel beside the table, from the first turn on.
    panel = page.locator("[data-scores]")
    assert "the lowest total wins" in panel.inner_text()
    # The round-end box, under its table of totals.
    seat0_plays_until(live_server, game_id, token, lambda v: v["phase"] == "round_over")
    page.reload()
    page.wait_for_selector("[data-romme-table][data-ready]")
    dialog = page.locator("dialog[open]")
    dialog.wait_for()
    screenshot(page, "round-end")
    assert "the lowest total wins" in dialog.locator(".score-rule").inner_text()


def test_the_table_melds_spread_out_while_the_table_has_room(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    rules = romme.Rules.preset("computer")
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), 3, THREE_EASY)
    seat0_plays_until(
        live_server,
        game_id,
        token,
        lambda v: len(v["table"]) >= 3 and v["to_move"] == 0 and v["phase"] == "draw",
    )
    page = new_page(locale="en-GB", viewport={"width": 1280, "height": 900})
    open_stored(page, live_server, "romme", "en", game_id, token)
    screenshot(page, "table")
    melds = page.eval_on_selector_all(
        ".melds[data-table] .meld",
        """melds => melds.map((meld) => ({
            box: meld.getBoundingClientRect().toJSON(),
            cards: [...meld.querySelectorAll('.meld-cards > .pc')].map(
                (c) => c.getBoundingClientRect().toJSON()),
        }))""",
    )
    assert len(melds) >= 3
    for meld in melds:
        cards = meld["cards"]
        # Each card shows most of itself: its corner, and a joker what it stands for.
        for left, right in itertools.pairwise(cards):
            assert right["x"] - left["x"] >= 0.7 * left["width"]
    # And no meld lies over another.
    boxes = [m["box"] for m in melds]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart_x = a["right"] <= b["left"] or b["right"] <= a["left"]
            apart_y = a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
            assert apart_x or apart_y


def test_the_rummoli_status_reads_across_the_table_on_a_desktop(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    page = new_page(locale="en-GB", viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/en/rummoli/new")
    page.locator("form button[type=submit]").last.click()
    page.wait_for_selector("[data-rummoli-table][data-ready]")
    page.wait_for_function("() => !!document.querySelector('[data-status]').textContent")
    screenshot(page, "desktop")
    status = page.locator("[data-status]").bounding_box()
    board = page.locator(".rm-game-board").bounding_box()
    hand = page.locator(".hand-area").bounding_box()
    assert status is not None and board is not None and hand is not None
    # Not in the board's narrow column: as wide as the board and the hand together.
    assert status["width"] >= hand["width"] and status["width"] > 2 * board["width"]


def test_the_names_of_a_new_table_have_room_on_a_desktop(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    """The table's name and the host's nickname are text fields wide enough for a name (they
    took the narrow width of the numeric options: about 6 letters)."""
    page = new_page(locale="es-ES", viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/es/tables/new")
    for field in ("#table-name", "#nickname"):
        assert page.locator(field).bounding_box()["width"] >= 200, field
    page.fill("#nickname", "María José")
    assert page.locator("#nickname").evaluate("i => i.scrollWidth <= i.clientWidth")


def test_a_table_with_friends_shows_tiles_on_a_phones_first_screen(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    """The table's strip (players, clock, messages) leaves the rack on the first screen: the
    phrases to send wait behind "Say something" until the player opens them."""
    body = {
        "game": "tiles",
        "nickname": "Lucía",
        "seats": [{"kind": "person"}, {"kind": "computer", "level": "greedy"}],
        "lang": "es",
    }
    created = httpx.post(f"{live_server.url}/api/tables", json=body)
    assert created.status_code == 201, created.text
    table_id, token = created.json()["id"], created.json()["token"]
    headers = {"X-Table-Token": token}
    started = httpx.post(f"{live_server.url}/api/tables/{table_id}/start", headers=headers)
    assert started.status_code == 200, started.text
    page = new_page(locale="es-ES", phone=True)
    page.context.add_cookies(
        [{"name": f"rk_table_{table_id}", "value": token, "url": live_server.url}]
    )
    page.goto(f"{live_server.url}/es/t/{table_id}")
    page.wait_for_selector("[data-rack] [data-code]")
    # Measured on the player's own turn, when the status and the clock say the most.
    page.wait_for_selector("[data-more-time]:not([hidden])", timeout=60_000)
    screenshot(page, "first-screen")
    assert page.evaluate("scrollY") == 0
    top = page.eval_on_selector("[data-rack] [data-code]", "e => e.getBoundingClientRect().bottom")
    assert top <= page.evaluate("innerHeight")
    assert page.locator("[data-phrases]").is_hidden()
    page.locator("[data-talk-tools] > summary").tap()
    assert page.locator("[data-phrases] [data-phrase]").first.is_visible()
