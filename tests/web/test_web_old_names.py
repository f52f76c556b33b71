"""A sheet stored before today's name rule opens on the site, its names cleaned."""

from __future__ import annotations

from fastapi.testclient import TestClient

from rummykit.store import SheetRepository


def test_an_old_sheet_with_an_invisible_character_in_a_name_opens(client: TestClient) -> None:
    sheets = SheetRepository(client.app.state.db)  # type: ignore[attr-defined]
    assert client.portal is not None
    sheet_id = client.portal.call(sheets.create, "Friday", 500, ["Ann\u200b", "Bob"], "en")

    page = client.get(f"/en/sheet/{sheet_id}")
    assert page.status_code == 200
    assert "\u200b" not in page.text and ">Ann<" in page.text.replace(" ", "")
    body = client.get(f"/api/sheets/{sheet_id}").json()
    assert [p["name"] for p in body["sheet"]["players"]] == ["Ann", "Bob"]
