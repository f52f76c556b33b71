"""Every request's input checked in one place, before any route acts on it.

- JSON bodies are read by `read_json`: at most `MAX_DEPTH` levels of nesting (checked on the
  raw text before parsing, so that ``[[[[…`` can never exhaust the parser's recursion),
  at most `MAX_NODES` values, lists of at most `MAX_ITEMS` items, texts of at most `MAX_TEXT`
  characters and no control character in any text or key (a NUL can never reach the
  database). Then a typed model (`NewGame`, `GameAction`, `NewSheet`, `SheetAction`, strict
  pydantic models: an integer is an integer, ``12.0`` and ``true`` are not) gives the route
  its fields.
- Forms are read by `read_form`: text fields only, each of at most `MAX_FORM_TEXT` characters,
  no control character; numbers are read by `whole_number`, which takes ASCII digits only (a
  ``²`` is a digit to `str.isdigit` but not to `int`).
- The rules of a new game are checked against the options of its new-game form
  (`check_rules`): a known option, a value the form offers, of the type the form sends.

Anything refused raises `IllegalAction` with a stable code (``bad_json``, ``too_deep``,
``bad_text``, ``bad_field``, ``bad_rules`` or the engine's own code for that field), which the
site answers with 422 and the translated sentence; the route has not started, so nothing is
stored. The engines keep their own checks.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, ClassVar, Literal

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from pydantic import ValidationError as PydanticError
from starlette.datastructures import FormData, UploadFile

from rummykit.core import JSON, IllegalAction
from rummykit.i18n import LANGUAGES
from rummykit.scoresheet import DEFAULT_LIMIT, ROUNDS_MAX, ROUNDS_MIN
from rummykit.web.errors import N_, register

MAX_DEPTH = 12
"""Levels of nesting of a JSON body (a tile rummy play is 4 deep)."""
MAX_NODES = 2_000
"""Values in one JSON body."""
MAX_ITEMS = 120
"""Items in one JSON list: more than the cards of two decks and six jokers (110) or the tiles
of a tile rummy set (106), so one action can never name more."""
MAX_TEXT = 200
"""Characters of one text in a JSON body."""
MAX_FORM_FIELDS = 200
MAX_FORM_TEXT = 1_000
"""Characters of one form field."""
MAX_SEQ = 10**9
"""The highest version or step number a request may name."""

register(
    {
        "too_deep": N_("This request is nested too deeply."),
        "too_big": N_("This request holds too many values."),
        "bad_text": N_("Texts may not hold control characters."),
        "bad_field": N_("This field is not valid: %(field)s."),
        "too_large": N_("This request is too large."),
        "too_many_requests": N_("Too many requests: wait a moment, then try again."),
        "headers_too_large": N_("The headers of this request are too large."),
    }
)

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Control characters no text may hold (tab, line feed and carriage return are allowed in
forms; names refuse them too, see `rummykit.names`)."""
_WHOLE = re.compile(r"[0-9]{1,12}")


def check_depth(raw: bytes, limit: int = MAX_DEPTH) -> None:
    """Refuse JSON text nested more than ``limit`` levels, without parsing it.

    >>> check_depth(b'{"a": [[1], "[[[["]}', 3)
    >>> check_depth(b"[" * 5, 3)
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: too_deep: maximum=3
    """
    depth = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                raise IllegalAction("too_deep", maximum=limit)
        elif byte in (0x5D, 0x7D):
            depth -= 1


def _check_text(text: str) -> None:
    if len(text) > MAX_TEXT or _CONTROL.search(text) or "\n" in text or "\r" in text:
        if len(text) > MAX_TEXT:
            raise IllegalAction("too_big", maximum=MAX_TEXT)
        raise IllegalAction("bad_text")


def check_tree(data: Any) -> None:
    """Refuse a parsed JSON value with too many values, too long lists or texts, or control
    characters in a text or a key."""
    nodes = 0
    stack = [data]
    while stack:
        value = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise IllegalAction("too_big", maximum=MAX_NODES)
        if isinstance(value, str):
            _check_text(value)
        elif isinstance(value, list):
            if len(value) > MAX_ITEMS:
                raise IllegalAction("too_big", maximum=MAX_ITEMS)
            stack.extend(value)
        elif isinstance(value, dict):
            if len(value) > MAX_ITEMS:
                raise IllegalAction("too_big", maximum=MAX_ITEMS)
            for key, item in value.items():
                _check_text(key)
                stack.append(item)


def parse_json(raw: bytes) -> Any:
    """A JSON body, checked (`check_depth`, then `check_tree`).

    >>> parse_json(b'{"seq": 3}')
    {'seq': 3}
    >>> parse_json(b'{"name": "a\\\\u0000b"}')
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: bad_text
    """
    check_depth(raw)
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        # ValueError covers bad UTF-8 and integers of more digits than Python converts.
        raise IllegalAction("bad_json") from None
    check_tree(data)
    return data


