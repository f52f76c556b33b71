"""The rules pages of the three games, and the Rummoli cheat sheet as a PDF download.

``/{lang}/rules/romme``, ``/{lang}/rules/rummoli`` and ``/{lang}/rules/tiles`` render the
templates of ``web/templates/rules/``, whose English text is translated by the catalog domain
``rules``. Each page links to playing the game, to what keeps the score of a game at
the table (Rommé's and tile rummy's score sheets, the Rummoli chip keeper) and, for every variant it
describes, to the matching option of the game's new-game form (``…#opt-<field>``, the field
named as in the game's ``Rules``). Those pages belong to other parts of the site: a link is
shown once the route it needs exists.

``/{lang}/rummoli/cheatsheet.pdf`` serves `rummykit.printing.rummoli_cheatsheet`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache

from fastapi import APIRouter, Request
from fastapi.responses import Response

from rummykit.printing import rummoli_cheatsheet
from rummykit.rummoli import Rules as RummoliRules
from rummykit.rummoli import State as RummoliState
from rummykit.rummoli.rules import MAX_PLAYERS, MIN_PLAYERS
from rummykit.web.errors import N_
from rummykit.web.rendering import render, route_exists, url_for


@dataclass(frozen=True)
class RulesPage:
    """One game's rules page and the routes it links to, in order of preference."""

    game: str
    title: str
    sheet: tuple[str, ...] = ()
    """Routes of the page that keeps the score of a game played with real cards or tiles (none
    until the game has one)."""
    sheet_label: str = ""

    @property
    def play(self) -> tuple[str, ...]:
        """Routes where the game is played; the first that exists is linked."""
        return (f"{self.game}.play", f"{self.game}.new")

    @property
    def options(self) -> tuple[str, ...]:
        """Routes of the new-game form holding the ``#opt-<field>`` anchors of the variants."""
        return (f"{self.game}.new",)


PAGES: dict[str, RulesPage] = {
    page.game: page
    for page in (
        RulesPage("romme", N_("Rommé rules"), ("scoresheet.new",), N_("Open the score sheet")),
        RulesPage(
            "rummoli",
            N_("Rummoli rules"),
            ("scoresheet.chips_new",),
            N_("Keep the chips on the board"),
        ),
        RulesPage(
            "tiles", N_("Tile rummy rules"), ("scoresheet.tiles_new",), N_("Open the score sheet")
        ),
    )
}
"""The rules pages by game; each page's template is ``rules/<game>.html``."""

router = APIRouter()


@dataclass(frozen=True)
class RummoliDeal:
    """How the Rummoli pack shares out at a table of ``players``: the players' hands from the
    dealer's left round to the dealer, then the widow."""

    players: int
    hands: tuple[int, ...]
    widow: int


@cache
def rummoli_deals() -> tuple[RummoliDeal, ...]:
    """The first deal of the engine at every table size it plays (2 to 8 players), counted.

    >>> [(d.players, d.hands, d.widow) for d in rummoli_deals()][2]
    (4, (11, 11, 10, 10), 10)
    """
    deals = []
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        state = RummoliState(RummoliRules(), players, seed=0)
        view = state.view(None)
        hands = tuple(view.hand_counts[seat] for seat in state.order)
        deals.append(RummoliDeal(players, hands, view.widow_count))
    return tuple(deals)


def first_route(request: Request, lang: str, names: tuple[str, ...]) -> str | None:
    """The path of the first of ``names`` that the app serves, or ``None``."""
    for name in names:
        if route_exists(request, name):
            return url_for(request, lang, name)
    return None


def rules_page(request: Request, lang: str, game: str) -> Response:
    page = PAGES[game]
    options_url = first_route(request, lang, page.options)
    return render(
        request,
        f"rules/{game}.html",
        title=page.title,
        game=game,
        play_url=first_route(request, lang, page.play),
        options_url=options_url,
        sheet_url=first_route(request, lang, page.sheet),
        sheet_label=page.sheet_label,
        cheatsheet_url=url_for(request, lang, "rummoli.cheatsheet") if game == "rummoli" else None,
        demo_url=first_route(request, lang, ("rummoli.demo",)) if game == "rummoli" else None,
        learn_url=first_route(request, lang, (f"{game}.learn",)),
        board_url=first_route(request, lang, ("rummoli.board",)) if game == "rummoli" else None,
        deals=rummoli_deals() if game == "rummoli" else (),
        other_games=[
            (other.title, url_for(request, lang, f"rules.{other.game}"))
            for other in PAGES.values()
            if other.game != game
        ],
    )


@router.get("/{lang:lang}/rules/romme", name="rules.romme")
async def romme(request: Request, lang: str) -> Response:
    return rules_page(request, lang, "romme")


@router.get("/{lang:lang}/rules/rummoli", name="rules.rummoli")
async def rummoli(request: Request, lang: str) -> Response:
    return rules_page(request, lang, "rummoli")


@router.get("/{lang:lang}/rules/tiles", name="rules.tiles")
async def tiles(request: Request, lang: str) -> Response:
    return rules_page(request, lang, "tiles")


@cache
def _cheatsheet(lang: str) -> tuple[bytes, str]:
    """The PDF and its entity tag (the sheet is reproducible byte for byte, so cache it)."""
    pdf = rummoli_cheatsheet(lang)
    return pdf, '"' + hashlib.sha256(pdf).hexdigest()[:20] + '"'


@router.get("/{lang:lang}/rummoli/cheatsheet.pdf", name="rummoli.cheatsheet")
async def cheatsheet(request: Request, lang: str) -> Response:
    """The one-page Rummoli cheat sheet in the page's language, as a PDF download."""
    if request.headers.get("hx-request") == "true":
        # A boosted link (htmx) would swap the PDF into the page: have the browser fetch it.
        return Response(status_code=204, headers={"HX-Redirect": str(request.url.path)})
    pdf, etag = _cheatsheet(lang)
    headers = {"ETag": etag, "Cache-Control": "public, max-age=86400"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    headers["Content-Disposition"] = f'attachment; filename="rummoli-{lang}.pdf"'
    return Response(pdf, media_type="application/pdf", headers=headers)
