"""The pages of a game against the computer, built for any game from its adapter.

``game_pages(kind)`` gives a router with, for ``kind = "romme"``:

- ``/{lang}/romme`` (``romme.play``) and ``/{lang}/romme/new`` (``romme.new``): the new-game
  form (opponents, their level, a preset and every rule option, each explained in one line and
  anchored as ``#opt-<field>``), with links back to the games in progress in this browser;
- ``POST /{lang}/romme/new`` (``romme.create``): creates the game, gives this browser the
  seat's token in a cookie and goes to the table;
- ``/{lang}/romme/{id}`` (``romme.game``): the table, drawn by ``static/js/romme.js``;
- ``/{lang}/romme/{id}/replay`` (``romme.replay``): a finished game step by step.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData

from rummykit.core import JSON, IllegalAction
from rummykit.store import NotFound
from rummykit.web.language import site_translations
from rummykit.web.play import messages
from rummykit.web.play.adapter import AnyGame, Option, adapter
from rummykit.web.play.api import GAME_ID, cookie_name, seated, seats_for, set_seat_cookie
from rummykit.web.play.lessons import lesson_of
from rummykit.web.play.sentences import seat_names
from rummykit.web.play.service import AnyLive, NotYourGame, service
from rummykit.web.rendering import render, url_for
from rummykit.web.validation import form_schema, read_form, whole_number

RESUME_SHOWN = 6


def value_text(value: JSON) -> str:
    """How an option's value travels in a form."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_value(option: Option, form: FormData) -> JSON:
    """One option read from the form (``IllegalAction("bad_rules")`` when it is not valid)."""
    text = str(form.get(f"opt_{option.field}", "")).strip()
    if option.kind == "bool":
        return text in ("true", "on", "1")
    if option.kind == "number":
        if not text or text == "none":
            if option.optional:
                return None
            raise IllegalAction("bad_rules", field=option.field)
        number = whole_number(text, option.low, option.high)
        if number is None:
            raise IllegalAction("bad_rules", field=option.field)
        return number
    for value, _ in option.choices:
        if value_text(value) == text:
            return value
    raise IllegalAction("bad_rules", field=option.field)


def rules_from_form(game: AnyGame, form: FormData) -> tuple[str, dict[str, JSON]]:
    """The preset chosen and the rules the form asks for (every field when the form shows
    them, else the preset)."""
    presets = game.presets()
    preset = str(form.get("preset", ""))
    if preset not in presets:
        preset = next(iter(presets))
    rules = dict(presets[preset])
    if form.get("fields"):
        for option in game.options():
            rules[option.field] = option_value(option, form)
    return preset, rules


def rules_form(
    request: Request,
    lang: str,
    game: AnyGame,
    preset: str | None = None,
    values: Mapping[str, JSON] | None = None,
) -> dict[str, Any]:
    """What the rules part of a new-game form (``rules_fieldset`` in ``play/_macros.html``)
    reads: the presets, the one chosen, every option and the value shown for each. The form of
    a game against the computer and the form of a table with friends share it."""
    presets = game.presets()
    chosen = preset if preset is not None and preset in presets else next(iter(presets))
    values = values or presets[chosen]
    return {
        "preset": chosen,
        "presets": presets,
        "preset_labels": game.preset_labels(),
        "presets_json": json.dumps(
            {name: {k: value_text(v) for k, v in rules.items()} for name, rules in presets.items()}
        ),
        "options": game.options(),
        "values": {k: value_text(v) for k, v in values.items()},
        "rules_url": url_for(request, lang, f"rules.{game.kind}"),
    }


def players_json(
    live: AnyLive, seat: int | None, lang: str, names: Sequence[str] | None = None
) -> list[dict[str, JSON]]:
    """Each seat's name and level as the page shows them (``names``: the seats' names when
    they have their own, as the nicknames at a table with friends)."""
    t = site_translations(lang)
    levels = {level.name: level for level in live.adapter.levels()}
    out: list[dict[str, JSON]] = []
    shown = list(names) if names is not None else seat_names(live.seats, seat, t)
    for index, (info, name) in enumerate(zip(live.seats, shown, strict=True)):
        level = None if info.human else levels.get(info.level or "")
        out.append(
            {
                "name": name,
                "human": info.human,
                "level": None if info.human else t.gettext(level.label) if level else info.level,
                "you": index == seat,
            }
        )
    return out


def page_data(
    request: Request,
    lang: str,
    live: AnyLive,
    seat: int | None,
    names: Sequence[str] | None = None,
    ws: str | None = None,
) -> str:
    """The JSON the table's script starts from (no card the seat may not see; ``seat`` None:
    a spectator's public view, followed on the socket ``ws``)."""
    kind = live.kind
    data = {
        "game": kind,
        "id": live.id,
        "lang": lang,
        "seat": seat,
        "players": players_json(live, seat, lang, names),
        "view": live.view(seat, lang=lang),
        "messages": messages.client_messages(site_translations(lang)),
        "api": f"/api/games/{live.id}",
        "ws": ws or f"/ws/games/{live.id}",
        "lesson": f"/api/games/{live.id}/lesson" if lesson_of(live) is not None else None,
        "urls": {
            "new": url_for(request, lang, f"{kind}.new"),
            "replay": url_for(request, lang, f"{kind}.replay", game_id=live.id),
            "game": url_for(request, lang, f"{kind}.game", game_id=live.id),
        },
    }
    # Inside a <script> element: "</" must not end it.
    return json.dumps(data, ensure_ascii=False).replace("</", "<\\/")


