"""Checking a turn: the table a player leaves, against the table and rack the turn began with.

In tile rummy a player may rework the whole table, so a turn is judged by its result: every set
valid, every tile that was on the table still there, at least one tile from the rack, and the
joker rules kept. `check_turn` judges it and `describe_rework` tells what moved where.

Jokers on the table. A joker is identified with the tile it stands for: it stays in place as long
as it stands for the same tile in a set of the same kind, however the sets around it are split,
joined or extended (a joker in a group of fives keeps standing for "a five" while the group's
other colours change). It *moves* — leaves its set or changes what it stands for — only when a
natural tile it could stand for is played from the rack in the same turn (one rack tile per
joker) and the joker stays on the table. Because the whole table may be rearranged within a turn,
"into its place" cannot be told apart on the final table from "into its place, then moved on", so
the rack tile may end anywhere on the table. With ``joker_retrieval = "end_only"`` the joker must,
at the start of the turn, lie at an end of its run or in a group.

A worked example, the leaflet's: with ``y4 y5 y6 *(y7)`` on the table, a player puts ``y7`` in
the joker's place and uses the joker in a new blue run:

>>> from rummykit.tiles.model import parse_table
>>> from rummykit.tiles.rules import Rules, parse_tiles
>>> table = parse_table("y4 y5 y6 *(y7)")
>>> after = parse_table("y4 y5 y6 y7 | b1 b2 *(b3)")
>>> check = check_turn(Rules(), table, parse_tiles("y7 b1 b2 r9"), after, opened=True)
>>> [t.code for t in check.played], check.value, [j.code for j in check.moved_jokers]
(['y7', 'b1', 'b2'], 10, ['*'])
>>> [s["code"] for s in describe_rework(table, after, check.played)]
['joker_moved', 'laid', 'laid', 'moved', 'set_changed', 'new_set']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rummykit.core import JSON, IllegalAction
from rummykit.tiles.model import JokerMeaning, TableSet, read_set, set_value, table_tiles
from rummykit.tiles.rules import Colour, Rules, SetKind, Tile, format_tiles


@dataclass(frozen=True, slots=True)
class TurnCheck:
    """What an accepted turn does.

    ``table``: the new table, each set read and checked. ``played``: the rack tiles laid, in
    table order. ``value``: what they are worth as they lie (a joker counts the number it stands
    for). ``first_meld``: whether this turn is the player's first meld. ``moved_jokers``: table
    jokers that left their set or changed meaning, each freed by a rack tile.
    """

    table: tuple[TableSet, ...]
    played: tuple[Tile, ...]
    value: int
    first_meld: bool
    moved_jokers: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class _JokerPlace:
    """Where a joker stood at the start of the turn."""

    kind: SetKind
    meaning: JokerMeaning
    at_end: bool
    colours: frozenset[Colour]  # colours of the natural tiles that may free it


def _places(table: Iterable[TableSet]) -> dict[Tile, _JokerPlace]:
    places: dict[Tile, _JokerPlace] = {}
    for table_set in table:
        kind = table_set.kind
        size = len(table_set.tiles)
        present = {t.colour for t in table_set.tiles if t.colour is not None}
        for joker, (index, meaning) in table_set.joker_meanings().items():
            if meaning.colour is not None:
                colours = frozenset({meaning.colour})
            else:
                colours = frozenset(c for c in Colour if c not in present)
            at_end = kind == "group" or index in (0, size - 1)
            places[joker] = _JokerPlace(kind, meaning, at_end, colours)
    return places


def _stays(old: _JokerPlace, new: _JokerPlace) -> bool:
    """Whether a joker still stands for the same tile, in a set of the same kind."""
    if old.kind != new.kind or old.meaning.number != new.meaning.number:
        return False
    if old.kind == "run":
        return old.meaning.colour == new.meaning.colour
    return None in (old.meaning.colour, new.meaning.colour) or (
        old.meaning.colour == new.meaning.colour
    )


def _frees(tile: Tile, place: _JokerPlace) -> bool:
    return tile.number == place.meaning.number and tile.colour in place.colours


def _match(jokers: Sequence[_JokerPlace], tiles: Sequence[Tile]) -> bool:
    """Whether each joker can be given its own freeing tile (a tiny bipartite matching)."""
    if not jokers:
        return True
    first, rest = jokers[0], jokers[1:]
    for i, tile in enumerate(tiles):
        if _frees(tile, first) and _match(rest, [*tiles[:i], *tiles[i + 1 :]]):
            return True
    return False


def check_turn(
    rules: Rules,
    table: Sequence[TableSet],
    rack: Sequence[Tile],
    new_table: Sequence[TableSet],
    *,
    opened: bool,
) -> TurnCheck:
    """Judge the turn that leaves ``new_table`` and return what it does, or raise.

    ``table`` and ``rack`` are the table and the player's rack at the start of the turn;
    ``opened`` whether the player has already made the first meld. The checks run in this order
    and the first failure raises `IllegalAction`: ``duplicate_tile``, ``tile_not_held`` (a tile
    neither on the table nor on the rack), ``table_tile_missing``, ``joker_kept_in_rack`` (a
    table joker taken back to the rack, although a tile that frees it was played),
    ``no_rack_tile_played``, ``first_meld_uses_table``, the set codes of `read_set`,
    ``joker_retrieval_not_at_end``, ``joker_not_replaced``, ``first_meld_below_minimum``.
    """
    before = table_tiles(table)
    before_set = set(before)
    after = table_tiles(new_table)
    counts = Counter(after)
    repeated = sorted((t for t, n in counts.items() if n > 1), key=lambda t: t.sort_key)
    if repeated:
        raise IllegalAction("duplicate_tile", tiles=format_tiles(repeated))
    held = set(rack)
    played = [t for t in after if t not in before_set]
    for tile in played:
        if tile not in held:
            raise IllegalAction("tile_not_held", tile=tile.code)
    after_set = set(after)
    missing = [t for t in before if t not in after_set]
    places = _places(table)
    played_naturals = [t for t in played if not t.is_joker]
    for tile in missing:
        if tile.is_joker and any(_frees(t, places[tile]) for t in played_naturals):
            raise IllegalAction("joker_kept_in_rack", joker=tile.code)
    if missing:
        raise IllegalAction("table_tile_missing", tiles=format_tiles(missing))
    if not played:
        raise IllegalAction("no_rack_tile_played")
    old_sets: dict[tuple[object, ...], list[TableSet]] = {}
    for table_set in table:
        old_sets.setdefault(table_set.canonical(), []).append(table_set)
    new_indices: list[int] = []
    kept: dict[int, TableSet] = {}  # sets left as they were: already checked
    for index, table_set in enumerate(new_table):
        same = old_sets.get(table_set.canonical())
        if same:
            kept[index] = same.pop()
        else:
            new_indices.append(index)
    uses_table = any(t in before_set for i in new_indices for t in new_table[i].tiles)
    if not opened and (uses_table or any(old_sets.values())):
        raise IllegalAction("first_meld_uses_table")
    checked = tuple(
        kept[i] if i in kept else read_set(s.tiles, rules, s.jokers or None)
        for i, s in enumerate(new_table)
    )
    moved: list[Tile] = []
    new_places = _places(checked)
    for joker, place in places.items():
        if not _stays(place, new_places[joker]):
            if rules.joker_retrieval == "end_only" and not place.at_end:
                raise IllegalAction(
                    "joker_retrieval_not_at_end", joker=joker.code, stands=place.meaning.code
                )
            moved.append(joker)
    if not _match([places[j] for j in moved], played_naturals):
        lone = [j for j in moved if not any(_frees(t, places[j]) for t in played_naturals)]
        joker = (lone or moved)[0]
        raise IllegalAction(
            "joker_not_replaced", joker=joker.code, stands=places[joker].meaning.code
        )
    played_set = set(played)
    value = sum(
        number
        for s in checked
        for tile, (number, _) in zip(s.tiles, s.meanings(), strict=True)
        if tile in played_set
    )
    if not opened:
        value = sum(set_value(checked[i]) for i in new_indices)
        if value < rules.opening_min:
            raise IllegalAction("first_meld_below_minimum", value=value, minimum=rules.opening_min)
    return TurnCheck(checked, tuple(played), value, not opened, tuple(moved))


def describe_rework(
    before: Sequence[TableSet], after: Sequence[TableSet], played: Iterable[Tile]
) -> list[dict[str, JSON]]:
    """The turn as readable steps, each ``{"code": ..., **params}`` with tiles in notation.

    Each set of the new table continues at most one set of the old table (the one it shares most
    tiles with). Steps, in this order: ``joker_moved`` (a table joker now stands for another
    tile, freed by ``by``), ``laid`` (rack tiles put into a set), ``moved`` (table tiles taken
    from one set into another), then per set ``new_set``, ``set_changed`` (``before`` and
    ``after``) and ``set_gone`` (an old set taken apart entirely). Unchanged sets are not
    mentioned.
    """
    played_set = set(played)
    home: dict[Tile, int] = {t: i for i, s in enumerate(before) for t in s.tiles}
    overlap: Counter[tuple[int, int]] = Counter()
    for j, table_set in enumerate(after):
        for tile in table_set.tiles:
            if tile in home:
                overlap[(home[tile], j)] += 1
    continues: dict[int, int] = {}  # new set -> old set it continues
    taken: set[int] = set()
    for (i, j), _ in sorted(overlap.items(), key=lambda item: (-item[1], item[0])):
        if i not in taken and j not in continues:
            continues[j] = i
            taken.add(i)
    steps: list[dict[str, JSON]] = []
    old_places, new_places = _places(before), _places(after)
    freeing = [t for t in played_set if not t.is_joker]
    for joker, place in old_places.items():
        new = new_places.get(joker)
        if new is not None and not _stays(place, new):
            by = next(
                (t for t in sorted(freeing, key=lambda t: t.sort_key) if _frees(t, place)), None
            )
            if by is not None:
                freeing.remove(by)
            steps.append(
                {
                    "code": "joker_moved",
                    "joker": joker.code,
                    "stood_for": place.meaning.code,
                    "stands_for": new.meaning.code,
                    "by": None if by is None else by.code,
                }
            )
    moves: list[dict[str, JSON]] = []
    for j, table_set in enumerate(after):
        laid = [t for t in table_set.tiles if t in played_set]
        if laid:
            moves.append({"code": "laid", "tiles": format_tiles(laid), "to": table_set.code})
        sources: dict[int, list[Tile]] = {}
        for tile in table_set.tiles:
            if tile in home and continues.get(j) != home[tile]:
                sources.setdefault(home[tile], []).append(tile)
        for i, tiles in sorted(sources.items()):
            moves.append(
                {
                    "code": "moved",
                    "tiles": format_tiles(tiles),
                    "from": before[i].code,
                    "to": table_set.code,
                }
            )
    steps += moves
    for j, table_set in enumerate(after):
        if j not in continues:
            steps.append({"code": "new_set", "set": table_set.code})
            continue
        old = before[continues[j]]
        if old.canonical() != table_set.canonical():
            steps.append({"code": "set_changed", "before": old.code, "after": table_set.code})
    for i, table_set in enumerate(before):
        if i not in taken:
            steps.append({"code": "set_gone", "set": table_set.code})
    return steps
