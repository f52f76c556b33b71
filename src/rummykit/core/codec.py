"""One JSON codec for the actions and views of every game, read from their dataclass fields.

A value is a frozen dataclass; its JSON form is an object of its fields, in order. An action
class names its kind in a ``t`` class variable, which leads its JSON object and picks the class
back out of a union when reading (a game declares its actions with `action`, which sets ``t``
from the class name). Each game says how its own atoms are written (a card by its
id or by its code, a tile set by its code, the rules by their options) with `Leaf` entries;
a field whose form is special says so in its metadata (`json_form`). Reading checks every key
and type and raises `IllegalAction` with the code the caller names (``"bad_action"``…).

>>> from dataclasses import dataclass
>>> from typing import Literal
>>> @dataclass(frozen=True)
... class Draw:
...     source: Literal["stock", "discard"] = "stock"
...     t = "draw"  # a class variable: the action's kind
>>> @dataclass(frozen=True)
... class Bid:
...     chips: int
...     t = "bid"
>>> codec = Codec()
>>> codec.encode(Bid(3)), codec.encode(Draw())
({'t': 'bid', 'chips': 3}, {'t': 'draw', 'source': 'stock'})
>>> codec.decode(Draw | Bid, {"t": "draw"}), codec.decode(Draw | Bid, {"t": "bid", "chips": 2})
(Draw(source='stock'), Bid(chips=2))
>>> codec.decode(Draw | Bid, {"t": "bid", "chips": "2"})
Traceback (most recent call last):
...
rummykit.core.IllegalAction: bad_action: reason='not_an_integer', at='chips'
"""

from __future__ import annotations

import dataclasses
import enum
import re
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import (
    Any,
    ClassVar,
    Generic,
    Literal,
    Protocol,
    Self,
    TypeVar,
    Union,
    cast,
    dataclass_transform,
    get_args,
    get_origin,
    get_type_hints,
)

from rummykit.core.records import JSON, IllegalAction
from rummykit.core.values import freeze, thaw

T = TypeVar("T")

Decoder = Callable[[JSON, object], Any]
"""Reads one JSON value; the second argument is the context (the rules, when known)."""


class Reader(Protocol):
    """Reads a JSON value (given the context, the rules when known) or raises `IllegalAction`."""

    def __call__(self, data: JSON, context: object = None) -> Any: ...


@dataclass(frozen=True)
class Leaf(Generic[T]):
    """How one type is written: ``encode`` to JSON, ``decode`` back (given the JSON value and
    the context, the rules when known). Errors in ``decode`` are raised as they are."""

    encode: Callable[[T], JSON]
    decode: Callable[[JSON, object], T]


_LEAF_KEY = "rummykit.codec"
_OMIT_KEY = "rummykit.omit_default"
_REQUIRED_KEY = "rummykit.required"


def json_form(
    leaf: Leaf[Any] | None = None, *, omit_default: bool = False, required: bool = False
) -> dict[str, object]:
    """The ``metadata`` of a dataclass field with a JSON form of its own: written by ``leaf``,
    left out of the JSON object when it holds its default (``omit_default``), or to be given
    in the JSON form even though the class has a default (``required``).

    >>> from dataclasses import dataclass, field
    >>> @dataclass(frozen=True)
    ... class Meld:
    ...     cards: tuple[int, ...]
    ...     kind: str | None = field(default=None, metadata=json_form(omit_default=True))
    >>> Codec().encode(Meld((1, 2, 3)))
    {'cards': [1, 2, 3]}
    """
    return {_LEAF_KEY: leaf, _OMIT_KEY: omit_default, _REQUIRED_KEY: required}


class Encoded:
    """A base for a game's actions and views: ``to_json`` and ``from_json`` through the
    game's codec (a subclass sets ``codec``; ``json_error`` is the code of a bad reading)."""

    __slots__ = ()
    codec: ClassVar[Codec]
    json_error: ClassVar[str] = "bad_value"

    def to_json(self) -> dict[str, JSON]:
        data: dict[str, JSON] = self.codec.encode(self)
        return data

    @classmethod
    def from_json(cls, data: JSON) -> Self:
        """Read the JSON form; any error is ``json_error`` (the rules' own errors excepted)."""
        try:
            value: Self = cls.codec.decode(cls, data, error=cls.json_error)
        except IllegalAction as err:
            if err.code in (cls.json_error, "bad_rules"):
                raise
            raise IllegalAction(cls.json_error, reason=err.code, **err.params) from None
        return value


