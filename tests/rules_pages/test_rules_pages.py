"""The rules pages of Rommé, Rummoli and tile rummy, in French, Spanish, German and English.

Every page renders in every language; every message of the domain ``rules`` is translated; no
English sentence shows on a translated page, and no word on a page bypasses the catalogs; every
variant names an option that exists in its game's ``Rules``; every link leads somewhere.
"""

from __future__ import annotations

import dataclasses
import gettext
import re
import warnings
from collections.abc import Iterator
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi import FastAPI

from rummykit import romme, rummoli, tiles
from rummykit.i18n import LANGUAGE_NAMES, LANGUAGES, translations, untranslated
from rummykit.web import catalogs, create_app, rendering
from rummykit.web.language import site_translations
from rummykit.web.routes import home
from rummykit.web.rules import PAGES
from rummykit.web.rules import router as rules_router

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
from fastapi.testclient import TestClient  # noqa: E402

GAMES = ("romme", "rummoli", "tiles")
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
RULES = {"romme": romme.Rules, "rummoli": rummoli.Rules, "tiles": tiles.Rules}
SECTIONS = ("need", "setup", "turn", "scoring", "special", "variants", "tips", "faq")

# Written out here, so that a catalog that lost its translations cannot pass.
TITLES = {
    "en": ("Rommé rules", "Rummoli rules", "Tile rummy rules"),
    "fr": ("Règles du Rommé", "Règles du Rummoli", "Règles du rami des chiffres"),
    "es": ("Reglas del Rommé", "Reglas del Rummoli", "Reglas del rummy de fichas"),
    "de": ("Rommé-Regeln", "Rummoli-Regeln", "Regeln für Zahlen-Rommé"),
}
# The options each page must at least link (named as in the games' specifications).
REQUIRED_OPTIONS = {
    "romme": {"opening_min", "discard_pickup", "go_out", "hand_romme", "joker_penalty"},
    "rummoli": {"combos", "final_split", "poker", "widow_payers_barred", "starting_chips"},
    "tiles": {"joker_retrieval", "opening_min", "rack_size", "scoring"},
}


class Page(HTMLParser):
    """What a page shows (text and read-out attributes), its links, ids and variant options."""

    SHOWN = frozenset({"title", "aria-label", "alt", "placeholder"})

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.options: list[tuple[str, str | None]] = []
        self._skip = 0
        self.feed(html)
        self.texts = [" ".join(t.split()) for t in self.texts]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("script", "style"):
            self._skip += 1
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))
        if values.get("data-option"):
            self.options.append((str(values["data-option"]), values.get("href")))
        self.texts.extend(str(v) for k, v in attrs if v and k in self.SHOWN)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(data)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> FastAPI:
    database = tmp_path_factory.mktemp("rules") / "rules.sqlite3"
    return create_app(f"sqlite:///{database}", poll_seconds=0.2)


@pytest.fixture(scope="module")
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, follow_redirects=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def pages(client: TestClient) -> dict[tuple[str, str], str]:
    """Every rules page in every language, fetched once."""
    found = {}
    for lang in LANGUAGES:
        for game in GAMES:
            response = client.get(f"/{lang}/rules/{game}")
            assert response.status_code == 200, (lang, game)
            assert response.headers["content-type"].startswith("text/html")
            found[lang, game] = response.text
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_rules_page_renders_with_its_title_in_its_language(
    pages: dict[tuple[str, str], str], lang: str
) -> None:
    for game, title in zip(GAMES, TITLES[lang], strict=True):
        page = Page(pages[lang, game])
        assert f'<html lang="{lang}">' in pages[lang, game]
        assert title in page.texts, (lang, game)
        for section in SECTIONS:
            assert section in page.ids, (lang, game, section)


def test_every_message_of_the_rules_domain_is_translated() -> None:
    ids = catalogs.msgids("rules")
    assert len(ids) > 250
    for lang in TRANSLATED:
        assert untranslated(lang, "rules", ids) == set(), lang


def test_the_extraction_finds_templates_route_module_and_cheat_sheet() -> None:
    ids = catalogs.msgids("rules")
    assert "Rommé rules" in ids  # the route module and the page title
    assert "The sequence in four rules" in ids  # the cheat sheet
    assert "Is 12 13 1 a run?" in ids  # a template
    assert any(m.startswith("<strong>Hand-Rommé</strong>") for m in ids)  # a {% trans %} block


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_other_domain_overrides_a_translation_of_the_rules_pages(lang: str) -> None:
    """Every domain is searched when a page renders (``web`` first): a message of the rules
    pages must come out as the ``rules`` catalog translates it."""
    own = translations(lang, "rules")
    site = site_translations(lang)
    for message in catalogs.extract("rules"):
        if not message.id or all("printing" in path for path, _ in message.locations):
            continue
        assert site.gettext(message.id) == own.gettext(message.id), message.id


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_english_text_leaks_into_a_translated_page(
    pages: dict[tuple[str, str], str], lang: str
) -> None:
    translations = site_translations(lang)
    english = {m for m in catalogs.msgids("rules") if translations.gettext(m) != m}
    for game in GAMES:
        # Sentences only: a list of numbers (the Rummoli deal table) reads the same everywhere.
        english_texts = {
            t
            for t in Page(pages["en", game]).texts
            if len(t) >= 12 and " " in t and re.search(r"[^\W\d_]", t)
        }
        texts = Page(pages[lang, game]).texts
        joined = unescape("\n".join(texts))
        for text in english_texts:
            assert text not in texts, f"{lang} {game} shows the English {text!r}"
        for message in english:
            plain = re.sub(r"<[^>]+>", "", message).replace("**", "")
            if len(plain) >= 12:
                assert plain not in joined, f"{lang} {game} shows the English {plain!r}"


