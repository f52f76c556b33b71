"""What the Rommé and tile tables tell while a turn is being built, in a real browser: the worth
of each new meld and the total against the opening minimum, that laying down ends the melding,
and the tile table's split buttons, draw button and refusals before opening."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rummykit import romme, tiles
from rummykit.cards import Card
from rummykit.web.language import site_translations
from rummykit.web.play.messages import CLIENT, ERRORS

from .helpers import bots_until_seat0, romme_seed, stored, tiles_seed
from .test_play_browser import (
    TILES,
    card,
    db_url,
    hand,
    low_group,
    open_stored,
    table_state,
)

pytestmark = pytest.mark.browser


def group_and_stranger(state: romme.State) -> tuple[list[Card], Card] | None:
    """Three cards of one low rank in three suits, and a natural card of another rank."""
    group = low_group(state)
    if group is None:
        return None
    others = [c for c in state.hands[0] if not c.is_joker and c.rank != group[0].rank]
    return group, others[0]


def test_each_new_meld_shows_its_worth_and_the_total_against_the_opening_minimum(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    rules = romme.Rules.preset("computer")
    seats = ("human", "bot:random", "bot:random")
    seed = romme_seed(rules, 3, lambda s: group_and_stranger(s) is not None, start=100)
    plan = group_and_stranger(romme.State(rules, 3, seed))
    assert plan is not None
    group, stranger = plan
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), seed, seats)
    page = new_page(locale="fr-FR")
    open_stored(page, live_server, "romme", "fr", game_id, token)
    t = site_translations("fr").gettext

    # Two cards of the group and a card of another rank: no meld, and the table says so at once.
    for c in (group[0], group[1], stranger):
        card(page, c.code).click()
    page.click("[data-act=meld]")
    worth = page.locator(".meld-new [data-meld-worth]")
    worth.wait_for()
    laid = page.eval_on_selector_all(".meld-new [data-code]", "els => els.map(e => e.dataset.code)")
    faces = " ".join(code.split("#")[0] for code in laid)
    assert worth.inner_text() == t(ERRORS["invalid_meld"]) % {"cards": faces}
    assert page.locator(".meld-new.meld-invalid").count() == 1
    assert page.locator("[data-meld-total]").inner_text() == t(CLIENT["opening_short"]) % {
        "value": 0,
        "minimum": 30,
    }
    screenshot(page, "invalid-meld")

    # Taken back, the group itself: its value, and how far it is from the 30 needed to open.
    page.click("[data-act=undo]")
    assert page.locator(".meld-new").count() == 0 and len(hand(page)) == 14
    assert page.locator("[data-meld-total]").is_hidden()
    for c in group:
        card(page, c.code).click()
    page.click("[data-act=meld]")
    value = sum(int(c.rank) for c in group if c.rank)
    page.wait_for_function(
        "text => document.querySelector('.meld-new [data-meld-worth]')?.textContent === text",
        arg=t(CLIENT["meld_value"]) % {"value": value},
    )
    assert page.locator(".meld-new.meld-invalid").count() == 0
    assert page.locator("[data-meld-total]").inner_text() == t(CLIENT["opening_short"]) % {
        "value": value,
        "minimum": 30,
    }
    screenshot(page, "valid-meld")


def high_group(state: romme.State) -> list[Card] | None:
    """Three cards of a rank worth 10 or 11 in three suits: enough to open alone."""
    for rank in (1, 10, 11, 12, 13):
        suits: dict[Any, Card] = {}
        for c in state.hands[0]:
            if c.rank is not None and int(c.rank) == rank:
                suits.setdefault(c.suit, c)
        if len(suits) >= 3:
            return list(suits.values())[:3]
    return None


def test_the_table_says_before_laying_down_that_it_ends_the_melding_for_the_turn(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    rules = romme.Rules.preset("computer")
    seats = ("human", "bot:random", "bot:random")
    seed = romme_seed(rules, 3, lambda s: high_group(s) is not None, start=1)
    group = high_group(romme.State(rules, 3, seed))
    assert group is not None
    game_id, token = stored(db_url(live_server), "romme", rules.to_json(), seed, seats)
    page = new_page(locale="es-ES", phone=True)
    open_stored(page, live_server, "romme", "es", game_id, token)
    t = site_translations("es").gettext
    ends = t(
        "“Lay down” ends your melding for this turn: build every meld, lay-off and joker"
        " exchange you want first, they go down together; then you discard."
    )
    note = page.locator("[data-lay-note]")
    assert note.is_visible() and note.inner_text() == ends
    lay_down = page.locator("[data-act=commit]")
    assert lay_down.get_attribute("title") == ends
    assert lay_down.get_attribute("aria-describedby") == note.get_attribute("id")
    screenshot(page, "before-laying")
    for c in group:
        card(page, c.code).click()
    page.click("[data-act=meld]")
    lay_down.click()
    page.wait_for_function("() => document.querySelector('[data-romme-table]').rummy.view.seq > 0")
    # Laid down: the melding is over for this turn, and the page says why Meld is disabled.
    assert page.locator("[data-status]").inner_text() == t(CLIENT["your_turn_discard"])
    assert page.locator("[data-act=meld]").is_disabled() and note.is_hidden()
    screenshot(page, "after-laying")


def joker_set_after_one_draw(state: tiles.State, seats: tuple[str, ...]) -> bool:
    """Seat 0 draws, the computer lays a set with a joker, and seat 0 has not opened."""
    state.apply(tiles.Draw(), 0)
    bots_until_seat0("tiles", state, seats, state.seed)
    return (
        state.to_move == 0
        and not state.opened[0]
        and any(t.is_joker for s in state.table for t in s.tiles)
    )


def test_tile_rummy_on_a_phone_scissors_draw_and_the_table_before_opening(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    rules = tiles.Rules(rack_size=14)
    seats = ("human", "bot:greedy")
    seed = tiles_seed(rules, 2, lambda s: joker_set_after_one_draw(s, seats))
    game_id, token = stored(db_url(live_server), "tiles", rules.to_json(), seed, seats)
    page = new_page(locale="de-DE", phone=True)
    open_stored(page, live_server, "tiles", "de", game_id, token)
    t = site_translations("de").gettext
    draw = page.locator("[data-act=draw]")
    draw.click()
    page.wait_for_function(
        """() => {
          const r = document.querySelector('[data-tiles-table]');
          const view = r.rummy.view;
          return view.seq > 1 && view.to_move === 0 && !r.rummy.queue.busy;
        }""",
        timeout=30_000,
    )
    view = table_state(page, TILES)
    index = next(i for i, s in enumerate(view["table"]) if any(c[0] == "*" for c in s["tiles"]))

    # The scissors show on a touch screen without hovering, and are big enough for a finger.
    scissors = page.locator(f'[data-split="{index}:1"]')
    box = scissors.bounding_box()
    assert box is not None and box["width"] >= 24 and box["height"] >= 24
    colour = scissors.evaluate("e => getComputedStyle(e).color")
    assert colour not in ("transparent", "rgba(0, 0, 0, 0)")
    screenshot(page, "scissors")

    # A tile laid out: drawing would take it back and end the turn, so it waits.
    ends = t("Drawing a tile ends your turn: take your tiles back first (Undo or Reset turn).")
    assert draw.is_enabled() and draw.get_attribute("title") == ends
    card(page, view["rack"][0], "[data-rack]").click()
    page.click("[data-act=new-set]")
    assert draw.is_disabled()

    # Before the first meld, breaking up the computer's set with the joker is refused for
    # what it is: the first meld comes from the rack alone.
    scissors.click()
    page.click("[data-act=done]")
    error = page.locator("[data-error]")
    error.wait_for(state="visible")
    reason = t(ERRORS["first_meld_uses_table"])
    assert error.inner_text() == t(CLIENT["rejected_tiles"]) % {"message": reason}
    screenshot(page, "refused-before-opening")
    page.click("[data-act=reset]")
    assert draw.is_enabled()
