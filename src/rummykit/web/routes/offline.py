"""What lets the site install as an app and the score sheets open offline.

``/manifest.webmanifest`` describes the app (name, icons, colours, start page) and
``/sw.js`` is the service worker (``static/js/sw.js``), served from the site's root so that it
may look after every page, as browsers require.
"""

from __future__ import annotations

from importlib import resources

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from rummykit.web.rendering import request_language, static_url

router = APIRouter()

THEME = "#1f6b4a"
BACKGROUND = "#fbfaf6"


@router.get("/manifest.webmanifest", name="offline.manifest", include_in_schema=False)
async def manifest(request: Request) -> Response:
    lang = request_language(request)
    body = {
        "name": "rummykit",
        "short_name": "rummykit",
        "lang": lang,
        "start_url": f"/{lang}/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [
            {"src": static_url("icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {"src": static_url("icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static_url("icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static_url("icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    return JSONResponse(body, media_type="application/manifest+json")


@router.get("/sw.js", name="offline.worker", include_in_schema=False)
async def service_worker() -> Response:
    source = resources.files("rummykit.web").joinpath("static", "js", "sw.js").read_text()
    return Response(
        source,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )
