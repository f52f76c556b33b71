"""The Rummoli chip keeper: the nine boxes of the board and each player's chips, shared live.

It is a shared record of a real game like the score sheet (see `rummykit.scoresheet.sheet`):
created from its settings and players, changed only by actions checked as a whole first, stored
as the list of its actions and rebuilt by replaying them. Chips only move: a player pays a box
or another player, a box is won, everyone antes; nothing is created or lost. Every change can be
undone (`Undo` moves the chips back), and the undoing is itself a logged change.

>>> keeper = ChipKeeper(ChipSettings("Friday", chips=20), ["Ann", "Bob"])
>>> keeper.apply(Ante())
>>> keeper.chips, keeper.boxes[Box.POKER]
([11, 11], 2)
>>> keeper.apply(Move("box:poker", "p:1", 2))
>>> keeper.apply(Undo(2))
>>> keeper.chips, keeper.total()
([11, 11], 40)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from rummykit.core import JSON, IllegalAction, Record
from rummykit.rummoli.rules import ANTE, BOXES, Box
from rummykit.scoresheet.sheet import NAME_MAX, check_players, clean_name, with_names_salvaged

__all__ = [
    "Ante",
    "ChipAction",
    "ChipKeeper",
    "ChipSettings",
    "Move",
    "Undo",
    "chip_action_from_json",
    "is_chip_record",
    "replay_chips",
]


GAME = "scoresheet"
KIND = "rummoli"
"""The ``game`` of the settings of a chip keeper, beside the sheets' ``romme`` and ``tiles``."""
CHIPS_MIN = 1
CHIPS_MAX = 1000
DEFAULT_CHIPS = 40
MOVE_MAX = 100_000
PLAYERS_MAX = 12


