"""The score sheet and the home page as a new user meets them, in a real browser: an example in
an empty field does not pass for something typed, the printed sheet gives the time where the
reader is, the CSV file comes in the form the reader's spreadsheet expects, and the Spanish home
page has a word for tiles and another for chips."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

from rummykit.scoresheet import EnterRound

pytestmark = pytest.mark.browser


def new_sheet(server: Any, lang: str) -> str:
    """A sheet of three players made with the form; its path (``/es/sheet/<id>``)."""
    data = {"name": "Viernes", "limit": "500", "player": ["Ana", "Beto", "Cora"]}
    response = httpx.post(f"{server.url}/{lang}/sheet/new", data=data)
    assert response.status_code == 303, response.text
    path = str(response.headers["location"])
    sheet_id = path.rsplit("/", 1)[1]
    body = {"version": 0, "action": EnterRound.of({0: 12, 1: 0, 2: 7}, went_out=1).to_json()}
    assert httpx.post(f"{server.url}/api/sheets/{sheet_id}/actions", json=body).status_code == 200
    return path


def test_an_example_in_an_empty_name_field_does_not_look_typed(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    page = new_page(locale="en-GB", phone=True)
    page.goto(f"{live_server.url}/en/sheet/new")
    screenshot(page, "new-sheet")
    for field in ("#name", "#player-1"):
        looks = page.eval_on_selector(
            field,
            """(input) => {
                const typed = getComputedStyle(input);
                const example = getComputedStyle(input, '::placeholder');
                return { example: example.color, typed: typed.color, style: example.fontStyle };
            }""",
        )
        assert looks["style"] == "italic"
        assert looks["example"] != looks["typed"]


def test_the_printed_sheet_gives_the_time_where_the_reader_is(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    path = new_sheet(live_server, "en")
    page = new_page(locale="en-US", timezone_id="America/New_York")
    page.goto(f"{live_server.url}{path}/print")
    stamp = page.locator(".sheet-meta time")
    page.wait_for_function(
        "() => !document.querySelector('.sheet-meta time')?.textContent.includes('UTC')"
    )
    when = datetime.fromisoformat(str(stamp.get_attribute("datetime")).replace("Z", "+00:00"))
    assert when.tzinfo is not None and abs((datetime.now(UTC) - when).total_seconds()) < 600
    local = when.astimezone(ZoneInfo("America/New_York"))
    shown = stamp.inner_text()
    assert (
        f"{local:%-I}:{local:%M}" in shown and "UTC" not in page.locator(".sheet-meta").inner_text()
    )


@pytest.mark.parametrize("lang", ["es", "fr", "de"])
def test_the_csv_file_is_offered_with_semicolons_and_with_commas(
    live_server: Any, new_page: Callable[..., Any], lang: str
) -> None:
    path = new_sheet(live_server, lang)
    page = new_page(locale=lang)
    page.goto(f"{live_server.url}{path}")
    links = page.locator("#share a[download]")
    assert links.count() == 2
    files = [httpx.get(f"{live_server.url}{links.nth(i).get_attribute('href')}") for i in (0, 1)]
    semicolons, commas = (f.text.lstrip("\ufeff") for f in files)
    # The language's own form first: a spreadsheet set to it splits the cells at semicolons.
    rows = list(csv.reader(io.StringIO(semicolons), delimiter=";"))
    assert rows[0][1:4] == ["Ana", "Beto", "Cora"] and rows[1][:4] == ["1", "12", "0", "7"]
    assert list(csv.reader(io.StringIO(commas)))[1][:4] == ["1", "12", "0", "7"]
    assert ";" not in commas


def test_an_english_sheet_offers_its_csv_with_commas(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    path = new_sheet(live_server, "en")
    page = new_page(locale="en-GB")
    page.goto(f"{live_server.url}{path}")
    links = page.locator("#share a[download]")
    assert links.count() == 1
    assert "," in httpx.get(f"{live_server.url}{links.get_attribute('href')}").text


def test_the_spanish_home_page_names_tiles_and_chips_apart(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    page = new_page(locale="es-ES")
    page.goto(f"{live_server.url}/es/")
    cards = page.locator(".home-section li.card")
    texts = [cards.nth(i).inner_text() for i in range(cards.count())]
    tiles = [t for t in texts if "Rummikub" in t or "rummy de fichas" in t.lower()]
    # (A card naming several games, like the tables with friends, names the tile game by its name.)
    rummoli = [t for t in texts if ("Rummoli" in t or "póquer" in t) and t not in tiles]
    assert tiles and rummoli
    word = re.compile(r"\bfichas?\b", re.IGNORECASE)
    # "fichas" are the tiles; Rummoli's chips have a word of their own.
    assert all(word.search(t) for t in tiles)
    assert not any(word.search(t) for t in rummoli)
    assert any(re.search(r"\bmonedas\b", t) for t in rummoli)
