"""Language negotiation and catalogs compiled at run time."""

from __future__ import annotations

from rummykit.i18n import CONTEXT, LANGUAGES, negotiate, translations, untranslated


def test_accept_language_picks_the_best_supported_language() -> None:
    assert negotiate("es-ES,es;q=0.9") == "es"
    assert negotiate("it;q=1.0, fr;q=0.5, de;q=0.7") == "de"
    assert negotiate("fr;q=0") == "en"
    assert negotiate(None) == "en"
    assert negotiate("garbage;;q=x") == "en"


def test_a_missing_catalog_passes_messages_through() -> None:
    for lang in LANGUAGES:
        assert translations(lang, "no-such-domain").gettext("Hello") == "Hello"


def test_a_missing_catalog_leaves_every_message_untranslated_except_in_english() -> None:
    assert untranslated("fr", "no-such-domain", {"Hello"}) == {"Hello"}
    assert untranslated("en", "no-such-domain", {"Hello"}) == set()


def test_a_message_with_a_context_is_looked_up_with_its_context() -> None:
    # "J" as a card rank has a context of its own; without it the message is another one.
    assert untranslated("fr", "rummoli", {f"card rank{CONTEXT}J"}) == set()
    assert untranslated("fr", "rummoli", {f"no such context{CONTEXT}J"}) == {
        f"no such context{CONTEXT}J"
    }


def test_every_message_of_the_rummoli_pages_is_translated() -> None:
    from rummykit.web import catalogs

    assert catalogs.missing("rummoli") == {lang: set() for lang in LANGUAGES}