async def read_json(request: Request) -> Any:
    """The request's JSON body, checked (`parse_json`)."""
    return parse_json(await request.body())


async def read_object(request: Request) -> dict[str, Any]:
    """The request's JSON body, which must be an object (`IllegalAction("bad_request")`)."""
    data = await read_json(request)
    if not isinstance(data, dict):
        raise IllegalAction("bad_request")
    return data


async def read_form(request: Request) -> FormData:
    """The request's form: text fields only, each short and without control characters."""
    try:
        form = await request.form(max_files=0, max_fields=MAX_FORM_FIELDS)
    except Exception:  # multipart's own refusals (too many fields, files, bad boundaries)
        raise IllegalAction("bad_request") from None
    for key, value in form.multi_items():
        if isinstance(value, UploadFile):
            raise IllegalAction("bad_request")
        for text in (key, value):
            if len(text) > MAX_FORM_TEXT:
                raise IllegalAction("too_big", maximum=MAX_FORM_TEXT)
            if _CONTROL.search(text):
                raise IllegalAction("bad_text")
    return form


def whole_number(text: object, low: int, high: int) -> int | None:
    """The whole number of ASCII digits ``text`` holds, if it lies in ``low..high``; else None.

    >>> whole_number(" 12 ", 1, 50), whole_number("²", 0, 9), whole_number("9" * 5000, 0, 9)
    (12, None, None)
    """
    if not isinstance(text, str):
        return None
    text = text.strip()
    if not _WHOLE.fullmatch(text):
        return None
    value = int(text)
    return value if low <= value <= high else None


def since_param(text: str | None) -> int:
    """The ``?since=`` of a live socket: the last version the page has, -1 for none."""
    value = whole_number(text or "", 0, MAX_SEQ)
    return -1 if value is None else value


# -- Typed bodies ----------------------------------------------------------------------------

Name = Annotated[StrictStr, Field(max_length=MAX_TEXT)]
Word = Annotated[StrictStr, Field(max_length=40)]
Seq = Annotated[StrictInt, Field(ge=0, le=MAX_SEQ)]
RuleValue = StrictBool | StrictInt | Word | None
Language = Literal["fr", "es", "de", "en"]
assert set(LANGUAGES) == {"fr", "es", "de", "en"}


class Body(BaseModel):
    """A strict body: no unknown field, no conversion between types."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    FIELD_CODES: ClassVar[Mapping[str, tuple[str, Mapping[str, JSON]]]] = {}
    """The error code (and parameters) of a field the engine words better than ``bad_field``."""

    @classmethod
    def read(cls, data: Any) -> Any:
        """``data`` as this model, or `IllegalAction` naming the first field refused."""
        if not isinstance(data, dict):
            raise IllegalAction("bad_request")
        try:
            return cls.model_validate(data)
        except PydanticError as err:
            first = err.errors()[0]
            where = first["loc"]
            field = str(where[0]) if where else ""
            if first["type"] == "extra_forbidden" or field not in cls.FIELD_CODES:
                raise IllegalAction("bad_field", field=".".join(map(str, where))) from None
            code, params = cls.FIELD_CODES[field]
            raise IllegalAction(code, **params) from None


class NewGame(Body):
    """``POST /api/games``: a game against the computer."""

    game: Word
    preset: Word | None = None
    rules: dict[Word, RuleValue] = Field(default_factory=dict, max_length=40)
    opponents: StrictInt | None = None
    level: Word | None = None
    lang: Language | None = None

    FIELD_CODES = {"game": ("bad_game", {}), "lang": ("bad_request", {})}


class GameAction(Body):
    """``POST /api/games/{id}/actions``: one action, and the version the page saw."""

    seq: Seq | None = None
    action: dict[Word, Any]

    FIELD_CODES = {"seq": ("bad_version", {}), "action": ("bad_action", {"reason": "action"})}


class NewMelds(Body):
    """``POST /api/games/{id}/melds``: the new melds a page is building, as a play names them."""

    melds: list[dict[Word, Any]] = Field(max_length=MAX_ITEMS)

    FIELD_CODES = {"melds": ("bad_action", {"reason": "melds"})}


class NewSheet(Body):
    """``POST /api/sheets``: a score sheet."""

    name: Name
    limit: StrictInt | None = DEFAULT_LIMIT
    players: list[Name] = Field(max_length=40)
    lang: Language | None = None
    end: Literal["reach", "exceed", "rounds"] = "reach"
    rounds: StrictInt | None = None
    own_hands: StrictBool = False
    game: Literal["romme", "tiles"] = "romme"
    scoring: Literal["penalty", "plus_minus"] = "penalty"

    FIELD_CODES = {
        "game": ("bad_settings", {}),
        "scoring": ("bad_settings", {}),
        "name": ("empty_sheet_name", {}),
        "end": ("bad_settings", {}),
        "rounds": ("bad_rounds", {"minimum": ROUNDS_MIN, "maximum": ROUNDS_MAX}),
        "players": ("bad_request", {}),
        "lang": ("bad_request", {}),
    }


class SheetAction(Body):
    """``POST /api/sheets/{id}/actions``: one action, and the version the client saw."""

    version: Seq
    action: dict[Word, Any]

    FIELD_CODES = {"version": ("bad_version", {}), "action": ("bad_action", {"reason": "action"})}


class TableSeat(Body):
    """A seat of a new table: a person, or a computer of a level."""

    kind: Literal["person", "computer"]
    level: Word | None = None


class NewTable(Body):
    """``POST /api/tables``: a table for people and computers (see `rummykit.web.play.tables`)."""

    game: Word
    preset: Word | None = None
    rules: dict[Word, RuleValue] = Field(default_factory=dict, max_length=40)
    name: Name = ""
    nickname: Name
    seats: list[TableSeat] = Field(min_length=1, max_length=8)
    timer: StrictInt = 60
    grace: StrictInt = 90
    standin: Word | None = None
    spectators: StrictBool = False
    free_text: StrictBool = False
    lang: Language | None = None

    FIELD_CODES = {
        "game": ("bad_game", {}),
        "lang": ("bad_request", {}),
        "seats": ("bad_seats", {}),
        "timer": ("bad_timer", {}),
        "grace": ("bad_grace", {}),
        "nickname": ("empty_nickname", {}),
    }


class JoinTable(Body):
    """``POST /api/tables/{id}/join``: a nickname, and the seat wanted (else the first free)."""

    nickname: Name
    seat: StrictInt | None = None

    FIELD_CODES = {"nickname": ("empty_nickname", {}), "seat": ("bad_seat", {})}


class TableNickname(Body):
    """``POST /api/tables/{id}/nickname``."""

    nickname: Name

    FIELD_CODES = {"nickname": ("empty_nickname", {})}


class StartTable(Body):
    """``POST /api/tables/{id}/start``: the level of the computers given the free seats."""

    fill: Word | None = None

    FIELD_CODES = {"fill": ("bad_level", {})}


class SayAtTable(Body):
    """``POST /api/tables/{id}/say``: a preset phrase by its code, or free text."""

    phrase: Word | None = None
    text: Name | None = None

    FIELD_CODES = {"phrase": ("bad_phrase", {}), "text": ("message_too_long", {"maximum": 200})}


class ErrorDetail(BaseModel):
    code: str
    params: dict[str, Any]
    message: str


class ErrorBody(BaseModel):
    """What every refusal of the API answers (some add the current state beside it)."""

    error: ErrorDetail


def body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI ``requestBody`` of a route that reads ``model`` with `read_json`."""
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": model.model_json_schema()}},
        }
    }