class SeatView(Encoded):
    """A base for a game's view of one seat: a bad reading of its JSON form is ``bad_view``."""

    __slots__ = ()
    json_error: ClassVar[str] = "bad_view"
    seat: int | None
    to_move: int | None

    def seat_on_move(self) -> int:
        """The viewing seat, which must be the seat on move (else ``not_your_turn``)."""
        if self.seat is None or self.seat != self.to_move:
            raise IllegalAction("not_your_turn", seat=self.seat, to_move=self.to_move)
        return self.seat


class PhasedView(SeatView):
    """A view of a game whose last phase is ``game_over`` (the rummy games)."""

    __slots__ = ()
    phase: str

    @property
    def is_over(self) -> bool:
        return self.phase == "game_over"


class Worded:
    """The text notation of an action, written once: its word (``word``, else its kind ``t``),
    then the text of each field, a card or a tile by its code (``bid 3``, ``play 10♦``).

    ``repr`` calls the class with its fields (``Bid(3)``); with ``repr_by_parse`` it reads the
    text back instead (``Draw.parse('draw stock')``). A class whose notation is richer writes
    its own ``__str__``; a dataclass keeps these only when declared with ``repr=False``.
    """

    __slots__ = ()
    t: ClassVar[str]
    word: ClassVar[str | None] = None
    repr_by_parse: ClassVar[bool] = False

    def __str__(self) -> str:
        word = self.t if self.word is None else self.word
        return " ".join([word, *(_spoken(value) for value in self._field_values())])

    def __repr__(self) -> str:
        if self.repr_by_parse:
            return f"{type(self).__name__}.parse({str(self)!r})"
        return f"{type(self).__name__}({', '.join(map(repr, self._field_values()))})"

    def _field_values(self) -> list[object]:
        return [getattr(self, f.name) for f in dataclasses.fields(cast(Any, self))]


class EncodedAction(Worded, Encoded):
    """A base for a game's actions: written in its text notation, read from and written to
    JSON by the game's codec; a bad reading of its JSON form is ``bad_action``."""

    __slots__ = ()
    json_error: ClassVar[str] = "bad_action"


EncodedActionT = TypeVar("EncodedActionT", bound=EncodedAction)


@dataclass_transform(frozen_default=True)
def action(cls: type[EncodedActionT]) -> type[EncodedActionT]:
    """Declare a game's action: a frozen, slotted dataclass whose kind ``t`` is its class name
    in snake case (``NextRound`` is ``next_round``) and whose ``str`` and ``repr`` are the
    text notation's (`Worded`)."""
    cls.t = re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()
    return dataclass(frozen=True, slots=True, repr=False)(cls)


def _spoken(value: object) -> str:
    code = getattr(value, "code", None)
    return code if isinstance(code, str) else str(value)


class _Error(Exception):
    """A shape error found while reading; turned into one `IllegalAction` at the top."""

    def __init__(self, reason: str, at: str = "", **params: JSON) -> None:
        super().__init__(reason)
        self.reason, self.at, self.params = reason, at, params

    def inside(self, name: str) -> _Error:
        self.at = f"{name}.{self.at}" if self.at else name
        return self


_ABSENT = object()
_SCALARS: dict[type, str] = {int: "not_an_integer", str: "not_a_string", bool: "not_a_bool"}


