"""The score sheet in a real browser: a whole evening, on two phones at once.

Labels are looked up through the catalogs, so the same flow runs in German on a desktop-sized
window and in French on a phone-sized touch screen. Screenshots land in ``test-artifacts/``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from rummykit.web import errors
from rummykit.web.language import site_translations

pytestmark = pytest.mark.browser


def row_of(page: Any, name: str) -> Any:
    """The entry of one player in the round form."""
    return page.locator("#entry .entry").filter(has=page.get_by_label(name, exact=True))


def fits(page: Any) -> bool:
    """Whether the page fits the window's width (wide tables scroll inside their own box)."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def totals(page: Any) -> dict[str, int]:
    rows = page.locator("#standings tbody tr")
    out = {}
    for i in range(rows.count()):
        name = rows.nth(i).locator(".player-name").inner_text()
        out[name] = int(rows.nth(i).locator("td.total").inner_text())
    return out


def ranking(page: Any) -> list[tuple[str, str]]:
    rows = page.locator("#standings tbody tr")
    return [
        (
            rows.nth(i).locator("td.place").inner_text().strip(),
            rows.nth(i).locator(".player-name").inner_text(),
        )
        for i in range(rows.count())
    ]


@pytest.mark.parametrize(
    ("lang", "locale", "phone", "name"),
    [("de", "de-DE", False, "Freitag"), ("fr", "fr-FR", True, "Vendredi")],
    ids=["german-desktop", "french-phone"],
)
def test_a_whole_evening_on_two_phones(
    live_server: Any,
    new_page: Callable[..., Any],
    screenshot: Callable[[Any, str], Any],
    lang: str,
    locale: str,
    phone: bool,
    name: str,
) -> None:
    t = site_translations(lang).gettext
    went_out = t("Went out")
    first = new_page(locale=locale, phone=phone)

    # The home page in the browser's language leads to a new sheet.
    first.goto(f"{live_server.url}/")
    assert first.url == f"{live_server.url}/{lang}/"
    screenshot(first, "home")
    first.get_by_role("link", name=t("Rommé score sheet")).click()
    first.get_by_label(t("Name of the game")).fill(name)
    first.get_by_role("radio", name=re.compile("^300")).check()
    for index, player in enumerate(["Anna", "Ben", "Cleo"], start=1):
        first.get_by_label(t("Player %(n)s") % {"n": index}, exact=True).fill(player)
    screenshot(first, "new")
    first.get_by_role("button", name=t("Create the sheet")).click()
    first.get_by_role("heading", name=name, level=1).wait_for()
    sheet_url = first.url

    # Round 1: Anna went out (the big button enters 0), the others count their hands.
    row_of(first, "Anna").get_by_text(went_out).click()
    assert first.get_by_label("Anna", exact=True).input_value() == "0"
    first.get_by_label("Ben", exact=True).fill("25")
    first.get_by_label("Cleo", exact=True).fill("40")
    first.get_by_role("button", name=t("Save round %(n)s") % {"n": 1}).click()
    first.get_by_text(t("Round %(n)s saved.") % {"n": 1}).wait_for()
    assert totals(first) == {"Anna": 0, "Ben": 25, "Cleo": 40}

    # A second phone opens the same sheet by its link.
    second = new_page(locale=locale, phone=phone)
    second.goto(sheet_url)
    assert totals(second) == {"Anna": 0, "Ben": 25, "Cleo": 40}

    # Round 2: Ben goes out with Hand-Rommé and a credit of 100, typed with the ± key.
    first.get_by_label("Anna", exact=True).fill("30")
    row_of(first, "Ben").get_by_text(went_out).click()
    first.get_by_label("Ben", exact=True).fill("100")
    row_of(first, "Ben").get_by_role("button", name="±").click()
    assert first.get_by_label("Ben", exact=True).input_value() == "-100"
    first.get_by_label("Cleo", exact=True).fill("12")
    screenshot(first, "round-2-typed")
    first.get_by_role("button", name=t("Save round %(n)s") % {"n": 2}).click()
    first.get_by_text(t("Round %(n)s saved.") % {"n": 2}).wait_for()

    # ... and the second phone sees it arrive without reloading.
    second.locator("#history tbody tr", has_text="-100").wait_for()
    assert totals(second) == {"Anna": 30, "Ben": -75, "Cleo": 52}
    assert second.locator("#live-status").inner_text() == t("The sheet has been updated.")
    screenshot(second, "live-update")

    # Both phones start round 3; the second saves first. The first phone's typing is kept,
    # and saving it is refused with an explanation instead of overwriting round 3.
    first.get_by_label("Anna", exact=True).fill("99")
    second.get_by_label("Anna", exact=True).fill("15")
    second.get_by_label("Ben", exact=True).fill("20")
    row_of(second, "Cleo").get_by_text(went_out).click()
    second.get_by_role("button", name=t("Save round %(n)s") % {"n": 3}).click()
    second.get_by_text(t("Round %(n)s saved.") % {"n": 3}).wait_for()
    first.locator("[data-stale]").wait_for(state="visible")
    assert first.get_by_label("Anna", exact=True).input_value() == "99"
    first.get_by_label("Ben", exact=True).fill("1")
    first.get_by_label("Cleo", exact=True).fill("2")
    first.get_by_role("button", name=t("Save round %(n)s") % {"n": 3}).click()
    changed = errors.message("sheet_changed", {}, site_translations(lang))
    first.get_by_role("alert").filter(has_text=changed).wait_for()
    screenshot(first, "conflict")
    assert totals(first) == {"Anna": 45, "Ben": -55, "Cleo": 52}

    # Dora joins mid-game at the current highest total (the default).
    first.goto(sheet_url)
    first.get_by_role("heading", name=name, level=1).wait_for()
    first.get_by_label(t("New player")).fill("Dora")
    assert first.get_by_role("radio", name=re.compile("52")).is_checked()
    first.get_by_role("button", name=t("Add the player")).click()
    first.get_by_text(t("The new player is in the game.")).wait_for()
    assert totals(first)["Dora"] == 52
    second.get_by_label("Dora", exact=True).wait_for()  # the second phone's form has her too

    # Round 1 is corrected: Cleo had 45, not 40.
    first.locator("#history").get_by_role(
        "link", name=t("Correct round %(n)s") % {"n": 1}, exact=True
    ).click()
    first.get_by_role("heading", name=t("Correct round %(n)s") % {"n": 1}).wait_for()
    first.get_by_label("Cleo", exact=True).fill("45")
    first.get_by_role("button", name=t("Save the correction")).click()
    first.get_by_text(t("Correction saved.")).wait_for()
    assert totals(first)["Cleo"] == 57
    assert first.locator("#history").get_by_text(t("corrected"), exact=True).count() == 1

    # Round 4: Anna reaches the limit of 300; the game is over and the ranking is final.
    first.get_by_label("Anna", exact=True).fill("260")
    row_of(first, "Ben").get_by_text(went_out).click()
    first.get_by_label("Cleo", exact=True).fill("10")
    first.get_by_label("Dora", exact=True).fill("5")
    first.get_by_role("button", name=t("Save round %(n)s") % {"n": 4}).click()
    first.locator(".game-over").wait_for()
    assert ranking(first) == [("1.", "Ben"), ("2.", "Dora"), ("3.", "Cleo"), ("4.", "Anna")]
    assert totals(first) == {"Ben": -55, "Dora": 57, "Cleo": 67, "Anna": 305}
    assert first.locator("#entry").count() == 0
    screenshot(first, "game-over")
    assert fits(first)
    second.locator(".game-over").wait_for()
    assert ranking(second) == ranking(first)
    assert fits(second)
    assert second.locator(".notice").count() == 0  # "round 3 saved" is gone: old news
    screenshot(second, "game-over-second-phone")

    first.goto(f"{sheet_url}/print")
    screenshot(first, "print")
    first.emulate_media(media="print")
    assert first.locator(".site-header").is_hidden()
    assert first.locator("table.history tfoot").is_visible()
    screenshot(first, "print-media")
