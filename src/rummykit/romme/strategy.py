"""What the computer players know and how they weigh cards, all read from a seat's `View`.

- `Knowledge`: the cards a seat has seen this round (its hand, the table, the whole discard
  pile, cards an opponent took from the discard pile and still holds), hence how many copies of
  each face are still unseen (in the stock or in hidden hands);
- `keep_scores`: how much each card of a hand is worth keeping: a card in a meld or one card
  short of one with live outs is worth more than a dead one;
- `opponent_hands`: random hands for an opponent consistent with what the seat knows
  (determinized sampling), to ask the solver what a discard would give them.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from rummykit.cards import Card, Suit, romme_pack
from rummykit.romme.rules import Rules, TableMeld, card_value, read_cards
from rummykit.romme.solver.candidates import encode, meld_table
from rummykit.romme.solver.search import Problem, TableOption, most_cards, solve
from rummykit.romme.solver.table import table_options
from rummykit.romme.view import View

FACES = 52


def face(card: Card) -> int:
    """``suit * 13 + rank - 1`` for a natural card."""
    assert card.rank is not None and card.suit is not None
    return int(card.suit) * 13 + int(card.rank) - 1


def _face(number: int, suit: int) -> int:
    return suit * 13 + (0 if number == 14 else number - 1)


def _partner_pairs() -> tuple[tuple[tuple[int, int], ...], ...]:
    """For each face, the pairs of other faces that make a three-card meld with it."""
    pairs: list[set[tuple[int, int]]] = [set() for _ in range(FACES)]
    for suit in range(4):
        for start in range(1, 13):  # runs start..start+2 over 1..14 (14: the high ace)
            faces = [_face(n, suit) for n in range(start, start + 3)]
            for i, f in enumerate(faces):
                others = [g for j, g in enumerate(faces) if j != i]
                pairs[f].add((min(others), max(others)))
    for rank in range(13):
        for suit in range(4):
            others = [s * 13 + rank for s in range(4) if s != suit]
            for i in range(3):
                for j in range(i + 1, 3):
                    pairs[suit * 13 + rank].add((others[i], others[j]))
    return tuple(tuple(sorted(p)) for p in pairs)


PARTNERS = _partner_pairs()
"""``PARTNERS[f]``: pairs ``(g, h)`` such that ``f g h`` is a group or a run of three."""


def completes_meld(card: Card, counts: Sequence[int]) -> bool:
    """Whether a natural ``card`` makes a three-card meld with two cards counted in ``counts``."""
    return any(counts[g] and counts[h] for g, h in PARTNERS[face(card)])


def neighbours(f: int) -> set[int]:
    """Faces that share a three-card meld with ``f``."""
    return {g for pair in PARTNERS[f] for g in pair}


@dataclass
class Knowledge:
    """What one seat knows in the current round."""

    seat: int
    unseen_cards: list[Card]
    """The physical cards this seat has not seen."""
    unseen: list[int]
    """Per face, copies neither in this hand, nor on the table, nor in the discard pile, nor
    known to be in another hand: in the stock or hidden in a hand."""
    unseen_jokers: int
    known: dict[int, list[Card]] = field(default_factory=dict)
    """Per other seat, the cards it took from the discard pile and still holds."""
    discarded: dict[int, set[int]] = field(default_factory=dict)
    """Per other seat, the faces it discarded this round (it had no use for them)."""
    taken: dict[int, set[int]] = field(default_factory=dict)
    """Per other seat, the faces it took from the discard pile this round."""

    @property
    def unseen_total(self) -> int:
        return sum(self.unseen) + self.unseen_jokers


def round_start(view: View) -> int:
    """Where the current round's events begin in the log: at its deal (the last one)."""
    log = view.log
    for i in range(len(log) - 1, -1, -1):
        if log[i]["code"] == "deal":
            return i
    return 0


def round_events(view: View) -> list[dict[str, object]]:
    """The log events of the current round (after its deal)."""
    return [dict(e) for e in view.log[round_start(view) :]]