def _count(value: object, code: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise IllegalAction(code, value=value, minimum=low, maximum=high)
    return value


@dataclass(frozen=True)
class ChipSettings:
    """The name of the evening and the chips each player starts with."""

    name: str
    chips: int = DEFAULT_CHIPS

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not clean_name(self.name):
            raise IllegalAction("empty_sheet_name")
        if len(clean_name(self.name)) > NAME_MAX:
            raise IllegalAction("sheet_name_too_long", maximum=NAME_MAX)
        object.__setattr__(self, "name", clean_name(self.name))
        _count(self.chips, "bad_chips", CHIPS_MIN, CHIPS_MAX)

    def to_json(self) -> dict[str, JSON]:
        return {"name": self.name, "limit": None, "game": KIND, "chips": self.chips}

    @classmethod
    def from_json(cls, data: JSON) -> ChipSettings:
        if not isinstance(data, dict) or data.get("game") != KIND:
            raise IllegalAction("bad_settings")
        return cls(data.get("name"), data.get("chips", DEFAULT_CHIPS))  # type: ignore[arg-type]


def place_of_box(box: Box) -> str:
    return f"box:{box.value}"


def place_of_player(player: int) -> str:
    return f"p:{player}"


@dataclass(frozen=True)
class Move:
    """``amount`` chips go from one place to another: a player (``p:<n>``) or a box
    (``box:<name>``)."""

    source: str
    target: str
    amount: int

    def to_json(self) -> dict[str, JSON]:
        return {"t": "move", "from": self.source, "to": self.target, "n": self.amount}


@dataclass(frozen=True)
class Ante:
    """Before a deal, every player who still plays puts one chip on each of the nine boxes."""

    def to_json(self) -> dict[str, JSON]:
        return {"t": "ante"}


@dataclass(frozen=True)
class Undo:
    """Undo change number ``change`` (counting from 1): its chips go back where they were."""

    change: int

    def to_json(self) -> dict[str, JSON]:
        return {"t": "undo", "change": self.change}


ChipAction: TypeAlias = Move | Ante | Undo


def chip_action_from_json(data: JSON) -> ChipAction:
    """Read an action's JSON form; anything else raises ``IllegalAction("bad_action")``.

    >>> chip_action_from_json({"t": "move", "from": "p:0", "to": "box:poker", "n": 3})
    Move(source='p:0', target='box:poker', amount=3)
    """
    if not isinstance(data, dict):
        raise IllegalAction("bad_action", reason="not an object")
    kind = data.get("t")
    if kind == "ante":
        return Ante()
    if kind == "undo":
        change = data.get("change")
        if not isinstance(change, int) or isinstance(change, bool):
            raise IllegalAction("bad_action", reason="change")
        return Undo(change)
    if kind == "move":
        source, target, amount = data.get("from"), data.get("to"), data.get("n")
        if not isinstance(source, str) or not isinstance(target, str):
            raise IllegalAction("bad_action", reason="place")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise IllegalAction("bad_action", reason="amount")
        return Move(source, target, amount)
    raise IllegalAction("bad_action", reason="type")


Flows: TypeAlias = tuple[tuple[str, str, int], ...]
"""The chip movements a change made: (from, to, amount)."""


class ChipKeeper:
    """The board and the chips of a Rummoli evening played with real cards."""

    def __init__(self, settings: ChipSettings, players: Sequence[str]) -> None:
        names = check_players(players, PLAYERS_MAX)
        self.settings = settings
        self.names = names
        self.chips: list[int] = [settings.chips] * len(names)
        self.boxes: dict[Box, int] = dict.fromkeys(BOXES, 0)
        self._actions: list[ChipAction] = []
        self.flows: list[Flows] = []
        """What each change moved, in order (an undo moves the other way)."""
        self.undone: set[int] = set()
        """The changes (numbered from 1) that an `Undo` has taken back."""

    # -- reading -------------------------------------------------------------------------

    def total(self) -> int:
        """All chips, on the board and in hand: always the players times the starting chips."""
        return sum(self.chips) + sum(self.boxes.values())

    def amount_at(self, place: str) -> int:
        return self._get(place)

    @property
    def actions(self) -> tuple[ChipAction, ...]:
        return tuple(self._actions)

    @property
    def leaders(self) -> list[int]:
        """The players with the most chips (most chips wins)."""
        most = max(self.chips)
        return [i for i, c in enumerate(self.chips) if c == most]

    # -- changing ------------------------------------------------------------------------

    def _get(self, place: str) -> int:
        kind, _, key = place.partition(":") if isinstance(place, str) else ("", "", "")
        if kind == "p" and key.isdigit() and int(key) < len(self.chips) and key == str(int(key)):
            return self.chips[int(key)]
        if kind == "box" and key in {b.value for b in BOXES}:
            return self.boxes[Box(key)]
        raise IllegalAction("unknown_place", place=place)

    def _add(self, place: str, amount: int) -> None:
        kind, _, key = place.partition(":")
        if kind == "p":
            self.chips[int(key)] += amount
        else:
            self.boxes[Box(key)] += amount

    def _flows(self, action: ChipAction) -> Flows:
        """The movements ``action`` would make, checked; raises `IllegalAction` if refused."""
        if isinstance(action, Move):
            self._get(action.source)
            self._get(action.target)
            if action.source == action.target:
                raise IllegalAction("same_place")
            _count(action.amount, "bad_amount", 1, MOVE_MAX)
            flows: Flows = ((action.source, action.target, action.amount),)
        elif isinstance(action, Ante):
            flows = tuple(
                (place_of_player(p), place_of_box(box), 1)
                for p, chips in enumerate(self.chips)
                if chips >= ANTE
                for box in BOXES
            )
            if not flows:
                raise IllegalAction("nobody_can_ante", ante=ANTE)
        elif isinstance(action, Undo):
            number = action.change
            if isinstance(number, bool) or not 1 <= number <= len(self._actions):
                raise IllegalAction("unknown_change", change=number)
            if isinstance(self._actions[number - 1], Undo):
                raise IllegalAction("cannot_undo_an_undo", change=number)
            if number in self.undone:
                raise IllegalAction("already_undone", change=number)
            flows = tuple((target, source, n) for source, target, n in self.flows[number - 1])
        else:
            raise IllegalAction("bad_action", reason="type")
        needed: dict[str, int] = {}
        for source, _, n in flows:
            needed[source] = needed.get(source, 0) + n
        for source, n in needed.items():
            if self._get(source) < n:
                code = "cannot_undo" if isinstance(action, Undo) else "not_enough_chips"
                raise IllegalAction(code, place=source, have=self._get(source), need=n)
        return flows

    def check(self, action: ChipAction) -> None:
        self._flows(action)

    def apply(self, action: ChipAction) -> None:
        """Check the whole action, then move its chips, or raise `IllegalAction`."""
        flows = self._flows(action)
        for source, target, n in flows:
            self._add(source, -n)
            self._add(target, n)
        if isinstance(action, Undo):
            self.undone.add(action.change)
        self._actions.append(action)
        self.flows.append(flows)

    # -- records -------------------------------------------------------------------------

    def record(self) -> Record:
        return Record(
            game=GAME,
            rules=self.settings.to_json(),
            seed=0,
            seats=tuple(self.names),
            actions=tuple(a.to_json() for a in self._actions),
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "settings": self.settings.to_json(),
            "players": [
                {"id": i, "name": name, "chips": self.chips[i]} for i, name in enumerate(self.names)
            ],
            "boxes": {box.value: n for box, n in self.boxes.items()},
            "changes": [
                {"number": i + 1, **a.to_json(), "undone": i + 1 in self.undone}
                for i, a in enumerate(self._actions)
            ],
            "total": self.total(),
        }


def replay_chips(record: Record) -> ChipKeeper:
    """Rebuild a chip keeper from its record (its names salvaged first, as a sheet's are)."""
    record = with_names_salvaged(record)
    keeper = ChipKeeper(ChipSettings.from_json(record.rules), list(record.seats))
    for data in record.actions:
        keeper.apply(chip_action_from_json(data))
    return keeper


def is_chip_record(record: Record) -> bool:
    """Whether a stored shared record is a chip keeper (else a score sheet)."""
    return isinstance(record.rules, dict) and record.rules.get("game") == KIND
