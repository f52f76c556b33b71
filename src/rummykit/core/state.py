"""The engine contract: what every game's `State` is and the jobs written once for all of them.

A game's state subclasses `GameState` and writes only its rules: ``__init__`` (deal from
``(rules, players, seed)``), ``apply`` and the checks it makes first (``_check``, which
``can_apply`` asks too), ``legal_actions``, ``view``, ``to_move`` and ``is_over``, the reading
of its rules and actions, and of a first deal set by hand when it takes one. The record, the
replay (state by state), the independent copy, the snapshot of everything and its text form
are written here, once, over whatever attributes the state holds: a field added to a state is
copied and snapshotted without another line.
"""

from __future__ import annotations

import copy as _copy
import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from rummykit.core.codec import Codec
from rummykit.core.records import JSON, IllegalAction, Record, new_rng, seat_names
from rummykit.core.values import thaw

Event = Mapping[str, JSON]
"""A public log entry: ``{"code": …, params…}``, read-only once logged."""


class RulesLike(Protocol):
    """What the contract needs of a game's rules: their JSON form."""

    def to_json(self) -> dict[str, JSON]: ...


class Starting(Protocol):
    """What the contract needs of a first deal set by hand: its JSON form."""

    def to_json(self) -> dict[str, JSON]: ...


class FirstDeal(Starting, Protocol):
    """A first deal that a record's JSON gives back (`GameState.start_type`)."""

    @classmethod
    def from_json(cls, data: JSON) -> Self: ...


RulesT = TypeVar("RulesT", bound=RulesLike)
ActionT = TypeVar("ActionT")
ViewT = TypeVar("ViewT")

_CONTAINERS = frozenset({list, dict, set})


