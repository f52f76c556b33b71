"""What the Rummoli page tests share: the text a page shows, and a catalog that marks it."""

from __future__ import annotations

import gettext
from html.parser import HTMLParser

SHOWN_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}


class VisibleText(HTMLParser):
    """The text a person sees or hears: text nodes and the attributes that are read out or
    shown by the page's script (``data-msg-…``)."""

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


class Marking(gettext.NullTranslations):
    """Brackets every message that goes through a catalog, so that other text stands out."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return f"⟦{message}⟧"

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self.ngettext(singular, plural, n)
