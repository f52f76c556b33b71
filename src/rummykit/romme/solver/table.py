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
from rummykit.melds import MeldKind, Piece, Reading, read_meld
from rummykit.romme.rules import CARD_MELDS, Rules, TableMeld, card_value, piece, reading_value
from rummykit.romme.solver.candidates import face_bit, face_card, face_piece, present_mask
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
    present = present_mask(counts)
    options: list[TableOption] = []
    for index, meld in enumerate(melds):
        options += _meld_options(
            index,
            meld,
            _relevant(meld, present, budget),
            budget,
            rules.ace_low_value,
            rules.joker_penalty,
        )
    return options


def takes_face(
    melds: Sequence[TableMeld], counts: int, jokers: int, rules: Rules, face: int
) -> bool:
    """Whether some option of `table_options` (the same arguments) takes a card of ``face``
    from the hand; only the melds that card could change are asked."""
    frees = sum(sum(1 for c in m.cards if c.is_joker) for m in melds)
    budget = jokers + frees
    present = present_mask(counts)
    bit = face_bit(face)
    for index, meld in enumerate(melds):
        relevant = _relevant(meld, present, budget)
        if not relevant & bit:
            continue
        options = _meld_options(
            index, meld, relevant, budget, rules.ace_low_value, rules.joker_penalty
        )
        if any(o.bits & bit for o in options):
            return True
    return False


def exchangeable(melds: Sequence[TableMeld], counts: int) -> int:
    """At most how many jokers the hand ``counts`` could free from these melds by exchanges:
    a run's joker for the card it stands for, a group's for a suit it lacks."""
    present = present_mask(counts)
    total = 0
    for meld in melds:
        fixed, colour, _low, _high = _shape(meld)
        held = (present & fixed).bit_count()
        total += held if colour >= 0 else min(held, sum(c.is_joker for c in meld.cards))
    return total


def _relevant(meld: TableMeld, present: int, budget: int) -> int:
    """The faces of ``present`` (one bit a face) that can change what a hand can do with
    ``meld``: the missing suits of a group; for a run, the faces of its jokers and, at each
    end, the faces a continuation can reach (a face missing from the hand takes a joker, never
    two in a row). The options depend on nothing else, so they are cached on these."""
    fixed, colour, low, high = _shape(meld)
    if colour < 0:
        return present & fixed
    mask = fixed
    for numbers in (range(low - 1, 0, -1), range(high + 1, CARD_MELDS.numbers + 2)):
        gaps = 0
        after_gap = False
        for number in numbers:
            bit = 1 << (2 * _face(number, colour))
            mask |= bit
            if present & bit:
                after_gap = False
            elif after_gap or gaps == budget:
                break  # no continuation reaches further
            else:
                gaps += 1
                after_gap = True
    return present & mask


@functools.lru_cache(maxsize=512)
def _shape(meld: TableMeld) -> tuple[int, int, int, int]:
    """What `_relevant` needs of a meld: the low bits of the faces that always count (a run's
    jokers, a group's missing suits), and a run's colour (-1 for a group) and end numbers."""
    reading = _reading(meld)
    if meld.kind == "run":
        colour = reading.colours[0]
        assert colour is not None
        numbers = reading.numbers
        jokers = [_face(n, colour) for n, c in zip(numbers, meld.cards, strict=True) if c.is_joker]
        return sum(1 << (2 * f) for f in jokers), colour, numbers[0], numbers[-1]
    suits = {c.suit for c in meld.cards if c.suit is not None}
    missing = [s * 13 + reading.numbers[0] - 1 for s in range(4) if s not in suits]
    return sum(1 << (2 * f) for f in missing), -1, 0, 0


@functools.lru_cache(maxsize=32768)
def _meld_options(
    index: int, meld: TableMeld, counts: int, budget: int, ace_low_value: int, joker_penalty: int
) -> tuple[TableOption, ...]:
    rules = _rules(ace_low_value, joker_penalty)
    base = reading_value(_reading(meld), rules)
    own = [piece(c) for c in meld.cards]
    table_jokers = [i for i, c in enumerate(meld.cards) if c.is_joker]
    best: dict[tuple[int, int, int], TableOption] = {}
    for layout in _final_layouts(meld, counts, budget):
        pieces = tuple(
            own[i] if kind == TABLE else None if kind == HAND_JOKER else face_piece(i)
            for kind, i in layout
        )
        value = _final_value(pieces, meld.kind, ace_low_value)
        if value is None:
            continue
        faces = [i for kind, i in layout if kind == FACE]
        jokers_in = sum(1 for kind, _ in layout if kind == HAND_JOKER)
        kept = {i for kind, i in layout if kind == TABLE}
        jokers_out = sum(1 for i in table_jokers if i not in kept)
        if jokers_in > budget:
            continue
        penalty = sum(FACE_VALUES[f] for f in faces)
        penalty += (jokers_in - jokers_out) * joker_penalty
        option = TableOption(
            meld=index,
            bits=sum(face_bit(f) for f in faces),
            jokers_in=jokers_in,
            jokers_out=jokers_out,
            value=value - base,
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


@functools.lru_cache(maxsize=512)
def _reading(meld: TableMeld) -> Reading:
    """A table meld's reading, read once (`TableMeld.reading`)."""
    return meld.reading()


FACE_VALUES = tuple(card_value(face_card(f)) for f in range(52))
"""What a natural card of each face costs left in hand (the same under every rule set)."""


@functools.lru_cache(maxsize=16)
def _rules(ace_low_value: int, joker_penalty: int) -> Rules:
    return Rules(ace_low_value=ace_low_value, joker_penalty=joker_penalty)


@functools.lru_cache(maxsize=65536)
def _final_value(pieces: tuple[Piece, ...], kind: MeldKind, ace_low_value: int) -> int | None:
    """The value of a table meld's final form, or ``None`` when it is no meld (the validator's
    answer, kept: the same final forms come back for many hands)."""
    reading = read_meld(pieces, CARD_MELDS, kind)
    if reading is None:
        return None
    return reading_value(reading, _rules(ace_low_value, 20))


def _final_layouts(meld: TableMeld, counts: int, budget: int) -> Iterator[list[Slot]]:
    if meld.kind == "run":
        yield from _run_layouts(meld, counts, budget)
    else:
        yield from _group_layouts(meld, counts, budget)


def _run_layouts(meld: TableMeld, counts: int, budget: int) -> Iterator[list[Slot]]:
    reading = _reading(meld)
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
    reading = _reading(meld)
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
