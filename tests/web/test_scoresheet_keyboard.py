"""The round form with the keyboard alone, as a screen-reader user would go through it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from rummykit.web.language import site_translations

pytestmark = pytest.mark.browser


def focused(page: Any) -> str:
    """The accessible name of the focused element, as the browser computes it."""
    return str(
        page.evaluate(
            r"""() => {
                const el = document.activeElement;
                const text = el.labels && el.labels.length
                    ? el.labels[0].innerText
                    : el.getAttribute("aria-label") || el.innerText || "";
                return text.replace(/\s+/g, " ").trim();
            }"""
        )
    )


def test_a_round_is_entered_with_the_keyboard_alone(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    t = site_translations("de").gettext
    created = httpx.post(
        f"{live_server.url}/api/sheets",
        json={"name": "Tastatur", "players": ["Anna", "Ben"], "lang": "de"},
    ).json()
    page = new_page(locale="de-DE")
    page.goto(live_server.url + created["url"])

    page.get_by_label("Anna", exact=True).focus()
    page.keyboard.type("12")
    page.keyboard.press("Tab")
    assert focused(page).startswith("±")  # Ben's sign key, named for him
    assert "Ben" in focused(page)
    page.keyboard.press("Tab")
    assert focused(page) == "Ben"
    page.keyboard.type("7")
    page.keyboard.press("Tab")  # the "went out" choice: one stop for the whole group
    assert focused(page).startswith(t("Nobody went out (the stock ran out)"))
    page.keyboard.press("ArrowUp")  # the arrow keys move the choice: Ben went out
    assert focused(page) == f"{t('Went out')} Ben"
    assert page.get_by_label("Ben", exact=True).input_value() == "0"
    screenshot(page, "keyboard")
    page.keyboard.press("Enter")
    page.get_by_text(t("Round %(n)s saved.") % {"n": 1}).wait_for()
    data = httpx.get(f"{live_server.url}/api/sheets/{created['id']}").json()
    assert data["sheet"]["rounds"][0]["entries"] == [
        {"p": 0, "v": 12},
        {"p": 1, "v": 0, "out": True},
    ]
    # After the page changed, the focus is on the new content, not lost on the old form.
    assert page.evaluate("document.activeElement.id") == "main"
