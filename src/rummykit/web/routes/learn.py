"""The first games of Rommé and of tile rummy, as lessons.

``/{lang}/romme/learn`` and ``/{lang}/tiles/learn`` say what the lesson is; their button (a
POST to the same address) deals the lesson's game (its deal set by hand and kept by its record,
see `rummykit.lesson`) against one beginner computer, and opens its table. The table shows each
step of the script (``GET /api/games/{id}/lesson``) with the cards or tiles to use marked, and
judges the learner's moves by the lesson (``POST /api/games/{id}/actions``): a move that is not
the step's is refused with the engine's own reason and changes nothing. After the
last step the game goes on with the computer's advice at each move (the table's hint, as with
``?guide=1`` on any game). Everything else is an ordinary game: stored, resumable, replayable.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response

from rummykit.core import IllegalAction
from rummykit.lesson import Lesson
from rummykit.store import GameRepository, NotFound
from rummykit.web.errors import N_
from rummykit.web.language import site_translations
from rummykit.web.play.adapter import SeatInfo
from rummykit.web.play.api import error_json, not_yours, seated, set_seat_cookie
from rummykit.web.play.lessons import LESSONS, lesson_of, step_json
from rummykit.web.play.service import NotYourGame, service
from rummykit.web.rendering import render, request_language, url_for
from rummykit.web.validation import refusals

TITLES = {"romme": N_("Your first game of Rommé"), "tiles": N_("Your first game of tile rummy")}

router = APIRouter()


async def start(request: Request, lang: str, kind: str, lesson: Lesson[Any, Any]) -> Response:
    repo = GameRepository(request.app.state.db)
    seats = [SeatInfo(True), SeatInfo(False, lesson.opponent)]
    new = await repo.create_game(
        kind, lesson.record_rules(), lesson.seed, [s.code for s in seats], [lesson.learner]
    )
    # The computer seats and the guide think in worker processes: start them now, as a new
    # game from the form does, so that the first advice does not wait for them.
    service(request.app).pool()
    table = url_for(request, lang, f"{kind}.game", game_id=new.id)
    response = RedirectResponse(table, status_code=303)
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
        return await start(request, lang, kind, LESSONS[kind])

    return pages


router.include_router(lessons("romme"))
router.include_router(lessons("tiles"))


@router.get(
    "/api/games/{game_id}/lesson", name="api.games.lesson", responses=refusals(403, 404, 422)
)
async def lesson_step(request: Request, game_id: str) -> Response:
    """The step of the lesson awaited: its words, what to mark and its move (see
    `rummykit.web.play.lessons.step_json`); 404 for a game that is no lesson."""
    try:
        live, _seat = await seated(request, game_id)
    except NotYourGame:
        return not_yours(request)
    lesson = lesson_of(live)
    if lesson is None:
        raise NotFound(game_id)
    t = site_translations(request_language(request))
    try:
        async with live.lock:
            data = step_json(live, lesson, t)
    except IllegalAction as err:
        return error_json(request, err, 422)
    return JSONResponse(data, headers={"Cache-Control": "no-store"})