def round_view(view: View) -> View:
    """The view with the log cut to the current round: all a computer player reads of it (the
    log of a long game is most of a view, sent to a worker for each decision)."""
    start = round_start(view)
    return view if start == 0 else replace(view, log=view.log[start:])


def knowledge(view: View, memory: bool = True) -> Knowledge:
    """What the seat of ``view`` knows. Without ``memory`` only what lies open now counts
    (hand, table, discard pile); with it, the round's log adds the cards opponents took."""
    assert view.seat is not None
    counts = [0] * FACES
    jokers = 0
    visible: list[Card] = list(view.hand)
    visible += [c for m in view.table for c in m.cards]
    visible += list(view.discard_pile)
    known: dict[int, list[Card]] = {}
    discarded: dict[int, set[int]] = {}
    taken: dict[int, set[int]] = {}
    if memory:
        open_cards = set(visible)
        for event in round_events(view):
            seat = event.get("seat")
            if not isinstance(seat, int) or seat == view.seat:
                continue
            code = event.get("code")
            card_id = event.get("card")
            if not isinstance(card_id, int):
                continue
            card = Card.from_id(card_id)
            held = known.setdefault(seat, [])
            if code == "draw" and event.get("source") == "discard":
                if card not in held:
                    held.append(card)
                if not card.is_joker:
                    taken.setdefault(seat, set()).add(face(card))
            elif code == "discard":
                # Gone from that hand; after a reshuffle it may come back through the stock,
                # unseen, and must not count as held any more.
                if card in held:
                    held.remove(card)
                if not card.is_joker:
                    discarded.setdefault(seat, set()).add(face(card))
        for seat, cards in known.items():
            known[seat] = [c for c in cards if c not in open_cards]
            visible += known[seat]
    seen = set(visible)
    hidden = [c for c in _pack(view.rules.jokers) if c not in seen]
    for card in hidden:
        if card.is_joker:
            jokers += 1
        else:
            counts[face(card)] += 1
    return Knowledge(
        seat=view.seat,
        unseen_cards=hidden,
        unseen=counts,
        unseen_jokers=jokers,
        known=known,
        discarded=discarded,
        taken=taken,
    )


def hand_counts(cards: Iterable[Card]) -> list[int]:
    counts = [0] * FACES
    for card in cards:
        if not card.is_joker:
            counts[face(card)] += 1
    return counts


def keep_scores(
    hand: Sequence[Card],
    know: Knowledge,
    table: Sequence[TableMeld] = (),
) -> dict[Card, float]:
    """How much each natural card of ``hand`` is worth keeping (jokers are always kept).

    A card scores for each three-card meld it could be part of: a lot when the hand holds both
    partners, by live outs (unseen copies of the missing card, and unseen jokers) when it holds
    one, a little when it holds none. A card that fits a table meld, or would after one more
    card, can be laid off later and scores too.
    """
    counts = hand_counts(hand)
    unseen = know.unseen
    jokers = know.unseen_jokers
    ends = _table_ends(table)
    scores: dict[Card, float] = {}
    for card in hand:
        if card.is_joker:
            continue
        f = face(card)
        score = 0.0
        for g, h in PARTNERS[f]:
            has_g, has_h = counts[g] > 0, counts[h] > 0
            if has_g and has_h:
                score += 60.0
            elif has_g or has_h:
                missing = h if has_g else g
                score += 8.0 * unseen[missing] + 2.0 * jokers
            else:
                score += 0.5 * unseen[g] * unseen[h]
        if counts[f] > 1:
            score -= 4.0  # a second copy helps only in a second meld
        score += ends.get(f, 0.0)
        scores[card] = score
    return scores


