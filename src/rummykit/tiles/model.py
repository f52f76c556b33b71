"""Tiles, their notation, the rules configuration and the sets of tile rummy.

Every physical tile is distinct: the standard set holds two red fives, ``r5`` (copy 0) and
``r5#1`` (copy 1). A tile is written colour letter then number — ``r`` red, ``b`` blue, ``k``
black, ``y`` yellow — and a joker ``*`` (``JK`` is accepted too). When a list is parsed, a tile
without ``#n`` takes the lowest copy not yet used in that list, as with cards.

>>> format_tiles(parse_tiles("r5 k13 b1 y7 * r5 *"))
'r5 k13 b1 y7 * r5#1 *#1'
>>> len(Rules().pool()), len(set(Rules().pool()))
(106, 106)

A set on the table keeps its tiles in order and, for each joker, what it stands for. Sets are
checked by the shared validator of `rummykit.melds`, the same rule as Rommé's melds:

>>> s = read_set(parse_tiles("y4 y5 y6 *"), Rules())
>>> s
TableSet.parse('y4 y5 y6 *(y7)')
>>> set_value(s)
22
>>> read_set(parse_tiles("r5 b5 *"), Rules()).jokers  # either missing colour
(JokerMeaning(number=5, colour=None),)
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import IntEnum
from typing import Any, ClassVar, Literal, NamedTuple

from rummykit import melds
from rummykit.core import JSON, IllegalAction

MAX_NUMBER = 100
"""The highest number a tile may carry under any rules (the standard set stops at 13)."""
MAX_COPIES = 2
"""Each natural tile exists at most twice."""
MAX_JOKERS = 4
"""At most four jokers."""

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


@dataclass(frozen=True, slots=True)
class Tile:
    """One physical tile: a colour and number (a joker has neither) and which copy it is.

    ``Tile.id`` does not depend on the rules, so a tile keeps its id whatever the number range:
    naturals are ``copy * 400 + colour * 100 + number - 1`` (0..799), jokers ``800 + copy``.

    >>> Tile.parse("k13#1").id, Tile.from_id(612)
    (612, Tile.parse('k13#1'))
    """

    colour: Colour | None
    number: int | None
    copy: int = 0

    def __post_init__(self) -> None:
        if (self.colour is None) != (self.number is None):
            raise ValueError("a tile has both a colour and a number, or neither (a joker)")
        if self.number is not None and not 1 <= self.number <= MAX_NUMBER:
            raise ValueError(f"number must be in 1..{MAX_NUMBER}, got {self.number}")
        limit = MAX_JOKERS if self.number is None else MAX_COPIES
        if not 0 <= self.copy < limit:
            raise ValueError(f"copy must be in 0..{limit - 1}, got {self.copy}")

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
    def code(self) -> str:
        """The exact notation, with ``#n`` when the copy is not the first."""
        return self.face if self.copy == 0 else f"{self.face}#{self.copy}"

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
    def parse(cls, text: str) -> Tile:
        """Parse one tile; a missing ``#n`` means copy 0. Raises ``IllegalAction("bad_tile")``.

        >>> Tile.parse("R5"), Tile.parse("*#1").copy, Tile.parse("JK").is_joker
        (Tile.parse('r5'), 1, True)
        """
        face, copy = _split_copy(text)
        return _tile_from_face(face, max(copy, 0), text)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile.parse({self.code!r})"


def _split_copy(text: str) -> tuple[str, int]:
    face, sep, copy_text = text.strip().partition("#")
    if not sep:
        return face, -1
    if not (copy_text.isascii() and copy_text.isdigit()) or len(copy_text) > 2:
        raise IllegalAction("bad_tile", tile=text)
    return face, int(copy_text)


