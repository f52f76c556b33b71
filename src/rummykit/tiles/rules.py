"""Tiles, their notation and the options of a game of tile rummy.

Every physical tile is distinct: the standard set holds two red fives, ``r5`` (copy 0) and
``r5#1`` (copy 1). A tile is written colour letter then number — ``r`` red, ``b`` blue, ``k``
black, ``y`` yellow — and a joker ``*`` (``JK`` is accepted too). When a list is parsed, a tile
without ``#n`` takes the lowest copy not yet used in that list, as with cards.

>>> format_tiles(parse_tiles("r5 k13 b1 y7 * r5 *"))
'r5 k13 b1 y7 * r5#1 *#1'
>>> len(Rules().pool()), len(set(Rules().pool()))
(106, 106)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from enum import IntEnum
from typing import Any, ClassVar, Literal, Self

from rummykit import melds
from rummykit.core import JSON, IllegalAction
from rummykit.notation import Copied, parse_pieces

MAX_NUMBER = 100
"""The highest number a tile may carry under any rules (the standard set stops at 13)."""
MAX_COPIES = 2
"""Each natural tile exists at most twice."""
MAX_JOKERS = 4
"""At most four jokers."""
MIN_PLAYERS = 2
MAX_PLAYERS = 4
"""A game of tile rummy seats two to four players."""

SetKind = Literal["run", "group"]
JokerRetrieval = Literal["end_only", "anywhere"]
Scoring = Literal["leaflet", "classic"]


class Colour(IntEnum):
    """The four tile colours, in the order red, blue, black, yellow."""

    RED = 0
    BLUE = 1
    BLACK = 2
    YELLOW = 3

    @property
    def letter(self) -> str:
        """The notation letter: ``r``, ``b``, ``k`` (black) or ``y``."""
        return "rbky"[self]

    @classmethod
    def from_letter(cls, letter: str) -> Colour:
        index = "rbky".find(letter.lower())
        if len(letter) != 1 or index < 0:
            raise IllegalAction("bad_tile", tile=letter)
        return cls(index)


_JOKER_TEXT = {"*", "JK", "JOKER"}
_TILE_RE = re.compile(r"([rbkyRBKY])(\d{1,3})")


@dataclass(frozen=True, slots=True, repr=False)
class Tile(Copied):
    """One physical tile: a colour and number (a joker has neither) and which copy it is.

    ``Tile.id`` does not depend on the rules, so a tile keeps its id whatever the number range:
    naturals are ``copy * 400 + colour * 100 + number - 1`` (0..799), jokers ``800 + copy``.

    >>> Tile.parse("k13#1").id, Tile.from_id(612)
    (612, Tile.parse('k13#1'))
    >>> Tile.parse("R5"), Tile.parse("*#1").copy, Tile.parse("JK").is_joker
    (Tile.parse('r5'), 1, True)
    """

    colour: Colour | None
    number: int | None
    copy: int = 0
    noun: ClassVar[str] = "tile"
    copy_digits: ClassVar[int] = 2
    joker_copies: ClassVar[int] = MAX_JOKERS
    natural_copies: ClassVar[int] = MAX_COPIES

    def __post_init__(self) -> None:
        if (self.colour is None) != (self.number is None):
            raise ValueError("a tile has both a colour and a number, or neither (a joker)")
        if self.number is not None and not 1 <= self.number <= MAX_NUMBER:
            raise ValueError(f"number must be in 1..{MAX_NUMBER}, got {self.number}")
        self._check_copy()

    @property
    def is_joker(self) -> bool:
        return self.number is None

    @property
    def face(self) -> str:
        """The tile in the notation without its copy: ``r5``, ``*``."""
        if self.colour is None or self.number is None:
            return "*"
        return f"{self.colour.letter}{self.number}"

    @property
    def piece(self) -> melds.Piece:
        """The tile as the shared validator sees it: ``(number, colour)``, ``None`` for a joker."""
        if self.colour is None or self.number is None:
            return None
        return (self.number, int(self.colour))

    @property
    def id(self) -> int:
        if self.colour is None or self.number is None:
            return 800 + self.copy
        return self.copy * 400 + int(self.colour) * 100 + self.number - 1

    @property
    def sort_key(self) -> tuple[int, int, int, int]:
        """Colour, then number, then copy; jokers last."""
        if self.colour is None or self.number is None:
            return (1, 0, 0, self.copy)
        return (0, int(self.colour), self.number, self.copy)

    @classmethod
    def from_id(cls, tile_id: int) -> Tile:
        if not isinstance(tile_id, int) or isinstance(tile_id, bool) or not 0 <= tile_id < 804:
            raise IllegalAction("bad_tile", tile=repr(tile_id))
        if tile_id >= 800:
            return cls.joker(tile_id - 800)
        copy, rest = divmod(tile_id, 400)
        colour, number = divmod(rest, 100)
        return cls(Colour(colour), number + 1, copy)

    @classmethod
    def joker(cls, copy: int = 0) -> Tile:
        return cls(None, None, copy)

    @classmethod
    def _from_face(cls, face: str, copy: int) -> Self:
        if face.upper() in _JOKER_TEXT:
            return cls(None, None, copy)
        match = _TILE_RE.fullmatch(face)
        if match is None:
            raise ValueError(f"no tile {face!r}")
        return cls(Colour.from_letter(match[1]), int(match[2]), copy)


def parse_tiles(text: str | Iterable[str], taken: Iterable[Tile] = ()) -> list[Tile]:
    """Parse tiles separated by spaces or commas; a tile without ``#n`` takes the next free copy,
    not counting the copies in ``taken`` (tiles already named elsewhere).

    >>> [t.code for t in parse_tiles("r5 r5#0 *")]
    ['r5#1', 'r5', '*']
    >>> parse_tiles("b2 b2 b2")
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: bad_tile: tile='b2'
    """
    return parse_pieces(Tile, text, taken)


def format_tiles(tiles: Iterable[Tile]) -> str:
    """The notation of several tiles, separated by spaces."""
    return " ".join(tile.code for tile in tiles)


def sort_tiles(tiles: Iterable[Tile], by: Literal["colour", "number"] = "colour") -> list[Tile]:
    """Tiles sorted for a rack: by colour then number, or by number then colour; jokers last."""
    if by == "number":
        return sorted(tiles, key=lambda t: (t.is_joker, t.number or 0, t.sort_key))
    return sorted(tiles, key=lambda t: t.sort_key)


# --------------------------------------------------------------------------------------------
# Rules


def _bad(field: str, value: Any, expected: str) -> IllegalAction:
    return IllegalAction("bad_rules", field=field, value=value, expected=expected)


def _check_int(field: str, value: Any, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(field, value, f"an integer in {low}..{high}")


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of tile rummy, validated on construction.

    ``numbers``: tiles are numbered 1..numbers (13). ``copies``: each natural tile exists this
    many times (2). ``jokers``: 0–4 (2). ``rack_size``: tiles dealt to each player; ``None`` is
    the leaflet's rule, 10 with two players and 7 with three or four (14 is the common
    tournament rule). ``opening_min``: the least value of a first meld (30).
    ``joker_retrieval``: ``"end_only"`` (the leaflet: only a joker at the end of a run or in a
    group may be replaced) or ``"anywhere"``. ``joker_penalty``: what a joker left on a rack
    counts (30). ``scoring``: ``"leaflet"`` (racks count against their holders, the lowest
    total wins) or ``"classic"`` (the winner scores the others' racks as a plus, the others
    score their racks as a minus, the highest total wins). ``rounds``: how many rounds (1).

    >>> Rules(jokers=5)
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: bad_rules: field='jokers', value=5, expected='an integer in 0..4'
    >>> Rules.preset("classic").rack_for(3)
    14
    >>> Rules.from_json(Rules(rounds=3).to_json()) == Rules(rounds=3)
    True
    """

    numbers: int = 13
    copies: int = 2
    jokers: int = 2
    rack_size: int | None = None
    opening_min: int = 30
    joker_retrieval: JokerRetrieval = "end_only"
    joker_penalty: int = 30
    scoring: Scoring = "leaflet"
    rounds: int = 1

    PLAYERS: ClassVar[tuple[int, int]] = (MIN_PLAYERS, MAX_PLAYERS)
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "leaflet": {},
        "classic": {"rack_size": 14, "joker_retrieval": "anywhere", "scoring": "classic"},
    }

    def __post_init__(self) -> None:
        _check_int("numbers", self.numbers, 3, MAX_NUMBER)
        _check_int("copies", self.copies, 1, MAX_COPIES)
        _check_int("jokers", self.jokers, 0, MAX_JOKERS)
        if self.rack_size is not None:
            _check_int("rack_size", self.rack_size, 1, 4 * MAX_NUMBER)
        _check_int("opening_min", self.opening_min, 0, 10_000)
        if self.joker_retrieval not in ("end_only", "anywhere"):
            raise _bad("joker_retrieval", self.joker_retrieval, "'end_only' or 'anywhere'")
        _check_int("joker_penalty", self.joker_penalty, 0, 10_000)
        if self.scoring not in ("leaflet", "classic"):
            raise _bad("scoring", self.scoring, "'leaflet' or 'classic'")
        _check_int("rounds", self.rounds, 1, 1_000)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """A named set of options: ``"leaflet"`` (the defaults) or ``"classic"`` (14 tiles,
        jokers retrieved anywhere, plus and minus scoring)."""
        if name not in cls.PRESETS:
            raise IllegalAction("bad_rules", field="preset", value=name, expected=list(cls.PRESETS))
        return cls(**cls.PRESETS[name])

    def to_json(self) -> dict[str, JSON]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: JSON) -> Rules:
        """Read the JSON form; unknown fields and wrong values raise ``bad_rules``."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as err:
                raise IllegalAction(
                    "bad_rules", field=None, value=None, expected=str(err)
                ) from None
        if not isinstance(data, Mapping):
            raise _bad("rules", type(data).__name__, "an object")
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise _bad(str(key), data[key], "a known field")
        return cls(**dict(data))

    def rack_for(self, players: int) -> int:
        """How many tiles each of ``players`` players is dealt."""
        if self.rack_size is not None:
            return self.rack_size
        return 10 if players == 2 else 7

    def pool(self) -> list[Tile]:
        """Every tile of the game, ordered by copy, colour and number, jokers last."""
        naturals = [
            Tile(colour, number, copy)
            for copy in range(self.copies)
            for colour in Colour
            for number in range(1, self.numbers + 1)
        ]
        return naturals + [Tile.joker(copy) for copy in range(self.jokers)]

    def has_tile(self, tile: Tile) -> bool:
        """Whether the tile belongs to the set these rules play with."""
        if tile.number is None:
            return tile.copy < self.jokers
        return tile.number <= self.numbers and tile.copy < self.copies

    def penalty(self, tile: Tile) -> int:
        """What the tile counts when left on a rack at the end of a round."""
        return self.joker_penalty if tile.number is None else tile.number

    @property
    def meld_rules(self) -> melds.MeldRules:
        """The shared validator's switches for tiles: no high ace, jokers may touch."""
        return melds.MeldRules(numbers=self.numbers, ace_high=False, adjacent_jokers=True)
