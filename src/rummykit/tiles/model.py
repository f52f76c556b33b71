"""The sets of tile rummy on the table, their notation and their reading (the tiles and the
options are in `rummykit.tiles.rules`).

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

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from rummykit import melds
from rummykit.core import IllegalAction
from rummykit.tiles.rules import (
    MAX_NUMBER,
    Colour,
    Rules,
    SetKind,
    Tile,
    format_tiles,
    parse_tiles,
)

__all__ = [
    "JokerMeaning",
    "TableSet",
    "format_table",
    "parse_table",
    "read_set",
    "set_value",
    "table_tiles",
]


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
