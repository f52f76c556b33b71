"""Commands of the printing part: ``rummykit cheatsheet rummoli --lang fr -o rummoli.pdf``."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from rummykit.cli import apps
from rummykit.i18n import LANGUAGES
from rummykit.printing import rummoli_cheatsheet


class Language(StrEnum):
    """The languages a sheet can be printed in (those of :data:`rummykit.i18n.LANGUAGES`)."""

    fr = "fr"
    es = "es"
    de = "de"
    en = "en"


assert tuple(Language) == LANGUAGES, "the command's languages must follow the site's"


@apps.cheatsheet.command("rummoli")
def rummoli(
    lang: Annotated[
        Language, typer.Option("--lang", "-l", help="Language of the sheet.")
    ] = Language.en,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", help="PDF file to write ('-' for standard output).", dir_okay=False
        ),
    ] = None,
) -> None:
    """Write the one-page Rummoli cheat sheet (A4; prints on US letter with "fit to page")."""
    pdf = rummoli_cheatsheet(lang.value)
    if output is not None and str(output) == "-":
        sys.stdout.buffer.write(pdf)
        return
    target = output if output is not None else Path(f"rummoli-{lang.value}.pdf")
    target.write_bytes(pdf)
    typer.echo(f"{target}: {len(pdf)} bytes, 1 page")
