"""The Rommé and tile rummy tables pass axe-core's WCAG 2.0/2.1/2.2 A and AA rules in their
main states, in light and dark mode: a new game on one's own turn, a meld being built, a
computer's turn, the round end dialog, the replay; the tile table on one's own turn with a
tile chosen; the lesson's page and its table with a step on show, and the tile lesson with a
mistake refused (the lessons played through are audited by test_play_guided_browser). The test
fails with axe's own description of every violation."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from accessibility.axe import audit

from rummykit import romme, tiles
from rummykit.bench.web import _choose

from .helpers import romme_seed, stored, tiles_seed
from .test_play_browser import (
    ROOT,
    TILES,
    TWO_SEATS,
    card,
    db_url,
    low_group,
    open_stored,
    table_state,
    wait_my_turn_or_end,
    wait_seq_above,
)

pytestmark = pytest.mark.browser


def play_to_the_end(server: Any, game_id: str, token: str) -> None:
    """Seat 0's moves through the API until the game (of one round) is over."""
    headers = {"X-Seat-Token": token}
    api = f"{server.url}/api/games/{game_id}"
    deadline = time.monotonic() + 60
    while True:
        current = httpx.get(api, headers=headers).json()
        if current["phase"] == "game_over":
            return
        if current["to_move"] == 0:
            body = {"seq": current["seq"], "action": _choose(current)}
            assert httpx.post(f"{api}/actions", json=body, headers=headers).status_code == 200
        else:
            time.sleep(0.05)
        assert time.monotonic() < deadline


@pytest.mark.parametrize(("scheme", "lang"), [("light", "de"), ("dark", "fr")])
def test_the_tables_pass_the_wcag_rules_in_their_main_states(
    live_server: Any, new_page: Callable[..., Any], scheme: str, lang: str
) -> None:
    found: list[str] = []
    page = new_page(locale=lang, color_scheme=scheme)

    # Rommé: a deal with a group in seat 0's hand, seat 0 to move.
    rules = romme.Rules.preset("computer").replace(rounds=1, stock_exhausted="end_round")
    seed = romme_seed(rules, 2, lambda s: low_group(s) is not None)
    group = low_group(romme.State(rules, 2, seed))
    assert group is not None
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), seed, TWO_SEATS)
    open_stored(page, live_server, "romme", lang, game_id, token)
    wait_my_turn_or_end(page)
    found += audit(page, f"{scheme} Rommé, own turn")
    view = table_state(page)
    if view["phase"] == "draw":
        page.click("[data-stock]")
        wait_seq_above(page, view["seq"])
    for c in group:
        card(page, c.code).click()
    found += audit(page, f"{scheme} Rommé, cards chosen")
    page.click("[data-act=meld]")
    page.locator("[data-table] [data-code]").first.wait_for()
    found += audit(page, f"{scheme} Rommé, a meld being built")
    page.click("[data-act=reset]")
    page.select_option("[data-speed]", "slow")
    view = table_state(page)
    discard = next(c for c in view["hand"] if c != view["picked"])
    card(page, discard).click()
    page.click("[data-act=discard]")
    page.wait_for_function(f"() => document.querySelector('{ROOT}').rummy.view.to_move !== 0")
    found += audit(page, f"{scheme} Rommé, a computer's turn")

    play_to_the_end(live_server, game_id, token)
    open_stored(page, live_server, "romme", lang, game_id, token)
    page.locator("dialog[open]").wait_for()
    found += audit(page, f"{scheme} Rommé, round and game end")
    page.goto(f"{live_server.url}/{lang}/romme/{game_id}/replay")
    page.wait_for_selector("[data-replay][data-ready=loaded]")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    found += audit(page, f"{scheme} Rommé, replay")

    # Tile rummy: seat 0 to move, one tile chosen.
    tile_rules = tiles.Rules()
    tile_seed = tiles_seed(tile_rules, 2, lambda s: True)
    game_id, token = stored(
        db_url(live_server), "tiles", tile_rules.to_json(), tile_seed, TWO_SEATS
    )
    open_stored(page, live_server, "tiles", lang, game_id, token)
    page.wait_for_function(f"() => document.querySelector('{TILES}').classList.contains('my-turn')")
    found += audit(page, f"{scheme} tiles, own turn")
    page.locator("[data-rack] [data-code]").first.click()
    found += audit(page, f"{scheme} tiles, a tile chosen")

    # The lessons: a step on show and what it uses ringed; a move the step does not teach.
    page.goto(f"{live_server.url}/{lang}/romme/learn")
    found += audit(page, f"{scheme} Rommé lesson, its page")
    page.locator("form[action$='/romme/learn'] button").click()
    page.wait_for_selector(f"{ROOT}[data-ready]")
    ringed = "() => document.querySelectorAll('.guide-pick').length > 0"
    page.wait_for_function(ringed, timeout=60_000)
    found += audit(page, f"{scheme} Rommé lesson, a step shown")
    page.goto(f"{live_server.url}/{lang}/tiles/learn")
    page.locator("form[action$='/tiles/learn'] button").click()
    page.wait_for_selector(f"{TILES}[data-ready]")
    page.wait_for_function(ringed, timeout=60_000)
    found += audit(page, f"{scheme} tile lesson, a step shown")
    page.keyboard.press("d")
    page.locator("[data-error]").wait_for(state="visible")
    found += audit(page, f"{scheme} tile lesson, a move refused")

    assert not found, "\n" + "\n".join(found)
