"""Fixtures of the play tests: the app on a fresh SQLite file, in process."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from fastapi.testclient import TestClient  # noqa: E402

from rummykit.web import create_app  # noqa: E402
from rummykit.web.play.service import PlayService  # noqa: E402


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The site in process; its computer seats think in threads (no worker processes to start
    for every test: the browser tests' server and the restart test use them)."""
    app = create_app(f"sqlite:///{tmp_path / 'play.sqlite3'}", poll_seconds=0.2)
    with TestClient(app, follow_redirects=False) as test_client:
        app.state.play = PlayService(app.state.db, app.state.hub, bot_workers=0)
        yield test_client
