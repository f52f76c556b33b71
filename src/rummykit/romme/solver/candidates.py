"""Every meld a hand could lay, precomputed once per rule set as patterns over card faces.

The solver works on faces, not physical cards: the two 8♠ of the pack are interchangeable in
an arrangement. A face is numbered ``suit * 13 + rank - 1`` (0..51), and a hand is one integer
with two bits per face holding how many copies it has (0, 1 or 2): removing a meld is then a
subtraction and "does the hand hold these faces" a mask test.

Runs are listed only up to five cards. Any longer run is, card for card, several consecutive
runs of three to five (six is three and three, seven is three and four, …) with the same value,
because a card's value depends only on the position it stands for; so the best arrangement is
found among short runs and then joined back (`join_runs`). Every pattern is checked by the
shared validator (`rummykit.melds` through `rummykit.romme.rules`) when the table is built, and
its value is the rules' own `reading_value`: there is no second copy of the meld rule here.
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from dataclasses import dataclass

from rummykit.cards import Card, Rank, Suit
from rummykit.melds import MeldKind, Piece, read_meld
from rummykit.romme.rules import CARD_MELDS, Rules, card_value, reading_value

FACES = 52
MAX_RUN_PIECE = 5
LOW_BITS = sum(1 << (2 * f) for f in range(FACES))
"""The low bit of every face's two-bit count."""

JOKER = -1
"""A joker's place in a pattern's layout."""


def face_of(card: Card) -> int:
    """The face number of a natural card (``suit * 13 + rank - 1``)."""
    assert card.rank is not None and card.suit is not None
    return int(card.suit) * 13 + int(card.rank) - 1


def face_card(face: int, copy: int = 0) -> Card:
    """The card of a face (copy 0 unless told)."""
    suit, rank = divmod(face, 13)
    return Card(Rank(rank + 1), Suit(suit), copy)


def face_piece(face: int) -> Piece:
    suit, rank = divmod(face, 13)
    return (rank + 1, suit)


def face_bit(face: int) -> int:
    return 1 << (2 * face)


def encode(cards: list[Card]) -> tuple[int, int]:
    """A hand as ``(face counts, jokers)``.

    >>> from rummykit.cards import parse_cards
    >>> encode(parse_cards("A♣ A♣ 2♣ JK"))
    (6, 1)
    """
    counts = 0
    jokers = 0
    for card in cards:
        if card.is_joker:
            jokers += 1
        else:
            counts += face_bit(face_of(card))
    return counts, jokers


def present_mask(counts: int) -> int:
    """The low bit of every face the hand holds at least once."""
    return (counts | (counts >> 1)) & LOW_BITS


def faces_of_bits(bits: int) -> list[int]:
    """The faces whose low bit is set, ascending."""
    out = []
    while bits:
        low = bits & -bits
        out.append((low.bit_length() - 1) >> 1)
        bits ^= low
    return out


@dataclass(frozen=True, slots=True)
class Pattern:
    """A meld over faces: ``layout`` in laying order (a face, or `JOKER`), its kind and value.

    ``bits`` has the low bit of each natural face (a meld never holds one face twice).
    """

    layout: tuple[int, ...]
    kind: MeldKind
    bits: int
    jokers: int
    value: int
    penalty: int
    low_face: int

    @property
    def size(self) -> int:
        return len(self.layout)

    def cards(self, naturals: dict[int, list[Card]], jokers: list[Card]) -> list[Card]:
        """Physical cards for the layout, taken (popped) from the given pools."""
        return [jokers.pop() if f == JOKER else naturals[f].pop() for f in self.layout]


@dataclass(frozen=True, slots=True, eq=False)
class MeldTable:
    """All patterns of new melds under one rule set, the best one per (faces, jokers, kind).

    ``by_low_face[f]`` lists the patterns whose lowest natural face is ``f``, fewest jokers
    first: the search takes the lowest face left in the hand and tries exactly these.
    """

    patterns: tuple[Pattern, ...]
    by_low_face: tuple[tuple[Pattern, ...], ...]
    face_penalty: tuple[int, ...]
    joker_penalty: int


def _pattern(layout: tuple[int, ...], kind: MeldKind, rules: Rules) -> Pattern | None:
    pieces = [None if f == JOKER else face_piece(f) for f in layout]
    reading = read_meld(pieces, CARD_MELDS, kind)
    if reading is None:
        return None
    naturals = [f for f in layout if f != JOKER]
    jokers = len(layout) - len(naturals)
    penalty = sum(card_value(face_card(f), rules) for f in naturals) + jokers * rules.joker_penalty
    return Pattern(
        layout=layout,
        kind=kind,
        bits=sum(face_bit(f) for f in naturals),
        jokers=jokers,
        value=reading_value(reading, rules),
        penalty=penalty,
        low_face=min(naturals),
    )


def _group_layouts() -> list[tuple[int, ...]]:
    layouts = []
    for rank in range(13):
        for suits in range(1, 16):
            faces = tuple(s * 13 + rank for s in range(4) if suits >> s & 1)
            for size in (3, 4):
                if len(faces) <= size:
                    layouts.append(faces + (JOKER,) * (size - len(faces)))
    return layouts


