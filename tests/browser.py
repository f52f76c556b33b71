"""Browser tests for every part of the site: a live server and Debian's Chromium via Playwright.

Loaded as a plugin by ``tests/conftest.py``, so any test may ask for these fixtures:

- ``live_server``: ``rummykit serve`` in a child process on a free port with a fresh SQLite file
  (one per test module); ``.url``, ``.stop()``, ``.start()`` (same port, same file),
  ``.restart()``. `LiveServer` can also be built by hand for a server of one's own.
- ``browser``: Chromium (``/usr/bin/chromium``, or ``$RUMMYKIT_CHROMIUM``), one per test
  module. Playwright's synchronous API holds an event loop in the thread while it runs, so
  keep browser tests in modules of their own (no ``asyncio.run`` or async tests beside them).
- ``new_page(locale=..., phone=False)``: a page in a fresh browser context (its own cookies, so
  two of them are two phones); ``phone=True`` gives a 390×844 touch screen.
- ``screenshot(page, "step")``: saves ``test-artifacts/<test>-<step>.png`` (git-ignored).

Mark browser tests ``@pytest.mark.browser``. Without Chromium they are skipped, except in CI
(``CI=true``), where that is a failure. Never run ``playwright install``: the system Chromium
is the browser.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

CHROMIUM = os.environ.get("RUMMYKIT_CHROMIUM", "/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def free_port() -> int:
    """A free port: any the system gives, or one of ``$RUMMYKIT_TEST_PORTS`` (``8100-8199``)
    when several people share a machine and each keeps to a range."""
    low, _, high = os.environ.get("RUMMYKIT_TEST_PORTS", "").partition("-")
    candidates = range(int(low), int(high) + 1) if low.isdigit() and high.isdigit() else [0]
    for candidate in candidates:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            port: int = sock.getsockname()[1]
            return port
    raise RuntimeError(f"no free port in {low}-{high}")


class LiveServer:
    """``rummykit serve`` as a child process, on one port and one database for its life.

    ``database`` is a SQLite file, or any database URL together with ``log`` (a file for the
    server's output). ``environment`` adds variables (``RUMMYKIT_POLL_SECONDS``…).
    """

    def __init__(
        self,
        database: Path | str,
        port: int | None = None,
        log: Path | None = None,
        environment: dict[str, str] | None = None,
    ) -> None:
        if isinstance(database, Path):
            self.database_url = f"sqlite:///{database}"
            self.log = log or database.with_suffix(".log")
        else:
            if log is None:
                raise ValueError("a server on a database URL needs a log file")
            self.database_url, self.log = database, log
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.environment = environment or {}

    def start(self, timeout: float = 30.0) -> None:
        env = {**os.environ, **self.environment, "RUMMYKIT_DATABASE_URL": self.database_url}
        command = [
            sys.executable,
            "-c",
            "from rummykit.cli import main; main()",
            "serve",
            "--port",
            str(self.port),
        ]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def __enter__(self) -> LiveServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("live")
    with LiveServer(folder / "site.sqlite3") as server:
        yield server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"Chromium is required in CI: {CHROMIUM} is missing")
        pytest.skip(f"no Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    # Playwright's synchronous API keeps an event loop running in this thread while it is
    # open; it is closed after each module so that later tests can run their own loops.
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    contexts: list[Any] = []

    def make(locale: str = "en-US", phone: bool = False, **options: Any) -> Any:
        settings = {**(PHONE if phone else {"viewport": {"width": 1100, "height": 900}})}
        settings.update(options)
        context = browser.new_context(locale=locale, **settings)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    name = re.sub(r"[^\w.-]+", "_", request.node.name)

    def take(page: Any, step: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}-{step}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
