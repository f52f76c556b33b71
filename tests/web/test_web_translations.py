"""No page shows an untranslated word, in any language.

Three checks: every message of the domain ``web`` is translated into French, Spanish and German;
rendered in those languages, no page shows an English message; and with a marking catalog that
brackets every translated message, every word on every page is inside brackets or is data (a
name, a number), so no text bypasses the catalogs.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from html import unescape
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient

from rummykit.i18n import LANGUAGE_NAMES, LANGUAGES, untranslated
from rummykit.web import catalogs, rendering
from rummykit.web.language import site_translations

from .helpers import create_sheet, enter

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
NAMES = ("Freitag", "Ann", "Bob", "Cleo", "Dora", "Eve")
SHOWN_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "data-copied", "data-placeholder"}


class VisibleText(HTMLParser):
    """The text a person sees or hears: text nodes and the attributes that are read out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if value and (name in SHOWN_ATTRIBUTES or name.startswith("data-msg-")):
                self.texts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(data)


def visible_texts(html: str) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    return [" ".join(t.split()) for t in parser.texts]


def pages(client: TestClient, lang: str) -> Iterator[tuple[str, str]]:
    """Every page of the site's own parts, in every state worth seeing."""
    yield "home", client.get(f"/{lang}/").text
    yield "new", client.get(f"/{lang}/sheet/new").text
    yield "new-error", client.post(f"/{lang}/sheet/new", data={"name": "", "limit": "500"}).text
    yield "404", client.get(f"/{lang}/nothing-here").text
    path = create_sheet(client, lang, name=NAMES[0], players=NAMES[1:4], limit="300")
    yield "sheet-empty", client.get(path).text
    yield "print-empty", client.get(f"{path}/print").text
    enter(client, path, {0: "", 1: "25", 2: "40"}, out=0)
    yield "sheet-round", client.get(f"{path}?ok=round").text
    yield "print-one", client.get(f"{path}/print").text
    client.post(f"{path}/join", data={"name": "Dora", "version": "1"})
    yield "sheet-joined", client.get(f"{path}?ok=join").text
    enter(client, path, {0: "10", 1: "-100", 2: "5", 3: "7"}, out=1)
    client.post(f"{path}/leave", data={"player": "2", "version": "3"})
    yield "sheet-left", client.get(f"{path}?ok=leave").text
    yield "round-error", enter(client, path, {0: "x", 1: "", 3: "1"}, out=None).text
    yield "round-conflict", enter(client, path, {0: "1", 1: "0", 3: "1"}, out=1, version=0).text
    yield "join-error", client.post(f"{path}/join", data={"name": "ann", "version": "4"}).text
    yield "correct", client.get(f"{path}/round/1").text
    yield "correct-error", client.post(f"{path}/round/1", data={"version": "4"}).text
    client.post(
        f"{path}/round/1", data={"p0": "0", "p1": "20", "p2": "40", "out": "0", "version": "4"}
    )
    yield "sheet-corrected", client.get(f"{path}?ok=correct-1").text
    enter(client, path, {0: "300", 1: "0", 3: "2"}, out=1)
    yield "sheet-over", client.get(path).text
    yield "print-over", client.get(f"{path}/print").text
    yield "csv", client.get(f"{path}/export.csv").text


def test_every_message_of_the_web_domain_is_translated() -> None:
    ids = catalogs.msgids("web")
    assert len(ids) > 100
    for lang in TRANSLATED:
        assert untranslated(lang, "web", ids) == set(), lang


def test_the_extraction_config_finds_the_python_and_template_messages() -> None:
    ids = catalogs.msgids("web")
    assert "The point limit must be a whole number from %(minimum)s to %(maximum)s." in ids
    assert "Rommé score sheet" in ids  # marked with N_ in the home page's list
    assert "Enter round %(n)s" in ids  # a {% trans %} block of a template
    assert "%(count)s round played" in ids  # a plural


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_english_message_leaks_into_a_translated_page(client: TestClient, lang: str) -> None:
    translations = site_translations(lang)
    english = {m for m in catalogs.msgids("web") if translations.gettext(m) != m and m not in NAMES}
    for name, html in pages(client, lang):
        texts = visible_texts(html) if name != "csv" else html.replace(",", "\n").splitlines()
        joined = unescape("\n".join(texts))
        for message in english:
            literal = [p.strip() for p in re.split(r"%\(\w+\)s", message) if p.strip()]
            for part in literal:
                if part in texts or (len(part) >= 12 and part in joined):
                    pytest.fail(f"{lang} page {name!r} shows the English {part!r}")


class Marking(gettext.NullTranslations):
    """Brackets every translated message, so that text from elsewhere stands out."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return f"⟦{message}⟧"

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.ngettext(singular, plural, n)


def test_every_word_on_every_page_comes_from_a_catalog(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    marking = Marking()
    import rummykit.web.app as app_module
    import rummykit.web.routes.scoresheet as sheet_module

    for module in (rendering, app_module, sheet_module):
        monkeypatch.setattr(module, "site_translations", lambda lang: marking)
    rendering.environment.cache_clear()
    data = {*NAMES, "rummykit", "UTC", *LANGUAGE_NAMES.values(), *(c.upper() for c in LANGUAGES)}
    try:
        for name, html in pages(client, "en"):
            if name == "csv":
                continue
            for text in visible_texts(html):
                rest = re.sub(r"⟦[^⟧]*⟧", " ", unescape(text))
                rest = re.sub(r"https?://\S+", " ", rest)
                words = [w for w in re.findall(r"[^\W\d_]+", rest) if w not in data]
                assert not words, f"page {name!r}: {text!r} is not translated"
    finally:
        rendering.environment.cache_clear()


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(href.split("#")[0])


def crawl(client: TestClient, lang: str, limit: int = 80) -> Iterator[tuple[str, str]]:
    """Every page reachable from the home page by links that stay in the language (one visit
    per path: ``?step=3`` and ``?step=4`` of one page count once)."""
    seen = {f"/{lang}/"}
    queue = [f"/{lang}/"]
    visited = 0
    while queue and visited < limit:
        path = queue.pop(0)
        visited += 1
        response = client.get(path)
        assert response.status_code == 200, path
        if not response.headers.get("content-type", "").startswith("text/html"):
            continue
        yield path, response.text
        links = Links()
        links.feed(response.text)
        for href in links.hrefs:
            href = href.split("?")[0]
            if href.startswith(f"/{lang}/") and href not in seen:
                seen.add(href)
                queue.append(href)


def domains_with_sources() -> list[str]:
    return sorted(p.stem for p in (catalogs.PACKAGE / "locale").glob("*.cfg"))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_page_of_the_site_is_translated(client: TestClient, lang: str) -> None:
    """All parts together: no page reachable from the home page shows an English message of
    any domain. (Each part checks that its own catalogs are complete.)"""
    translations = site_translations(lang)
    english: set[str] = set()
    for domain in domains_with_sources():
        english |= {m for m in catalogs.msgids(domain) if translations.gettext(m) != m}
    pages_seen = 0
    for path, html in crawl(client, lang):
        pages_seen += 1
        texts = visible_texts(html)
        joined = unescape("\n".join(texts))
        for message in english:
            for part in (p.strip() for p in re.split(r"%\(\w+\)s|\{\w+\}", message)):
                if not re.search(r"[^\W\d_]{2}", part):
                    continue  # punctuation or a single letter says nothing of the language
                if part in texts or (len(part) >= 16 and part in joined):
                    pytest.fail(f"{lang} page {path} shows the English {part!r}")
    assert pages_seen >= 3
