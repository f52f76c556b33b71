"""Rendering pages: one Jinja2 environment per language, with the site's template helpers.

`render(request, "part/page.html", title=..., **context)` answers an ``HTMLResponse`` in the
language of the request's path. Every template extends ``base.html`` and may use:

- ``_("…")``, ``gettext``, ``ngettext`` and ``{% trans %}…{% endtrans %}`` (whitespace trimmed),
- ``lang``, ``languages`` and ``language_names``; ``switch_url(code)`` is the current page in
  another language (the switcher in ``base.html`` uses it),
- ``url(name, **params)``: the path of a named route, ``lang`` filled in when the route has it,
- ``static(path)``: the URL of a file under ``web/static`` with a content hash for caching,
- ``error_message(code, params)``: a translated error (see `rummykit.web.errors`).
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse
from starlette.routing import NoMatchFound

from rummykit.i18n import LANGUAGE_NAMES, LANGUAGES, negotiate
from rummykit.web import errors
from rummykit.web.language import site_translations


@cache
def environment(lang: str) -> Environment:
    """The template environment of one language (its gettext installed)."""
    env = Environment(
        loader=PackageLoader("rummykit.web", "templates"),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(site_translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(
        lang=lang,
        languages=LANGUAGES,
        language_names=LANGUAGE_NAMES,
        static=static_url,
    )
    return env


@cache
def _static_hash(path: str) -> str:
    data = resources.files("rummykit.web").joinpath("static", path).read_bytes()
    return hashlib.sha256(data).hexdigest()[:10]


def static_url(path: str) -> str:
    """``/static/<path>?v=<hash of the file>``, so browsers may cache static files for long."""
    return f"/static/{path}?v={_static_hash(path)}"


def request_language(request: HTTPConnection) -> str:
    """The language of the path (``/de/…``), else of ``?lang=``, the ``lang`` cookie or
    Accept-Language (in that order)."""
    lang = request.path_params.get("lang")
    if lang in LANGUAGES:
        return str(lang)
    first = request.url.path.strip("/").split("/")[0]
    if first in LANGUAGES:
        return first
    query = request.query_params.get("lang")
    if query in LANGUAGES:
        return str(query)
    cookie = request.cookies.get("lang")
    if cookie in LANGUAGES:
        return str(cookie)
    return negotiate(request.headers.get("accept-language"))


def switch_url(request: Request, lang: str) -> str:
    """The current page in another language: the first path segment replaced."""
    parts = request.url.path.split("/")
    if len(parts) > 1 and parts[1] in LANGUAGES:
        parts[1] = lang
        path = "/".join(parts)
    else:
        path = f"/{lang}/"
    return f"{path}?{request.url.query}" if request.url.query else path


def url_for(request: Request, lang: str, name: str, **params: Any) -> str:
    """The path of the route called ``name``; ``lang`` is added when the route takes one."""
    try:
        return str(request.app.url_path_for(name, lang=lang, **params))
    except NoMatchFound:
        return str(request.app.url_path_for(name, **params))


def route_exists(request: Request, name: str, **params: Any) -> bool:
    """Whether the app has a route called ``name`` (taking these parameters)."""
    try:
        url_for(request, "en", name, **params)
    except NoMatchFound:
        return False
    return True


def render(
    request: Request,
    template: str,
    status_code: int = 200,
    headers: dict[str, str] | None = None,
    **context: Any,
) -> HTMLResponse:
    lang = request_language(request)
    env = environment(lang)
    translations = site_translations(lang)
    html = env.get_template(template).render(
        request=request,
        switch_url=lambda code: switch_url(request, code),
        url=lambda name, **params: url_for(request, lang, name, **params),
        error_message=lambda code, params=None: errors.message(code, params or {}, translations),
        **context,
    )
    response = HTMLResponse(html, status_code=status_code, headers=headers)
    if request.cookies.get("lang") != lang:
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
    return response
