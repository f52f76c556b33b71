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

from romme_reference import _orderings

from rummykit.cards import Card, Rank, Suit
from rummykit.romme.rules import Rules, TableMeld, card_value, read_cards, reading_value


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
    constraints (a card to keep for the discard, the must-use card, the opening)."""
    start_jokers = sum(1 for c in hand if c.is_joker)
    start_penalty = sum(card_value(c, rules) for c in hand)
    keep = 1 if rules.go_out == "discard" else 0
    best: list[int | None] = [None]
    seen: set[tuple[object, ...]] = set()

    def finish(
        h: tuple[Card, ...], opened_value: int, run: bool, laid_new: bool, must_done: bool
    ) -> None:
        if sum(1 for c in h if c.is_joker) > start_jokers or len(h) < keep:
            return
        if turn.must is not None and not must_done:
            return
        below = opened_value < rules.opening_min or (rules.opening_requires_run and not run)
        if not turn.opened and laid_new and below:
            return
        score = start_penalty - sum(card_value(c, rules) for c in h)
        if best[0] is None or score > best[0]:
            best[0] = score

    def visit(
        h: tuple[Card, ...],
        melds: tuple[tuple[tuple[Card, ...], str], ...],
        opened_value: int,
        run: bool,
        laid_new: bool,
        must_done: bool,
    ) -> None:
        key = (
            tuple(sorted(c.id for c in h)),
            tuple(sorted((tuple(c.id for c in cs), k) for cs, k in melds)),
            opened_value,
            run,
            laid_new,
            must_done,
        )
        if key in seen:
            return
        seen.add(key)
        finish(h, opened_value, run, laid_new, must_done)
        may_touch_table = turn.opened or (
            rules.layoff_on_opening_turn
            and laid_new
            and opened_value >= rules.opening_min
            and (run or not rules.opening_requires_run)
        )
        # A new meld from the hand (before opening: part of the opening).
        for size in range(3, len(h) + 1):
            for idx in itertools.combinations(range(len(h)), size):
                sub = [h[i] for i in idx]
                if (
                    not turn.opened
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
                        opened_value + reading_value(reading, rules),
                        run or reading.kind == "run",
                        True,
                        done,
                    )
        if not may_touch_table:
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
                            opened_value,
                            run,
                            laid_new,
                            done,
                        )
                if not turn.opened or card.is_joker:
                    continue
                for ji, old in enumerate(cards):
                    if not old.is_joker:
                        continue
                    new = (*cards[:ji], card, *cards[ji + 1 :])
                    if _valid(new, kind):
                        visit(
                            (*rest, old),
                            (*melds[:mi], (new, kind), *melds[mi + 1 :]),
                            opened_value,
                            run,
                            laid_new,
                            done,
                        )

    visit(tuple(hand), tuple((m.cards, m.kind) for m in table), 0, False, False, False)
    if not turn.opened and best[0] == 0:
        # Not yet opened, laying nothing is the fallback; with a must-use card it is no answer.
        return None if turn.must is not None else 0
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
