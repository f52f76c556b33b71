"""The site's foundation: languages in the URL, the switcher, the home page, errors, static."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from rummykit.web import errors, home
from rummykit.web.language import site_translations
from rummykit.web.routes import home as routes_home


def test_the_root_redirects_by_accept_language(client: TestClient) -> None:
    for header, lang in (("de-CH,de;q=0.9", "de"), ("es", "es"), ("fr-FR", "fr"), ("pt", "en")):
        response = client.get("/", headers={"Accept-Language": header})
        assert response.status_code == 307
        assert response.headers["location"] == f"/{lang}/"
        assert "Accept-Language" in response.headers["vary"]


def test_the_root_remembers_the_last_language_used(client: TestClient) -> None:
    client.get("/es/")
    response = client.get("/", headers={"Accept-Language": "de"})
    assert response.headers["location"] == "/es/"


def test_every_language_has_its_home_page_and_html_lang(client: TestClient) -> None:
    for lang in ("fr", "es", "de", "en"):
        response = client.get(f"/{lang}/")
        assert response.status_code == 200
        assert f'<html lang="{lang}">' in response.text


def test_the_switcher_keeps_the_current_page_and_query(client: TestClient) -> None:
    html = client.get("/de/sheet/new?x=1").text
    links = set(re.findall(r'href="(/[a-z]{2}/sheet/new\?x=1)" hreflang="([a-z]{2})"', html))
    assert links == {(f"/{lang}/sheet/new?x=1", lang) for lang in ("fr", "es", "de", "en")}
    assert 'aria-current="true"' in html


def test_the_home_page_links_what_exists_and_shows_the_rest_as_coming(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    html = client.get("/en/").text
    assert 'href="/en/sheet/new"' in html
    for href in re.findall(r'href="(/en/[^"]*)"', html):
        assert client.get(href).status_code == 200, href
    planned = home.Entry("nothing.yet", "Rommé", "Rommé")
    sections = (*home.SECTIONS, home.Section("Tools", (planned,)))
    monkeypatch.setattr(routes_home, "SECTIONS", sections)
    html = client.get("/en/").text
    assert html.count('class="card coming"') == 1
    assert "nothing.yet" not in html


def test_unknown_pages_and_languages_are_translated_404s(client: TestClient) -> None:
    response = client.get("/de/no-such-page")
    assert response.status_code == 404
    assert "Unter dieser Adresse gibt es nichts." in response.text
    assert client.get("/it/").status_code == 404
    api = client.get("/api/sheets/AAAAAAAAAAAAAAAAAAAAAA?lang=fr")
    assert api.status_code == 404
    assert api.json()["error"]["message"] == "Il n'y a rien à cette adresse."


def test_static_files_and_the_pinned_htmx_are_served(client: TestClient) -> None:
    html = client.get("/en/").text
    src = re.search(r'src="(/static/vendor/htmx-2\.[0-9.]+\.min\.js\?v=\w+)"', html)
    assert src is not None
    script = client.get(src.group(1))
    assert script.status_code == 200 and "htmx" in script.text[:200]
    assert client.get("/static/vendor/htmx-2.0.11.LICENSE.txt").status_code == 200
    css = re.search(r'href="(/static/css/site\.css\?v=\w+)"', html)
    assert css is not None and client.get(css.group(1)).status_code == 200


def test_error_codes_become_translated_sentences() -> None:
    german = site_translations("de")
    text = errors.message(
        "points_out_of_bounds", {"player": "Ann", "minimum": -999, "maximum": 999}, german
    )
    assert text == "Ann: Die Punkte müssen zwischen -999 und 999 liegen."
    assert errors.message("missing_entries", {"players": ["A", "B"]}, german).endswith("A, B.")
    # Unknown codes and missing parameters never garble: a generic sentence names the code.
    assert errors.message("nope", {}, german) == "Das ist nicht erlaubt (nope)."
    assert errors.message("unknown_round", {}, german) == "Das ist nicht erlaubt (unknown_round)."


def test_other_parts_register_their_error_codes() -> None:
    errors.register({"test_only_code": errors.N_("Only a test: %(x)s.")})
    try:
        assert (
            errors.message("test_only_code", {"x": 1}, site_translations("en")) == "Only a test: 1."
        )
        errors.register({"test_only_code": errors.N_("Only a test: %(x)s.")})  # same: fine
        try:
            errors.register({"test_only_code": "Something else"})
        except ValueError:
            pass
        else:
            raise AssertionError("a code cannot get a second message")
    finally:
        del errors.MESSAGES["test_only_code"]


def test_health_check(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"ok": True}