def _table_ends(table: Sequence[TableMeld]) -> dict[int, float]:
    """Faces that fit a table meld now (30) or after one more card (10)."""
    out: dict[int, float] = {}
    for meld in table:
        if meld.kind == "run":
            colour, low, high = _run_span(meld)
            for number, score in (
                (low - 1, 30.0),
                (high + 1, 30.0),
                (low - 2, 10.0),
                (high + 2, 10.0),
            ):
                if (
                    1 <= number <= 14
                    and not (number == 14 and low == 1)
                    and not (number == 1 and high == 14)
                ):
                    f = _face(number, colour)
                    out[f] = max(out.get(f, 0.0), score)
        else:
            for f in _group_gaps(meld):
                out[f] = max(out.get(f, 0.0), 30.0)
    return out


def _run_span(meld: TableMeld) -> tuple[int, int, int]:
    """A run's suit and its lowest and highest numbers, as its cards (jokers too) read."""
    reading = meld.reading()
    colour = reading.colours[0]
    assert colour is not None
    return colour, reading.numbers[0], reading.numbers[-1]


def _group_gaps(meld: TableMeld) -> list[int]:
    """The faces a group still takes: one per suit it lacks (none once it holds four)."""
    if len(meld.cards) >= 4:
        return []
    present = {c.suit for c in meld.cards if c.suit is not None}
    number = meld.reading().numbers[0]
    return [int(suit) * 13 + number - 1 for suit in Suit if suit not in present]


def fits_table(card: Card, table: Sequence[TableMeld]) -> bool:
    """Whether ``card`` can be laid off on some table meld as it stands."""
    for meld in table:
        if meld.kind == "group":
            trials = [(*meld.cards, card)]
        else:
            trials = [(card, *meld.cards), (*meld.cards, card)]
        if any(read_cards(t, None, meld.kind) is not None for t in trials):
            return True
    return False


@functools.lru_cache(maxsize=8)
def _pack(jokers: int) -> tuple[Card, ...]:
    return tuple(romme_pack(jokers))


def opponent_hands(
    view: View, know: Knowledge, seat: int, samples: int, rng: random.Random
) -> list[list[Card]]:
    """``samples`` hands for ``seat`` consistent with what this seat knows: the cards it is
    known to hold, the rest drawn from the unseen cards."""
    known = know.known.get(seat, [])
    size = view.hand_sizes[seat]
    pool = know.unseen_cards
    missing = max(0, min(size - len(known), len(pool)))
    return [known + rng.sample(pool, missing) for _ in range(samples)]


def draws_to_go_out(hand: Sequence[Card], rules: Rules, limit: int = 5) -> int:
    """The fewest draws after which ``hand`` could go out, were every draw the card it needs:
    the smallest ``j >= 1`` such that the hand with ``j`` more jokers melds as many cards as it
    holds now (``j`` draws, ``j`` discards, the last one going out). ``limit + 1`` when it is
    further than ``limit``. Like a count of missing cards, it ranks hands by distance to going
    out, which the one-draw lookahead cannot see beyond the next turn.

    >>> from rummykit.cards import parse_cards
    >>> from rummykit.romme.rules import Rules
    >>> melded = "J♣ Q♣ K♣ 9♥ 9♦ 9♠ 4♦ 5♦ 6♦ 7♦ "
    >>> draws_to_go_out(parse_cards(melded + "2♠ 2♥ 2♦"), Rules())  # any draw, discarded
    1
    >>> draws_to_go_out(parse_cards(melded + "2♠ 2♥ 8♣"), Rules())  # a 2 or a joker, 8♣ away
    1
    >>> draws_to_go_out(parse_cards(melded + "2♠ 5♥ 8♣"), Rules())
    2
    """
    counts, jokers = encode(list(hand))
    for extra in range(1, limit + 1):
        if _most_melded(counts, jokers + extra, rules) >= len(hand):
            return extra
    return limit + 1


def melds_at_most(cards: Sequence[Card], rules: Rules) -> int:
    """The most of these cards that can lie in melds at once (no opening value asked).

    >>> from rummykit.cards import parse_cards
    >>> from rummykit.romme.rules import Rules
    >>> melds_at_most(parse_cards("J♣ Q♣ K♣ 9♥ 9♦ 2♠"), Rules())
    3
    """
    counts, jokers = encode(list(cards))
    return _most_melded(counts, jokers, rules)


