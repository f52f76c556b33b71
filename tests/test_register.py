"""One register per language across the whole site: French says "vous", Spanish "tú" and
German "du", in every catalog (pages, tables, rules, Rummoli). The forms checked are the ones
that give the other register away without doubt (pronouns, possessives, a few verb forms);
an imperative without a pronoun can still slip through."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parent.parent / "src" / "rummykit" / "locale"
DOMAINS = ("web", "play", "rules", "rummoli")

OTHER_REGISTER = {
    # "tu", its pronouns and possessives, and verb forms only "tu" (or "je") takes.
    "fr": re.compile(r"\b(tu|toi|ton|ta|tes|te|peux|dois|veux)\b|\bt[’']", re.IGNORECASE),
    # "usted" and its imperatives.
    "es": re.compile(r"\b(usted|ustedes|espere|vuelva a|pulse|elija|juegue)\b", re.IGNORECASE),
    # "Sie" as an address: after a verb in the middle of a sentence, and "Ihnen".
    "de": re.compile(r"\b\w+en Sie\b|\bIhnen\b"),
}
SAYS = {"fr": r"\bvous\b|\bvotre\b|\bvos\b", "es": r"\btu\b|\btus\b|\bpuedes\b", "de": r"\bdu\b"}


def sentences(lang: str, domain: str) -> list[str]:
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as handle:
        catalog = read_po(handle)
    found = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        text = message.string if isinstance(message.string, str) else " ".join(message.string)
        found.append(text)
    return found


@pytest.mark.parametrize("lang", sorted(OTHER_REGISTER))
def test_each_language_keeps_one_register_everywhere(lang: str) -> None:
    wrong = []
    said = 0
    for domain in DOMAINS:
        for text in sentences(lang, domain):
            if OTHER_REGISTER[lang].search(text):
                wrong.append(f"{domain}: {text}")
            said += bool(re.search(SAYS[lang], text))
    assert not wrong, "\n".join(wrong)
    # The register kept is really the one used (not a catalog with no address at all).
    assert said >= 20
