"""The home page, the language redirect at ``/`` and a health check."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from rummykit.web.home import SECTIONS
from rummykit.web.rendering import render, request_language, route_exists

router = APIRouter()


@router.get("/", include_in_schema=False)
async def root(request: Request) -> Response:
    """Send the visitor to the home page in their language (cookie, then Accept-Language)."""
    lang = request_language(request)
    return RedirectResponse(f"/{lang}/", status_code=307, headers={"Vary": "Accept-Language"})


@router.get("/{lang:lang}/", name="home")
async def home(request: Request, lang: str) -> Response:
    sections = [
        (
            section,
            [
                (entry, route_exists(request, entry.route, **entry.params))
                for entry in section.entries
            ],
        )
        for section in SECTIONS
    ]
    return render(request, "home.html", sections=sections)


@router.get("/healthz", include_in_schema=False)
async def health(request: Request) -> Response:
    """Answers once the database is migrated and reachable."""
    async with request.app.state.db.engine.connect():
        pass
    return JSONResponse({"ok": True})
