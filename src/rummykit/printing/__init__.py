"""Printable cheat sheets (PDF), drawn with fpdf2 and a bundled Unicode font.

>>> sorted(CHEATSHEETS)
['rummoli']
>>> rummoli_cheatsheet("fr")[:5]
b'%PDF-'
"""

from __future__ import annotations

from collections.abc import Callable

from rummykit.printing.rummoli import SheetDoesNotFit, rummoli_cheatsheet

CHEATSHEETS: dict[str, Callable[[str], bytes]] = {"rummoli": rummoli_cheatsheet}
"""Each game that has a cheat sheet, with the function that draws it in a language."""

__all__ = ["CHEATSHEETS", "SheetDoesNotFit", "rummoli_cheatsheet"]
