"""The one validator for groups and runs, shared by Rommé cards and tile-rummy tiles.

Both games meld the same way: a **group** is 3 or 4 pieces of one number in different colours,
a **run** is 3 or more consecutive numbers of one colour, a joker stands for any piece, and a meld
holds at least one natural piece. What differs is a handful of switches in `MeldRules`: whether
the ace (number 1) may also follow the highest number, and whether two jokers may stand next to
each other in a run. Each game maps its own pieces to ``(number, colour)`` pairs (``None`` for a
joker) and its own values onto the reading returned here.

A run is given in ascending order and each joker stands for the piece at its position:

>>> read_run([(5, 2), (6, 2), None], MeldRules())
Reading(kind='run', numbers=(5, 6, 7), colours=(2, 2, 2))
>>> read_run([(12, 1), (13, 1), (1, 1)], MeldRules(ace_high=True)).numbers
(12, 13, 14)
>>> read_run([(13, 1), (1, 1), (2, 1)], MeldRules(ace_high=True)) is None  # no wrapping
True
>>> read_group([(8, 0), (8, 2), None], MeldRules())
Reading(kind='group', numbers=(8, 8, 8), colours=(0, 2, None))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Piece = tuple[int, int] | None
"""A natural piece as ``(number, colour)``, or ``None`` for a joker."""

MeldKind = Literal["group", "run"]


@dataclass(frozen=True, slots=True)
class MeldRules:
    """The switches on which card and tile melds differ.

    ``numbers``: naturals are numbered 1..numbers. ``ace_high``: number 1 may also stand after
    ``numbers`` (read as ``numbers + 1``), never at both ends of one run.
    ``adjacent_jokers``: whether two jokers may stand side by side in a run.
    """

    numbers: int = 13
    colours: int = 4
    ace_high: bool = False
    adjacent_jokers: bool = True
    max_group: int = 4
    min_size: int = 3


@dataclass(frozen=True, slots=True)
class Reading:
    """What each piece of a valid meld stands for, position by position.

    In a run, ``numbers`` are consecutive (a high ace reads ``numbers + 1``). In a group, a
    joker's colour is ``None`` while more than one colour is missing (it is fixed only when the
    joker is exchanged).
    """

    kind: MeldKind
    numbers: tuple[int, ...]
    colours: tuple[int | None, ...]


def read_group(pieces: Sequence[Piece], rules: MeldRules) -> Reading | None:
    """The group reading of ``pieces``, or ``None`` when they are not a group."""
    if not rules.min_size <= len(pieces) <= min(rules.max_group, rules.colours):
        return None
    naturals = [p for p in pieces if p is not None]
    if not naturals:
        return None
    number = naturals[0][0]
    colours = {c for _, c in naturals}
    if any(n != number for n, _ in naturals) or len(colours) != len(naturals):
        return None
    if any(not 0 <= c < rules.colours for c in colours) or not 1 <= number <= rules.numbers:
        return None
    missing = [c for c in range(rules.colours) if c not in colours]
    joker_colour = missing[0] if len(missing) == 1 else None
    return Reading(
        "group",
        tuple(number for _ in pieces),
        tuple(joker_colour if p is None else p[1] for p in pieces),
    )


def read_run(pieces: Sequence[Piece], rules: MeldRules) -> Reading | None:
    """The run reading of ``pieces`` laid in ascending order, or ``None``."""
    size = len(pieces)
    if size < rules.min_size:
        return None
    naturals = [(i, p) for i, p in enumerate(pieces) if p is not None]
    if not naturals:
        return None
    colour = naturals[0][1][1]
    if any(p[1] != colour for _, p in naturals) or not 0 <= colour < rules.colours:
        return None
    if not rules.adjacent_jokers and any(
        pieces[i] is None and pieces[i + 1] is None for i in range(size - 1)
    ):
        return None
    top = rules.numbers + 1 if rules.ace_high else rules.numbers
    first_index, (first_number, _) = naturals[0]
    starts = [first_number - first_index]
    if rules.ace_high and first_number == 1:
        starts.append(rules.numbers + 1 - first_index)
    for start in starts:
        end = start + size - 1
        if start < 1 or end > top or (start == 1 and end == rules.numbers + 1):
            continue
        if all(_run_fits(p[0], start + i, rules) for i, p in naturals):
            return Reading("run", tuple(range(start, end + 1)), tuple(colour for _ in pieces))
    return None


def _run_fits(number: int, position_number: int, rules: MeldRules) -> bool:
    if number == position_number:
        return True
    return rules.ace_high and number == 1 and position_number == rules.numbers + 1


def readings(pieces: Sequence[Piece], rules: MeldRules) -> list[Reading]:
    """Every valid reading, the run first: ``JK 5♥ JK`` is both a run and a group.

    >>> [r.kind for r in readings([None, (5, 2), None], MeldRules(adjacent_jokers=False))]
    ['run', 'group']
    """
    found = [read_run(pieces, rules), read_group(pieces, rules)]
    return [r for r in found if r is not None]


def read_meld(
    pieces: Sequence[Piece], rules: MeldRules, kind: MeldKind | None = None
) -> Reading | None:
    """The reading of a meld: of the given ``kind``, or the run if it is one, else the group."""
    if kind == "group":
        return read_group(pieces, rules)
    if kind == "run":
        return read_run(pieces, rules)
    return read_run(pieces, rules) or read_group(pieces, rules)
