"""The language of a page: in its URL, negotiated at ``/``, and the translations it uses.

Every page's path starts with its language, declared with the ``lang`` convertor:
``@router.get("/{lang:lang}/sheet/new", name="scoresheet.new")``. A path with any other first
segment is simply not matched (404). Templates translate with ``{% trans %}`` / ``_()``, looked
up in every catalog domain found in ``rummykit/locale/<lang>/LC_MESSAGES/`` (``web`` first),
so each part of the site can keep its own domain.
"""

from __future__ import annotations

import gettext
from functools import cache
from importlib import resources
from io import BytesIO

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from starlette.convertors import Convertor, register_url_convertor

from rummykit.i18n import LANGUAGES, SOURCE_LANGUAGE, catalog

LANG_PATTERN = "|".join(LANGUAGES)


class LangConvertor(Convertor[str]):
    regex = LANG_PATTERN

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        if value not in LANGUAGES:
            raise ValueError(f"unknown language {value!r}")
        return value


register_url_convertor("lang", LangConvertor())


def domains(lang: str) -> list[str]:
    """The catalog domains present for a language, ``web`` first."""
    folder = resources.files("rummykit").joinpath("locale", lang, "LC_MESSAGES")
    if not folder.is_dir():
        return []
    found = sorted(
        item.name.removesuffix(".po")
        for item in folder.iterdir()
        if item.is_file() and item.name.endswith(".po")
    )
    return sorted(found, key=lambda domain: domain != "web")


@cache
def site_translations(lang: str) -> gettext.NullTranslations:
    """One translations object over every domain of ``lang`` (the first domain wins)."""
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    merged = Catalog(locale=lang, domain="site")
    for domain in domains(lang):
        source = catalog(lang, domain)
        for message in source:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            # A message another domain has not translated yet must not hide a translation.
            if (
                message.id
                and not message.fuzzy
                and all(strings)
                and merged.get(message.id, context=message.context) is None
            ):
                merged[message.id] = message
    buffer = BytesIO()
    write_mo(buffer, merged, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)
