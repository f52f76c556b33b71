"""The score sheet's pages, CSV export, live socket and JSON API.

The rules are in `rummykit.scoresheet`; here a request becomes an action, the action is checked
against the sheet rebuilt from its stored entries, and then appended with the version the form
or client saw. A stale version is refused (409) and nothing is written, so two phones never
overwrite each other; the loser sees the sheet as it now is, with the own input kept.

Forms work without JavaScript (POST, then a redirect); with htmx they are boosted, and the
page's module (``static/js/scoresheet.js``) follows the sheet's version over a WebSocket.
"""

from __future__ import annotations

import csv
import hmac
import io
import logging
import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeAlias, TypeVar
from urllib.parse import quote

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.datastructures import FormData

from rummykit.core import IllegalAction
from rummykit.i18n import LANGUAGES
from rummykit.rummoli import BOXES
from rummykit.scoresheet import (
    DEFAULT_LIMIT,
    DEFAULT_ROUNDS,
    LIMIT_MAX,
    LIMIT_MIN,
    LIMIT_PRESETS,
    NAME_MAX,
    PLAYER_NAME_MAX,
    PLAYERS_MAX,
    POINTS_MAX,
    POINTS_MIN,
    ROUNDS_MAX,
    ROUNDS_MIN,
    Action,
    Ante,
    ChipAction,
    ChipKeeper,
    ChipSettings,
    Claim,
    CorrectRound,
    End,
    EnterHand,
    EnterRound,
    Game,
    Join,
    Leave,
    Move,
    Scoring,
    Settings,
    Sheet,
    Start,
    Undo,
    action_from_json,
    chip_action_from_json,
    is_chip_record,
    replay,
    replay_chips,
)
from rummykit.scoresheet.chips import CHIPS_MAX, CHIPS_MIN
from rummykit.scoresheet.chips import PLAYERS_MAX as CHIP_PLAYERS_MAX
from rummykit.store import (
    Conflict,
    NotFound,
    SheetRepository,
    StoredSheet,
    hash_token,
    new_token,
    view_token,
)
from rummykit.web import errors
from rummykit.web.language import site_translations
from rummykit.web.live import FRONT_VARIABLE
from rummykit.web.rendering import render, request_language
from rummykit.web.security import csv_cell
from rummykit.web.sheet_chart import build_chart
from rummykit.web.validation import (
    MAX_SEQ,
    NewSheet,
    SheetAction,
    form_schema,
    json_body,
    read_form,
    read_json,
    refusals,
    whole_number,
)

router = APIRouter()
log = logging.getLogger(__name__)

SHEET_ID = re.compile(r"[A-Za-z0-9_-]{16,43}")
NUMBER = re.compile(r"[+-]?[0-9]{1,6}")
ROUND_FORM = form_schema("version", "out", *(f"p{i}" for i in range(4)))
"""The round form as the API schema describes it (to the fuzzer): four players' points."""
NEW_FORM_PLAYERS = 6
"""Empty name fields on the new-sheet form (JavaScript adds more, up to the maximum)."""


def channel(sheet_id: str) -> str:
    return f"sheet:{sheet_id}"


def live_aliases(name: str) -> tuple[str, ...]:
    """The other name nginx knows a sheet's channel by: its read-only address's, which names
    the sheet by its token (`rummykit.web.live.LiveFront`)."""
    kind, _, sheet_id = name.partition(":")
    return (f"view:{view_token(sheet_id)}",) if kind == "sheet" else ()


def repository(request: Request) -> SheetRepository:
    return SheetRepository(request.app.state.db)


Shared: TypeAlias = Sheet | ChipKeeper
"""A shared record of a real game: a score sheet (Rommé, tiles) or a Rummoli chip keeper. Both
are stored, versioned, followed live and shown read-only the same way."""


RecordT = TypeVar("RecordT", Sheet, ChipKeeper)


async def load_shared(request: Request, sheet_id: str) -> tuple[StoredSheet, Shared]:
    if not SHEET_ID.fullmatch(sheet_id):
        raise NotFound(sheet_id)
    stored = await repository(request).load(sheet_id)
    if is_chip_record(stored.record):
        return stored, replay_chips(stored.record)
    return stored, replay(stored.record)


async def load_as(
    request: Request, sheet_id: str, kind: type[RecordT]
) -> tuple[StoredSheet, RecordT]:
    """A shared record of one kind (a chip keeper has none of a sheet's forms, nor a sheet
    the keeper's: `NotFound`)."""
    stored, shared = await load_shared(request, sheet_id)
    if not isinstance(shared, kind):
        raise NotFound(sheet_id)
    return stored, shared


async def load(request: Request, sheet_id: str) -> tuple[StoredSheet, Sheet]:
    """A score sheet."""
    return await load_as(request, sheet_id, Sheet)


def parse_number(text: str, player: str) -> int:
    """A whole number as typed on a phone: spaces, a plus sign and typographic minus allowed.

    >>> parse_number(" −100 ", "Ann"), parse_number("+7", "Ann")
    (-100, 7)
    """
    cleaned = text.strip().replace("−", "-").replace("–", "-").replace(" ", "")
    if not NUMBER.fullmatch(cleaned):
        raise IllegalAction("not_a_number", player=player)
    return int(cleaned)


def parse_version(form: FormData) -> int:
    value = whole_number(form.get("version", ""), 0, MAX_SEQ)
    if value is None:
        raise IllegalAction("bad_version")
    return value


