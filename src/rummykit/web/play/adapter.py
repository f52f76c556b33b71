"""What the play layer needs to know about one game: the `GameAdapter` each game provides.

The play layer (`rummykit.web.play.service`) stores, replays, runs computer seats and pushes
views without knowing any rule; everything game-specific goes through an adapter. A game
adds itself by writing a module with an ``ADAPTER`` and naming it in `ADAPTERS`.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rummykit.core import JSON, Hint, IllegalAction, Record


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


@dataclass(frozen=True)
class Level:
    """A level of computer player offered on the new-game form."""

    name: str
    label: str
    help: str


class Bot(Protocol):
    def choose(self, view: Any) -> Any: ...


class GameAdapter(Protocol):
    """Everything game-specific the play layer and the pages ask for."""

    kind: str
    """The game's name in records and URLs (``"romme"``)."""
    title: str
    min_players: int
    max_players: int
    bot_budget: float
    """Seconds a computer seat may think about one decision."""

    def levels(self) -> Sequence[Level]: ...
    def default_level(self) -> str: ...
    def options(self) -> Sequence[Option]: ...
    def presets(self) -> Mapping[str, JSON]:
        """Preset name -> rules JSON; the first is the form's default."""

    def rules_from_json(self, data: JSON) -> Any: ...
    def rules_to_json(self, rules: Any) -> JSON: ...
    def new_state(self, rules: Any, players: int, seed: int) -> Any: ...
    def replay(self, record: Record) -> Any: ...
    def replay_states(self, record: Record) -> Any: ...
    def action_from_json(self, data: JSON, rules: Any) -> Any: ...
    def make_bot(self, level: str, seed: int) -> Bot: ...
    def fallback_action(self, state: Any, seat: int) -> Any:
        """A legal action for a computer seat whose bot failed or ran out of time."""

    def log(self, state: Any) -> Sequence[Mapping[str, JSON]]:
        """The state's public log (what every seat may read)."""

    def client_view(self, state: Any, seat: int | None) -> dict[str, JSON]:
        """What the page of ``seat`` shows, as JSON, cards by their codes; never a card the
        seat may not see. The play layer adds ``seq``, ``events`` and the seats."""

    def client_event(self, event: Mapping[str, JSON]) -> dict[str, JSON]:
        """A public log event with every card written as its code."""

    def hint(self, view: Any) -> dict[str, JSON]:
        """The computer's suggestion for the seat of ``view`` (the engine's view of the seat
        on move) and its reason, as codes and parameters the page translates."""

    def rules_summary(self, rules: Any) -> list[tuple[str, str]]:
        """``(field, value label)`` of every option, for the rules panel of a game."""

    # Optional: ``view_to_wire(view) -> JSON`` and ``view_from_wire(JSON) -> view`` let the
    # computer seats think in worker processes (`rummykit.web.play.workers`), a bot built
    # afresh for every decision; without them each seat keeps one bot for the whole game,
    # thinking in threads of the server process.


ADAPTERS: dict[str, str] = {
    "romme": "rummykit.web.play.romme",
    "tiles": "rummykit.web.play.tiles",
    "rummoli": "rummykit.web.play.rummoli",
}
"""Game kind -> module holding its ``ADAPTER``; a new game adds a line here."""


def adapter(kind: str) -> GameAdapter:
    """The adapter of a game kind (``IllegalAction("bad_game")`` for an unknown one)."""
    module = ADAPTERS.get(kind)
    if module is None:
        raise IllegalAction("bad_game", game=kind)
    found: GameAdapter = importlib.import_module(module).ADAPTER
    return found


def hint_json(
    advice: Hint[Any], seat: int | None, to_move: int | None, action: JSON = None
) -> dict[str, JSON]:
    """The hint API's answer, the same for every game: ``{"action": <the action as the page
    sends it>, "reason": {"code": <the engine's reason code>, **<its parameters>}}`` (the
    play layer adds ``text`` and ``seq``). ``action`` replaces the action's own JSON where the
    page writes it otherwise; no action to suggest is ``IllegalAction("not_your_turn")``."""
    if advice.action is None:
        raise IllegalAction("not_your_turn", seat=seat, to_move=to_move)
    data: JSON = advice.action.to_json() if action is None else action
    return {"action": data, "reason": {"code": advice.reason, **advice.params}}


def derived_seed(seed: int, *parts: object) -> int:
    """A seed for a computer seat, derived from the game's secret seed (never shown): the
    same parts give the same seed, and nothing about the game's seed can be learnt from it.

    >>> a, b = derived_seed(7, "bot", 1, 12), derived_seed(7, "bot", 2, 12)
    >>> a == derived_seed(7, "bot", 1, 12) and a != b
    True
    """
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def levels_that_exist(
    make: Callable[[str, int], object], wanted: Sequence[Level]
) -> tuple[Level, ...]:
    """The levels among ``wanted`` that the game's ``make_bot`` accepts."""
    found = []
    for level in wanted:
        try:
            make(level.name, 0)
        except IllegalAction:
            continue
        found.append(level)
    return tuple(found)


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
