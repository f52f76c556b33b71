"""Fixtures of the Rummoli page tests: the app on a fresh SQLite file, in process."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from fastapi.testclient import TestClient  # noqa: E402

from rummykit.web import create_app  # noqa: E402


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("rummoli-web")
    app = create_app(f"sqlite:///{folder / 'web.sqlite3'}", poll_seconds=0.2)
    with TestClient(app, follow_redirects=False) as test_client:
        yield test_client
