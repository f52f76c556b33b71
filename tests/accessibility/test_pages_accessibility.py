"""Every page of the site passes axe-core's WCAG 2.0/2.1/2.2 A and AA rules, in four languages.

One browser context per language and colour scheme visits the pages in turn; each page is
audited once it has loaded (and, for pages with a script, once the script has run). The test
fails with axe's own description of every violation found.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from .axe import audit

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-GB", "fr": "fr-FR", "es": "es-ES", "de": "de-DE"}


def sheets(server: Any, lang: str) -> tuple[str, str]:
    """A new sheet and a sheet with one round entered, in ``lang``."""
    api = f"{server.url}/api/sheets"
    players = ["Anna", "Ben", "Cleo"]
    new = httpx.post(api, json={"name": "Freitag", "players": players, "lang": lang}).json()
    played = httpx.post(api, json={"name": "Samstag", "players": players, "lang": lang}).json()
    entries = [{"p": 0, "v": 0, "out": True}, {"p": 1, "v": 25}, {"p": 2, "v": 40}]
    body = {"version": 0, "action": {"t": "round", "entries": entries}}
    answer = httpx.post(f"{api}/{played['id']}/actions", json=body)
    assert answer.status_code == 200
    return new["url"], played["url"]


def pages(server: Any, lang: str) -> list[str]:
    new_sheet, played_sheet = sheets(server, lang)
    return [
        f"/{lang}/",
        f"/{lang}/rules/romme",
        f"/{lang}/rules/rummoli",
        f"/{lang}/rules/tiles",
        f"/{lang}/romme/new",
        f"/{lang}/tiles/new",
        f"/{lang}/rummoli/new",
        f"/{lang}/romme/learn",
        f"/{lang}/tiles/learn",
        f"/{lang}/tables/new?game=tiles",
        f"/{lang}/join",
        f"/{lang}/join?code=zzzzzz",
        f"/{lang}/sheet/new",
        new_sheet,
        played_sheet,
        f"{played_sheet}/print",
        f"{played_sheet}/round/1",
        f"/{lang}/rummoli/board",
        f"/{lang}/rummoli/demo",
        f"/{lang}/rummoli/demo?step=30",
        f"/{lang}/no-such-page",
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_in_every_language_passes_the_wcag_rules(
    live_server: Any, new_page: Callable[..., Any], scheme: str
) -> None:
    found: list[str] = []
    for lang, locale in LANGUAGES.items():
        page = new_page(locale=locale, color_scheme=scheme)
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        for path in pages(live_server, lang):
            page.goto(f"{live_server.url}{path}")
            page.wait_for_load_state("load")
            found += audit(page, f"{scheme} {path}")
        assert not errors, errors
    assert not found, "\n" + "\n".join(found)
