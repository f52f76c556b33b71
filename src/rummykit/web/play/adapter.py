"""What the play layer knows about one game: its engine's descriptor and its presentation.

The engine's `rummykit.core.GameDescriptor` holds everything about the rules: dealing,
replaying, reading actions and views, the computer players, the hint, the safe move. `PlayGame`
holds the play layer's delegation to it, once for every game, and a game's web module adds only
presentation: its title, the options and presets the new-game form shows, the labels of its
computer levels, the seat's view and the events as its page draws them, and its sentences
(`rummykit.web.play.sentences`). A game adds itself by writing such a module with an
``ADAPTER`` and naming it in `ADAPTERS`.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeAlias, TypeVar

from rummykit.core import (
    JSON,
    Bot,
    Encodable,
    GameDescriptor,
    GameState,
    Hint,
    IllegalAction,
    Record,
)
from rummykit.web.errors import N_

RulesT = TypeVar("RulesT")
StateT = TypeVar("StateT", bound=GameState[Any, Any, Any])
ViewT = TypeVar("ViewT")
ActionT = TypeVar("ActionT", bound=Encodable)


@dataclass(frozen=True)
class Option:
    """One rule option as the new-game form shows it.

    ``field`` is the name in the game's ``Rules`` (the form's input and the ``#opt-<field>``
    anchor the rules pages link to). ``choices`` lists ``(value, label)``; a ``kind`` of
    ``"bool"`` is a checkbox, ``"number"`` a whole number between ``low`` and ``high``
    (``optional``: may be left empty, meaning "none").
    """

    field: str
    label: str
    help: str
    kind: str = "choice"
    choices: tuple[tuple[JSON, str], ...] = ()
    low: int = 0
    high: int = 0
    optional: bool = False


def choice(field: str, label: str, help: str, *choices: tuple[JSON, str] | int) -> Option:
    """An option chosen among labelled values, the first the form's default; a number
    stands for itself."""
    pairs = tuple((c, str(c)) if isinstance(c, int) else c for c in choices)
    return Option(field, label, help, "choice", pairs)


def flag(field: str, label: str, help: str) -> Option:
    """An option that is on or off (a checkbox)."""
    return Option(field, label, help, "bool")


def number(
    field: str, label: str, help: str, low: int, high: int, optional: bool = False
) -> Option:
    """A whole number from ``low`` to ``high`` (``optional``: may be left empty)."""
    return Option(field, label, help, "number", low=low, high=high, optional=optional)


@dataclass(frozen=True)
class Level:
    """A level of computer player offered on the new-game form."""

    name: str
    label: str
    help: str


@dataclass(frozen=True)
class FormPreset:
    """A rule set of the new-game form: its label, the engine's preset it starts from, and the
    options it changes."""

    label: str
    base: str
    changes: Mapping[str, JSON] = field(default_factory=dict)


def summary(options: Sequence[Option], values: Mapping[str, JSON]) -> list[tuple[str, str]]:
    """Each option with the label of its value (English; the page translates)."""
    out = []
    for option in options:
        value = values.get(option.field)
        if option.kind == "bool":
            label = N_("yes") if value else N_("no")
        elif option.kind == "number":
            label = N_("none") if value is None else str(value)
        else:
            label = next((text for v, text in option.choices if v == value), str(value))
        out.append((option.field, label))
    return out


@dataclass(frozen=True)
class PlayGame(Generic[RulesT, StateT, ViewT, ActionT]):
    """One game for the play layer: the engine's descriptor, and how the site shows it.

    The presentation: ``title``; ``offered`` (the computer levels the form offers, those the
    engine has); ``options`` and ``form_presets`` of the new-game form; ``bot_budget`` (seconds
    a computer seat may think about a decision); ``draw_view`` (what the page of a seat shows,
    as JSON, never a card the seat may not see), ``draw_event`` (a public event as the page
    reads it) and ``draw_hint`` (a hint as the page applies it); ``value_melds``;
    ``replay_template``.
    """

    game: GameDescriptor[RulesT, StateT, ViewT, ActionT]
    title: str
    offered: tuple[Level, ...]
    option_list: tuple[Option, ...]
    form_presets: Mapping[str, FormPreset]
    bot_budget: float
    draw_view: Callable[[StateT, int | None], dict[str, JSON]]
    draw_event: Callable[[Mapping[str, JSON]], dict[str, JSON]] = dict
    draw_hint: Callable[[Hint[ActionT]], dict[str, JSON]] | None = None
    value_melds: Callable[[StateT, JSON], list[int | IllegalAction]] | None = None
    """What each new meld the page is building is worth, or why the rules refuse it (a game
    without a minimum for its first meld leaves it ``None``)."""
    replay_template: str = "play/replay.html"
    travels: bool = True
    """Whether the computer seats think in worker processes (the views go there as JSON)."""

    @property
    def kind(self) -> str:
        """The game's name in records and URLs (``"romme"``)."""
        return self.game.name

    @property
    def min_players(self) -> int:
        return self.game.min_players

    @property
    def max_players(self) -> int:
        return self.game.max_players

    def levels(self) -> Sequence[Level]:
        return tuple(level for level in self.offered if level.name in self.game.levels)

    def default_level(self) -> str:
        names = [level.name for level in self.levels()]
        return self.game.default_level if self.game.default_level in names else names[-1]

    def options(self) -> Sequence[Option]:
        return self.option_list

    def presets(self) -> Mapping[str, JSON]:
        """Preset name -> rules JSON; the first is the form's default."""
        out: dict[str, JSON] = {}
        for name, preset in self.form_presets.items():
            data = {**self.game.rules_to_json(self.game.preset(preset.base)), **preset.changes}
            out[name] = self.game.rules_to_json(self.game.rules_from_json(data))
        return out

    def preset_labels(self) -> Mapping[str, str]:
        return {name: preset.label for name, preset in self.form_presets.items()}

    def rules_from_json(self, data: JSON) -> RulesT:
        return self.game.rules_from_json(data)

    def rules_to_json(self, rules: RulesT) -> JSON:
        return self.game.rules_to_json(rules)

    def record_options(self, record_rules: Mapping[str, JSON]) -> RulesT:
        """The rules of a stored game, read without the first deal a record may keep with
        them (``"start"``, a lesson's deal: see `rummykit.core.GameState.record_rules`)."""
        return self.game.rules_from_json({k: v for k, v in record_rules.items() if k != "start"})

    def rules_summary(self, rules: RulesT) -> list[tuple[str, str]]:
        """``(field, value label)`` of every option, for the rules panel of a game."""
        return summary(self.option_list, self.game.rules_to_json(rules))

    def new_state(self, rules: RulesT, players: int, seed: int) -> StateT:
        return self.game.new_game(rules, players, seed)

    def replay(self, record: Record) -> StateT:
        return self.game.replay(record)

    def replay_states(self, record: Record) -> Iterator[StateT]:
        return self.game.replay_states(record)

    def action_from_json(self, data: JSON, rules: RulesT) -> ActionT:
        return self.game.action_from_json(data, rules)

    def make_bot(self, level: str, seed: int) -> Bot[ViewT, ActionT]:
        return self.game.make_bot(level, seed)

    def view_to_wire(self, view: ViewT) -> JSON:
        return self.game.view_to_json(view)

    def view_from_wire(self, data: JSON) -> ViewT:
        return self.game.view_from_json(data)

    def fallback_action(self, state: StateT, seat: int) -> ActionT:
        """A legal action for a computer seat whose bot failed or ran out of time."""
        return self.game.fallback_action(state, seat)

    def log(self, state: StateT) -> Sequence[Mapping[str, JSON]]:
        """The state's public log (what every seat may read)."""
        return self.game.public_log(state)

    def client_view(self, state: StateT, seat: int | None) -> dict[str, JSON]:
        """What the page of ``seat`` shows; the play layer adds ``seq``, ``events``, seats."""
        return self.draw_view(state, seat)

    def client_event(self, event: Mapping[str, JSON]) -> dict[str, JSON]:
        """A public log event with every card written as its code."""
        return self.draw_event(event)

    def hint(self, view: ViewT) -> dict[str, JSON]:
        """The engine's advice for the seat of ``view``, the same shape for every game:
        ``{"action": <the action as the page sends it>, "reason": {"code": <the engine's
        reason code>, **<its parameters>}}`` (the play layer adds ``text`` and ``seq``);
        ``IllegalAction("not_your_turn")`` when there is nothing to suggest."""
        if self.game.hint is None:
            raise IllegalAction("bad_game", game=self.kind)
        advice = self.game.hint(view)
        if advice.action is None:
            raise IllegalAction("not_your_turn")
        if self.draw_hint is not None:
            return self.draw_hint(advice)
        reason: dict[str, JSON] = {"code": advice.reason, **advice.params}
        return {"action": advice.action.to_json(), "reason": reason}


