"""Extracting messages and updating the catalogs, domain by domain (a source checkout only).

The extraction config of a domain is ``src/rummykit/locale/<domain>.cfg``, in the format of
``pybabel extract -F``, with paths relative to the project's root. `update` extracts the
messages and merges them into ``locale/<lang>/LC_MESSAGES/<domain>.po`` for every language but
English (the source language): new messages arrive untranslated, vanished ones are dropped,
translations are kept. Then translate the empty ``msgstr`` lines.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

import rummykit
from rummykit.i18n import CONTEXT, LANGUAGES, SOURCE_LANGUAGE, untranslated

PACKAGE = Path(rummykit.__file__).resolve().parent
ROOT = PACKAGE.parent.parent
"""The project's root, for a source checkout (``src/rummykit`` lies below it)."""


def config_path(domain: str) -> Path:
    return PACKAGE / "locale" / f"{domain}.cfg"


def extract(domain: str) -> Catalog:
    """Every message of ``domain``'s sources, as a template catalog."""
    path = config_path(domain)
    if not path.is_file():
        raise FileNotFoundError(f"no extraction config for domain {domain!r}: {path}")
    with path.open() as handle:
        method_map, options_map = parse_mapping_cfg(handle, filename=str(path))  # type: ignore[no-untyped-call]
    prefixes = {pattern.split("*")[0].rstrip("/") for pattern, _ in method_map}

    def wanted(dirpath: str) -> bool:
        relative = Path(dirpath).resolve().relative_to(ROOT).as_posix()
        name = Path(dirpath).name
        if name.startswith((".", "_")):
            return False
        return relative == "." or any(
            p == relative or p.startswith(relative + "/") or relative.startswith(p + "/")
            for p in prefixes
        )

    template = Catalog(domain=domain, project="rummykit", charset="utf-8")
    found = extract_from_dir(
        str(ROOT),
        method_map,
        options_map,
        keywords=DEFAULT_KEYWORDS,
        strip_comment_tags=True,
        directory_filter=wanted,
    )
    for filename, lineno, message, comments, context in found:
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return template


def msgids(domain: str) -> set[str]:
    """The message ids of ``domain`` (plural messages by their singular form; a message with a
    context as ``context + "\x04" + id``, the way gettext keys them)."""
    ids = set()
    for m in extract(domain):
        if not m.id:
            continue
        text = m.id if isinstance(m.id, str) else m.id[0]
        ids.add(f"{m.context}{CONTEXT}{text}" if m.context else text)
    return ids


def po_path(lang: str, domain: str) -> Path:
    return PACKAGE / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"


def update(domain: str) -> list[tuple[Path, int, int]]:
    """Merge the extracted messages into each translated language's catalog."""
    template = extract(domain)
    results = []
    for lang in LANGUAGES:
        if lang == SOURCE_LANGUAGE:
            continue
        path = po_path(lang, domain)
        if path.is_file():
            with path.open("rb") as handle:
                catalog = read_po(handle, locale=lang, domain=domain)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(
                locale=lang,
                domain=domain,
                header_comment=f"# Messages of rummykit's domain {domain!r}.",
                project="rummykit",
                copyright_holder="the rummykit contributors",
                msgid_bugs_address="",
                last_translator="the rummykit contributors",
                charset="utf-8",
                fuzzy=False,
            )
        before = {m.id for m in catalog if m.id}
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        after = {m.id for m in catalog if m.id}
        with path.open("wb") as handle:
            write_po(
                handle,
                catalog,
                width=100,
                ignore_obsolete=True,
                include_previous=False,
                include_lineno=False,
            )
        results.append((path, len(after - before), len(before - after)))
    return results


def missing(domain: str) -> dict[str, set[str]]:
    """For each language, the messages of ``domain`` that its catalog does not translate."""
    ids = msgids(domain)
    return {lang: untranslated(lang, domain, ids) for lang in LANGUAGES}