async def commit(
    request: Request, stored: StoredSheet, sheet: Shared, action: Action | ChipAction, seen: int
) -> tuple[int, bool]:
    """Store the action as the change that follows version ``seen`` (the version the form or
    client saw) and tell the watchers; return the version it has and whether it is new.

    If the sheet has moved on since ``seen``, the action is refused with `Conflict`, unless the
    change that followed ``seen`` is this very action: a double tap, or a retry after an answer
    lost on the way back, is then the success it was, not a second entry. Otherwise the action
    is checked on the sheet (`IllegalAction` if the rules refuse it) before it is stored.
    """
    repo = repository(request)
    if seen == stored.version:
        apply(sheet, action)
        try:
            version = await repo.append(stored.id, seen, action.to_json())
        except Conflict:
            if await already_saved(repo, stored.id, seen, action):
                return seen + 1, False
            raise
        request.app.state.hub.publish(channel(stored.id), version)
        return version, True
    if seen < stored.version and await already_saved(repo, stored.id, seen, action):
        return seen + 1, False
    if seen < stored.version and await can_merge(repo, stored.id, seen, action):
        # Phones enter their own hands at the same moment: an entry that nothing since
        # ``seen`` touched follows the changes made meanwhile (checked on the sheet as it is).
        apply(sheet, action)
        version = await repo.append(stored.id, stored.version, action.to_json())
        request.app.state.hub.publish(channel(stored.id), version)
        return version, True
    raise Conflict(stored.version)


def apply(shared: Shared, action: Action | ChipAction) -> None:
    """Apply an action to the record it belongs to (a chip move to a sheet is refused)."""
    if isinstance(shared, ChipKeeper):
        if not isinstance(action, Move | Ante | Undo):
            raise IllegalAction("bad_action", reason="type")
        shared.apply(action)
    else:
        if isinstance(action, Move | Ante | Undo):
            raise IllegalAction("bad_action", reason="type")
        shared.apply(action)


async def can_merge(
    repo: SheetRepository, sheet_id: str, seen: int, action: Action | ChipAction
) -> bool:
    """Whether ``action`` may follow changes made since version ``seen`` without anyone seeing
    them first: a claim (the rules refuse a name claimed meanwhile), a hand whose player's
    entry nobody has entered or changed since, and whose round nobody has entered as a whole,
    or a movement of chips (the keeper refuses one the chips no longer allow)."""
    if isinstance(action, Claim | Move | Ante | Undo):
        return True
    if not isinstance(action, EnterHand):
        return False
    for _, later in await repo.entries_since(sheet_id, seen):
        if not isinstance(later, dict) or later.get("t") == "round":
            return False
        if later.get("t") == "hand" and later.get("p") == action.player:
            return False
    return True


async def already_saved(
    repo: SheetRepository, sheet_id: str, seen: int, action: Action | ChipAction
) -> bool:
    later = await repo.entries_since(sheet_id, seen)
    return bool(later) and later[0][1] == action.to_json()


# -- Creating a sheet ----------------------------------------------------------------------


def new_form(values: dict[str, Any] | None = None) -> dict[str, Any]:
    form: dict[str, Any] = {
        "name": "",
        "players": [""] * NEW_FORM_PLAYERS,
        "limit": "500",
        "end": End.REACH.value,
        "rounds": str(DEFAULT_ROUNDS),
        "own": "",
        "game": Game.ROMME.value,
        "scoring": Scoring.PENALTY.value,
    }
    form.update(values or {})
    players = list(form["players"])
    form["players"] = players + [""] * max(0, NEW_FORM_PLAYERS - len(players))
    return form


def creation_page(request: Request, template: str, status: int, **context: Any) -> Response:
    """A form that creates a shared record (a sheet, a chip keeper), with the lengths of its
    names."""
    return render(
        request,
        template,
        status_code=status,
        name_max=NAME_MAX,
        player_name_max=PLAYER_NAME_MAX,
        **context,
    )


def new_page(request: Request, status: int = 200, **context: Any) -> Response:
    limits = {"limit_min": LIMIT_MIN, "limit_max": LIMIT_MAX, "players_max": PLAYERS_MAX}
    rounds = {"rounds_min": ROUNDS_MIN, "rounds_max": ROUNDS_MAX}
    presets = {"presets": LIMIT_PRESETS, "default_limit": DEFAULT_LIMIT}
    return creation_page(
        request, "scoresheet/new.html", status, **presets, **limits, **rounds, **context
    )


@router.get("/{lang:lang}/sheet/new", name="scoresheet.new")
async def new_sheet(request: Request, lang: str) -> Response:
    if request.query_params.get("game") == Game.TILES.value:
        return await new_tile_sheet(request, lang)
    return new_page(request, form=new_form())


@router.get("/{lang:lang}/sheet/new/tiles", name="scoresheet.tiles_new")
async def new_tile_sheet(request: Request, lang: str) -> Response:
    """The new-sheet form for tile rummy, played over a number of rounds (the tile rules
    link here)."""
    return new_page(request, form=new_form({"game": "tiles", "end": End.ROUNDS.value}))


def settings_from_form(form: FormData) -> tuple[Settings, list[str]]:
    end = str(form.get("end", End.REACH.value))
    if end not in {e.value for e in End}:
        raise IllegalAction("bad_settings")
    players = [str(p) for p in form.getlist("player") if str(p).strip()]
    own = bool(form.get("own"))
    game, scoring = str(form.get("game", "romme")), str(form.get("scoring", "penalty"))
    if game not in {g.value for g in Game} or scoring not in {s.value for s in Scoring}:
        raise IllegalAction("bad_settings")
    # The scoring choice only means something for tile rummy.
    how = Scoring(scoring) if game == Game.TILES.value else Scoring.PENALTY
    name = str(form.get("name", ""))
    if end == End.ROUNDS.value:
        text = str(form.get("rounds", "")).strip()
        if not NUMBER.fullmatch(text):
            raise IllegalAction("bad_rounds", value=text, minimum=ROUNDS_MIN, maximum=ROUNDS_MAX)
        settings = Settings(name, None, End.ROUNDS, int(text), own, Game(game), how)
    else:
        settings = Settings(name, limit_from_form(form), End(end), None, own, Game(game), how)
    Sheet(settings, players)  # checks the players
    return settings, players


