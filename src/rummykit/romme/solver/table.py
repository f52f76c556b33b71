"""What a hand can do to the melds on the table: lay cards off and exchange jokers.

For each table meld this lists every final form the hand could turn it into in one turn: a
run extended at either end (hand cards or jokers) with some of its jokers exchanged for the
cards they stand for; a group completed with missing suits or jokers, or with jokers exchanged.
Each final form is checked by the shared validator. The search then picks at most one final
form per meld (`TableOption`), so lay-offs and exchanges on one meld are chosen together.

A group's jokers are interchangeable, so a group is described by the suits it ends with and its
number of jokers: exchanging one joker and laying another back on the same group changes
nothing in the hand, and is never needed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

from rummykit.cards import Card
from rummykit.melds import read_meld
from rummykit.romme.rules import CARD_MELDS, Rules, TableMeld, card_value, piece, reading_value
from rummykit.romme.solver.candidates import face_bit, face_card, face_piece
from rummykit.romme.solver.search import TableOption

TABLE = 0
FACE = 1
HAND_JOKER = 2
Slot = tuple[int, int]
"""A place in a final meld: ``(TABLE, index in the table meld)``, ``(FACE, face)`` for a hand
card, ``(HAND_JOKER, 0)`` for a joker from the hand."""


def _has(counts: int, face: int) -> bool:
    return bool((counts >> (2 * face)) & 3)


def _face(number: int, colour: int) -> int:
    return colour * 13 + (0 if number == 14 else number - 1)


def table_options(
    melds: Sequence[TableMeld], counts: int, jokers: int, rules: Rules, other_jokers: int = 0
) -> list[TableOption]:
    """Every feasible change of every table meld for a hand of ``counts`` and ``jokers``.

    ``TableOption.meld`` is the index in ``melds``. The joker count allowed for lay-offs
    includes the jokers exchanges could free, and ``other_jokers`` more (jokers that melds not
    listed here could free, when the table is asked about meld by meld). The options of one
    meld depend only on the hand's cards of its suit (a run) or rank (a group): they are cached
    on those, so the same table asked again about similar hands costs little.
    """
    frees = sum(sum(1 for c in m.cards if c.is_joker) for m in melds) + other_jokers
    budget = jokers + frees
    options: list[TableOption] = []
    for index, meld in enumerate(melds):
        options += _meld_options(
            index, meld, counts & _mask(meld), budget, rules.ace_low_value, rules.joker_penalty
        )
    return options


@functools.lru_cache(maxsize=512)
def _mask(meld: TableMeld) -> int:
    """The count bits of the faces that can change what a hand can do with ``meld``."""
    reading = meld.reading()
    if meld.kind == "run":
        colour = reading.colours[0]
        assert colour is not None
        faces = [colour * 13 + r for r in range(13)]
    else:
        faces = [s * 13 + reading.numbers[0] - 1 for s in range(4)]
    return sum(3 << (2 * f) for f in faces)


@functools.lru_cache(maxsize=32768)
def _meld_options(
    index: int, meld: TableMeld, counts: int, budget: int, ace_low_value: int, joker_penalty: int
) -> tuple[TableOption, ...]:
    rules = Rules(ace_low_value=ace_low_value, joker_penalty=joker_penalty)
    base = meld.value(rules)
    best: dict[tuple[int, int, int], TableOption] = {}
    for layout in _final_layouts(meld, counts, budget):
        pieces = [
            piece(meld.cards[i]) if kind == TABLE else None if kind == HAND_JOKER else face_piece(i)
            for kind, i in layout
        ]
        reading = read_meld(pieces, CARD_MELDS, meld.kind)
        if reading is None:
            continue
        faces = [i for kind, i in layout if kind == FACE]
        jokers_in = sum(1 for kind, _ in layout if kind == HAND_JOKER)
        kept = {i for kind, i in layout if kind == TABLE}
        jokers_out = sum(1 for i, c in enumerate(meld.cards) if c.is_joker and i not in kept)
        if jokers_in > budget:
            continue
        penalty = sum(card_value(face_card(f), rules) for f in faces)
        penalty += (jokers_in - jokers_out) * joker_penalty
        option = TableOption(
            meld=index,
            bits=sum(face_bit(f) for f in faces),
            jokers_in=jokers_in,
            jokers_out=jokers_out,
            value=reading_value(reading, rules) - base,
            penalty=penalty,
            cards=len(faces) + jokers_in - jokers_out,
            low_face=min(faces) if faces else -1,
            layout=tuple(layout),
        )
        key = (option.bits, option.jokers_in, option.jokers_out)
        known = best.get(key)
        if known is None or option.value > known.value:
            best[key] = option
    return tuple(best.values())


def _final_layouts(meld: TableMeld, counts: int, budget: int) -> Iterator[list[Slot]]:
    if meld.kind == "run":
        yield from _run_layouts(meld, counts, budget)
    else:
        yield from _group_layouts(meld, counts, budget)


def _run_layouts(meld: TableMeld, counts: int, budget: int) -> Iterator[list[Slot]]:
    reading = meld.reading()
    colour = reading.colours[0]
    assert colour is not None
    numbers = reading.numbers
    top = CARD_MELDS.numbers + 1
    # Each joker of the run either stays or is exchanged for the one card it stands for.
    cores: list[list[Slot]] = [[]]
    for i, card in enumerate(meld.cards):
        face = _face(numbers[i], colour)
        if card.is_joker and _has(counts, face):
            cores = [[*c, s] for c in cores for s in ((TABLE, i), (FACE, face))]
        else:
            cores = [[*c, (TABLE, i)] for c in cores]
    lows = list(_extensions(range(numbers[0] - 1, 0, -1), colour, counts, budget))
    highs = list(_extensions(range(numbers[-1] + 1, top + 1), colour, counts, budget))
    for core in cores:
        for low in lows:
            for high in highs:
                if not low and not high and all(kind == TABLE for kind, _ in core):
                    continue
                if sum(1 for k, _ in low + high if k == HAND_JOKER) > budget:
                    continue
                yield [*reversed(low), *core, *high]


def _extensions(numbers: range, colour: int, counts: int, budget: int) -> Iterator[list[Slot]]:
    """Sequences of cards continuing a run outwards over ``numbers`` (nearest first)."""
    yield []
    stack: list[list[Slot]] = [[]]
    while stack:
        seq = stack.pop()
        if len(seq) == len(numbers):
            continue
        number = numbers[len(seq)]
        face = _face(number, colour)
        if _has(counts, face):
            nxt = [*seq, (FACE, face)]
            yield nxt
            stack.append(nxt)
        used = sum(1 for k, _ in seq if k == HAND_JOKER)
        if used < budget and not (seq and seq[-1][0] == HAND_JOKER):
            nxt = [*seq, (HAND_JOKER, 0)]
            yield nxt
            stack.append(nxt)


def _group_layouts(meld: TableMeld, counts: int, budget: int) -> Iterator[list[Slot]]:
    reading = meld.reading()
    number = reading.numbers[0]
    natural_slots = [(TABLE, i) for i, c in enumerate(meld.cards) if not c.is_joker]
    joker_slots = [(TABLE, i) for i, c in enumerate(meld.cards) if c.is_joker]
    suits = {c.suit for c in meld.cards if c.suit is not None}
    addable = [
        _face(number, s) for s in range(4) if s not in suits and _has(counts, _face(number, s))
    ]
    size = len(meld.cards)
    jokers = len(joker_slots)
    for mask in range(1 << len(addable)):
        added = [(FACE, f) for k, f in enumerate(addable) if mask >> k & 1]
        naturals = len(natural_slots) + len(added)
        for final_jokers in range(0, CARD_MELDS.max_group - naturals + 1):
            if naturals + final_jokers < size or (not added and final_jokers == jokers):
                continue
            kept = joker_slots[:final_jokers]
            extra = [(HAND_JOKER, 0)] * max(0, final_jokers - jokers)
            if len(extra) > budget:
                continue
            yield [*natural_slots, *kept, *added, *extra]


def option_cards(
    option: TableOption,
    meld: TableMeld,
    naturals: dict[int, list[Card]],
    jokers: list[Card],
) -> list[Card]:
    """The physical cards of an option's final meld, hand cards popped from the pools."""
    out = []
    for kind, i in option.layout:
        if kind == TABLE:
            out.append(meld.cards[i])
        elif kind == FACE:
            out.append(naturals[i].pop())
        else:
            out.append(jokers.pop())
    return out
