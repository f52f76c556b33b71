"""A guided first game of Rommé and of tile rummy.

``/{lang}/romme/learn`` and ``/{lang}/tiles/learn`` say what a guided game is; their button
(a POST to the same address) deals a friendly game, always the same, against one beginner
computer, and opens its table with the guide on (``?guide=1``). The guide
is the table's own hint, asked for at each of the learner's decisions: the engine's advice
in the page's language, with the cards or tiles to use marked on the table (see
``static/js/table-base.js``). The learner still plays every move, and a wrong one is refused
with the engine's own reason. Everything else is an ordinary game: stored, resumable,
replayable.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from rummykit import romme, tiles
from rummykit.core import JSON
from rummykit.store import GameRepository
from rummykit.web.errors import N_
from rummykit.web.play.adapter import SeatInfo
from rummykit.web.play.api import set_seat_cookie
from rummykit.web.play.service import service
from rummykit.web.rendering import render, url_for


@dataclass(frozen=True)
class Lesson:
    """The game a learner is dealt: its rules and a seed chosen for a friendly start."""

    kind: str
    rules: JSON
    seed: int


LESSONS = {
    # The learner begins with fourteen cards and can open at once with 10♥ J♥ and a joker (30).
    "romme": Lesson("romme", romme.Rules.preset("computer").replace(rounds=1).to_json(), 40),
    # The learner begins and can make the first meld at once with three 13s (39).
    "tiles": Lesson("tiles", tiles.Rules().to_json(), 15),
}
SEATS = (SeatInfo(True), SeatInfo(False, "random"))

TITLES = {"romme": N_("Your first game of Rommé"), "tiles": N_("Your first game of tile rummy")}

router = APIRouter()


async def start(request: Request, lang: str, lesson: Lesson) -> Response:
    repo = GameRepository(request.app.state.db)
    new = await repo.create_game(
        lesson.kind, lesson.rules, lesson.seed, [s.code for s in SEATS], [0]
    )
    # The computer seats and the guide think in worker processes: start them now, as a new
    # game from the form does, so that the first advice does not wait for them.
    service(request.app).pool()
    table = url_for(request, lang, f"{lesson.kind}.game", game_id=new.id)
    response = RedirectResponse(f"{table}?guide=1", status_code=303)
    set_seat_cookie(response, new.id, new.seat_tokens[0], request)
    return response


def lessons(kind: str) -> APIRouter:
    """The page that offers a guided game of ``kind`` (GET) and deals it (POST)."""
    pages = APIRouter()

    @pages.get(f"/{{lang:lang}}/{kind}/learn", name=f"{kind}.learn")
    async def offer(request: Request, lang: str) -> Response:
        return render(request, "learn.html", kind=kind, title=TITLES[kind])

    @pages.post(f"/{{lang:lang}}/{kind}/learn", name=f"{kind}.learn_start")
    async def deal(request: Request, lang: str) -> Response:
        return await start(request, lang, LESSONS[kind])

    return pages


router.include_router(lessons("romme"))
router.include_router(lessons("tiles"))
