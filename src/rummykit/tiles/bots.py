"""Computer players for tile rummy. A bot sees a `View` only and returns an action.

``random`` is the baseline: it lists simple plays a beginner sees — a new set from the rack (or,
before the first meld, a few sets worth enough), a tile laid at the end of a set, an end tile
taken from a long set and used with rack tiles, a run split around a rack tile, a joker freed by
the tile it stands for and used again — and picks one of them or the draw at random, each
equally likely among those that are legal. Every play it makes is checked with the engine's own
turn check first, so it never makes an illegal move.

>>> from rummykit.tiles.game import State
>>> state, bots = State(players=2, seed=3), [make_bot("random", 1), make_bot("random", 2)]
>>> while not state.is_over:
...     seat = state.to_move if state.to_move is not None else 0
...     state.apply(bots[seat].choose(state.view(seat)))
>>> state.view(None).log[-1]["code"]
'game_end'
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from rummykit.core import Computers, IllegalAction
from rummykit.tiles.actions import Action, Draw, Play
from rummykit.tiles.bot_hard import GreedyBot, HardBot, TurnBot
from rummykit.tiles.game import State
from rummykit.tiles.model import TableSet, read_set, set_value
from rummykit.tiles.rules import Colour, Rules, Tile
from rummykit.tiles.view import View


class Bot(Protocol):
    """A computer player: given what its seat sees, the action it takes."""

    def choose(self, view: View) -> Action: ...


def candidate_sets(
    tiles: Sequence[Tile], rules: Rules, max_jokers: int = 2, must: Tile | None = None
) -> list[TableSet]:
    """Sets that can be made from ``tiles``: runs of 3 to 6 and groups of 3 or 4, with at most
    ``max_jokers`` jokers each (one copy of each face is used); only those holding ``must``
    when it is given.

    >>> from rummykit.tiles.rules import parse_tiles
    >>> [s.code for s in candidate_sets(parse_tiles("r1 r2 r3 b3 k3"), Rules())]
    ['r1 r2 r3', 'r3 b3 k3']
    """
    jokers = [t for t in tiles if t.is_joker and t != must]
    by_face: dict[tuple[int, Colour], Tile] = {}
    if must is not None and must.number is not None and must.colour is not None:
        by_face[(must.number, must.colour)] = must
    for tile in tiles:
        if tile.number is not None and tile.colour is not None:
            by_face.setdefault((tile.number, tile.colour), tile)
    usable = min(len(jokers), max_jokers)
    found: list[TableSet] = []
    if must is not None and must.is_joker:
        jokers, usable = [must, *jokers], min(len(jokers) + 1, max_jokers)
    colours = list(Colour) if must is None or must.colour is None else [must.colour]
    for colour in colours:
        for start in range(1, rules.numbers - 1):
            for length in range(3, min(6, rules.numbers - start + 1) + 1):
                numbers = range(start, start + length)
                if must is not None and must.number is not None and must.number not in numbers:
                    continue
                naturals = [by_face.get((n, colour)) for n in numbers]
                gaps = naturals.count(None)
                if gaps > usable or gaps == length:
                    continue
                spare = iter(jokers)
                laid = [t if t is not None else next(spare) for t in naturals]
                if must is None or must in laid:
                    found.append(read_set(laid, rules))
    numbers_wanted = (
        range(1, rules.numbers + 1) if must is None or must.number is None else [must.number]
    )
    for number in numbers_wanted:
        present = [by_face[(number, c)] for c in Colour if (number, c) in by_face]
        for size in (3, 4):
            for used in range(max(0, size - len(present)), min(usable, size - 1) + 1):
                for combo in itertools.combinations(present, size - used):
                    laid = [*combo, *jokers[:used]]
                    if must is None or must in laid:
                        found.append(read_set(laid, rules))
    return found


def _fits_end(table_set: TableSet, tile: Tile) -> list[list[Tile]]:
    """The ways to lay ``tile`` at an end of ``table_set`` that may make a valid set."""
    tiles = list(table_set.tiles)
    if tile.is_joker:
        return [[tile, *tiles], [*tiles, tile]]
    meanings = table_set.meanings()
    if table_set.kind == "group":
        colours = {c for _, c in meanings}
        if tile.number == meanings[0][0] and tile.colour not in colours and len(tiles) < 4:
            return [[*tiles, tile]]
        return []
    if tile.colour != meanings[0][1]:
        return []
    if tile.number == meanings[0][0] - 1:
        return [[tile, *tiles]]
    if tile.number == meanings[-1][0] + 1:
        return [[*tiles, tile]]
    return []


def _with(table: Sequence[TableSet], index: int, new: Sequence[TableSet]) -> list[TableSet]:
    return [*table[:index], *new, *table[index + 1 :]]


def _try(tiles: Sequence[Tile], rules: Rules) -> TableSet | None:
    try:
        return read_set(tiles, rules)
    except IllegalAction:
        return None


def _opening_tables(view: View, rng: random.Random, tries: int = 12) -> Iterator[list[TableSet]]:
    sets = candidate_sets(view.rack, view.rules)
    for _ in range(tries if sets else 0):
        rng.shuffle(sets)
        chosen: list[TableSet] = []
        used: set[Tile] = set()
        for s in sets:
            if not used.intersection(s.tiles):
                chosen.append(s)
                used.update(s.tiles)
                if sum(set_value(c) for c in chosen) >= view.rules.opening_min:
                    yield [*view.table, *chosen]
                    break


def _rework_tables(view: View) -> Iterator[list[TableSet]]:
    """Simple plays after the first meld, each a whole new table (not yet checked)."""
    rules, table, rack = view.rules, list(view.table), list(view.rack)
    for s in candidate_sets(rack, rules):
        yield [*table, s]
    for i, s in enumerate(table):
        tiles = list(s.tiles)
        # lay one rack tile at either end of a run, or in a group
        for tile in rack:
            for laid in _fits_end(s, tile):
                new = _try(laid, rules)
                if new is not None:
                    yield _with(table, i, [new])
        # take an end tile of a set of four or more and use it with rack tiles
        if len(tiles) >= 4:
            ends = tiles if s.kind == "group" else [tiles[0], tiles[-1]]
            for end in ends:
                if end.is_joker:
                    continue
                rest = _try([t for t in tiles if t != end], rules)
                if rest is None:
                    continue
                for made in candidate_sets(rack, rules, must=end):
                    yield [*_with(table, i, [rest]), made]
        # split a run around a rack tile of its colour
        if s.kind == "run" and len(tiles) >= 5:
            meanings = s.meanings()
            numbers = [n for n, _ in meanings]
            for tile in rack:
                if tile.colour != meanings[0][1] or tile.number not in numbers[2:-2]:
                    continue
                cut = numbers.index(tile.number)
                low, high = _try(tiles[: cut + 1], rules), _try([tile, *tiles[cut + 1 :]], rules)
                if low is not None and high is not None:
                    yield _with(table, i, [low, high])
        # free a joker with the tile it stands for and use it again
        for joker, (_, meaning) in s.joker_meanings().items():
            for tile in rack:
                if tile.number != meaning.number or tile.colour is None:
                    continue
                if meaning.colour is not None and tile.colour != meaning.colour:
                    continue
                swapped = _try([tile if t == joker else t for t in tiles], rules)
                if swapped is None:
                    continue
                others = [t for t in rack if t != tile]
                for made in candidate_sets(others, rules, must=joker):
                    yield [*_with(table, i, [swapped]), made]
                for j, other in enumerate(table):
                    if j != i:
                        for laid in _fits_end(other, joker):
                            new = _try(laid, rules)
                            if new is not None:
                                yield _with(_with(table, i, [swapped]), j, [new])


class RandomBot(TurnBot):
    """Plays one of the simple legal plays it finds, or draws, each equally likely."""

    level = "random"

    def turn(self, view: View, seat: int) -> Action:
        opened = view.opened[seat]
        tables = list(_rework_tables(view)) if opened else list(_opening_tables(view, self.rng))
        options: list[list[TableSet] | None] = [*tables, None]
        self.rng.shuffle(options)
        for option in options:
            if option is None:
                return Draw()
            try:
                view.check(option)
            except IllegalAction:
                continue
            return Play(tuple(option))
        return Draw()  # pragma: no cover - the draw is always among the options


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "hard": HardBot}
"""The bot levels by name; stronger levels register here."""


def make_bot(level: str, seed: int) -> Bot:
    """A bot of the given level (``"random"``…), with its own generator seeded by ``seed``."""
    if level not in BOTS:
        raise IllegalAction("bad_bot", level=level, expected=sorted(BOTS))
    return BOTS[level](seed)


def fallback_action(state: State, seat: int) -> Action:
    """The safe move at once (a computer seat out of time, a turn timer): draw a tile (a pass
    when the pool is empty), or deal the next round between rounds."""
    actions = state.legal_actions()
    if not actions:
        raise IllegalAction("game_over")
    return actions[0]


COMPUTERS = Computers(tuple(BOTS), default="greedy", make=make_bot, fallback=fallback_action)
"""The computer players as the game's descriptor takes them."""