def _tile_from_face(face: str, copy: int, original: str) -> Tile:
    try:
        if face.upper() in _JOKER_TEXT:
            return Tile(None, None, copy)
        match = _TILE_RE.fullmatch(face)
        if match is None:
            raise IllegalAction("bad_tile", tile=original)
        return Tile(Colour.from_letter(match[1]), int(match[2]), copy)
    except ValueError as err:
        if isinstance(err, IllegalAction):
            raise
        raise IllegalAction("bad_tile", tile=original) from None


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
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    parsed: list[tuple[str, int]] = [_split_copy(word) for word in words]
    used: set[Tile] = set(taken)
    for (face, copy), word in zip(parsed, words, strict=True):
        if copy >= 0:
            tile = _tile_from_face(face, copy, word)
            if tile in used:
                raise IllegalAction("duplicate_tile", tile=tile.code)
            used.add(tile)
    result: list[Tile] = []
    for (face, copy), word in zip(parsed, words, strict=True):
        if copy >= 0:
            result.append(_tile_from_face(face, copy, word))
            continue
        base = _tile_from_face(face, 0, word)
        limit = MAX_JOKERS if base.is_joker else MAX_COPIES
        for candidate_copy in range(limit):
            candidate = replace(base, copy=candidate_copy)
            if candidate not in used:
                used.add(candidate)
                result.append(candidate)
                break
        else:
            raise IllegalAction("bad_tile", tile=word)
    return result


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


# --------------------------------------------------------------------------------------------
# Sets


class JokerMeaning(NamedTuple):
    """What a joker on the table stands for. In a group its colour is ``None`` while more than
    one colour is missing: it may then be replaced by a tile of any missing colour."""

    number: int
    colour: Colour | None

    @property
    def code(self) -> str:
        if self.colour is None:
            return str(self.number)
        return f"{self.colour.letter}{self.number}"


@dataclass(frozen=True, slots=True)
class TableSet:
    """A set on the table: its tiles in order and, for each joker in order, what it stands for.

    A `TableSet` is a plain value; `read_set` builds a checked one. Its text form writes each
    joker's meaning in brackets: ``r4 r5 *(r6)``, ``r5 b5 *(5)``.
    """

    tiles: tuple[Tile, ...]
    jokers: tuple[JokerMeaning, ...] = ()

    def __post_init__(self) -> None:
        count = sum(1 for t in self.tiles if t.is_joker)
        if count != len(self.jokers):
            raise ValueError(f"{count} joker(s) but {len(self.jokers)} meaning(s)")

    @property
    def kind(self) -> SetKind:
        """``"group"`` when every tile stands for one number, else ``"run"``."""
        jokers = iter(self.jokers)
        first: int | None = None
        for tile in self.tiles:
            number = tile.number if tile.number is not None else next(jokers).number
            if first is None:
                first = number
            elif number != first:
                return "run"
        return "group"

    def meanings(self) -> list[tuple[int, Colour | None]]:
        """What each tile stands for, position by position: itself, or the joker's meaning."""
        out: list[tuple[int, Colour | None]] = []
        jokers = iter(self.jokers)
        for tile in self.tiles:
            if tile.number is None:
                meaning = next(jokers)
                out.append((meaning.number, meaning.colour))
            else:
                out.append((tile.number, tile.colour))
        return out

    def joker_meanings(self) -> dict[Tile, tuple[int, JokerMeaning]]:
        """Each joker of the set with its position and its meaning."""
        out: dict[Tile, tuple[int, JokerMeaning]] = {}
        jokers = iter(self.jokers)
        for index, tile in enumerate(self.tiles):
            if tile.is_joker:
                out[tile] = (index, next(jokers))
        return out

    @property
    def code(self) -> str:
        words: list[str] = []
        jokers = iter(self.jokers)
        for tile in self.tiles:
            words.append(f"{tile.code}({next(jokers).code})" if tile.is_joker else tile.code)
        return " ".join(words)

    def canonical(self) -> tuple[Any, ...]:
        """A key equal for two sets that are the same on the table (a group in any order)."""
        if self.kind == "group":
            return ("group", tuple(sorted(t.id for t in self.tiles)))
        return ("run", tuple(t.id for t in self.tiles), self.jokers)

    @classmethod
    def parse(cls, text: str, rules: Rules | None = None) -> TableSet:
        """Parse and check one set; jokers without a meaning get the one the set implies."""
        return parse_table([text], rules)[0]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"TableSet.parse({self.code!r})"