def _most_melded(counts: int, jokers: int, rules: Rules) -> int:
    return most_cards(meld_table(rules), counts, jokers)


def penalty(card: Card, view: View) -> int:
    return card_value(card, view.rules)


OPEN_BONUS = 3.0
OUT_BONUS = 12.0


class Prospects:
    """What a hand may lay next turn, averaged over the card it will draw.

    ``value(hand)`` is the expected number of cards laid after drawing one unseen card (each
    unseen card equally likely), plus a bonus for opening and a larger one for going out. Only
    draws that could change the answer are solved one by one (a card next to a hand card, a card
    that fits the table, a joker); every other draw counts as one dead card.

    It is an estimate, fast enough to run for several discards at every turn: new melds come
    from the exact solver; lay-offs are counted, not searched (cards that continue a table meld,
    chains of them, and jokers).
    """

    open_bonus = OPEN_BONUS
    out_bonus = OUT_BONUS

    def __init__(
        self, view: View, know: Knowledge, opened: bool, deadline: float | None = None
    ) -> None:
        self.deadline = deadline
        """A `time.perf_counter` value after which draws are no longer solved one by one."""
        self.rules = view.rules
        self.opened = opened
        self.know = know
        self.melds = meld_table(view.rules)
        self.may_lay_off = bool(view.table) and (opened or view.rules.layoff_on_opening_turn)
        self.ends = _open_ends(view.table) if self.may_lay_off else []
        self.fit_faces = {f for end in self.ends for f in end[:1]}
        self.solves = 0
        self._cache: dict[tuple[int, int], float] = {}
        self._outs: set[tuple[int, int]] = set()

    def value(self, hand: Sequence[Card]) -> float:
        know = self.know
        total_unseen = know.unseen_total
        if total_unseen == 0:
            return 0.0
        counts, jokers = encode(list(hand))
        faces = hand_counts(hand)
        if jokers >= 2:
            relevant = set(range(FACES))
        else:
            relevant = set(self.fit_faces)
            for f in range(FACES):
                if faces[f]:
                    relevant |= neighbours(f)
                    relevant.add(f)
        relevant = {f for f in relevant if know.unseen[f] and faces[f] < 2}
        size = len(hand) + 1
        expected = 0.0
        covered = 0
        deadline = self.deadline
        for f in sorted(relevant):
            if deadline is not None and time.perf_counter() > deadline:
                break  # out of time: the draws not looked at count as dead cards
            expected += know.unseen[f] * self._laid(counts + (1 << (2 * f)), jokers, size)
            covered += know.unseen[f]
        if know.unseen_jokers:
            expected += know.unseen_jokers * self._laid(counts, jokers + 1, size)
            covered += know.unseen_jokers
        rest = total_unseen - covered
        if rest > 0:
            # A draw that fits nothing: the hand itself, with one more card to discard.
            expected += rest * self._laid(counts, jokers, size, spare=True)
        return expected / total_unseen

    def out_chance(self, hand: Sequence[Card]) -> float:
        """The chance that the next draw lets ``hand`` go out (its value carries the bonus)."""
        know = self.know
        if know.unseen_total == 0:
            return 0.0
        counts, jokers = encode(list(hand))
        size = len(hand) + 1
        hits = 0
        deadline = self.deadline
        for f in range(FACES):
            if not know.unseen[f] or (counts >> (2 * f)) & 3 == 2:
                continue
            if deadline is not None and time.perf_counter() > deadline:
                break
            drawn = counts + (1 << (2 * f))
            self._laid(drawn, jokers, size)
            hits += know.unseen[f] * ((drawn * 2, jokers) in self._outs)
        if know.unseen_jokers:
            self._laid(counts, jokers + 1, size)
            hits += know.unseen_jokers * ((counts * 2, jokers + 1) in self._outs)
        return hits / know.unseen_total

    def _laid(self, counts: int, jokers: int, size: int, spare: bool = False) -> float:
        """What holding ``counts`` and ``jokers`` is worth: the cards it lets the player lay
        (with a bonus for opening and for going out), solved once per holding."""
        key = (counts * 2 + spare, jokers)
        known = self._cache.get(key)
        if known is None:
            self.solves += 1
            laid = self._cards_laid(counts, jokers, size, spare)
            known = self._cache[key] = 0.0 if laid is None else self._worth(laid, size, key)
        return known

    def _worth(self, laid: int, size: int, key: tuple[int, int]) -> float:
        bonus = 0.0 if self.opened else self.open_bonus
        if laid >= size - 1:
            bonus += self.out_bonus
            self._outs.add(key)
        return laid + bonus

    def _problem(
        self,
        counts: int,
        jokers: int,
        keep_one: bool,
        table: Sequence[TableOption] = (),
    ) -> Problem:
        """The meld problem of a holding under the rules of this player's next melds."""
        rules = self.rules
        return Problem(
            self.melds,
            counts,
            jokers,
            "cards",
            need=0 if self.opened else rules.opening_min,
            require_run=not self.opened and rules.opening_requires_run,
            require_meld=not self.opened,
            keep_one=rules.go_out == "discard" and keep_one,
            new_meld_jokers=self.opened or not rules.opening_without_jokers,
            table_options=table,
            freed_not_own=not self.opened and any(o.jokers_out for o in table),
        )

    def _cards_laid(self, counts: int, jokers: int, size: int, spare: bool) -> int | None:
        """How many cards the holding lets the player lay, counting lay-offs roughly; None
        when nothing may be laid."""
        laid_off = 0
        if self.may_lay_off:
            counts, laid_off = self._lay_off(counts)
        solution = solve(self._problem(counts, jokers, keep_one=not spare and not laid_off))
        if solution is None:
            return None
        laid = solution.cards_laid
        left_jokers = jokers - sum(p.jokers for p in solution.melds)
        if self.may_lay_off and left_jokers:
            laid += left_jokers  # a joker continues almost any table meld
        return min(laid + laid_off, size - 1 if self.rules.go_out == "discard" else size)

    def _lay_off(self, counts: int) -> tuple[int, int]:
        """Take out the cards that continue a table meld (following a run as far as the hand
        goes); return the rest and how many were taken."""
        taken = 0
        for chain in self.ends:
            for f in chain:
                bit = 1 << (2 * f)
                if not (counts >> (2 * f)) & 3:
                    break
                counts -= bit
                taken += 1
        return counts, taken