class Codec:
    """The JSON form of a game's actions and views; ``leaves`` maps a type to its `Leaf`.

    Encoding follows the value's own class; decoding follows the type asked for (a union of
    action classes, a view class), so the JSON never names a Python class.
    """

    def __init__(self, leaves: Mapping[type, Leaf[Any]] | None = None) -> None:
        self._leaves: dict[type, Leaf[Any]] = dict(leaves or {})
        self._encoders: dict[type, Callable[[Any], JSON]] = {}
        self._decoders: dict[object, Decoder] = {}

    # --- writing -------------------------------------------------------------------------

    def encode(self, value: object) -> Any:
        """The JSON form of ``value`` (a dataclass, a leaf, a tuple, a mapping, a scalar)."""
        kind = type(value)
        encoder = self._encoders.get(kind)
        if encoder is None:
            encoder = self._encoders[kind] = self._make_encoder(kind)
        return encoder(value)

    def _make_encoder(self, kind: type) -> Callable[[Any], JSON]:
        leaf = self._leaves.get(kind)
        if leaf is not None:
            return leaf.encode
        if dataclasses.is_dataclass(kind):
            return self._dataclass_encoder(kind)
        if issubclass(kind, enum.Enum):
            return lambda value: value.value
        if kind in (str, int, bool, float, type(None)):
            return lambda value: value
        if issubclass(kind, Mapping):
            return thaw
        if issubclass(kind, tuple | list):
            encode = self.encode
            return lambda value: [encode(v) for v in value]
        raise TypeError(f"no JSON form for {kind.__name__}")

    def _dataclass_encoder(self, kind: type) -> Callable[[Any], JSON]:
        tag = getattr(kind, "t", None)
        encode = self.encode
        plan: list[tuple[str, Callable[[Any], JSON], bool, object]] = []
        for f in dataclasses.fields(kind):
            leaf = f.metadata.get(_LEAF_KEY)
            plan.append(
                (
                    f.name,
                    leaf.encode if leaf is not None else encode,
                    bool(f.metadata.get(_OMIT_KEY)),
                    f.default,
                )
            )

        def encode_dataclass(value: object) -> JSON:
            data: dict[str, JSON] = {} if tag is None else {"t": tag}
            for name, write, omit, default in plan:
                item = getattr(value, name)
                if omit and item == default:
                    continue
                data[name] = write(item)
            return data

        return encode_dataclass

    # --- reading -------------------------------------------------------------------------

    def decode(
        self, kind: Any, data: JSON, *, context: object = None, error: str = "bad_action"
    ) -> Any:
        """Read ``data`` as a value of ``kind``, or raise ``IllegalAction(error, reason=…,
        at=…)`` naming the first thing wrong and where (errors of a leaf pass unchanged)."""
        return self.reader(kind, error=error)(data, context)

    def reader(self, kind: Any, *, error: str = "bad_action") -> Reader:
        """The reading function of ``kind`` (see `decode`), to keep where one type is read
        again and again."""
        read = self._decoder(kind)

        def read_or_raise(data: JSON, context: object = None) -> Any:
            try:
                return read(data, context)
            except _Error as err:
                where = {"at": err.at} if err.at else {}
                raise IllegalAction(error, reason=err.reason, **where, **err.params) from None
            except IllegalAction:
                raise
            except (TypeError, ValueError, KeyError) as err:  # from a leaf
                raise IllegalAction(error, reason=type(err).__name__, detail=str(err)) from None

        return read_or_raise

    def _decoder(self, kind: object) -> Decoder:
        found = self._decoders.get(kind)
        if found is None:
            # A placeholder first, so that a type that contains itself can be read.
            self._decoders[kind] = lambda data, context: self._decoders[kind](data, context)
            found = self._decoders[kind] = self._make_decoder(kind)
        return found

    def _make_decoder(self, kind: Any) -> Decoder:
        leaf = self._leaves.get(kind) if isinstance(kind, type) else None
        if leaf is not None:
            return leaf.decode
        if kind is Any or kind is object:
            return lambda data, context: data
        if kind is type(None) or kind is None:
            return _decode_none
        if kind in _SCALARS:
            return _scalar_decoder(kind)
        if kind is float:
            return _decode_float
        origin = get_origin(kind)
        if origin is Literal:
            return _literal_decoder(get_args(kind))
        if origin in (Union, types.UnionType):
            return self._union_decoder(get_args(kind))
        if origin is tuple:
            return self._tuple_decoder(get_args(kind))
        if origin is Mapping or kind is Mapping:
            return _decode_mapping
        if origin is dict or kind is dict:
            return _decode_dict
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            return _enum_decoder(kind)
        if isinstance(kind, type) and dataclasses.is_dataclass(kind):
            return self._dataclass_decoder(kind)
        raise TypeError(f"no JSON reading for {kind!r}")

    def _union_decoder(self, options: tuple[Any, ...]) -> Decoder:
        optional = type(None) in options
        rest = [o for o in options if o is not type(None)]
        tags = {getattr(o, "t", None): o for o in rest if isinstance(o, type)}
        if None not in tags and len(tags) == len(rest) and len(rest) > 1:
            by_tag = {t: self._decoder(o) for t, o in tags.items()}

            def decode_tagged(data: JSON, context: object) -> Any:
                if data is None and optional:
                    return None
                if type(data) is not dict and not isinstance(data, Mapping):
                    raise _Error("not_an_object")
                read = by_tag.get(data.get("t"))
                if read is None:
                    raise _Error("unknown_type", value=_plain(data.get("t")))
                return read(data, context)

            return decode_tagged
        readers = [self._decoder(o) for o in rest]

        def decode_union(data: JSON, context: object) -> Any:
            if data is None and optional:
                return None
            first: _Error | None = None
            for read in readers:
                try:
                    return read(data, context)
                except _Error as err:
                    first = first or err
            raise first or _Error("no_value")

        return decode_union

    def _tuple_decoder(self, args: tuple[Any, ...]) -> Decoder:
        if len(args) == 2 and args[1] is Ellipsis:
            item = self._decoder(args[0])

            def decode_items(data: JSON, context: object) -> tuple[Any, ...]:
                if not isinstance(data, list | tuple):
                    raise _Error("not_a_list")
                out = []
                for index, value in enumerate(data):
                    try:
                        out.append(item(value, context))
                    except _Error as err:
                        raise err.inside(str(index)) from None
                return tuple(out)

            return decode_items
        parts = [self._decoder(a) for a in args]

        def decode_fixed(data: JSON, context: object) -> tuple[Any, ...]:
            if not isinstance(data, list | tuple) or len(data) != len(parts):
                raise _Error("not_a_list", length=len(parts))
            return tuple(read(v, context) for read, v in zip(parts, data, strict=True))

        return decode_fixed

    def _dataclass_decoder(self, kind: type) -> Decoder:
        hints = get_type_hints(kind)
        tag = getattr(kind, "t", None)
        allowed = {f.name for f in dataclasses.fields(kind)} | ({"t"} if tag else set())
        plan: list[tuple[str, Decoder, bool, Any]] = []
        for f in dataclasses.fields(kind):
            leaf = f.metadata.get(_LEAF_KEY)
            read = leaf.decode if leaf is not None else self._decoder(hints[f.name])
            if f.default is not dataclasses.MISSING:
                default: Any = f.default
            elif f.default_factory is not dataclasses.MISSING:
                default = f.default_factory()
            else:
                default = dataclasses.MISSING
            required = default is dataclasses.MISSING or bool(f.metadata.get(_REQUIRED_KEY))
            plan.append((f.name, read, required, default))

        def decode_dataclass(data: JSON, context: object) -> Any:
            if type(data) is not dict and not isinstance(data, Mapping):
                raise _Error("not_an_object")
            if not allowed.issuperset(data):
                raise _Error(
                    "unknown_field", fields=sorted(str(k) for k in data if k not in allowed)
                )
            values: list[Any] = []
            for name, read, required, default in plan:
                given = data.get(name, _ABSENT)
                if given is _ABSENT:
                    if required:
                        raise _Error("missing_field", at=name)
                    values.append(default)
                    continue
                try:
                    value = read(given, context)
                except _Error as err:
                    raise err.inside(name) from None
                values.append(value)
                if name == "rules":  # the value's own rules read what follows them
                    context = value
            try:
                return kind(*values)
            except TypeError as err:
                raise _Error("bad_value", detail=str(err)) from None

        return decode_dataclass