def form_schema(*fields: str, repeated: tuple[str, ...] = ()) -> dict[str, Any]:
    """The OpenAPI ``requestBody`` of a page's form read with `read_form`: text fields, and
    ``repeated`` ones that may come several times."""
    properties: dict[str, Any] = {name: {"type": "string"} for name in fields}
    properties |= {name: {"type": "array", "items": {"type": "string"}} for name in repeated}
    return {
        "requestBody": {
            "required": True,
            "content": {
                "application/x-www-form-urlencoded": {
                    "schema": {"type": "object", "properties": properties}
                }
            },
        }
    }


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI answers of a route's refusals, all `ErrorBody`."""
    return {status: {"model": ErrorBody} for status in statuses}


BODY_REFUSALS = (413, 422, 429)
"""What any route that reads a body may answer: too large, not valid, too many requests."""


def json_body(model: type[BaseModel], *statuses: int) -> dict[str, Any]:
    """The OpenAPI arguments of a route that reads ``model`` with `read_json` or `read_object`:
    its request body, and its refusals ``statuses`` with `BODY_REFUSALS`, in order
    (``@router.post(path, name=…, **json_body(NewGame, 404))``)."""
    return {
        "openapi_extra": body_schema(model),
        "responses": refusals(*sorted({*statuses, *BODY_REFUSALS})),
    }


# -- Rules of a new game ----------------------------------------------------------------------


def _same_type(a: Any, b: Any) -> bool:
    return type(a) is type(b)


def check_rules(options: Sequence[Any], rules: Mapping[str, Any]) -> None:
    """Refuse a rule the new-game form does not offer: an unknown option, a value of another
    type than the form's, a number out of the form's bounds, a choice it does not list.

    ``options`` are the game's `rummykit.web.play.adapter.Option`.
    """
    known = {option.field: option for option in options}
    for field, value in rules.items():
        option = known.get(field)
        if option is None:
            raise IllegalAction("bad_rules", field=field)
        if option.kind == "bool":
            ok = isinstance(value, bool)
        elif option.kind == "number":
            ok = (value is None and option.optional) or (
                isinstance(value, int)
                and not isinstance(value, bool)
                and option.low <= value <= option.high
            )
        else:
            ok = any(_same_type(value, v) and value == v for v, _ in option.choices)
        if not ok:
            raise IllegalAction("bad_rules", field=field)
