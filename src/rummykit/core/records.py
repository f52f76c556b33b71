"""The rule-violation error, the seeded generator and records with their JSON form.

A game is fully described by its `Record`: which game, its rules, the seed of its shuffles, the
seats and the list of actions. Storage keeps records; replay folds the actions into states.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

JSON = Any  # a value made of dict, list, str, int, float, bool and None


class IllegalAction(ValueError):
    """An action (or an input) that breaks a rule, with a stable ``code`` and the facts.

    The engines never translate: the web layer turns ``code`` and ``params`` into a sentence.

    >>> err = IllegalAction("opening_below_minimum", value=27, minimum=30)
    >>> err.code, err.params
    ('opening_below_minimum', {'value': 27, 'minimum': 30})
    >>> str(err)
    'opening_below_minimum: value=27, minimum=30'
    """

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params: dict[str, Any] = params
        detail = ", ".join(f"{k}={v!r}" for k, v in params.items())
        super().__init__(f"{code}: {detail}" if detail else code)

    # Shown and pickled under the package that exports it.
    __module__ = "rummykit.core"

    def to_json(self) -> dict[str, JSON]:
        return {"code": self.code, "params": {k: _plain(v) for k, v in self.params.items()}}


def _plain(value: Any) -> JSON:
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    return str(value)


def new_rng(seed: int) -> random.Random:
    """The only source of chance in a game: a generator owned by its state."""
    return random.Random(seed)


@dataclass(frozen=True)
class Record:
    """A whole game: enough to rebuild every state by replaying the actions in order.

    ``actions`` holds each action's JSON form; ``seats`` names who sits where (a person's name
    or a bot level), which the engines never read.
    """

    game: str
    rules: Mapping[str, JSON]
    seed: int
    seats: Sequence[str]
    actions: Sequence[JSON] = field(default_factory=tuple)

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": self.game,
            "rules": dict(self.rules),
            "seed": self.seed,
            "seats": list(self.seats),
            "actions": list(self.actions),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: JSON) -> Record:
        """Read a record's JSON form, raising ``IllegalAction("bad_record")`` on anything else.

        >>> r = Record("romme", {}, 7, ["Ann", "easy"], [{"t": "draw"}])
        >>> Record.loads(r.dumps()) == r
        True
        """
        try:
            if not isinstance(data, dict):
                raise TypeError("not an object")
            game, rules, seed = data["game"], data["rules"], data["seed"]
            seats, actions = data["seats"], data.get("actions", [])
            if not (isinstance(game, str) and isinstance(rules, dict)):
                raise TypeError("game or rules")
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise TypeError("seed")
            if not (isinstance(seats, list) and all(isinstance(s, str) for s in seats)):
                raise TypeError("seats")
            if not isinstance(actions, list):
                raise TypeError("actions")
        except (KeyError, TypeError) as err:
            raise IllegalAction("bad_record", reason=str(err)) from None
        return cls(game, rules, seed, tuple(seats), tuple(actions))

    @classmethod
    def loads(cls, text: str) -> Record:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as err:
            raise IllegalAction("bad_json", reason=str(err)) from None
        return cls.from_json(data)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.dumps())


OptionsT = TypeVar("OptionsT", bound="DataclassInstance")


def options_from_json(cls: type[OptionsT], data: JSON) -> OptionsT:
    """Build a rules dataclass from its JSON form: missing options take their default, unknown
    ones are refused, and the dataclass validates the values.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Options:
    ...     rounds: int = 3
    >>> options_from_json(Options, {"rounds": 5})
    Options(rounds=5)
    >>> options_from_json(Options, {"round": 5})
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: bad_rules: field='round', reason='unknown_option'
    """
    if not isinstance(data, Mapping):
        raise IllegalAction("bad_rules", field=None, reason="not_an_object")
    names = {f.name for f in fields(cls)}
    for key in data:
        if key not in names:
            raise IllegalAction("bad_rules", field=str(key), reason="unknown_option")
    return cls(**dict(data))


class RulesBase:
    """A base for a game's rules dataclass: its JSON form is its options, read back with
    `options_from_json` (missing options take their default, unknown ones are refused)."""

    __slots__ = ()

    def to_json(self) -> dict[str, JSON]:
        return dict(_options(self))

    @classmethod
    def from_json(cls, data: JSON) -> Self:
        """Read the JSON form; missing options take their default, unknown ones are refused."""
        rules: Self = options_from_json(cast(Any, cls), data)
        return rules

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))


@functools.lru_cache(maxsize=1024)
def _options(rules: RulesBase) -> dict[str, JSON]:
    # Every view a computer player is sent holds the rules: walking the frozen dataclass with
    # `asdict` each time was a third of the cost of writing a Rommé view. Options are plain
    # scalars, so a copy of the top level is a copy of the whole (`RulesBase.to_json`).
    options: dict[str, JSON] = asdict(cast(Any, rules))
    return options


def seat_names(seats: Sequence[str] | None, players: int) -> tuple[str, ...]:
    """The seat names a record keeps: the given ones, one per player, or ``seat 0``, ``seat 1``…

    >>> seat_names(None, 2), seat_names(["Ann", "easy"], 2)
    (('seat 0', 'seat 1'), ('Ann', 'easy'))
    """
    names = tuple(seats) if seats is not None else tuple(f"seat {i}" for i in range(players))
    if len(names) != players:
        raise IllegalAction("bad_seats", seats=len(names), players=players)
    return names
