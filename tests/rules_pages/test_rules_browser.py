"""The rules pages in a real browser: a phone, the keyboard on the Rummoli board, the download."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_the_rummoli_board_opens_a_box_by_touch_and_by_keyboard(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Path]
) -> None:
    page = new_page(locale="fr-FR", phone=True)
    page.goto(f"{live_server.url}/fr/rules/rummoli#board")
    box = page.locator(".rummoli-box", has_text="V♦")
    explanation = box.locator("p")
    assert not explanation.is_visible()
    box.locator("summary").tap()
    assert explanation.is_visible()
    assert "séquence" in explanation.inner_text()
    screenshot(page, "board-phone")
    # The keyboard opens the centre box too.
    centre = page.locator(".rummoli-centre")
    centre.locator("summary").focus()
    page.keyboard.press("Enter")
    assert centre.locator("p").is_visible()
    # Nothing is wider than the phone's screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("game", ["romme", "rummoli", "tiles"])
def test_each_rules_page_reads_well_on_a_desktop(
    live_server: Any,
    new_page: Callable[..., Any],
    screenshot: Callable[[Any, str], Path],
    game: str,
) -> None:
    page = new_page(locale="de-DE")
    page.goto(f"{live_server.url}/de/rules/{game}")
    assert page.locator("h1").inner_text()
    page.locator(".rules-toc a[href='#faq']").click()
    assert page.evaluate("location.hash") == "#faq"
    screenshot(page, game)


def test_the_cheat_sheet_link_downloads_the_pdf(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    page = new_page(locale="es-ES")
    page.goto(f"{live_server.url}/es/rules/rummoli")
    with page.expect_download() as download_info:
        page.locator(".rules-actions a[download]").click()
    download = download_info.value
    assert download.suggested_filename == "rummoli-es.pdf"
    assert Path(download.path()).read_bytes().startswith(b"%PDF-")


def test_the_home_page_card_downloads_the_cheat_sheet_despite_boosting(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    page = new_page(locale="en-GB")
    page.goto(f"{live_server.url}/en/")
    with page.expect_download() as download_info:
        page.locator("a[href='/en/rummoli/cheatsheet.pdf']").click()
    assert download_info.value.suggested_filename == "rummoli-en.pdf"
