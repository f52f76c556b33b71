"""The Content-Security-Policy holds in a real browser: no page of the site breaks it.

Each main page is opened in Chromium; every violation the browser reports (as a
``securitypolicyviolation`` event, or as the console message it prints for one) fails the test.
The pages are also used a little (a game is started from its form, the score sheet takes a
round, the demonstration steps), so that what their scripts do after loading is checked too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.browser

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
});
"""


class Watched:
    """A page whose CSP violations and console errors are collected."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.console: list[str] = []
        page.add_init_script(RECORD_VIOLATIONS)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.console.append(f"page error: {error}"))

    def _console(self, message: Any) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            self.console.append(text)

    def visit(self, url: str) -> None:
        response = self.page.goto(url)
        assert response is not None and response.ok, url
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        self.page.wait_for_load_state("networkidle")
        self.check(url)

    def check(self, where: str) -> None:
        violations = self.page.evaluate("window.__violations")
        assert violations == [], (where, violations)
        assert self.console == [], (where, self.console)


def test_no_page_breaks_the_content_security_policy(
    live_server: Any, new_page: Callable[..., Any]
) -> None:
    base = live_server.url
    watched = Watched(new_page())
    page = watched.page
    for path in ("/en/", "/en/rules/romme", "/en/rules/tiles", "/en/rules/rummoli"):
        watched.visit(base + path)

    for kind, table in (
        ("romme", "[data-romme-table]"),
        ("tiles", "[data-tiles-table]"),
        ("rummoli", "[data-rummoli-table]"),
    ):
        watched.visit(f"{base}/en/{kind}/new")
        page.click("button[type=submit].primary")
        page.wait_for_selector(table)
        page.wait_for_load_state("networkidle")
        watched.check(f"{kind} table")

    sheet = httpx.post(f"{base}/api/sheets", json={"name": "CSP", "players": ["Ann", "Bob"]})
    sheet_url = base + sheet.json()["url"]
    watched.visit(sheet_url)
    page.fill("input[name=p0]", "12")
    page.fill("input[name=p1]", "0")
    page.check("input[name=out][value='1']")
    page.click("form[data-round-form] button[type=submit]")
    page.wait_for_url("**ok=round**")
    page.wait_for_load_state("networkidle")
    watched.check("score sheet after a round")

    watched.visit(f"{base}/en/sheet/new")
    watched.visit(f"{base}/en/rummoli/board")
    watched.visit(f"{base}/en/rummoli/demo")
    page.keyboard.press("ArrowRight")
    page.wait_for_load_state("networkidle")
    watched.check("demo after a step")