_MEANING_RE = re.compile(r"^(.*?)\((?:([rbkyRBKY])?(\d{1,3}))\)$")


def _parse_words(text: str) -> list[tuple[str, JokerMeaning | None]]:
    out: list[tuple[str, JokerMeaning | None]] = []
    for word in text.replace(",", " ").split():
        match = _MEANING_RE.match(word)
        if match is None:
            out.append((word, None))
            continue
        colour = None if match[2] is None else Colour.from_letter(match[2])
        number = int(match[3])
        if not 1 <= number <= MAX_NUMBER:
            raise IllegalAction("bad_tile", tile=word)
        out.append((match[1], JokerMeaning(number, colour)))
    return out


def parse_table(
    sets: str | Sequence[str], rules: Rules | None = None, *, check: bool = True
) -> list[TableSet]:
    """Parse and check a table: sets separated by ``|`` (or given as a list of strings).

    Copies are assigned across the whole table, so ``r5`` twice means both red fives. With
    ``check=False`` a set is only read, not judged, when every joker in it names what it stands
    for (an action carries such sets to the engine, which judges them); a joker without its
    meaning still needs the set to be valid to know what it stands for.

    >>> [s.code for s in parse_table("r5 r6 r7 | r5 b5 k5")]
    ['r5 r6 r7', 'r5#1 b5 k5']
    >>> parse_table("r5 r6 *(r8)")
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: joker_meaning_mismatch: joker='*', stated='r8', reads='r7'
    """
    rules = rules or Rules()
    texts = sets.split("|") if isinstance(sets, str) else list(sets)
    if isinstance(sets, str) and not sets.strip():
        texts = []
    parsed = [_parse_words(text) for text in texts]
    tiles = iter(parse_tiles([word for words in parsed for word, _ in words]))
    result: list[TableSet] = []
    for words in parsed:
        set_tiles = [next(tiles) for _ in words]
        stated = [meaning for tile, (_, meaning) in zip(set_tiles, words, strict=True)]
        for tile, (word, meaning) in zip(set_tiles, words, strict=True):
            if meaning is not None and not tile.is_joker:
                raise IllegalAction("bad_tile", tile=word)
        jokers = [m for tile, m in zip(set_tiles, stated, strict=True) if tile.is_joker]
        if check or None in jokers:
            result.append(read_set(set_tiles, rules, jokers))
        else:
            result.append(TableSet(tuple(set_tiles), tuple(m for m in jokers if m is not None)))
    return result


def format_table(table: Iterable[TableSet]) -> str:
    """The notation of a table: its sets separated by ``|``."""
    return " | ".join(s.code for s in table)