def limit_from_form(form: FormData) -> int:
    choice = str(form.get("limit", ""))
    text = str(form.get("limit_other", "")).strip()
    if choice == "other" or text:
        # A limit typed in the "other" field wins, even if a preset is still selected.
        if not NUMBER.fullmatch(text):
            raise IllegalAction("bad_limit", value=text, minimum=LIMIT_MIN, maximum=LIMIT_MAX)
        limit = int(text)
    elif whole_number(choice, LIMIT_MIN, LIMIT_MAX) in LIMIT_PRESETS:
        limit = int(choice)
    else:
        raise IllegalAction("bad_limit", value=choice, minimum=LIMIT_MIN, maximum=LIMIT_MAX)
    return limit


async def store_new(request: Request, sheet: Sheet, lang: str) -> str:
    """Store a new sheet; return its id."""
    settings = sheet.settings.to_json()
    rules = {k: v for k, v in settings.items() if k not in ("name", "limit")}
    names = [p.name for p in sheet.players]
    return await repository(request).create(sheet.settings.name, sheet.limit, names, lang, rules)


@router.post(
    "/{lang:lang}/sheet/new",
    name="scoresheet.create",
    openapi_extra=form_schema("name", "limit", "limit_other", repeated=("player",)),
)
async def create_sheet(request: Request, lang: str) -> Response:
    form = await read_form(request)
    values = {
        "name": str(form.get("name", "")),
        "players": [str(p) for p in form.getlist("player")][:PLAYERS_MAX],
        "limit": str(form.get("limit", "")),
        "limit_other": str(form.get("limit_other", "")),
        "end": str(form.get("end", End.REACH.value)),
        "rounds": str(form.get("rounds", "")),
        "own": str(form.get("own", "")),
        "game": str(form.get("game", "")),
        "scoring": str(form.get("scoring", "")),
    }
    try:
        settings, players = settings_from_form(form)
    except IllegalAction as err:
        message = errors.describe(err, site_translations(lang))
        return new_page(request, 422, form=new_form(values), error=message, error_code=err.code)
    sheet_id = await store_new(request, Sheet(settings, players), lang)
    return RedirectResponse(f"/{lang}/sheet/{sheet_id}", status_code=303)


# -- The sheet page ------------------------------------------------------------------------


def record_page(
    request: Request, template: str, stored: StoredSheet, status: int, **context: Any
) -> Response:
    """A page of a shared record; never cached, since every change makes another."""
    headers = {"Cache-Control": "no-store"}
    return render(request, template, status_code=status, headers=headers, stored=stored, **context)


def sheet_page(
    request: Request,
    stored: StoredSheet,
    sheet: Sheet,
    status: int = 200,
    **context: Any,
) -> Response:
    standings = sheet.standings()
    places = {s.player: s for s in standings}
    running = sheet.running_totals()
    highest = max((sheet.total(p.id) for p in sheet.active_players), default=0)
    context.setdefault("entry", {"values": {}, "out": "", "errors": {}})
    context.setdefault("join", {"name": "", "start": Start.HIGHEST.value})
    context.setdefault("hand", {"player": None, "value": "", "out": False})
    context.setdefault("me", my_player(request, stored.id, sheet))
    return record_page(
        request,
        "scoresheet/sheet.html",
        stored,
        status,
        sheet=sheet,
        standings=standings,
        places=places,
        running=running,
        highest=highest,
        points_min=POINTS_MIN,
        points_max=POINTS_MAX,
        player_name_max=PLAYER_NAME_MAX,
        log=change_log(sheet),
        view_token=view_token(stored.id),
        chart=build_chart(sheet),
        semicolon_languages=SEMICOLON_LANGUAGES,
        **context,
    )


@router.get("/{lang:lang}/sheet/{sheet_id}", name="scoresheet.sheet")
async def show_sheet(request: Request, lang: str, sheet_id: str) -> Response:
    stored, shared = await load_shared(request, sheet_id)
    done = request.query_params.get("ok", "")
    if isinstance(shared, ChipKeeper):
        return chips_page(request, stored, shared, done=done)
    return sheet_page(request, stored, shared, done=done)


def entries_from_form(
    form: FormData, players: list[int], sheet: Sheet
) -> tuple[dict[int, int], int | None, dict[str, Any]]:
    """Read the points and the went-out choice; collect every field's error at once."""
    values = {p: str(form.get(f"p{p}", "")) for p in players}
    outs = [str(v) for v in form.getlist("out") if str(v)]
    state: dict[str, Any] = {"values": values, "out": outs[0] if outs else "", "errors": {}}
    points: dict[int, int] = {}
    t_errors: dict[int, IllegalAction] = {}
    for player in players:
        name = sheet.players[player].name
        text = values[player]
        if not text.strip():
            # "Went out" with an empty field means 0.
            if str(player) in outs:
                points[player] = 0
                continue
            t_errors[player] = IllegalAction("missing_entries", players=[name])
            continue
        try:
            points[player] = parse_number(text, name)
        except IllegalAction as err:
            t_errors[player] = err
    if len(outs) > 1:
        chosen = [whole_number(o, 0, len(sheet.players) - 1) for o in outs]
        names = [sheet.players[o].name for o in chosen if o is not None and o in players]
        raise FormError(IllegalAction("several_went_out", players=names), state, t_errors)
    out: int | None = None
    if outs:
        out = whole_number(outs[0], 0, len(sheet.players) - 1)
        if out is None or out not in players:
            raise FormError(IllegalAction("unknown_player", player=outs[0]), state, t_errors)
    if t_errors:
        first = next(iter(t_errors.values()))
        if all(e.code == "missing_entries" for e in t_errors.values()):
            first = IllegalAction(
                "missing_entries", players=[sheet.players[p].name for p in t_errors]
            )
        raise FormError(first, state, t_errors)
    return points, out, state


class FormError(Exception):
    def __init__(
        self, error: IllegalAction, state: dict[str, Any], fields: dict[int, IllegalAction]
    ) -> None:
        super().__init__(error.code)
        self.error = error
        self.state = state
        self.fields = fields