class GameState(ABC, Generic[RulesT, ActionT, ViewT]):
    """One game in progress; only `apply` changes it, and it checks everything first.

    Subclasses set ``game`` (the name in records) and ``codec`` (the JSON form of their
    actions), call `_setup` first in ``__init__``, and append each applied action to
    ``_actions``. Attributes named in ``transient`` (caches, listeners) are no part of the
    position: they are left out of snapshots.
    """

    game: ClassVar[str]
    codec: ClassVar[Codec]
    transient: ClassVar[frozenset[str]] = frozenset()

    rules: RulesT
    players: int
    seed: int
    start: Starting | None = None
    """The first deal when it was set by hand (a lesson's): the record keeps it."""
    start_type: ClassVar[type[FirstDeal] | None] = None
    """How a record's first deal set by hand is read (``None``: the game takes none)."""

    @abstractmethod
    def __init__(self, rules: RulesT, players: int, seed: int) -> None:
        """Deal a new game; a subclass calls `_setup` first."""

    def _setup(self, rules: RulesT, players: int, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise IllegalAction("bad_seed", seed=repr(seed))
        self.rules = rules
        self.players = players
        self.seed = seed
        self._rng = new_rng(seed)
        self._actions: list[ActionT] = []
        self._forced = False
        """Set up by hand (a test position): such a game has no record."""

    # --- what each game writes -------------------------------------------------------------

    @classmethod
    @abstractmethod
    def rules_from_json(cls, data: JSON) -> RulesT:
        """Read the game's rules from their JSON form."""

    @classmethod
    @abstractmethod
    def action_from_json(cls, data: JSON, rules: RulesT) -> ActionT:
        """Read an action's JSON form, for a game played under ``rules``."""

    @abstractmethod
    def apply(self, action: ActionT, seat: int | None = None) -> None:
        """Check ``action`` (by ``seat`` when given) and apply all of it, or raise
        `IllegalAction` leaving the state unchanged."""

    @abstractmethod
    def _check(self, action: ActionT, seat: int | None) -> object:
        """Everything `apply` checks before it changes anything: raise `IllegalAction` where
        it would refuse the action (what is found may be returned for `apply` to use)."""

    @abstractmethod
    def legal_actions(self) -> list[ActionT]:
        """The legal actions of the seat awaited, where they can be listed."""

    @abstractmethod
    def view(self, seat: int | None) -> ViewT:
        """What ``seat`` may see (``None``: a spectator)."""

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat whose decision is awaited; ``None`` when none is."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def public_log(self) -> Sequence[Event]:
        """The public events so far, which every seat may read."""

    @classmethod
    def dealt(cls, start: Any, rules: RulesT | None = None, seed: int = 0) -> Self:
        """A game whose first round starts from ``start``, a first deal set by hand of the
        game's own `start_type`, which its record keeps."""
        raise IllegalAction("bad_record", reason=f"no first deal set by hand in {cls.game}")

    @classmethod
    def from_start(cls, start: JSON, rules: RulesT, players: int, seed: int) -> Self:
        """A game dealt from a first deal set by hand, read from the JSON form a record keeps
        (a game that takes none refuses it)."""
        if cls.start_type is None:
            raise IllegalAction("bad_record", reason=f"no first deal set by hand in {cls.game}")
        game = cls.dealt(cls.start_type.from_json(start), rules, seed)
        if game.players != players:
            raise IllegalAction("bad_record", reason="first deal: one hand per seat")
        return game

    def record_rules(self) -> dict[str, JSON]:
        """The rules as the record keeps them, with the first deal under ``"start"`` when it
        was set by hand (`start`)."""
        rules: dict[str, JSON] = self.rules.to_json()
        if self.start is not None:
            rules["start"] = self.start.to_json()
        return rules

    def _set_by_hand(self, start: Starting | None = None) -> None:
        """Mark a game set up from a position given by hand: it has no record, unless that
        position is a first deal ``start``, which its record then keeps and replays."""
        self._forced = start is None
        self.start = start

    def _after_copy(self, twin: Self) -> None:
        """Relink what `copy` cannot know about (a helper sharing the state's lists)."""

    # --- written once ----------------------------------------------------------------------

    def _check_seat(self, seat: int | None) -> None:
        """Raise ``bad_seat`` unless ``seat`` is a seat of this game or ``None``."""
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players
        ):
            raise IllegalAction("bad_seat", seat=seat)

    def can_apply(self, action: ActionT, seat: int | None = None) -> bool:
        """Whether `apply` would accept the action (nothing changes either way)."""
        try:
            self._check(action, seat)
        except IllegalAction:
            return False
        return True

    @property
    def actions(self) -> Sequence[ActionT]:
        """The actions applied so far, in order."""
        return tuple(self._actions)

    def record(self, seats: Sequence[str] | None = None) -> Record:
        """The record that rebuilds this game (rules, seed, seats, actions)."""
        if self._forced:
            raise IllegalAction("no_record", reason="the position was set up by hand")
        encode = self.codec.encode
        return Record(
            self.game,
            self.record_rules(),
            self.seed,
            seat_names(seats, self.players),
            tuple(encode(a) for a in self._actions),
        )

    @classmethod
    def new_game(cls, rules: RulesT, players: int, seed: int) -> Self:
        """A new game dealt from ``seed``."""
        return cls(rules, players, seed)

    @classmethod
    def from_record_start(cls, record: Record) -> Self:
        """The state before the record's first action: its rules, seats and seed read, and
        its first deal when the record keeps one (`from_start`)."""
        options = dict(record.rules)
        start = options.pop("start", None)
        rules = cls.rules_from_json(options)
        if start is None:
            return cls(rules, len(record.seats), record.seed)
        return cls.from_start(start, rules, len(record.seats), record.seed)

    @classmethod
    def _start(cls, record: Record | Mapping[str, JSON]) -> tuple[Self, Record]:
        if not isinstance(record, Record):
            record = Record.from_json(dict(record))
        if record.game != cls.game:
            raise IllegalAction("bad_record", reason=f"not a {cls.game} record", game=record.game)
        return cls.from_record_start(record), record

    @classmethod
    def replay(cls, record: Record | Mapping[str, JSON]) -> Self:
        """The state reached by applying every action of the record."""
        state, record = cls._start(record)
        for data in record.actions:
            state.apply(cls.action_from_json(data, state.rules))
        return state

    @classmethod
    def replay_states(cls, record: Record | Mapping[str, JSON]) -> Iterator[Self]:
        """The state before any action, then after each action of the record (a fresh object
        each time: the states can be kept side by side for a replay viewer)."""
        state, record = cls._start(record)
        yield state.copy()
        for data in record.actions:
            state.apply(cls.action_from_json(data, state.rules))
            yield state.copy()

    def copy(self) -> Self:
        """An independent copy, the generator included: applying actions to one leaves the
        other alone. Lists, dicts and sets are copied all the way down; the values in them
        (cards, tiles, frozen events) are immutable and shared."""
        twin = _copy.copy(self)
        for name, value in vars(self).items():
            if type(value) in _CONTAINERS:
                setattr(twin, name, _clone(value))
        twin._rng = random.Random()
        twin._rng.setstate(self._rng.getstate())
        self._after_copy(twin)
        return twin

    def snapshot(self) -> dict[str, JSON]:
        """Everything in the state, hidden cards and the generator included, as JSON: two
        states with equal snapshots behave the same from now on."""
        return {
            name.lstrip("_"): self._plain(value)
            for name, value in sorted(vars(self).items())
            if name not in self.transient
        }

    def dumps(self) -> str:
        """The snapshot as one canonical text."""
        return json.dumps(self.snapshot(), sort_keys=True, ensure_ascii=False)

    def _plain(self, value: object) -> JSON:
        if value is None or type(value) in (int, str, bool, float):
            return value
        if isinstance(value, random.Random):
            return hashlib.sha256(repr(value.getstate()).encode()).hexdigest()[:16]
        if isinstance(value, Mapping):
            return {str(k): self._plain(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self._plain(v) for v in value]
        if isinstance(value, set | frozenset):
            return sorted((self._plain(v) for v in value), key=repr)
        try:
            return thaw(self.codec.encode(value))
        except TypeError:
            pass
        names = getattr(type(value), "__slots__", ()) or vars(value)
        return {
            name: self._plain(getattr(value, name))
            for name in names
            if not callable(getattr(value, name))
        }


def _clone(value: Any) -> Any:
    kind = type(value)
    if kind is list:
        return [_clone(v) if type(v) in _CONTAINERS else v for v in value]
    if kind is dict:
        return {k: _clone(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    if kind is set:
        return set(value)
    return value
