"""A move-by-move reference for turns with a table: every sequence of single moves.

A turn is made of single moves — lay a new meld, add one card at either end of a table meld,
put a natural card in place of a table joker (taking the joker into the hand) — and ends when
the player stops. This explores every sequence on small hands and small tables, so it shares
nothing with the solver's final-form enumeration.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.cards import Card, Rank, Suit
from rummykit.romme.rules import Rules, TableMeld, card_value, read_cards, reading_value

from .romme_reference import _orderings


@dataclass(frozen=True)
class Turn:
    opened: bool
    must: Card | None = None


def _valid(cards: Sequence[Card], kind: str) -> bool:
    return read_cards(list(cards), None, kind) is not None  # type: ignore[arg-type]


def best_by_moves(
    hand: Sequence[Card], table: Sequence[TableMeld], rules: Rules, turn: Turn
) -> int | None:
    """The most penalty the turn can remove from the hand, or ``None`` if no turn meets the
    constraints (a card to keep for the discard, the must-use card, the opening).

    Not yet opened, the new melds made only of the hand's own cards must reach the minimum
    (with the house rules); a meld holding a joker freed this turn does not count. Lay-offs and
    exchanges come with an opening only under ``layoff_on_opening_turn``. Every freed joker
    must be laid again; a must-use card must be laid (before opening: in a new meld).
    """
    start_penalty = sum(card_value(c, rules) for c in hand)
    keep = 1 if rules.go_out == "discard" else 0
    touch_table = turn.opened or rules.layoff_on_opening_turn
    # Only jokers that lie on the table when the turn starts can be exchanged.
    table_jokers = {c for m in table for c in m.cards if c.is_joker}
    best: list[int | None] = [None]
    seen: set[tuple[object, ...]] = set()

    def finish(
        h: tuple[Card, ...],
        freed: frozenset[Card],
        own_value: int,
        own_run: bool,
        laid_new: bool,
        touched: bool,
        must_done: bool,
    ) -> None:
        if freed & set(h) or len(h) < keep:
            return
        if turn.must is not None and not must_done:
            return
        if not turn.opened and (laid_new or touched):
            if not laid_new or own_value < rules.opening_min:
                return
            if rules.opening_requires_run and not own_run:
                return
        score = start_penalty - sum(card_value(c, rules) for c in h)
        if best[0] is None or score > best[0]:
            best[0] = score

    def visit(
        h: tuple[Card, ...],
        melds: tuple[tuple[tuple[Card, ...], str], ...],
        freed: frozenset[Card],
        own_value: int,
        own_run: bool,
        laid_new: bool,
        touched: bool,
        must_done: bool,
    ) -> None:
        key = (
            tuple(sorted(c.id for c in h)),
            tuple(sorted((tuple(c.id for c in cs), k) for cs, k in melds)),
            tuple(sorted(c.id for c in freed)),
            own_value,
            own_run,
            laid_new,
            touched,
            must_done,
        )
        if key in seen:
            return
        seen.add(key)
        finish(h, freed, own_value, own_run, laid_new, touched, must_done)
        # A new meld from the hand.
        for size in range(3, len(h) + 1):
            for idx in itertools.combinations(range(len(h)), size):
                sub = [h[i] for i in idx]
                own = not freed.intersection(sub)
                if (
                    not turn.opened
                    and own
                    and rules.opening_without_jokers
                    and any(c.is_joker for c in sub)
                ):
                    continue
                rest = tuple(c for i, c in enumerate(h) if i not in idx)
                for order in _orderings(sub):
                    reading = read_cards(order)
                    if reading is None:
                        continue
                    done = must_done or (turn.must is not None and turn.must in sub)
                    visit(
                        rest,
                        (*melds, (tuple(order), reading.kind)),
                        freed,
                        own_value + (reading_value(reading, rules) if own else 0),
                        own_run or (own and reading.kind == "run"),
                        True,
                        touched,
                        done,
                    )
        if not touch_table:
            return
        for mi, (cards, kind) in enumerate(melds):
            for hi, card in enumerate(h):
                rest = h[:hi] + h[hi + 1 :]
                done = must_done or (turn.opened and card == turn.must)
                for new in ((card, *cards), (*cards, card)):
                    if _valid(new, kind):
                        visit(
                            rest,
                            (*melds[:mi], (new, kind), *melds[mi + 1 :]),
                            freed,
                            own_value,
                            own_run,
                            laid_new,
                            True,
                            done,
                        )
                if card.is_joker:
                    continue
                for ji, old in enumerate(cards):
                    if old not in table_jokers:
                        continue
                    new = (*cards[:ji], card, *cards[ji + 1 :])
                    if _valid(new, kind):
                        visit(
                            (*rest, old),
                            (*melds[:mi], (new, kind), *melds[mi + 1 :]),
                            freed | {old},
                            own_value,
                            own_run,
                            laid_new,
                            True,
                            done,
                        )

    visit(
        tuple(hand),
        tuple((m.cards, m.kind) for m in table),
        frozenset(),
        0,
        False,
        False,
        False,
        False,
    )
    return best[0]


def random_table(rng: random.Random, pool: list[Card], count: int) -> list[TableMeld]:
    """Valid table melds made of cards popped from ``pool`` (jokers included)."""
    melds: list[TableMeld] = []
    jokers = [c for c in pool if c.is_joker]
    for meld_id in range(count):
        for _ in range(50):
            if rng.random() < 0.5:
                suit = rng.choice(list(Suit))
                start = rng.randint(1, 11)
                size = rng.randint(3, 5)
                numbers = [n for n in range(start, start + size) if n <= 14]
                faces = [Card(Rank(1 if n == 14 else n), suit) for n in numbers]
                kind = "run"
            else:
                rank = rng.choice(list(Rank))
                faces = [Card(rank, s) for s in rng.sample(list(Suit), rng.choice((3, 4)))]
                kind = "group"
            cards: list[Card] = []
            for face in faces:
                copies = [c for c in pool if c.rank == face.rank and c.suit == face.suit]
                if copies:
                    cards.append(copies[0])
                else:
                    cards = []
                    break
            if not cards:
                continue
            if jokers and rng.random() < 0.5:
                cards[rng.randrange(len(cards))] = jokers[-1]
            if read_cards(cards, None, kind) is None:  # type: ignore[arg-type]
                continue
            for c in cards:
                pool.remove(c)
                if c.is_joker:
                    jokers.remove(c)
            melds.append(TableMeld(tuple(cards), kind, owner=meld_id % 2, id=10 + meld_id))  # type: ignore[arg-type]
            break
    return melds
