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
        for points in (("0", "30"), ("12", "-100")):
            page.get_by_label("Anna", exact=True).fill(points[0])
            page.get_by_label("Ben", exact=True).fill(points[1])
            page.get_by_role("button", name=t("Save round %(n)s") % {"n": 1}).or_(
                page.get_by_role("button", name=t("Save round %(n)s") % {"n": 2})
            ).click()
            page.locator(".notice").wait_for()
        before = httpx.get(f"{server.url}/api/sheets/{sheet_id}").json()
        assert before["version"] == 2

        server.stop()
        page.locator("[data-connection]").wait_for(state="visible")  # the page notices
        server.start()  # same port, same SQLite file

        after = httpx.get(f"{server.url}/api/sheets/{sheet_id}").json()
        assert after == before
        # A change made right after the restart reaches the open page once it reconnects.
        act(server, sheet_id, 2, {"t": "join", "name": "Cleo", "start": "zero"})
        page.get_by_label("Cleo", exact=True).wait_for(timeout=15_000)
        assert page.locator("[data-connection]").is_hidden()
        screenshot(page, "after-restart")
        totals = {
            p["name"]: p["total"]
            for p in httpx.get(f"{server.url}/api/sheets/{sheet_id}").json()["sheet"]["players"]
        }
        assert totals == {"Anna": 12, "Ben": -70, "Cleo": 0}

    # A third start on the same file, with the page gone: still all there.
    with LiveServer(tmp_path / "restart.sqlite3") as server:
        final = httpx.get(f"{server.url}/api/sheets/{sheet_id}").json()
        assert final["version"] == 3
        assert [r["number"] for r in final["sheet"]["rounds"]] == [1, 2]
