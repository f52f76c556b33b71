"""Rummoli's pages: the board, the demonstration hand, the table's words, and the games
against the computer (see `rummykit.web.play.pages`).

- ``/{lang}/rummoli/board`` (``rummoli.board``): the nine boxes; touching or focusing a box says
  how it is won. For a game with real cards the page also keeps the chips on each box.
- ``/{lang}/rummoli/demo`` (``rummoli.demo``): one hand of four players played by the engine,
  every hand and the widow face up, stepped through card by card with each step said in words;
  ``?seed=`` picks the deal, ``?hand=`` how many hands were played since (the boxes nobody won
  carry over), ``?step=`` the step shown first.
- ``/{lang}/rummoli/say.json`` (``rummoli.say``): the table script's words.
"""

from __future__ import annotations

import json
import secrets

from fastapi import APIRouter, Request
from fastapi.responses import Response

from rummykit.core import IllegalAction
from rummykit.rummoli import BOXES, Rules
from rummykit.web.language import site_translations
from rummykit.web.play.pages import game_pages
from rummykit.web.play.rummoli import client_texts
from rummykit.web.rendering import render, request_language, url_for
from rummykit.web.rummoli.board import board_boxes
from rummykit.web.rummoli.demo import (
    DEMO_NAMES,
    DEMO_SEED,
    MAX_DEMO_HANDS,
    SEED_LIMIT,
    build_demo,
    demo_chain,
    frames_json,
)
from rummykit.web.rummoli.words import card_face, chips_text
from rummykit.web.validation import whole_number

router = APIRouter()


@router.get("/{lang:lang}/rummoli/board", name="rummoli.board")
async def board_page(request: Request, lang: str) -> Response:
    """The board: what each box pays, and the chips on each box for a game with real cards."""
    t = site_translations(request_language(request))
    return render(
        request,
        "rummoli/board.html",
        title=t.gettext("Rummoli board"),
        boxes=board_boxes(Rules(), t, [0] * len(BOXES)),
        rules_url=url_for(request, lang, "rules.rummoli"),
        demo_url=url_for(request, lang, "rummoli.demo"),
        chips_text=lambda n: chips_text(n, t),
    )


@router.get("/{lang:lang}/rummoli/say.json", name="rummoli.say")
async def say_json(request: Request, lang: str) -> Response:
    """The sentences and words of the Rummoli table's script, translated (see `client_texts`)."""
    body = json.dumps(client_texts(site_translations(lang)), ensure_ascii=False)
    return Response(
        body,
        media_type="application/json",
        headers={"Cache-Control": "public, max-age=3600", "Vary": "Accept-Encoding"},
    )


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    value = whole_number(raw, low, high)
    if value is None:
        raise IllegalAction("bad_request", field=name)
    return value


@router.get("/{lang:lang}/rummoli/demo", name="rummoli.demo")
async def demo_page(request: Request, lang: str) -> Response:
    """The demonstration hand, at ``?step=`` (the first step unless said)."""
    if request.query_params.get("new") is not None:
        seed = secrets.randbelow(SEED_LIMIT)
        target = url_for(request, lang, "rummoli.demo") + f"?seed={seed}"
        return Response(status_code=303, headers={"Location": target})
    t = site_translations(lang)
    seed = _int_param(request, "seed", DEMO_SEED, 0, SEED_LIMIT)
    number = _int_param(request, "hand", 1, 1, MAX_DEMO_HANDS)
    try:
        hand = demo_chain(seed, number)
    except IllegalAction as err:
        if err.code != "demo_over":
            raise
        return render(
            request,
            "rummoli/demo_over.html",
            title=t.gettext("Rummoli demonstration"),
            seed=seed,
            number=number,
        )
    demo = build_demo(hand, number, t)
    last = len(demo.frames) - 1
    step = _int_param(request, "step", 0, 0, 10_000)
    step = min(step, last)
    base = url_for(request, lang, "rummoli.demo")
    can_continue = number < MAX_DEMO_HANDS and sum(1 for c in hand.chips_after if c >= 9) >= 2
    return render(
        request,
        "rummoli/demo.html",
        title=t.gettext("Rummoli demonstration"),
        demo=demo,
        step=step,
        last=last,
        frame=demo.frames[step],
        names=DEMO_NAMES[: hand.players],
        boxes=board_boxes(Rules.preset("demo"), t, demo.frames[step].board),
        hands=[[card_face(c.code, t) for c in h] for h in hand.hands],
        widow=[card_face(c.code, t) for c in hand.widow],
        face=lambda code: card_face(code, t),
        frames_json=frames_json(demo.frames, t),
        step_url=lambda n: f"{base}?seed={seed}&hand={number}&step={n}",
        next_url=f"{base}?seed={seed}&hand={number + 1}" if can_continue else None,
        first_url=f"{base}?seed={seed}" if number > 1 else None,
        new_url=f"{base}?new=1",
        rules_url=url_for(request, lang, "rules.rummoli"),
        board_url=url_for(request, lang, "rummoli.board"),
        chips_text=lambda n: chips_text(n, t),
    )


# The game pages (new-game form, table, replay) come last: their /{lang}/rummoli/{game_id}
# must not take the fixed paths above.
router.include_router(game_pages("rummoli"))
