"""The Rummoli board and demonstration in a real browser: keyboard, touch, a phone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rummykit.i18n import LANGUAGES
from rummykit.rummoli import BOXES, Rules, demo_hand
from rummykit.web.language import site_translations
from rummykit.web.rummoli import board as rummoli_board
from rummykit.web.rummoli import demo as rummoli_demo
from rummykit.web.rummoli import words as rummoli_words

pytestmark = pytest.mark.browser
LOCALES = {"fr": "fr-FR", "es": "es-ES", "de": "de-DE", "en": "en-GB"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_box_of_the_board_explains_itself_when_focused(
    live_server: Any,
    new_page: Callable[..., Any],
    screenshot: Callable[[Any, str], Path],
    lang: str,
) -> None:
    t = site_translations(lang)
    expected = {b.box: b for b in rummoli_board.board_boxes(Rules(), t)}
    page = new_page(locale=LOCALES[lang])
    page.goto(f"{live_server.url}/{lang}/rummoli/board")
    info = page.locator("[data-rm-info]")
    first = page.locator(".rm-box").first
    first.focus()
    seen = []
    for _ in range(len(BOXES)):
        box = page.evaluate("document.activeElement.dataset.box")
        seen.append(box)
        text = info.inner_text()
        assert expected[box].name in text, (lang, box)
        assert expected[box].how in text, (lang, box)
        # The button is named by its text and described by the rule.
        button = page.locator(f".rm-box[data-box='{box}']")
        assert expected[box].name in button.inner_text()
        how_id = button.get_attribute("aria-describedby")
        assert page.locator(f"#{how_id}").text_content() == expected[box].how
        page.keyboard.press("Tab")
    assert seen == [b.value for b in rummoli_board.LAYOUT]
    if lang == "fr":
        screenshot(page, "board-focused")


def test_the_board_keeps_the_chips_of_a_real_game_on_a_phone(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Path]
) -> None:
    page = new_page(locale="de-DE", phone=True)
    page.goto(f"{live_server.url}/de/rummoli/board")
    keeper = page.locator("[data-rm-keeper]")
    assert keeper.is_visible()
    keeper.locator("[data-players]").select_option("5")
    keeper.locator("[data-ante]").tap()
    keeper.locator("[data-ante]").tap()
    poker = page.locator(".rm-box[data-box='poker']")
    assert "10 Chips" in poker.inner_text()
    page.locator(".rm-box[data-box='jack_diamonds']").tap()
    assert "10 Chips" in page.locator("[data-rm-info]").inner_text()
    keeper.locator("[data-take]").tap()
    assert "B♦: 10 Chips für den Gewinner." in keeper.locator("[data-status]").inner_text()
    assert "0 Chips" in page.locator(".rm-box[data-box='jack_diamonds']").inner_text()
    keeper.locator("[data-add]").tap()
    assert "1 Chip" in page.locator(".rm-box[data-box='jack_diamonds']").inner_text()
    # The board survives a reload (it lives in this browser), and undo steps back.
    page.reload()
    assert "1 Chip" in page.locator(".rm-box[data-box='jack_diamonds']").inner_text()
    page.locator("[data-undo]").tap()
    assert "0 Chips" in page.locator(".rm-box[data-box='jack_diamonds']").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "keeper-phone")


def read_step(page: Any) -> int:
    return int(page.locator("[data-rm-demo]").get_attribute("data-step"))


def test_the_demo_steps_with_the_arrow_keys_and_reaches_the_winner(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Path]
) -> None:
    t = site_translations("en")
    hand = demo_hand(4, rummoli_demo.DEMO_SEED)
    demo = rummoli_demo.build_demo(hand, 1, t)
    page = new_page()
    page.goto(f"{live_server.url}/en/rummoli/demo")
    say = page.locator("[data-say]")
    assert read_step(page) == 0
    assert say.inner_text() == demo.frames[0].text
    for n in range(1, 26):
        page.keyboard.press("ArrowRight")
        assert read_step(page) == n
        assert say.inner_text() == demo.frames[n].text
    first_play = demo.plays[0]
    card = page.locator(f"[data-seat='{first_play.seat}'] [data-card='{first_play.card}']")
    assert "is-played" in card.get_attribute("class")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert read_step(page) == 23
    assert say.inner_text() == demo.frames[23].text
    assert "step=23" in page.url
    # Going back before the first card gives it back to its hand.
    page.keyboard.press("Home")
    assert read_step(page) == 0
    assert "is-played" not in card.get_attribute("class")
    page.locator("[data-go='next']").click()
    assert read_step(page) == 1
    screenshot(page, "early")
    # The end: who went out, with the engine's chips on the board and in each hand.
    page.locator("[data-go='last']").click()
    last = len(demo.frames) - 1
    assert read_step(page) == last
    winner = next(s for s in hand.steps if s.code == "went_out").params["seat"]
    assert isinstance(winner, int)
    log = page.locator("[data-log]").text_content()
    assert f"{rummoli_demo.DEMO_NAMES[winner]} has played the last card and wins the hand." in log
    badge = page.locator(f"[data-seat='{winner}'] .rm-winner")
    assert badge.is_visible() and badge.inner_text() == "out first: wins the hand"
    assert page.locator(".rm-winner:visible").count() == 1
    for box in BOXES:
        chips = page.locator(f".rm-box[data-box='{box.value}'] [data-chips]").inner_text()
        assert chips == rummoli_words.chips_text(hand.board_after[box.slot], t)
    for seat, chips in enumerate(hand.chips_after):
        assert page.locator(f"[data-chips-of='{seat}']").inner_text() == f"{chips} chips"
    assert page.locator("[data-go='next']").get_attribute("aria-disabled") == "true"
    screenshot(page, "end")


def test_the_next_hand_keeps_the_boxes_nobody_won(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Path]
) -> None:
    first = demo_hand(4, rummoli_demo.DEMO_SEED)
    second = first.next_hand()
    page = new_page(locale="es-ES")
    page.goto(f"{live_server.url}/es/rummoli/demo")
    page.keyboard.press("End")
    page.locator("[data-next-hand]").click()
    page.wait_for_url("**hand=2**")
    assert read_step(page) == 0
    t = site_translations("es")
    for box in BOXES:
        chips = page.locator(f".rm-box[data-box='{box.value}'] [data-chips]").inner_text()
        assert chips == rummoli_words.chips_text(first.board_after[box.slot], t), box
    # After the ante every box holds what it kept plus one chip from each player.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert read_step(page) == 2
    ante = second.steps[1]
    assert ante.code == "ante"
    for box in BOXES:
        chips = page.locator(f".rm-box[data-box='{box.value}'] [data-chips]").inner_text()
        assert chips == rummoli_words.chips_text(first.board_after[box.slot] + 4, t), box
        assert ante.board[box.slot] == first.board_after[box.slot] + 4
    assert "Mano 2" in page.locator(".rm-hand-no").inner_text()
    screenshot(page, "second-hand")


def test_the_demo_reads_well_on_a_phone(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Path]
) -> None:
    page = new_page(locale="fr-FR", phone=True)
    page.goto(f"{live_server.url}/fr/rummoli/demo?step=40")
    assert read_step(page) == 40
    page.locator("[data-go='next']").tap()
    assert read_step(page) == 41
    page.locator(".rm-box[data-box='rummoli']").tap()
    assert "case" in page.locator("[data-rm-info]").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "phone")
