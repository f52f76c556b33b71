"""The web site: FastAPI, server-rendered Jinja2 pages, htmx 2 and small plain ES modules.

How the site is put together, for everyone who adds pages to it:

- **A page**: add a module to `rummykit.web.routes` with ``router = APIRouter()`` (it is found
  and included automatically). Page paths start with the language,
  ``@router.get("/{lang:lang}/romme/play", name="romme.play")``, and answer
  ``render(request, "romme/play.html", title=_("…"), …)`` (`rummykit.web.rendering`). Templates
  live in ``web/templates/<part>/``, extend ``base.html`` and fill its ``content`` block;
  static files go in ``web/static/<part>/`` and are linked with ``static("part/x.js")``.
- **Forms** are boosted by htmx (``hx-boost`` on ``body``): a POST answers with a redirect, or
  with the page again and a 4xx status (409 and 422 are swapped in, other errors are not); the
  submit buttons are disabled while a form is on its way, and a form that cannot reach the
  server says so and keeps its input. Everything also works without JavaScript.
- **The home page** lists everything in `rummykit.web.home`: a listed route that exists is
  linked, one that does not yet is shown as coming.
- **A translated string**: in templates ``{% trans %}…{% endtrans %}`` or ``_("…")``; in Python
  mark it with ``N_("…")`` and translate it at render time. A part keeps its own catalog domain
  (``locale/<lang>/LC_MESSAGES/<part>.po``, extraction config ``locale/<part>.cfg``); every
  domain is searched when a page is rendered. ``rummykit translations update <domain>``
  extracts the messages and updates the French, Spanish and German catalogs;
  ``rummykit translations check <domain>`` lists what is untranslated.
- **An error code**: an engine raises ``IllegalAction(code, **params)``; register the sentence
  with `rummykit.web.errors.register`. Uncaught, an ``IllegalAction`` becomes a 422 answer with
  the translated message (JSON under ``/api/``, a page elsewhere).
- **A stored game**: `rummykit.store.GameRepository` on ``request.app.state.db``; append each
  action with its position and answer 409 on `rummykit.store.Conflict`.
- **Live updates**: ``request.app.state.hub`` (`rummykit.web.live.Hub`): publish the new
  version of a channel after each write; a WebSocket route serves ``hub.follow(…)`` and the
  page uses ``static/js/live.js``.
- **A browser test**: use the fixtures of ``tests/browser.py`` (``live_server``, ``browser``,
  ``new_page``, ``screenshot``), loaded for every test; mark the test ``@pytest.mark.browser``
  and keep browser tests in modules of their own (Playwright holds an event loop while open).
  Look labels up through the catalogs (``site_translations(lang).gettext``) so one test can run
  in several languages.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rummykit.web.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    """``create_app``, imported on first use: a module of the site's (a computer players'
    worker process, `rummykit.web.play.workers`) can be imported without the whole app."""
    if name == "create_app":
        from rummykit.web.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
