"""A game as the rest of the project sees it: one typed `GameDescriptor` per engine package.

The play layer, the command line, the arena and the benchmarks know a game only through its
descriptor (``rummykit.romme.GAME``, ``rummykit.tiles.GAME``, ``rummykit.rummoli.GAME``): its
rules and presets, how to deal, replay and read its actions and views, its computer players,
its hint and the safe move for a seat that must move now.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, Self, TypeVar, get_args, get_origin

from rummykit.core.records import JSON, IllegalAction, Record
from rummykit.core.state import Event, GameState

RulesT = TypeVar("RulesT")
StateT = TypeVar("StateT", bound=GameState[Any, Any, Any])
OptionsT = TypeVar("OptionsT", bound="Options")
ViewT = TypeVar("ViewT")
ActionT = TypeVar("ActionT", bound="Encodable")
ViewT_contra = TypeVar("ViewT_contra", contravariant=True)
ActionT_co = TypeVar("ActionT_co", covariant=True)


class Bot(Protocol[ViewT_contra, ActionT_co]):
    """A computer player: it decides from its seat's view only (and its own generator)."""

    def choose(self, view: ViewT_contra) -> ActionT_co: ...


class Options(Protocol):
    """What a game's rules offer: presets by name and a JSON form. The class also says how
    many may play, ``PLAYERS = (least, most)``, and names its presets in ``PRESETS`` (the
    first is the default), which `describe` reads."""

    @classmethod
    def preset(cls, name: str) -> Self: ...

    @classmethod
    def from_json(cls, data: JSON) -> Self: ...

    def to_json(self) -> dict[str, JSON]: ...


class Encodable(Protocol):
    """A value with a JSON form (every action of every game)."""

    def to_json(self) -> dict[str, JSON]: ...


EncodableT = TypeVar("EncodableT", bound=Encodable)


@dataclass(frozen=True)
class Hint(Generic[EncodableT]):
    """A suggested action (``None`` when the seat has nothing to do) and the reason for it, as
    a stable code with its parameters (the web layer words it)."""

    action: EncodableT | None
    reason: str
    params: dict[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {
            "action": None if self.action is None else self.action.to_json(),
            "reason": self.reason,
            "params": dict(self.params),
        }


@dataclass(frozen=True)
class GameDescriptor(Generic[RulesT, StateT, ViewT, ActionT]):
    """Everything the project outside an engine needs to know about one game.

    Dealing, replaying and reading JSON go through the functions given here, so a caller
    holding ``GameDescriptor[Rules, State, View, Action]`` is typed end to end.
    """

    name: str
    """The game's name in records and URLs (``"romme"``)."""
    title: str
    """Its name in English, for logs and the command line (pages translate their own)."""
    rules_type: type[RulesT]
    state_type: type[StateT]
    view_type: type[ViewT]
    action_types: tuple[type, ...]
    """The classes of the union of actions."""
    min_players: int
    max_players: int
    presets: tuple[str, ...]
    """Named rule sets; the first is the default."""
    preset: Callable[[str], RulesT]
    rules_from_json: Callable[[JSON], RulesT]
    rules_to_json: Callable[[RulesT], dict[str, JSON]]
    new_game: Callable[[RulesT, int, int], StateT]
    """A new game from ``(rules, players, seed)``."""
    replay: Callable[[Record], StateT]
    replay_states: Callable[[Record], Iterator[StateT]]
    action_to_json: Callable[[ActionT], JSON]
    action_from_json: Callable[[JSON, RulesT], ActionT]
    """Read an action's JSON form for a game played under the given rules."""
    view_to_json: Callable[[ViewT], dict[str, JSON]]
    view_from_json: Callable[[JSON], ViewT]
    parse_action: Callable[[str, RulesT], ActionT] | None
    """Read the text notation (``"draw stock"``), where the game has one."""
    levels: tuple[str, ...]
    """The computer players' levels, weakest first."""
    make_bot: Callable[[str, int], Bot[ViewT, ActionT]]
    """A computer player of a level, its chance seeded."""
    fallback_action: Callable[[StateT, int], ActionT]
    """A legal, sensible action for the seat awaited, found at once (a computer seat out of
    time, a turn timer running out)."""
    hint: Callable[[ViewT], Hint[ActionT]] | None
    """The suggested action for the seat of a view and its reason (``None``: no hints)."""
    public_log: Callable[[StateT], Sequence[Event]]
    """The public events of a state (what every seat may read)."""
    default_level: str
    """The level offered first."""
    bot_view: Callable[[ViewT], ViewT]
    """The part of a view the game's computer players read, the same decision following from
    it: what the play layer sends to the process that decides (by default the whole view)."""

    def check_level(self, level: str) -> str:
        """``level`` if the game has it, else ``IllegalAction("bad_level")``."""
        if level not in self.levels:
            raise IllegalAction("bad_level", level=level, allowed=list(self.levels))
        return level


@dataclass(frozen=True)
class Computers(Generic[StateT, ViewT, ActionT]):
    """A game's computer players, as its ``bots`` module declares them."""

    levels: Sequence[str]
    """Weakest first."""
    default: str
    """The level offered first."""
    make: Callable[[str, int], Bot[ViewT, ActionT]]
    """A player of a level, its chance seeded."""
    fallback: Callable[[StateT, int], ActionT]
    """The quick, sensible action for the seat awaited (see `GameDescriptor.fallback_action`)."""


def describe(
    state: type[StateT],
    *,
    title: str,
    computers: Computers[StateT, ViewT, ActionT],
    hint: Callable[[ViewT], Hint[ActionT]] | None,
    parse_action: Callable[[str, Any], ActionT] | None,
    bot_view: Callable[[ViewT], ViewT] | None = None,
) -> GameDescriptor[OptionsT, StateT, ViewT, ActionT]:
    """A game's descriptor from its engine. The state class names its rules, its union of
    actions and its view (``State(GameState[Rules, Action, View])``); the rules give the
    number of players and the presets; what the contract classes already know (dealing,
    replay, the JSON forms, the public log) is taken from them; the rest is given."""
    rules, action, view = _engine_types(state)
    return GameDescriptor(
        name=state.game,
        title=title,
        rules_type=rules,
        state_type=state,
        view_type=view,
        action_types=get_args(action) or (action,),
        min_players=rules.PLAYERS[0],
        max_players=rules.PLAYERS[1],
        presets=tuple(rules.PRESETS),
        preset=rules.preset,
        rules_from_json=rules.from_json,
        rules_to_json=rules.to_json,
        new_game=state.new_game,
        replay=state.replay,
        replay_states=state.replay_states,
        action_to_json=state.codec.encode,
        action_from_json=state.action_from_json,
        view_to_json=view.to_json,
        view_from_json=view.from_json,
        parse_action=parse_action,
        levels=tuple(computers.levels),
        default_level=computers.default,
        make_bot=computers.make,
        fallback_action=computers.fallback,
        hint=hint,
        public_log=state.public_log,
        bot_view=bot_view or _whole,
    )


def _engine_types(state: type[GameState[Any, Any, Any]]) -> tuple[Any, Any, Any]:
    """The rules, action and view types a state class was declared with."""
    for klass in state.__mro__:
        for base in getattr(klass, "__orig_bases__", ()):
            if get_origin(base) is GameState:
                rules, action, view = get_args(base)
                return rules, action, view
    raise TypeError(f"{state.__name__} does not name its types as GameState[Rules, Action, View]")


def _whole(view: ViewT) -> ViewT:
    return view