def field_errors(
    lang: str, sheet: Sheet, error: IllegalAction, fields: dict[int, IllegalAction]
) -> dict[int, str]:
    translations = site_translations(lang)
    out = {p: errors.describe(e, translations) for p, e in fields.items()}
    name = error.params.get("player")
    for player in sheet.players:
        if player.name == name and player.id not in out:
            out[player.id] = errors.describe(error, translations)
    return out


async def _round_action(request: Request, lang: str, sheet_id: str, number: int | None) -> Response:
    stored, sheet = await load(request, sheet_id)
    form = await read_form(request)
    if number is None:
        players = [p.id for p in sheet.active_players]
    else:
        if not 1 <= number <= len(sheet.rounds):
            raise NotFound(sheet_id)
        players = [p for p, _ in sheet.rounds[number - 1].entries]
    template_context: dict[str, Any] = {}
    try:
        version = parse_version(form)
        if version != stored.version:
            # A form from before a change: it is a conflict, unless it is that very change
            # sent again; read it with the players it was made for.
            players = [p.id for p in sheet.players if f"p{p.id}" in form]
            try:
                entries_from_form(form, players, sheet)
            except FormError:
                raise Conflict(stored.version) from None
        points, out, state = entries_from_form(form, players, sheet)
        action: Action = (
            EnterRound.of(points, out) if number is None else CorrectRound.of(number, points, out)
        )
        await commit(request, stored, sheet, action, version)
    except FormError as err:
        state = err.state
        state["errors"] = field_errors(lang, sheet, err.error, err.fields)
        message = errors.describe(err.error, site_translations(lang))
        template_context = {"entry": state, "error": message, "status": 422}
    except IllegalAction as err:
        state = {
            "values": {p: str(form.get(f"p{p}", "")) for p in players},
            "out": str(form.get("out", "")),
            "errors": field_errors(lang, sheet, err, {}),
        }
        message = errors.describe(err, site_translations(lang))
        template_context = {"entry": state, "error": message, "status": 422}
    except Conflict:
        stored, sheet = await load(request, sheet_id)
        state = {
            "values": {p: str(form.get(f"p{p}", "")) for p in players},
            "out": str(form.get("out", "")),
            "errors": {},
        }
        message = errors.message("sheet_changed", {}, site_translations(lang))
        template_context = {"entry": state, "error": message, "status": 409, "conflict": True}
    else:
        kind = "round" if number is None else f"correct-{number}"
        return RedirectResponse(f"/{lang}/sheet/{sheet_id}?ok={kind}", status_code=303)
    status = template_context.pop("status")
    if number is None:
        return sheet_page(request, stored, sheet, status=status, **template_context)
    return correction_page(request, stored, sheet, number, status=status, **template_context)


@router.post(
    "/{lang:lang}/sheet/{sheet_id}/round",
    name="scoresheet.enter_round",
    openapi_extra=ROUND_FORM,
)
async def enter_round(request: Request, lang: str, sheet_id: str) -> Response:
    return await _round_action(request, lang, sheet_id, None)


def correction_page(
    request: Request,
    stored: StoredSheet,
    sheet: Sheet,
    number: int,
    status: int = 200,
    **context: Any,
) -> Response:
    rnd = sheet.rounds[number - 1]
    if "entry" not in context:
        context["entry"] = {
            "values": {p: str(e.points) for p, e in rnd.entries},
            "out": "" if rnd.went_out is None else str(rnd.went_out),
            "errors": {},
        }
    return record_page(
        request,
        "scoresheet/correct.html",
        stored,
        status,
        sheet=sheet,
        round=rnd,
        round_players=[sheet.players[p] for p, _ in rnd.entries],
        points_min=POINTS_MIN,
        points_max=POINTS_MAX,
        **context,
    )


@router.get("/{lang:lang}/sheet/{sheet_id}/round/{number:int}", name="scoresheet.correct_form")
async def correct_form(request: Request, lang: str, sheet_id: str, number: int) -> Response:
    stored, sheet = await load(request, sheet_id)
    if not 1 <= number <= len(sheet.rounds):
        raise NotFound(sheet_id)
    return correction_page(request, stored, sheet, number)


@router.post(
    "/{lang:lang}/sheet/{sheet_id}/round/{number:int}",
    name="scoresheet.correct",
    openapi_extra=ROUND_FORM,
)
async def correct_round(request: Request, lang: str, sheet_id: str, number: int) -> Response:
    return await _round_action(request, lang, sheet_id, number)


ATTEMPTS = 5
"""How often a form's change is tried again on the record as it now is, when another phone's
change came first and the change may follow it (a claim, an own hand, a movement of chips)."""


async def act_from_form(
    request: Request,
    lang: str,
    sheet_id: str,
    load_record: Callable[[Request, str], Awaitable[tuple[StoredSheet, RecordT]]],
    make: Callable[[FormData, StoredSheet, RecordT], Action | ChipAction],
    page: Callable[[StoredSheet, RecordT, FormData, int, str], Response],
    retry: bool = False,
) -> Response | None:
    """Read a form, make its action and store it; the refusal's page, or None once stored.

    An action the rules refuse shows ``page`` with status 422 and the reason; one that comes
    after another phone's change shows the record as it now is, with status 409. With
    ``retry``, a lost race is first tried again on the record as it now is.
    """
    stored, record = await load_record(request, sheet_id)
    form = await read_form(request)
    try:
        version = parse_version(form)
        action = make(form, stored, record)
        for attempt in range(ATTEMPTS if retry else 1):
            try:
                await commit(request, stored, record, action, version)
                break
            except Conflict:
                if attempt == (ATTEMPTS if retry else 1) - 1:
                    raise
                stored, record = await load_record(request, sheet_id)
    except IllegalAction as err:
        return page(stored, record, form, 422, errors.describe(err, site_translations(lang)))
    except Conflict:
        stored, record = await load_record(request, sheet_id)
        message = errors.message("sheet_changed", {}, site_translations(lang))
        return page(stored, record, form, 409, message)
    return None