def _run_layouts() -> list[tuple[int, ...]]:
    layouts = []
    top = CARD_MELDS.numbers + 1 if CARD_MELDS.ace_high else CARD_MELDS.numbers
    for suit in range(4):
        for size in range(3, MAX_RUN_PIECE + 1):
            for start in range(1, top - size + 2):
                numbers = range(start, start + size)
                for mask in range(1 << size):
                    if mask == (1 << size) - 1:
                        continue  # at least one natural card
                    layouts.append(
                        tuple(
                            JOKER if mask >> i & 1 else suit * 13 + (n - 1) % 13
                            for i, n in enumerate(numbers)
                        )
                    )
    return layouts


@functools.lru_cache(maxsize=16)
def _table(ace_low_value: int, joker_penalty: int) -> MeldTable:
    rules = Rules(ace_low_value=ace_low_value, joker_penalty=joker_penalty)
    best: dict[tuple[int, int, str], Pattern] = {}
    kinds: tuple[tuple[MeldKind, list[tuple[int, ...]]], ...] = (
        ("run", _run_layouts()),
        ("group", _group_layouts()),
    )
    for kind, layouts in kinds:
        for layout in layouts:
            pattern = _pattern(layout, kind, rules)
            if pattern is None:
                continue
            key = (pattern.bits, pattern.jokers, pattern.kind)
            known = best.get(key)
            if known is None or pattern.value > known.value:
                best[key] = pattern
    patterns = tuple(sorted(best.values(), key=lambda p: (p.low_face, p.jokers, -p.value)))
    by_low: list[list[Pattern]] = [[] for _ in range(FACES)]
    for p in patterns:
        by_low[p.low_face].append(p)
    return MeldTable(
        patterns=patterns,
        by_low_face=tuple(tuple(ps) for ps in by_low),
        face_penalty=tuple(card_value(face_card(f), rules) for f in range(FACES)),
        joker_penalty=joker_penalty,
    )


@functools.lru_cache(maxsize=16)
def face_melds(table: MeldTable) -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each face, ``(bits, jokers)`` of every pattern holding it, fewest jokers first."""
    found: list[list[tuple[int, int]]] = [[] for _ in range(FACES)]
    for p in table.patterns:
        for f in set(p.layout) - {JOKER}:
            found[f].append((p.bits, p.jokers))
    return tuple(tuple(sorted(row, key=lambda bj: bj[1])) for row in found)


def may_meld(table: MeldTable, counts: int, jokers: int, face: int) -> bool:
    """Whether some new meld of the hand ``counts`` with at most ``jokers`` jokers holds a
    card of ``face`` (which the hand holds).

    >>> from rummykit.cards import parse_cards
    >>> table = meld_table(Rules())
    >>> counts, jokers = encode(parse_cards("J♣ Q♣ 2♥"))
    >>> may_meld(table, counts, jokers, face_of(parse_cards("Q♣")[0]))
    False
    >>> may_meld(table, counts, 1, face_of(parse_cards("Q♣")[0]))
    True
    """
    present = present_mask(counts)
    for bits, used in face_melds(table)[face]:
        if used > jokers:
            return False
        if bits & present == bits:
            return True
    return False


def meld_table(rules: Rules) -> MeldTable:
    """The pattern table for the options that change meld values and penalties.

    >>> table = meld_table(Rules())
    >>> sorted(p.value for p in table.by_low_face[0] if p.jokers == 0 and p.kind == "run")
    [16, 20, 25, 31, 41, 51]

    (A♣ 2♣ 3♣ up to A♣…5♣, then Q♣ K♣ A♣ up to 10♣…A♣: the ace is the lowest face of both.)
    """
    return _table(rules.ace_low_value, rules.joker_penalty)


def join_runs(melds: list[list[Card]], apart: Collection[Card] = ()) -> list[list[Card]]:
    """Join runs that continue each other into one longer run where the result is valid.

    The search lays runs of at most five cards; the player sees ``5♥ … 10♥`` as one meld.
    A run holding one of the ``apart`` cards (jokers freed this turn, which keep a meld out of
    the opening) is joined only with another such run.
    """
    out = [list(m) for m in melds]
    changed = True
    while changed:
        changed = False
        for i, a in enumerate(out):
            for j, b in enumerate(out):
                if i == j:
                    continue
                ra = read_meld([_piece(c) for c in a], CARD_MELDS)
                rb = read_meld([_piece(c) for c in b], CARD_MELDS)
                if ra is None or rb is None or ra.kind != "run" or rb.kind != "run":
                    continue
                if ra.colours[0] != rb.colours[0] or ra.numbers[-1] + 1 != rb.numbers[0]:
                    continue
                if any(c in apart for c in a) != any(c in apart for c in b):
                    continue
                joined = a + b
                reading = read_meld([_piece(c) for c in joined], CARD_MELDS)
                if reading is not None and reading.kind == "run":
                    out[i] = joined
                    del out[j]
                    changed = True
                    break
            if changed:
                break
    return out


def _piece(card: Card) -> Piece:
    if card.rank is None or card.suit is None:
        return None
    return (int(card.rank), int(card.suit))