AnyGame: TypeAlias = PlayGame[Any, Any, Any, Any]
"""A game looked up by its name at run time (its types are known only to its own module)."""

ADAPTERS: dict[str, str] = {
    "romme": "rummykit.web.play.romme",
    "tiles": "rummykit.web.play.tiles",
    "rummoli": "rummykit.web.play.rummoli",
}
"""Game kind -> module holding its ``ADAPTER``; a new game adds a line here."""


def adapter(kind: str) -> AnyGame:
    """The game of a kind (``IllegalAction("bad_game")`` for an unknown one)."""
    module = ADAPTERS.get(kind)
    if module is None:
        raise IllegalAction("bad_game", game=kind)
    found: AnyGame = importlib.import_module(module).ADAPTER
    return found


def derived_seed(seed: int, *parts: object) -> int:
    """A seed for a computer seat, derived from the game's secret seed (never shown): the
    same parts give the same seed, and nothing about the game's seed can be learnt from it.

    >>> a, b = derived_seed(7, "bot", 1, 12), derived_seed(7, "bot", 2, 12)
    >>> a == derived_seed(7, "bot", 1, 12) and a != b
    True
    """
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


@dataclass(frozen=True)
class SeatInfo:
    """Who sits at a seat, as stored in the record: ``"human"`` or ``"bot:<level>"``.

    >>> SeatInfo.parse("bot:medium"), SeatInfo(True).code
    (SeatInfo(human=False, level='medium'), 'human')
    """

    human: bool
    level: str | None = None

    @property
    def code(self) -> str:
        return "human" if self.human else f"bot:{self.level}"

    @classmethod
    def parse(cls, text: str) -> SeatInfo:
        if text == "human":
            return cls(True)
        if text.startswith("bot:") and len(text) > 4:
            return cls(False, text[4:])
        raise IllegalAction("bad_seats", seat=text)

    def to_json(self) -> dict[str, JSON]:
        return {"human": self.human, "level": self.level}