async def _player_action(
    request: Request, lang: str, sheet_id: str, make: Callable[[FormData, Sheet], Action], kind: str
) -> Response:

    def refused(
        stored: StoredSheet, sheet: Sheet, form: FormData, status: int, message: str
    ) -> Response:
        join = {"name": str(form.get("name", "")), "start": str(form.get("start", "highest"))}
        return sheet_page(request, stored, sheet, status, join=join, player_error=message)

    refusal = await act_from_form(
        request, lang, sheet_id, load, lambda form, _, sheet: make(form, sheet), refused
    )
    return refusal or RedirectResponse(
        f"/{lang}/sheet/{sheet_id}?ok={kind}#players", status_code=303
    )


def _join_from_form(form: FormData, sheet: Sheet) -> Join:
    start = str(form.get("start", Start.HIGHEST.value))
    if start not in {s.value for s in Start}:
        raise IllegalAction("bad_start")
    return Join(str(form.get("name", "")), Start(start))


def _leave_from_form(form: FormData, sheet: Sheet) -> Leave:
    player = str(form.get("player", ""))
    number = whole_number(player, 0, MAX_SEQ)
    if number is None:
        raise IllegalAction("unknown_player", player=player)
    return Leave(number)


@router.post(
    "/{lang:lang}/sheet/{sheet_id}/join",
    name="scoresheet.join",
    openapi_extra=form_schema("version", "name", "start"),
)
async def join(request: Request, lang: str, sheet_id: str) -> Response:
    return await _player_action(request, lang, sheet_id, _join_from_form, "join")


@router.post(
    "/{lang:lang}/sheet/{sheet_id}/leave",
    name="scoresheet.leave",
    openapi_extra=form_schema("version", "player"),
)
async def leave(request: Request, lang: str, sheet_id: str) -> Response:
    return await _player_action(request, lang, sheet_id, _leave_from_form, "leave")


@router.get("/{lang:lang}/sheet/{sheet_id}/round", include_in_schema=False)
@router.get("/{lang:lang}/sheet/{sheet_id}/join", include_in_schema=False)
@router.get("/{lang:lang}/sheet/{sheet_id}/leave", include_in_schema=False)
async def back_to_sheet(request: Request, lang: str, sheet_id: str) -> Response:
    """The address of a refused form, reloaded (or shown after a boosted post): the sheet."""
    return RedirectResponse(f"/{lang}/sheet/{sheet_id}", status_code=303)


# -- Own hands -----------------------------------------------------------------------------


def claim_cookie(sheet_id: str) -> str:
    """The cookie that keeps, in one browser, the secret of the player it claimed."""
    return f"rk_hand_{sheet_id}"


def my_player(request: Request, sheet_id: str, sheet: Sheet) -> int | None:
    """The player this browser has claimed on the sheet, or None."""
    secret = request.cookies.get(claim_cookie(sheet_id))
    if not secret:
        return None
    wanted = hash_token(secret)
    for player in sheet.claimed:
        key = sheet.claim_key(player)
        if key is not None and hmac.compare_digest(key, wanted):
            return player
    return None


def change_log(sheet: Sheet) -> list[dict[str, Any]]:
    """Every change of the sheet, oldest first: what happened, to whom, by whom, and whether
    it closed a round (replayed step by step, so that each change is seen as it was made)."""
    names = [p.name for p in sheet.players]
    step = Sheet(sheet.settings, list(sheet.record().seats))
    out: list[dict[str, Any]] = []
    for action in sheet.actions:
        item: dict[str, Any] = {"kind": action.to_json()["t"], "round": step.next_round}
        if isinstance(action, CorrectRound):
            item["round"] = action.round
        elif isinstance(action, Join):
            item["name"] = names[len(step.players)]
        elif isinstance(action, Leave | Claim):
            item["name"] = names[action.player]
        elif isinstance(action, EnterHand):
            item.update(name=names[action.player], points=action.points, out=action.went_out)
            if action.by is not None and action.by != action.player:
                item.update(kind="hand-by", by=names[action.by])
            elif action.by is None:
                item["kind"] = "hand-anonymous"
        before = len(step.rounds)
        step.apply(action)
        item["closed"] = isinstance(action, EnterHand | Leave) and len(step.rounds) > before
        out.append(item)
    return out


