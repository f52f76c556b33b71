"""The site's routes: every module of this package that defines ``router`` is included.

A part adds its pages by adding a module here (``routes/romme.py``) with an
``APIRouter`` called ``router``; nothing else needs editing. Page paths start with the language
(``/{lang:lang}/…``) and routes have dotted names (``romme.play``) used by ``url()`` in
templates and by the home page's list (`rummykit.web.home`).
"""

from __future__ import annotations

import importlib
import pkgutil

from fastapi import APIRouter


def routers() -> list[APIRouter]:
    """The ``router`` of every module of this package, in name order (``home`` first)."""
    names = sorted((m.name for m in pkgutil.iter_modules(__path__)), key=lambda n: (n != "home", n))
    found = []
    for name in names:
        module = importlib.import_module(f"{__name__}.{name}")
        router = getattr(module, "router", None)
        if isinstance(router, APIRouter):
            found.append(router)
    return found
