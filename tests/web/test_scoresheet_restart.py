"""Nothing entered is lost when the server restarts, and open pages catch up by themselves."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser import LiveServer

from rummykit.web.language import site_translations

pytestmark = pytest.mark.browser


def act(server: LiveServer, sheet_id: str, version: int, action: dict[str, Any]) -> int:
    response = httpx.post(
        f"{server.url}/api/sheets/{sheet_id}/actions",
        json={"version": version, "action": action},
        timeout=10,
    )
    assert response.status_code == 200, response.text
    return int(response.json()["version"])


def test_a_restart_in_the_middle_of_a_sheet_loses_nothing(
    tmp_path: Path, new_page: Callable[..., Any], screenshot: Callable[[Any, str], Any]
) -> None:
    t = site_translations("de").gettext
    with LiveServer(tmp_path / "restart.sqlite3") as server:
        created = httpx.post(
            f"{server.url}/api/sheets",
            json={"name": "Neustart", "players": ["Anna", "Ben"], "lang": "de", "limit": 300},
        ).json()
        sheet_id = created["id"]
        page = new_page(locale="de-DE", phone=True)
        page.goto(server.url + created["url"])
        # Two rounds by form, one join by the API.
        for n, points in enumerate((("0", "30"), ("12", "-100")), start=1):
            page.get_by_label("Anna", exact=True).fill(points[0])
            page.get_by_label("Ben", exact=True).fill(points[1])
            page.get_by_role("button", name=t("Save round %(n)s") % {"n": n}).click()
            # This round's own notice (the previous one may still be on the page).
            page.get_by_text(t("Round %(n)s saved.") % {"n": n}).wait_for()
        before = httpx.get(f"{server.url}/api/sheets/{sheet_id}").json()
        assert before["version"] == 2

        server.stop()
        page.locator("[data-connection]").wait_for(state="visible")  # the page notices
        # A round saved while the server is away is not lost on the phone: it stays typed.
        page.get_by_label("Anna", exact=True).fill("5")
        page.get_by_label("Ben", exact=True).fill("8")
        save = page.get_by_role("button", name=t("Save round %(n)s") % {"n": 3})
        save.click()
        page.locator("#send-error").wait_for()
        assert page.get_by_role("alert").inner_text() == t(
            "The server could not be reached: nothing was sent, and what you typed is still "
            "here. Try again in a moment."
        )
        assert page.get_by_label("Anna", exact=True).input_value() == "5"
        screenshot(page, "server-away")

        server.start()  # same port, same SQLite file
        after = httpx.get(f"{server.url}/api/sheets/{sheet_id}").json()
        assert after == before
        save.click()
        page.get_by_text(t("Round %(n)s saved.") % {"n": 3}).wait_for()
        assert page.locator("#send-error").count() == 0

        # A change made through the API reaches the open page over its new connection.
        act(server, sheet_id, 3, {"t": "join", "name": "Cleo", "start": "zero"})
        page.get_by_label("Cleo", exact=True).wait_for(timeout=15_000)
        assert page.locator("[data-connection]").is_hidden()
        screenshot(page, "after-restart")
        players = httpx.get(f"{server.url}/api/sheets/{sheet_id}").json()["sheet"]["players"]
        assert {p["name"]: p["total"] for p in players} == {"Anna": 17, "Ben": -62, "Cleo": 0}

    # A third start on the same file, with the page gone: still all there.
    with LiveServer(tmp_path / "restart.sqlite3") as server:
        final = httpx.get(f"{server.url}/api/sheets/{sheet_id}").json()
        assert final["version"] == 4
        assert [r["number"] for r in final["sheet"]["rounds"]] == [1, 2, 3]