def _rules_rows(game: AnyGame, rules: Any, lang: str) -> list[tuple[str, str, str]]:
    t = site_translations(lang).gettext
    labels = {o.field: o.label for o in game.options()}
    return [(field, t(labels[field]), t(value)) for field, value in game.rules_summary(rules)]


async def games_in_progress(request: Request, kind: str) -> list[dict[str, Any]]:
    """This browser's unfinished games of ``kind`` (from its seat cookies), newest first."""
    play = service(request.app)
    found: list[dict[str, Any]] = []
    for name, token in request.cookies.items():
        if not name.startswith("rk_seat_"):
            continue
        game_id = name.removeprefix("rk_seat_")
        if not GAME_ID.fullmatch(game_id):
            continue
        try:
            info = await play.repo.info(game_id)
        except NotFound:
            continue
        if info.kind != kind or info.status != "active":
            continue
        if await play.repo.seat_of(game_id, token) is None:
            continue
        found.append({"id": game_id, "started": info.updated_at, "moves": info.last_seq})
    found.sort(key=lambda g: g["started"], reverse=True)
    return found[:RESUME_SHOWN]


def game_pages(kind: str) -> APIRouter:
    """The routes of the pages of one game."""
    router = APIRouter()
    game = adapter(kind)

    async def form_page(
        request: Request,
        lang: str,
        status: int = 200,
        preset: str | None = None,
        values: Mapping[str, JSON] | None = None,
        opponents: int | None = None,
        level: str | None = None,
        error: str | None = None,
    ) -> Response:
        return render(
            request,
            "play/new.html",
            status_code=status,
            title=game.title,
            game=game,
            kind=kind,
            **rules_form(request, lang, game, preset, values),
            levels=game.levels(),
            level=level or game.default_level(),
            opponents=opponents or min(2, game.max_players - 1),
            opponent_choices=range(game.min_players - 1, game.max_players),
            error=error,
            resume=await games_in_progress(request, kind),
        )

    @router.get(f"/{{lang:lang}}/{kind}", name=f"{kind}.play")
    async def landing(request: Request, lang: str) -> Response:
        return await form_page(request, lang)

    @router.get(f"/{{lang:lang}}/{kind}/new", name=f"{kind}.new")
    async def new(request: Request, lang: str) -> Response:
        return await form_page(request, lang)

    fields = [f"opt_{option.field}" for option in game.options()]
    form = form_schema("preset", "fields", "opponents", "level", *fields)

    @router.post(f"/{{lang:lang}}/{kind}/new", name=f"{kind}.create", openapi_extra=form)
    async def create(request: Request, lang: str) -> Response:
        form = await read_form(request)
        preset, values = None, None
        opponents_text = str(form.get("opponents", ""))
        opponents = whole_number(opponents_text, game.min_players - 1, game.max_players - 1)
        level = str(form.get("level", game.default_level()))
        try:
            preset, values = rules_from_form(game, form)
            if opponents is None:
                raise IllegalAction(
                    "bad_opponents", minimum=game.min_players - 1, maximum=game.max_players - 1
                )
            seats = seats_for(kind, opponents, level)
            new_game = await service(request.app).create(kind, values, seats)
        except IllegalAction as err:
            message = messages.describe(err, site_translations(lang))["message"]
            return await form_page(
                request,
                lang,
                422,
                preset=preset,
                values=values,
                opponents=opponents,
                level=level,
                error=message,
            )
        response = RedirectResponse(
            url_for(request, lang, f"{kind}.game", game_id=new_game.id), status_code=303
        )
        set_seat_cookie(response, new_game.id, new_game.seat_tokens[0], request)
        return response

    async def seat_or_page(
        request: Request, lang: str, game_id: str
    ) -> tuple[AnyLive, int] | Response:
        try:
            live, seat = await seated(request, game_id)
        except NotYourGame:
            t = site_translations(lang)
            text = messages.describe(IllegalAction("not_your_game"), t)["message"]
            return render(
                request,
                "play/not_yours.html",
                status_code=403,
                title=game.title,
                message=text,
                new_url=url_for(request, lang, f"{kind}.new"),
            )
        if live.kind != kind:
            raise NotFound(game_id)
        return live, seat

    async def seated_page(request: Request, lang: str, game_id: str, replaying: bool) -> Response:
        """The table (or, ``replaying``, the replay) of a game, for the seat this browser holds."""
        found = await seat_or_page(request, lang, game_id)
        if isinstance(found, Response):
            return found
        live, seat = found
        extra: dict[str, Any] = {}
        if replaying:
            template = game.replay_template
            extra = {
                "over": live.is_over,
                "game_url": url_for(request, lang, f"{kind}.game", game_id=live.id),
            }
        else:
            live = await service(request.app).get(game_id, fresh=True)
            template = f"{kind}/game.html"
        return render(
            request,
            template,
            headers={"Cache-Control": "no-store"},
            title=game.title,
            kind=kind,
            live=live,
            data=page_data(request, lang, live, seat),
            rules_rows=_rules_rows(game, live.rules, lang),
            rules_url=url_for(request, lang, f"rules.{kind}"),
            new_url=url_for(request, lang, f"{kind}.new"),
            **extra,
        )

    @router.get(f"/{{lang:lang}}/{kind}/{{game_id}}", name=f"{kind}.game")
    async def table(request: Request, lang: str, game_id: str) -> Response:
        return await seated_page(request, lang, game_id, replaying=False)

    @router.get(f"/{{lang:lang}}/{kind}/{{game_id}}/replay", name=f"{kind}.replay")
    async def replay(request: Request, lang: str, game_id: str) -> Response:
        return await seated_page(request, lang, game_id, replaying=True)

    return router


__all__ = ["cookie_name", "game_pages"]
