"""Languages and message catalogs, compiled from the ``.po`` files at run time.

The source language of every message is English. Catalogs live in
``rummykit/locale/<lang>/LC_MESSAGES/<domain>.po``, one domain per part of the project (the web
pages, the rules pages, the cheat sheet…), so that parts never edit the same file. They are read
and compiled in memory with Babel, which is pure Python: no system gettext, no build step.

>>> negotiate("de-CH,de;q=0.9,en;q=0.8")
'de'
>>> negotiate("pt-BR")
'en'
"""

from __future__ import annotations

import gettext
from functools import cache
from importlib import resources
from io import BytesIO

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES: tuple[str, ...] = ("fr", "es", "de", "en")
"""The site's languages; the first three must be complete in every catalog."""

SOURCE_LANGUAGE = "en"
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"fr": "Français", "es": "Español", "de": "Deutsch", "en": "English"}


def _po_resource(lang: str, domain: str) -> resources.abc.Traversable:
    return resources.files("rummykit").joinpath("locale", lang, "LC_MESSAGES", f"{domain}.po")


@cache
def catalog(lang: str, domain: str) -> Catalog:
    """The parsed ``.po`` catalog (an empty one when the file does not exist)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    source = _po_resource(lang, domain)
    if not source.is_file():
        return Catalog(locale=lang, domain=domain)
    with source.open("rb") as handle:
        return read_po(handle, locale=lang, domain=domain)


@cache
def translations(lang: str, domain: str) -> gettext.GNUTranslations | gettext.NullTranslations:
    """Translations for ``lang`` in ``domain``; English (the source language) passes through."""
    cat = catalog(lang, domain)
    if not len(cat):
        return gettext.NullTranslations()
    buffer = BytesIO()
    write_mo(buffer, cat, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


CONTEXT = "\x04"
"""Between a message's context and its id in one key (gettext's own convention)."""


def untranslated(lang: str, domain: str, msgids: set[str]) -> set[str]:
    """The messages of ``msgids`` that ``lang`` does not translate (always none for English)."""
    if lang == SOURCE_LANGUAGE:
        return set()
    cat = catalog(lang, domain)
    missing = set()
    for msgid in msgids:
        context, _, text = msgid.rpartition(CONTEXT)
        message = cat.get(text, context or None)
        strings = message.string if message is not None else ""
        forms = strings if isinstance(strings, tuple) else (strings,)
        if message is None or message.fuzzy or not all(forms):
            missing.add(msgid)
    return missing


def negotiate(accept_language: str | None) -> str:
    """The best of our languages for an ``Accept-Language`` header (English when none fits)."""
    if not accept_language:
        return DEFAULT_LANGUAGE
    choices: list[tuple[float, int, str]] = []
    for order, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGUAGES and quality > 0:
            choices.append((-quality, order, primary))
    return min(choices)[2] if choices else DEFAULT_LANGUAGE