def set_claim_cookie(request: Request, response: Response, sheet_id: str, secret: str) -> None:
    response.set_cookie(
        claim_cookie(sheet_id),
        secret,
        max_age=400 * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


async def _own_action(
    request: Request,
    lang: str,
    sheet_id: str,
    make: Callable[[FormData, Sheet, int | None], tuple[Action, str]],
    kind: str,
) -> Response:
    """A claim or a hand from the sheet page's forms; a lost race with another phone's entry
    for someone else is tried again on the sheet as it now is."""
    cookies: list[str] = []

    def action(form: FormData, stored: StoredSheet, sheet: Sheet) -> Action:
        made, cookie = make(form, sheet, my_player(request, stored.id, sheet))
        cookies.append(cookie)
        return made

    def refused(
        stored: StoredSheet, sheet: Sheet, form: FormData, status: int, message: str
    ) -> Response:
        hand = {
            "player": str(form.get("player", "")),
            "value": str(form.get("points", "")),
            "out": bool(form.get("out")),
        }
        return sheet_page(request, stored, sheet, status, hand=hand, hand_error=message)

    refusal = await act_from_form(request, lang, sheet_id, load, action, refused, retry=True)
    if refusal is not None:
        return refusal
    response = RedirectResponse(f"/{lang}/sheet/{sheet_id}?ok={kind}#entry", status_code=303)
    if cookies[-1]:
        set_claim_cookie(request, response, sheet_id, cookies[-1])
    return response


def _claim_from_form(form: FormData, sheet: Sheet, me: int | None) -> tuple[Action, str]:
    if me is not None:
        raise IllegalAction("already_claimed_here", player=sheet.players[me].name)
    player = str(form.get("player", ""))
    number = whole_number(player, 0, MAX_SEQ)
    if number is None:
        raise IllegalAction("unknown_player", player=player)
    secret = new_token()
    return Claim(number, hash_token(secret)), secret


def _hand_from_form(form: FormData, sheet: Sheet, me: int | None) -> tuple[Action, str]:
    text = str(form.get("player", ""))
    player = whole_number(text, 0, len(sheet.players) - 1)
    if player is None:
        raise IllegalAction("unknown_player", player=text)
    number = whole_number(form.get("round", ""), 1, MAX_SEQ)
    if number is None:
        raise IllegalAction("bad_version")
    out = bool(form.get("out"))
    typed = str(form.get("points", ""))
    points = 0 if out and not typed.strip() else parse_number(typed, sheet.players[player].name)
    return EnterHand(player, points, out, number, me), ""


@router.post("/{lang:lang}/sheet/{sheet_id}/claim", name="scoresheet.claim")
async def claim(request: Request, lang: str, sheet_id: str) -> Response:
    return await _own_action(request, lang, sheet_id, _claim_from_form, "claim")


@router.post("/{lang:lang}/sheet/{sheet_id}/hand", name="scoresheet.hand")
async def enter_hand(request: Request, lang: str, sheet_id: str) -> Response:
    return await _own_action(request, lang, sheet_id, _hand_from_form, "hand")


@router.get("/{lang:lang}/sheet/{sheet_id}/claim", include_in_schema=False)
@router.get("/{lang:lang}/sheet/{sheet_id}/hand", include_in_schema=False)
async def back_to_own_sheet(request: Request, lang: str, sheet_id: str) -> Response:
    return RedirectResponse(f"/{lang}/sheet/{sheet_id}", status_code=303)


# -- The read-only link ---------------------------------------------------------------------


async def load_view(request: Request, token: str) -> tuple[StoredSheet, Shared]:
    """The sheet whose read-only token is ``token`` (`NotFound` for anything else)."""
    if not SHEET_ID.fullmatch(token):
        raise NotFound(token)
    return await load_shared(request, await repository(request).find_view(token))


def view_page(
    request: Request, token: str, stored: StoredSheet, sheet: Shared, display: bool
) -> Response:
    if isinstance(sheet, ChipKeeper):
        return chips_page(request, stored, sheet, token=token, display=display, read_only=True)
    standings = sheet.standings()
    return record_page(
        request,
        "scoresheet/view.html",
        stored,
        200,
        sheet=sheet,
        standings=standings,
        token=token,
        display=display,
        read_only=True,
        running=sheet.running_totals(),
        chart=None if display else build_chart(sheet),
        me=None,
        hand={"player": None, "value": "", "out": False},
    )


@router.get("/{lang:lang}/view/{token}", name="scoresheet.view")
async def view_sheet(request: Request, lang: str, token: str) -> Response:
    """The sheet as everyone may see it, without any form: for a phone passed around."""
    stored, sheet = await load_view(request, token)
    return view_page(request, token, stored, sheet, display=False)


@router.get("/{lang:lang}/view/{token}/display", name="scoresheet.display")
async def display_sheet(request: Request, lang: str, token: str) -> Response:
    """The standings in large type, for a screen at the table; they follow every change."""
    stored, sheet = await load_view(request, token)
    return view_page(request, token, stored, sheet, display=True)


@router.websocket("/ws/view/{token}", name="scoresheet.view_live")
async def view_live(websocket: WebSocket, token: str) -> None:
    await follow(websocket, token, lambda repo: repo.find_view(token))


@router.get("/ws/view/{token}", include_in_schema=False)
async def view_live_at_front(request: Request, token: str) -> Response:
    return await hand_over(request, token, lambda repo: repo.find_view(token))


# -- The Rummoli chip keeper ----------------------------------------------------------------


@router.get("/{lang:lang}/chips/new", name="scoresheet.chips_new")
async def new_chip_keeper(request: Request, lang: str) -> Response:
    return chips_new_page(request, form={"name": "", "chips": "40", "players": [""] * 6})


def chips_new_page(request: Request, status: int = 200, **context: Any) -> Response:
    limits = {"chips_min": CHIPS_MIN, "chips_max": CHIPS_MAX, "players_max": CHIP_PLAYERS_MAX}
    return creation_page(request, "scoresheet/chips_new.html", status, **limits, **context)


@router.post("/{lang:lang}/chips/new", name="scoresheet.chips_create")
async def create_chip_keeper(request: Request, lang: str) -> Response:
    form = await read_form(request)
    name, chips_text = str(form.get("name", "")), str(form.get("chips", ""))
    typed = [str(p) for p in form.getlist("player")][:CHIP_PLAYERS_MAX]
    values = {"name": name, "chips": chips_text, "players": typed}
    try:
        chips = whole_number(chips_text, CHIPS_MIN, CHIPS_MAX)
        if chips is None:
            raise IllegalAction("bad_chips", minimum=CHIPS_MIN, maximum=CHIPS_MAX)
        players = [p for p in typed if p.strip()]
        keeper = ChipKeeper(ChipSettings(name, chips), players)
    except IllegalAction as err:
        message = errors.describe(err, site_translations(lang))
        return chips_new_page(request, 422, form=values, error=message)
    sheet_id = await repository(request).create(
        keeper.settings.name, None, keeper.names, lang, keeper.settings.to_json()
    )
    return RedirectResponse(f"/{lang}/sheet/{sheet_id}", status_code=303)


def chips_page(
    request: Request, stored: StoredSheet, keeper: ChipKeeper, status: int = 200, **context: Any
) -> Response:
    context.setdefault("token", view_token(stored.id))
    context.setdefault("read_only", False)
    context.setdefault("display", False)
    return record_page(
        request,
        "scoresheet/chips.html",
        stored,
        status,
        keeper=keeper,
        boxes=BOXES,
        **context,
    )


async def load_chips(request: Request, sheet_id: str) -> tuple[StoredSheet, ChipKeeper]:
    """A Rummoli chip keeper."""
    return await load_as(request, sheet_id, ChipKeeper)


def _chip_action_from_form(form: FormData, keeper: ChipKeeper) -> ChipAction:
    what = str(form.get("do", ""))
    if what == "ante":
        return Ante()
    if what == "undo":
        change = whole_number(form.get("change", ""), 1, MAX_SEQ)
        if change is None:
            raise IllegalAction("unknown_change", change=str(form.get("change", "")))
        return Undo(change)
    if what == "take":
        source, target = str(form.get("box", "")), str(form.get("to", ""))
        return Move(source, target, keeper.amount_at(source))
    if what == "move":
        amount = whole_number(form.get("n", ""), 1, 100_000)
        if amount is None:
            raise IllegalAction("bad_amount", minimum=1, maximum=100_000)
        return Move(str(form.get("from", "")), str(form.get("to", "")), amount)
    raise IllegalAction("bad_action", reason="do")


@router.post("/{lang:lang}/sheet/{sheet_id}/chips", name="scoresheet.chips_act")
async def chips_act(request: Request, lang: str, sheet_id: str) -> Response:
    """A change of the chips from the keeper's forms; another phone's change made meanwhile
    does not refuse it (chips only move), unless the chips are no longer there."""

    def refused(
        stored: StoredSheet, keeper: ChipKeeper, _: FormData, status: int, message: str
    ) -> Response:
        return chips_page(request, stored, keeper, status, chips_error=message)

    refusal = await act_from_form(
        request,
        lang,
        sheet_id,
        load_chips,
        lambda form, _, keeper: _chip_action_from_form(form, keeper),
        refused,
        retry=True,
    )
    return refusal or RedirectResponse(f"/{lang}/sheet/{sheet_id}?ok=chips", status_code=303)


@router.get("/{lang:lang}/sheet/{sheet_id}/chips", include_in_schema=False)
async def back_to_chips(request: Request, lang: str, sheet_id: str) -> Response:
    return RedirectResponse(f"/{lang}/sheet/{sheet_id}", status_code=303)


# -- Print and export ----------------------------------------------------------------------


@router.get("/{lang:lang}/sheet/{sheet_id}/print", name="scoresheet.print")
async def print_sheet(request: Request, lang: str, sheet_id: str) -> Response:
    stored, sheet = await load(request, sheet_id)
    return render(
        request,
        "scoresheet/print.html",
        stored=stored,
        sheet=sheet,
        standings=sheet.standings(),
        running=sheet.running_totals(),
        chart=build_chart(sheet),
        updated=utc_iso(stored.updated_at),
    )


def utc_iso(moment: datetime) -> str:
    """A stored moment in UTC as ISO 8601 (``2026-01-01T18:05:00Z``); a moment without a
    time zone is one the database kept in UTC."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


SEMICOLON_LANGUAGES = frozenset({"fr", "es", "de"})
"""Languages whose spreadsheets read CSV files separated by semicolons (their decimal mark is
the comma): the sheet offers them that form first, and the comma form beside it."""
SEPARATORS = {"comma": ",", "semicolon": ";"}


class SafeWriter:
    """A CSV writer whose text cells a spreadsheet cannot run as formulas (`csv_cell`)."""

    def __init__(self, out: io.StringIO, delimiter: str = ",") -> None:
        self.writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")

    def writerow(self, row: list[Any]) -> None:
        self.writer.writerow([csv_cell(cell) for cell in row])


def csv_text(sheet: Sheet, lang: str, delimiter: str = ",") -> str:
    """The sheet as CSV: a row per round, then the totals and the places."""
    _ = site_translations(lang).gettext
    players = sheet.players
    out = io.StringIO()
    writer = SafeWriter(out, delimiter)
    writer.writerow([_("Round"), *(p.name for p in players), _("Went out")])
    for player in players:
        if player.start_total and player.first_round > 1:
            writer.writerow(
                [_("Start"), *(player.start_total if q is player else "" for q in players), ""]
            )
    for rnd in sheet.rounds:
        out_name = "" if rnd.went_out is None else players[rnd.went_out].name
        cells = ["" if rnd.points(p.id) is None else rnd.points(p.id) for p in players]
        writer.writerow([rnd.number, *cells, out_name])
    places = {s.player: s.place for s in sheet.standings()}
    writer.writerow([_("Total"), *(sheet.total(p.id) for p in players), ""])
    writer.writerow([_("Place"), *(places[p.id] for p in players), ""])
    return out.getvalue()


@router.get("/{lang:lang}/sheet/{sheet_id}/export.csv", name="scoresheet.csv")
async def export_csv(request: Request, lang: str, sheet_id: str) -> Response:
    """The sheet as a CSV file: ``?sep=semicolon`` for the spreadsheets that expect it."""
    _, sheet = await load(request, sheet_id)
    delimiter = SEPARATORS.get(request.query_params.get("sep", "comma"), ",")
    slug = re.sub(r"[^\w-]+", "-", sheet.settings.name, flags=re.UNICODE).strip("-") or "sheet"
    filename = f"{slug}.csv"
    return Response(
        "\ufeff" + csv_text(sheet, lang, delimiter),
        media_type="text/csv; charset=utf-8",
        headers={
            "Content-Disposition": (
                f'attachment; filename="{slug.encode("ascii", "replace").decode()}.csv"; '
                f"filename*=UTF-8''{quote(filename)}"
            )
        },
    )


# -- Live updates --------------------------------------------------------------------------


Find: TypeAlias = Callable[[SheetRepository], Awaitable[str]]
"""Reads the id of the sheet that an address names (`NotFound` when none)."""


@router.websocket("/ws/sheet/{sheet_id}", name="scoresheet.live")
async def live(websocket: WebSocket, sheet_id: str) -> None:
    await follow(websocket, sheet_id, _existing(sheet_id))


@router.get("/ws/sheet/{sheet_id}", include_in_schema=False)
async def live_at_front(request: Request, sheet_id: str) -> Response:
    async def named(repo: SheetRepository) -> str:
        return sheet_id  # `hand_over` reads its version, which finds whether it is there

    return await hand_over(request, sheet_id, named)


def _existing(sheet_id: str) -> Find:
    async def existing(repo: SheetRepository) -> str:
        await repo.version(sheet_id)  # `NotFound` for a sheet that is not there
        return sheet_id

    return existing


async def _sheet_named(repo: SheetRepository, key: str, find: Find) -> str:
    if not SHEET_ID.fullmatch(key):
        raise NotFound(key)
    return await find(repo)


async def follow(websocket: WebSocket, key: str, find: Find) -> None:
    """Send the socket every new version of the record that ``key`` (its id or its read-only
    token) names; close it with 4404 when there is none."""
    repo = SheetRepository(websocket.app.state.db)
    try:
        sheet_id = await _sheet_named(repo, key, find)
    except NotFound:
        await websocket.close(code=4404)
        return

    async def version() -> int:
        return await repo.version(sheet_id)

    await websocket.app.state.hub.follow(websocket, channel(sheet_id), version)


FRONT_HEADER = "X-Rummykit-Front"
"""Set by nginx (``deploy/nginx.conf``) on a socket's address that it would hold itself."""


async def hand_over(request: Request, key: str, find: Find) -> Response:
    """nginx asks before it holds a page's socket (`rummykit.web.live.LiveFront`): the sheet
    that ``key`` names gets its current version posted to nginx, and the answer lets nginx
    subscribe the socket to the channel the address names. Not from nginx, or no sheet
    there: the "not found" page (the address is a WebSocket's)."""
    front = request.app.state.hub.front
    if request.headers.get(FRONT_HEADER) != "nchan":
        raise NotFound(key)
    if front is None:
        log.error("nginx would hold the sheets' sockets, but %s is not set", FRONT_VARIABLE)
        return Response(f"{FRONT_VARIABLE} is not set", status_code=503)
    repo = repository(request)
    sheet_id = await _sheet_named(repo, key, find)
    name = channel(sheet_id)
    await front.ensure(name, await repo.version(sheet_id))
    return Response(status_code=200)


# -- JSON API ------------------------------------------------------------------------------


def _sheet_json(request: Request, stored_id: str, version: int, sheet: Shared) -> dict[str, Any]:
    return {"id": stored_id, "version": version, "sheet": sheet.to_json()}


@router.post("/api/sheets", name="api.sheets.create", status_code=201, **json_body(NewSheet))
async def api_create(request: Request) -> Response:
    """Create a sheet: ``{"name", "limit", "players": [...], "lang"}``, and optionally
    ``"end"`` (``"reach"``, ``"exceed"`` or ``"rounds"``) with ``"rounds"``, and
    ``"own_hands": true`` for a sheet where each player enters their own hand."""
    data = NewSheet.read(await read_json(request))
    lang = data.lang or request_language(request)
    if lang not in LANGUAGES:
        raise IllegalAction("bad_request")
    settings = Settings(
        data.name,
        data.limit,
        End(data.end),
        data.rounds,
        data.own_hands,
        Game(data.game),
        Scoring(data.scoring),
    )
    sheet = Sheet(settings, data.players)
    sheet_id = await store_new(request, sheet, lang)
    body = _sheet_json(request, sheet_id, 0, sheet)
    body["url"] = f"/{lang}/sheet/{sheet_id}"
    return JSONResponse(body, status_code=201)


@router.get("/api/sheets/{sheet_id}", name="api.sheets.get", responses=refusals(404))
async def api_get(request: Request, sheet_id: str) -> Response:
    stored, sheet = await load_shared(request, sheet_id)
    return JSONResponse(_sheet_json(request, stored.id, stored.version, sheet))


@router.post(
    "/api/sheets/{sheet_id}/actions", name="api.sheets.act", **json_body(SheetAction, 404, 409)
)
async def api_act(request: Request, sheet_id: str) -> Response:
    """Apply one action: ``{"version": <the version seen>, "action": {...}}``.

    422 for an action the rules refuse, 409 when the sheet has moved on since ``version``
    (with the current sheet, so the client can show it and ask again).
    """
    stored, sheet = await load_shared(request, sheet_id)
    data = SheetAction.read(await read_json(request))
    version = data.version
    action: Action | ChipAction
    if isinstance(sheet, ChipKeeper):
        action = chip_action_from_json(data.action)
    else:
        action = action_from_json(data.action)
    secret = ""
    if isinstance(action, EnterHand) and isinstance(sheet, Sheet):
        # Who entered a hand is the player this browser claimed, never what the client says.
        me = my_player(request, stored.id, sheet)
        action = EnterHand(action.player, action.points, action.went_out, action.round, me)
    elif isinstance(action, Claim) and isinstance(sheet, Sheet):
        if my_player(request, stored.id, sheet) is not None:
            raise IllegalAction("already_claimed_here")
        secret = new_token()
        action = Claim(action.player, hash_token(secret))
    try:
        new_version, applied = await commit(request, stored, sheet, action, version)
    except Conflict:
        stored, sheet = await load_shared(request, sheet_id)
        lang = request_language(request)
        message = errors.message("sheet_changed", {}, site_translations(lang))
        body = _sheet_json(request, stored.id, stored.version, sheet)
        body["error"] = {"code": "sheet_changed", "params": {}, "message": message}
        return JSONResponse(body, status_code=409)
    if not applied:  # the same action, stored a moment ago: answer with the sheet as it is
        stored, sheet = await load_shared(request, sheet_id)
        new_version = stored.version
    response = JSONResponse(_sheet_json(request, stored.id, new_version, sheet))
    if secret:
        set_claim_cookie(request, response, sheet_id, secret)
    return response
