"""Building sheets through the site's forms, for the web tests."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def create_sheet(
    client: TestClient,
    lang: str = "en",
    name: str = "Friday",
    players: tuple[str, ...] = ("Ann", "Bob", "Cleo"),
    limit: str = "500",
    **extra: str,
) -> str:
    """Create a sheet with the form; return its path (``/en/sheet/<id>``)."""
    data: dict[str, Any] = {"name": name, "limit": limit, "player": list(players), **extra}
    response = client.post(f"/{lang}/sheet/new", data=data)
    assert response.status_code == 303, response.text
    return str(response.headers["location"])


def version(client: TestClient, path: str) -> int:
    sheet_id = path.rsplit("/", 1)[1]
    return int(client.get(f"/api/sheets/{sheet_id}").json()["version"])


def enter(
    client: TestClient, path: str, points: dict[int, str], out: int | None = None, **extra: Any
) -> Any:
    data: dict[str, Any] = {f"p{p}": v for p, v in points.items()}
    data["version"] = str(extra.pop("version", version(client, path)))
    if out is not None:
        data["out"] = str(out)
    return client.post(f"{path}/round", data=data | extra)
