"""The companion at a real table, in a real browser: phones that each enter their own hand.

Three phones (three browser contexts, so three cookie jars) share one sheet; each claims its
player's name once and enters its own hand, round after round. What every phone typed is then
checked against the stored log.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from rummykit.web.language import site_translations

pytestmark = pytest.mark.browser

NAMES = ("Anna", "Ben", "Cleo")
# The hands of three rounds: (points, went out) per player.
ROUNDS = (
    ((0, True), (25, False), (40, False)),
    ((30, False), (-100, True), (12, False)),
    ((15, False), (20, False), (0, True)),
)


def totals(page: Any) -> dict[str, int]:
    rows = page.locator("#standings tbody tr")
    return {
        rows.nth(i).locator(".player-name").inner_text(): int(
            rows.nth(i).locator("td.total").inner_text()
        )
        for i in range(rows.count())
    }


def chart_totals(page: Any) -> dict[str, int]:
    """The total at the end of each player's line of the chart, by the player's name."""
    ends: dict[str, int] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll("[data-chart] .chart-series")]
            .map((g) => [g.querySelector(".series-label").textContent.split(" ")[0],
                         Number([...g.querySelectorAll("circle")].at(-1).dataset.total)]))"""
    )
    return ends


def wait_for_totals(page: Any, expected: dict[str, int], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while totals(page) != expected:
        assert time.monotonic() < deadline, (totals(page), expected)
        page.wait_for_timeout(100)


def create_own_hand_sheet(page: Any, url: str, lang: str, rounds: int) -> str:
    t = site_translations(lang).gettext
    page.goto(f"{url}/{lang}/sheet/new")
    page.get_by_label(t("Name of the game")).fill("Companion")
    page.get_by_role("radio", name=t("A fixed number of rounds")).check()
    page.get_by_label(re.compile(re.escape(t("Number of rounds (%(low)s to %(high)s)")[:8]))).fill(
        str(rounds)
    )
    page.get_by_label(t("Each player enters their own hand on their own phone")).check()
    for index, player in enumerate(NAMES, start=1):
        page.get_by_label(t("Player %(n)s") % {"n": index}, exact=True).fill(player)
    page.get_by_role("button", name=t("Create the sheet")).click()
    page.get_by_role("heading", name="Companion", level=1).wait_for()
    return str(page.url)


def enter_own_hand(page: Any, lang: str, points: int, went_out: bool) -> None:
    t = site_translations(lang).gettext
    form = page.locator("[data-hand-form]")
    form.locator('input[name="points"]').fill(str(points))
    if went_out:
        form.get_by_label(t("Went out")).check()
    form.get_by_role("button", name=t("Save my hand")).click()
    page.get_by_text(t("Hand saved.")).wait_for()


def enter_own_hand_offline(page: Any, lang: str, points: int, went_out: bool) -> None:
    t = site_translations(lang).gettext
    page.context.set_offline(True)
    form = page.locator("[data-hand-form]")
    form.locator('input[name="points"]').fill(str(points))
    if went_out:
        form.get_by_label(t("Went out")).check()
    form.get_by_role("button", name=t("Save my hand")).click()
    waiting = page.locator('[data-outbox-item="waiting"]')
    waiting.wait_for()
    assert str(points) in waiting.inner_text()
    assert t("waiting for the connection") in waiting.inner_text()


@pytest.mark.parametrize(("lang", "locale"), [("fr", "fr-FR")])
def test_three_phones_enter_their_own_hands_for_three_rounds(
    live_server: Any,
    new_page: Callable[..., Any],
    screenshot: Callable[[Any, str], Any],
    lang: str,
    locale: str,
) -> None:
    t = site_translations(lang).gettext
    phones = [new_page(locale=locale, phone=True) for _ in NAMES]
    sheet_url = create_own_hand_sheet(phones[0], live_server.url, lang, rounds=3)
    sheet_id = sheet_url.split("?")[0].rsplit("/", 1)[1]
    for phone, name in zip(phones, NAMES, strict=True):
        if phone is not phones[0]:
            phone.goto(sheet_url)
        phone.get_by_role("button", name=t("I am %(name)s") % {"name": name}).click()
        phone.get_by_label(t("Your hand, %(name)s") % {"name": name}).wait_for()
    screenshot(phones[2], "claimed")

    # A screen at the table opens the read-only link's large display.
    view = phones[0].locator("#view-link").input_value()
    screen = new_page(locale=locale)
    screen.goto(f"{view}/display")
    screen.locator("#sheet.display").wait_for()
    assert screen.locator("form").count() == 0

    for number, hands in enumerate(ROUNDS, start=1):
        for player, (phone, (points, out)) in enumerate(zip(phones, hands, strict=True)):
            if number == 2 and player == 2:
                # Cleo's phone has no signal in round 2: her hand waits on her phone.
                enter_own_hand_offline(phone, lang, points, out)
                screenshot(phone, "offline-waiting")
                assert phones[0].locator("#history tbody tr").count() == 1
                phone.context.set_offline(False)
                phone.locator("[data-outbox]").wait_for(state="hidden")
                continue
            enter_own_hand(phone, lang, points, out)
            if player < len(NAMES) - 1:
                # The other phones see who has entered, without reloading.
                other = phones[(player + 1) % len(phones)]
                other.locator(f'.hand-line.has-entered[data-player="{player}"]').wait_for()
        for phone in phones:
            phone.locator("#history tbody tr").nth(number - 1).wait_for()
        screenshot(phones[1], f"round-{number}")
        # The display follows without reloading.
        so_far = {
            name: sum(hands[i][0] for hands in ROUNDS[:number]) for i, name in enumerate(NAMES)
        }
        wait_for_totals(screen, so_far)
        screenshot(screen, f"display-{number}")

    expected = {name: sum(hands[i][0] for hands in ROUNDS) for i, name in enumerate(NAMES)}
    for phone in phones:
        phone.get_by_text(t("Game over"), exact=True).first.wait_for()
        assert totals(phone) == expected
        assert chart_totals(phone) == expected
    screenshot(phones[0], "chart")
    stored = httpx.get(f"{live_server.url}/api/sheets/{sheet_id}").json()["sheet"]
    for rnd, hands in zip(stored["rounds"], ROUNDS, strict=True):
        entries = {e["p"]: (e["v"], e.get("out", False)) for e in rnd["entries"]}
        assert entries == dict(enumerate(hands))
    # Every hand typed on a phone is in the stored log, as typed, by that phone.
    logged = [
        (a["round"], a["p"], a["v"], a.get("out", False), a["by"])
        for a in stored_log(live_server, sheet_id)
        if a["t"] == "hand"
    ]
    typed = [
        (n, p, v, out, p)
        for n, hands in enumerate(ROUNDS, start=1)
        for p, (v, out) in enumerate(hands)
    ]
    assert logged == typed


def test_a_classic_tile_sheet_to_the_end(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    lang = "de"
    t = site_translations(lang).gettext
    page = new_page(locale="de-DE")
    page.goto(f"{live_server.url}/{lang}/sheet/new?game=tiles")
    page.get_by_label(t("Name of the game")).fill("Steine")
    assert page.get_by_role("radio", name=t("Tile rummy")).is_checked()
    page.get_by_role("radio", name=t("Classic: plus for the winner, minus for the others")).check()
    page.get_by_label(re.compile(re.escape(t("Number of rounds (%(low)s to %(high)s)")[:8]))).fill(
        "2"
    )
    for index, player in enumerate(NAMES, start=1):
        page.get_by_label(t("Player %(n)s") % {"n": index}, exact=True).fill(player)
    page.get_by_role("button", name=t("Create the sheet")).click()
    page.get_by_role("heading", name="Steine", level=1).wait_for()
    sheet_id = page.url.split("?")[0].rsplit("/", 1)[1]
    racks = (((0, True), (12, False), (30, False)), ((4, False), (0, True), (10, False)))
    for number, hands in enumerate(racks, start=1):
        for player, (points, out) in zip(NAMES, hands, strict=True):
            row = page.locator("#entry .entry").filter(has=page.get_by_label(player, exact=True))
            if out:
                row.get_by_text(t("Went out")).click()
            else:
                page.get_by_label(player, exact=True).fill(str(points))
        page.get_by_role("button", name=t("Save round %(n)s") % {"n": number}).click()
        page.get_by_text(t("Round %(n)s saved.") % {"n": number}).wait_for()
    page.get_by_text(t("Game over"), exact=True).first.wait_for()
    expected = {"Anna": 38, "Ben": 2, "Cleo": -40}
    assert totals(page) == expected and chart_totals(page) == expected
    assert page.locator("#standings tr.winner .player-name").all_inner_texts() == ["Anna"]
    screenshot(page, "over")
    rounds = [a for a in stored_log(live_server, sheet_id) if a["t"] == "round"]
    assert [{e["p"]: (e["v"], e.get("out", False)) for e in a["entries"]} for a in rounds] == [
        dict(enumerate(hands)) for hands in racks
    ]
    stored = httpx.get(f"{live_server.url}/api/sheets/{sheet_id}").json()["sheet"]
    for rnd, hands in zip(stored["rounds"], racks, strict=True):
        assert {e["p"]: (e["v"], e.get("out", False)) for e in rnd["entries"]} == dict(
            enumerate(hands)
        )


def test_a_rummoli_chip_keeper_shared_by_two_phones_through_a_hand(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    lang = "es"
    t = site_translations(lang).gettext
    first, second = new_page(locale="es-ES", phone=True), new_page(locale="es-ES", phone=True)
    first.goto(f"{live_server.url}/{lang}/rules/rummoli")
    first.locator(f'a[href="/{lang}/chips/new"]').first.click()
    first.get_by_label(t("Name of the game")).fill("Rummoli")
    first.get_by_label(
        re.compile(re.escape(t("Chips for each player (%(low)s to %(high)s)")[:6]))
    ).fill("20")
    for index, player in enumerate(NAMES, start=1):
        first.get_by_label(t("Player %(n)s") % {"n": index}, exact=True).fill(player)
    first.get_by_role("button", name=t("Start keeping the chips")).click()
    first.locator("#board").wait_for()
    second.goto(first.url)
    sheet_id = first.url.split("?")[0].rsplit("/", 1)[1]

    def board(page: Any, box: str) -> int:
        return int(page.locator(f'[data-box="{box}"] [data-chips]').inner_text())

    def chips(page: Any) -> list[int]:
        return [int(x) for x in page.locator("#chips td.total").all_inner_texts()]

    def wait_for(page: Any, check: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 10
        while not check():
            assert time.monotonic() < deadline, (chips(page), page.url)
            page.wait_for_timeout(100)

    def submit(page: Any, button: Any) -> None:
        """Click and wait for the answer to this very form (not only another phone's news)."""
        before = int(page.locator("#sheet").get_attribute("data-version"))
        button.click()
        page.locator(f'.notice[data-version="{before + 1}"]').wait_for()

    # The ante, from the first phone; the second sees the board fill.
    first.get_by_role("button", name=t("Everyone antes: one chip on each box")).click()
    wait_for(second, lambda: board(second, "poker") == 3)
    assert chips(second) == [11, 11, 11]
    # Ben plays the Q♣ and wins its box: entered on the second phone.
    box = second.locator('[data-box="queen_clubs"]')
    box.locator("select").select_option("p:1")
    submit(second, box.get_by_role("button", name=t("wins the box")))
    wait_for(first, lambda: chips(first) == [11, 14, 11])
    # Poker: Anna wins the poker box on the first phone, by mistake for Cleo, and undoes it.
    box = first.locator('[data-box="poker"]')
    box.locator("select").select_option("p:0")
    submit(first, box.get_by_role("button", name=t("wins the box")))
    wait_for(first, lambda: chips(first) == [14, 14, 11])
    submit(first, first.get_by_role("button", name=t("Undo change %(n)s") % {"n": 3}))
    wait_for(second, lambda: chips(second) == [11, 14, 11] and board(second, "poker") == 3)
    box = second.locator('[data-box="poker"]')
    box.locator("select").select_option("p:2")
    submit(second, box.get_by_role("button", name=t("wins the box")))
    # Cleo goes out first: Anna pays her 4 chips, Ben 2 (one per card left), and takes Rummoli.
    for source, amount in (("p:0", "4"), ("p:1", "2")):
        offline = source == "p:1"  # the second phone loses the signal for Ben's payment
        second.context.set_offline(offline)
        second.locator("#move-from").select_option(source)
        second.locator("#move-to").select_option("p:2")
        second.get_by_role("textbox", name=t("Chips"), exact=True).fill(amount)
        move = second.get_by_role("button", name=t("Move"), exact=True)
        if not offline:
            submit(second, move)
            continue
        move.click()
        waiting = second.locator('[data-outbox-item="waiting"]')
        waiting.wait_for()
        assert "Ben → Cleo: 2" in waiting.inner_text()
        server = httpx.get(f"{live_server.url}/api/sheets/{sheet_id}").json()["sheet"]
        assert [p["chips"] for p in server["players"]] == [7, 14, 18]  # nothing left the phone
        second.context.set_offline(False)
        second.locator("[data-outbox]").wait_for(state="hidden")
    box = first.locator('[data-box="rummoli"]')
    wait_for(first, lambda: chips(first) == [7, 12, 20])
    box.locator("select").select_option("p:2")
    box.get_by_role("button", name=t("wins the box")).click()
    for page in (first, second):
        wait_for(page, lambda page=page: chips(page) == [7, 12, 23])  # type: ignore[misc]
    screenshot(second, "hand-over")
    stored = httpx.get(f"{live_server.url}/api/sheets/{sheet_id}").json()["sheet"]
    assert [p["chips"] for p in stored["players"]] == [7, 12, 23]
    assert stored_log(live_server, sheet_id) == [
        {"t": "ante"},
        {"t": "move", "from": "box:queen_clubs", "to": "p:1", "n": 3},
        {"t": "move", "from": "box:poker", "to": "p:0", "n": 3},
        {"t": "undo", "change": 3},
        {"t": "move", "from": "box:poker", "to": "p:2", "n": 3},
        {"t": "move", "from": "p:0", "to": "p:2", "n": 4},
        {"t": "move", "from": "p:1", "to": "p:2", "n": 2},
        {"t": "move", "from": "box:rummoli", "to": "p:2", "n": 3},
    ]
    assert stored["total"] == 60
    assert [c["t"] for c in stored["changes"]] == [
        "ante",
        "move",
        "move",
        "undo",
        "move",
        "move",
        "move",
        "move",
    ]


def test_two_phones_offline_enter_the_same_hand_and_the_conflict_is_shown_and_resolved(
    live_server: Any, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    lang = "en"
    t = site_translations(lang).gettext
    anna, ben = new_page(phone=True), new_page(phone=True)
    sheet_url = create_own_hand_sheet(anna, live_server.url, lang, rounds=3)
    sheet_id = sheet_url.split("?")[0].rsplit("/", 1)[1]
    anna.get_by_role("button", name=t("I am %(name)s") % {"name": "Anna"}).click()
    ben.goto(sheet_url)
    ben.get_by_role("button", name=t("I am %(name)s") % {"name": "Ben"}).click()
    ben.get_by_label(t("Your hand, %(name)s") % {"name": "Ben"}).wait_for()
    anna.reload()
    anna.get_by_label(t("Your hand, %(name)s") % {"name": "Anna"}).wait_for()

    # Both lose the connection. Ben enters his own hand (12); Anna enters Ben's hand for him
    # as she counted it (21).
    anna.context.set_offline(True)
    ben.context.set_offline(True)
    enter_own_hand_offline(ben, lang, 12, False)
    line = anna.locator('.hand-line[data-player="1"]')
    line.get_by_text(t("Enter for %(name)s") % {"name": "Ben"}).click()
    line.get_by_label(t("Points of %(name)s") % {"name": "Ben"}).fill("21")
    line.get_by_role("button", name=t("Save for %(name)s") % {"name": "Ben"}).click()
    anna.locator('[data-outbox-item="waiting"]').wait_for()

    # Ben's phone reconnects first: his entry is saved.
    ben.context.set_offline(False)
    ben.locator("[data-outbox]").wait_for(state="hidden")
    # Anna's phone reconnects: her entry for Ben is not silently applied over his, nor lost.
    anna.context.set_offline(False)
    conflict = anna.locator('[data-outbox-item="conflict"]')
    conflict.wait_for()
    assert "21" in conflict.inner_text()
    assert t("not saved: changed meanwhile") in conflict.inner_text()
    screenshot(anna, "conflict")
    # Anna checks with Ben and saves hers anyway: it replaces his, and both are in the log.
    conflict.get_by_role("button", name=t("Save mine anyway")).click()
    anna.locator("[data-outbox]").wait_for(state="hidden")
    state = httpx.get(f"{live_server.url}/api/sheets/{sheet_id}").json()["sheet"]
    assert state["pending"] == [{"p": 1, "v": 21}]
    hands = [a for a in stored_log(live_server, sheet_id) if a["t"] == "hand"]
    assert hands == [
        {"t": "hand", "round": 1, "p": 1, "v": 12, "by": 1},
        {"t": "hand", "round": 1, "p": 1, "v": 21, "by": 0},
    ]


def stored_log(server: Any, sheet_id: str) -> list[dict[str, Any]]:
    """The sheet's entries as the server stored them, read from its database file."""
    path = server.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT action FROM score_sheet_entries WHERE sheet_id = ? ORDER BY seq", (sheet_id,)
        ).fetchall()
    return [json.loads(row[0]) for row in rows]


def test_a_sheet_page_opens_without_a_connection(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    lang = "de"
    t = site_translations(lang).gettext
    page = new_page(locale="de-DE")
    sheet_url = create_own_hand_sheet(page, live_server.url, lang, rounds=2)
    page.goto(sheet_url)
    # Once the worker is active, the page loads through it (and asks it to keep its files).
    page.evaluate("async () => { await navigator.serviceWorker.ready; }")
    page.reload()
    page.get_by_role("heading", name="Companion", level=1).wait_for()
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    page.wait_for_timeout(500)  # the worker keeps the page and its files
    live_server.stop()  # no server at all: nothing can come from the network
    try:
        page.reload()
        page.get_by_role("heading", name="Companion", level=1).wait_for()
        assert page.get_by_role("button", name=t("I am %(name)s") % {"name": "Anna"}).is_visible()
    finally:
        live_server.start()