def _plain(value: object) -> JSON:
    return value if isinstance(value, str | int | float | bool) or value is None else repr(value)


def _decode_none(data: JSON, context: object) -> None:
    if data is not None:
        raise _Error("not_null")


def _scalar_decoder(kind: type) -> Decoder:
    reason = _SCALARS[kind]

    def decode_scalar(data: JSON, context: object) -> Any:
        if type(data) is not kind:
            raise _Error(reason)
        return data

    return decode_scalar


def _decode_float(data: JSON, context: object) -> float:
    if isinstance(data, bool) or not isinstance(data, int | float):
        raise _Error("not_a_number")
    return float(data)


def _literal_decoder(values: tuple[Any, ...]) -> Decoder:
    allowed = set(values)

    def decode_literal(data: JSON, context: object) -> Any:
        if not isinstance(data, str | int) or data not in allowed or isinstance(data, bool):
            raise _Error("not_allowed", value=_plain(data))
        return data

    return decode_literal


def _enum_decoder(kind: type[enum.Enum]) -> Decoder:
    def decode_enum(data: JSON, context: object) -> Any:
        try:
            return kind(data)
        except ValueError:
            raise _Error("not_allowed", value=_plain(data)) from None

    return decode_enum


def _decode_mapping(data: JSON, context: object) -> Any:
    """A read-only mapping (a frozen event)."""
    if not isinstance(data, Mapping):
        raise _Error("not_an_object")
    return freeze(dict(data))


def _decode_dict(data: JSON, context: object) -> Any:
    """A plain dict of plain JSON values."""
    if not isinstance(data, Mapping):
        raise _Error("not_an_object")
    return thaw(data)
