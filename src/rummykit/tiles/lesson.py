"""The first game of tile rummy as a lesson: a friendly deal and the four moves that teach it.

The learner (seat 0) plays first against one computer player. The four turns teach, in order:
the first meld from the rack (a run worth exactly 30), drawing a tile when nothing can be
played, adding tiles to a set on the table, and reworking the table: a sixth tile put in the
middle of a run of five splits it into two runs. Every tile the learner needs is on the rack or
comes from the pool at the right turn. The computer's tiles hold no set, so it can only draw
during the lesson; after the last step the game goes on as any other.

>>> from rummykit.lesson import run_script
>>> from rummykit.tiles.bots import fallback_action
>>> game = run_script(LESSON, fallback_action)
>>> [s.code for s in game.table]
['k9 k10 k11', 'k11#1 k12 k13']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from rummykit.lesson import Lesson, Step
from rummykit.tiles.actions import Action, Draw, Play
from rummykit.tiles.game import Start, State
from rummykit.tiles.model import TableSet, parse_table
from rummykit.tiles.rules import Rules, Tile

SEED = 16

RULES = Rules()


START = Start(
    racks=(
        Tile.parse_each("k9 k10 k11 k11#1 k13 r1 r3 r5 b2 b4 b6 y1 y3 y5"),
        Tile.parse_each("r2 r4 r6 r8 b1 b3 b5 b7 y2 y4 y6 y8 k1 k3"),
    ),
    # Drawn in this order: the computer's, then the learner's k12, then the computer's.
    pool=Tile.parse_each("k5 k12 r12 b12 y10"),
    to_move=0,
)


def _faces(table: Sequence[TableSet]) -> list[list[str]]:
    """A table as its sets' faces, whatever the order of the sets and of the copies."""
    return sorted(sorted(t.face for t in s.tiles) for s in table)


def same_table(move: Action, wanted: Play) -> bool:
    """Whether ``move`` leaves the table ``wanted`` leaves (sets in any order, either copy of
    a tile)."""
    return isinstance(move, Play) and _faces(move.table) == _faces(wanted.table)


def _replace(state: State, holding: str, sets: str) -> Play:
    """The table with the set holding ``holding`` replaced by ``sets`` (``a b c | d e f``)."""
    tile = Tile.parse(holding)
    kept = [s for s in state.table if tile not in s.tiles]
    return Play((*kept, *parse_table(sets)))


def _opening(state: State) -> Play:
    return Play((*state.table, *parse_table("k9 k10 k11")))


def _add(state: State) -> Play:
    return _replace(state, "k9", "k9 k10 k11 k12 k13")


def _split(state: State) -> Play:
    return _replace(state, "k9", "k9 k10 k11 | k11#1 k12 k13")


def _step(
    code: str, build: Callable[[State], Play], marked: tuple[str, ...]
) -> Step[State, Action]:
    return Step(code, build, lambda s: marked, lambda s, move: same_table(move, build(s)))


LESSON: Lesson[State, Action] = Lesson(
    game="tiles",
    seed=SEED,
    deal=partial(State.dealt, START, RULES, SEED),
    steps=(
        _step("open", _opening, ("k9", "k10", "k11")),
        Step("draw", lambda s: Draw(), lambda s: ("stock",)),
        _step("add", _add, ("k12", "k13")),
        _step("split", _split, ("k11#1",)),
    ),
)
"""The lesson: the learner at seat 0, one computer player at beginner level."""