def _open_ends(table: Sequence[TableMeld]) -> list[list[int]]:
    """For each open end of a table meld, the faces that would continue it, nearest first (a
    group's missing suits are one-card ends)."""
    ends: list[list[int]] = []
    for meld in table:
        if meld.kind == "run":
            colour, low, high = _run_span(meld)
            room = 13 - len(meld.cards)
            down = [_face(n, colour) for n in range(low - 1, max(0, low - 1 - room), -1)]
            top = 14 if low > 1 else 13
            up = [_face(n, colour) for n in range(high + 1, min(top, high + room) + 1)]
            ends += [e for e in (down, up) if e]
        else:
            ends += [[f] for f in _group_gaps(meld)]
    return ends


class ExactProspects(Prospects):
    """`Prospects` with lay-offs and joker exchanges searched exactly by the solver (the
    table's options are cached meld by meld, so the many hands asked about cost little)."""

    def __init__(
        self, view: View, know: Knowledge, opened: bool, deadline: float | None = None
    ) -> None:
        super().__init__(view, know, opened, deadline)
        self.table = list(view.table) if self.may_lay_off else []

    def _cards_laid(self, counts: int, jokers: int, size: int, spare: bool) -> int | None:
        """How many cards the holding lets the player lay, exactly, on the table as it is."""
        options = table_options(self.table, counts, jokers, self.rules) if self.table else []
        solution = solve(self._problem(counts, jokers, keep_one=not spare, table=options))
        return None if solution is None else solution.cards_laid