def read_set(
    tiles: Sequence[Tile], rules: Rules, jokers: Sequence[JokerMeaning | None] | None = None
) -> TableSet:
    """Check that ``tiles`` in this order make a valid set and return it as a `TableSet`.

    ``jokers`` optionally states, for each joker in order, what it stands for (``None`` for
    "whatever the set implies"); without it a set that reads both ways (``* r5 *``) is taken as
    a run. Raises `IllegalAction` with a specific code: ``set_too_small``, ``set_of_jokers``,
    ``duplicate_colour_in_group``, ``group_too_large``, ``duplicate_number_in_run``,
    ``run_not_consecutive``, ``run_out_of_range``, ``tile_out_of_range``,
    ``joker_meaning_mismatch`` or ``invalid_set``.

    >>> read_set(parse_tiles("r5 b5 r5"), Rules())
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: duplicate_colour_in_group: tiles='r5 b5 r5#1', colour='r'
    """
    tiles = tuple(tiles)
    joker_count = sum(1 for t in tiles if t.is_joker)
    stated: list[JokerMeaning | None] = list(jokers) if jokers is not None else []
    if jokers is not None and len(stated) != joker_count:
        raise IllegalAction("invalid_set", tiles=format_tiles(tiles), reason="joker_meanings")
    stated += [None] * (joker_count - len(stated))
    text = format_tiles(tiles)
    for tile in tiles:
        if not rules.has_tile(tile):
            raise IllegalAction("tile_out_of_range", tile=tile.code)
    if len(set(tiles)) != len(tiles):
        raise IllegalAction("duplicate_tile", tiles=text)
    if len(tiles) < 3:
        raise IllegalAction("set_too_small", tiles=text, size=len(tiles))
    naturals = [t for t in tiles if not t.is_joker]
    if not naturals:
        raise IllegalAction("set_of_jokers", tiles=text)
    pieces = [t.piece for t in tiles]
    kind = _stated_kind(tiles, stated)
    reading = melds.read_meld(pieces, rules.meld_rules, kind)
    if reading is None:
        raise _set_error(tiles, rules, kind)
    meanings: list[JokerMeaning] = []
    for tile, number, colour in zip(tiles, reading.numbers, reading.colours, strict=True):
        if tile.is_joker:
            meanings.append(JokerMeaning(number, None if colour is None else Colour(colour)))
    for tile, want, got in zip([t for t in tiles if t.is_joker], stated, meanings, strict=True):
        if want is None:
            continue
        if reading.kind == "run" and want != got:
            raise IllegalAction(
                "joker_meaning_mismatch", joker=tile.code, stated=want.code, reads=got.code
            )
        if reading.kind == "group" and (
            want.number != got.number
            or want.colour in {t.colour for t in naturals}
            or (got.colour is not None and want.colour not in (None, got.colour))
        ):
            raise IllegalAction(
                "joker_meaning_mismatch", joker=tile.code, stated=want.code, reads=got.code
            )
    if reading.kind == "group":
        fixed = [m.colour for m in stated if m is not None and m.colour is not None]
        if len(fixed) != len(set(fixed)):
            raise IllegalAction("duplicate_colour_in_group", tiles=text, colour=fixed[0].letter)
    return TableSet(tiles, tuple(meanings))


def _stated_kind(tiles: Sequence[Tile], stated: Sequence[JokerMeaning | None]) -> SetKind | None:
    """The kind the stated joker meanings imply, or ``None`` when they leave it open."""
    known: list[tuple[int, Colour | None]] = [
        (t.number, t.colour) for t in tiles if t.number is not None
    ]
    known += [(m.number, m.colour) for m in stated if m is not None]
    if len(known) < 2 or not any(m is not None for m in stated):
        return None
    if len({n for n, _ in known}) == 1:
        return "group"
    return "run"


def _set_error(tiles: Sequence[Tile], rules: Rules, kind: SetKind | None) -> IllegalAction:
    """The most specific reason why ``tiles`` are no set."""
    text = format_tiles(tiles)
    naturals = [t for t in tiles if t.number is not None and t.colour is not None]
    numbers = {t.number for t in naturals}
    colours = Counter(t.colour for t in naturals)
    if kind != "run" and len(numbers) == 1:
        repeated = [c for c, n in colours.items() if n > 1]
        if repeated and repeated[0] is not None:
            return IllegalAction("duplicate_colour_in_group", tiles=text, colour=repeated[0].letter)
        if len(tiles) > 4:
            return IllegalAction("group_too_large", tiles=text, size=len(tiles))
    if kind != "group" and len(colours) == 1:
        seen = Counter(t.number for t in naturals)
        if any(n > 1 for n in seen.values()):
            return IllegalAction("duplicate_number_in_run", tiles=text)
        positions = [(i, t.number) for i, t in enumerate(tiles) if t.number is not None]
        first_index, first_number = positions[0]
        start = first_number - first_index
        if all(n == start + i for i, n in positions):
            return IllegalAction(
                "run_out_of_range", tiles=text, low=start, high=start + len(tiles) - 1
            )
        return IllegalAction("run_not_consecutive", tiles=text)
    return IllegalAction("invalid_set", tiles=text)


def set_value(table_set: TableSet) -> int:
    """The value of a set: the sum of its numbers, a joker counting the number it stands for."""
    return sum(number for number, _ in table_set.meanings())


def table_tiles(table: Iterable[TableSet]) -> list[Tile]:
    """Every tile on a table, set by set."""
    return [tile for table_set in table for tile in table_set.tiles]