class Marking(gettext.NullTranslations):
    """Brackets every message that goes through a catalog, so other text stands out."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"


def test_every_word_on_the_rules_pages_comes_from_a_catalog(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    marking = Marking()
    monkeypatch.setattr(rendering, "site_translations", lambda lang: marking)
    rendering.environment.cache_clear()
    data = {"rummykit", "Rummoli", *LANGUAGE_NAMES.values(), *(c.upper() for c in LANGUAGES)}
    try:
        with TestClient(app) as client:
            for game in GAMES:
                html = client.get(f"/en/rules/{game}").text
                # A translated paragraph may hold markup (<strong>…</strong>): drop the tags
                # first, so that its brackets enclose all of its words.
                body = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
                body = re.sub(r"<[^>]*>", " ", body)
                attributes = [t for t in Page(html).texts if t not in body]
                for text in [*attributes, *unescape(body).splitlines()]:
                    rest = re.sub(r"⟦[^⟧]*⟧", " ", text, flags=re.S)
                    words = [w for w in re.findall(r"[^\W\d_]+", rest) if w not in data]
                    assert not words, f"{game}: {text!r} is not translated"
    finally:
        rendering.environment.cache_clear()


@pytest.mark.parametrize("game", GAMES)
def test_every_variant_names_an_option_of_the_games_rules(
    pages: dict[tuple[str, str], str], game: str
) -> None:
    fields = {field.name for field in dataclasses.fields(RULES[game])}
    for lang in LANGUAGES:
        options = {name for name, _ in Page(pages[lang, game]).options}
        assert options <= fields, (lang, game, options - fields)
        assert REQUIRED_OPTIONS[game] <= options, (lang, game)


def test_variants_link_to_the_new_game_form_once_it_exists(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'forms.sqlite3'}")

    with TestClient(app) as client:
        for game in GAMES:
            html = client.get(f"/de/rules/{game}").text
            assert "der Link führt dich hin" in html
            page = Page(html)
            assert page.options
            for name, href in page.options:
                assert href == f"/de/{game}/new#opt-{name}"
            assert app.url_path_for(f"{game}.play", lang="de") in page.links


def test_without_the_game_pages_variants_are_plain_names() -> None:
    app = FastAPI()  # the home and rules pages alone: no game has its new-game form
    app.include_router(home.router)
    app.include_router(rules_router)
    with TestClient(app) as client:
        for lang in LANGUAGES:
            for game in GAMES:
                html = client.get(f"/{lang}/rules/{game}").text
                assert all(href is None for _, href in Page(html).options)
        html = client.get("/en/rules/romme").text
        assert "the link takes you to it" not in html  # no promise of a link


@pytest.mark.parametrize("game", GAMES)
def test_every_link_of_a_rules_page_leads_somewhere(
    client: TestClient, pages: dict[tuple[str, str], str], game: str
) -> None:
    page = Page(pages["es", game])
    companion = {"rummoli": "/es/chips/new", "tiles": "/es/sheet/new/tiles"}.get(game)
    assert (companion or "/es/sheet/new") in page.links  # what keeps the score at the table
    for target in (other for other in GAMES if other != game):
        assert f"/es/rules/{target}" in page.links
    for href in page.links:
        if href.startswith("#"):
            assert href[1:] in page.ids, href
        elif href.startswith("/") and not href.startswith("/static/"):
            path = href.split("#")[0].split("?")[0]
            status = client.get(path).status_code
            assert status in (200, 307), (href, status)


def test_the_rummoli_page_offers_the_cheat_sheet_and_the_board(
    pages: dict[tuple[str, str], str],
) -> None:
    page = Page(pages["fr", "rummoli"])
    assert "/fr/rummoli/cheatsheet.pdf" in page.links
    html = pages["fr", "rummoli"]
    assert html.count('class="rummoli-box') == 9
    summaries = [re.sub(r"<[^>]+>", "", s) for s in re.findall(r"<summary>(.*?)</summary>", html)]
    assert summaries == ["10♠", "V♦", "D♣", "Poker", "Rummoli", "R♥", "7 8 9", "R♦ A♦", "A♠"]
    assert '<span class="suit-red">♦</span>' in html  # red suits are drawn red


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_cheat_sheet_downloads_in_the_pages_language(client: TestClient, lang: str) -> None:
    response = client.get(f"/{lang}/rummoli/cheatsheet.pdf")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-disposition"] == f'attachment; filename="rummoli-{lang}.pdf"'
    assert response.content.startswith(b"%PDF-")
    again = client.get(
        f"/{lang}/rummoli/cheatsheet.pdf", headers={"If-None-Match": response.headers["etag"]}
    )
    assert again.status_code == 304


def test_a_boosted_link_to_the_cheat_sheet_becomes_a_real_download(client: TestClient) -> None:
    response = client.get("/de/rummoli/cheatsheet.pdf", headers={"HX-Request": "true"})
    assert response.status_code == 204
    assert response.headers["hx-redirect"] == "/de/rummoli/cheatsheet.pdf"


def test_every_page_is_declared_with_its_template() -> None:
    templates = Path(rendering.__file__).parent / "templates" / "rules"
    assert set(PAGES) == set(GAMES)
    for game in PAGES:
        assert (templates / f"{game}.html").is_file()


def test_an_unknown_language_is_not_a_rules_page(client: TestClient) -> None:
    assert client.get("/it/rules/romme").status_code == 404


def test_no_sentence_runs_into_the_next_without_a_space(
    pages: dict[tuple[str, str], str],
) -> None:
    joined = re.compile(r"[a-zß-ÿ][.!?][A-ZÀ-Þ][a-zß-ÿ]")
    for (lang, game), html in pages.items():
        for text in Page(html).texts:
            assert not joined.search(text), (lang, game, text)
