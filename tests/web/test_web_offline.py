"""The site as an installable app: its manifest, icons and service worker."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_every_page_names_the_manifest(client: TestClient) -> None:
    page = client.get("/fr/").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


def test_the_manifest_describes_an_installable_app(client: TestClient) -> None:
    response = client.get("/manifest.webmanifest", headers={"Accept-Language": "de"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/de/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200


def test_the_service_worker_is_served_from_the_root_as_a_script(client: TestClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    assert 'addEventListener("fetch"' in response.text


def test_the_read_only_page_has_the_chart(client: TestClient) -> None:
    from .helpers import create_sheet, enter
    from .test_web_sheet_view import view_link

    path = create_sheet(client)
    enter(client, path, {0: "0", 1: "25", 2: "40"}, out=0)
    assert "data-chart" in client.get(view_link(client, path)).text
