"""Checking one player's melding for a turn, as a whole, against the hand and the table.

`check_play` is a pure function of what the player on move knows (`TurnContext`): the game
state calls it before applying a `Play`, and computer players call it on their view to keep
only legal plays. It never changes its inputs; it returns the hand and table after the play, or
raises `IllegalAction` with the first rule the play breaks.

>>> from rummykit.cards import parse_cards
>>> from rummykit.romme.actions import Play
>>> ctx = TurnContext(parse_cards("J♣ Q♣ K♣ 9♥ 9♦ JK 2♠"), {}, Rules(), seat=0, opened=False)
>>> check_play(Play.of("J♣ Q♣ K♣"), ctx).opening_value
30
>>> check_play(Play.of("9♥ 9♦ JK"), ctx)
Traceback (most recent call last):
...
rummykit.core.IllegalAction: opening_below_minimum: value=27, minimum=30
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from rummykit.cards import Card, Rank, Suit
from rummykit.core import IllegalAction
from rummykit.melds import MeldKind, Reading, read_group, read_run
from rummykit.romme.actions import LayOff, NewMeld, Play, RunEnd
from rummykit.romme.rules import (
    CARD_MELDS,
    Rules,
    TableMeld,
    joker_stands_for,
    pieces,
    read_cards,
    reading_value,
)


@dataclass(frozen=True, slots=True)
class TurnContext:
    """What a play is checked against: the hand of the player on move (after drawing), the
    melds on the table by id, the rules, the seat, whether the player opened in an earlier
    turn, the card taken from the discard pile this turn (if any) and the id the next new meld
    gets."""

    hand: Sequence[Card]
    table: Mapping[int, TableMeld]
    rules: Rules
    seat: int
    opened: bool
    picked: Card | None = None
    next_meld_id: int = 0


@dataclass(frozen=True, slots=True)
class PlayOutcome:
    """The hand and table after a legal play, and what it means for the game."""

    hand: list[Card]
    table: dict[int, TableMeld]
    new_melds: tuple[TableMeld, ...]
    opening_value: int | None
    """The value counted for the opening when this play opens, else ``None``."""
    goes_out: bool
    next_meld_id: int


def _codes(cards: Sequence[Card]) -> str:
    return " ".join(card.code for card in cards)


def check_play(play: Play, ctx: TurnContext) -> PlayOutcome:
    """Check a whole play; return its outcome or raise `IllegalAction` (nothing is changed).

    The exchanges come first, then the new melds, then the lay-offs in their order (a lay-off
    may extend a meld laid in the same play).
    """
    rules = ctx.rules
    if not (play.melds or play.layoffs or play.exchanges):
        raise IllegalAction("empty_play")

    # Every card is named once; it comes from the hand, or is a joker freed by an exchange.
    hand_set = set(ctx.hand)
    freed: set[Card] = set()
    for exchange in play.exchanges:
        if not exchange.joker.is_joker:
            raise IllegalAction("not_a_joker", card=exchange.joker.code)
        if exchange.card.is_joker:
            raise IllegalAction("exchange_needs_natural", card=exchange.card.code)
        if exchange.joker in freed:
            raise IllegalAction("card_used_twice", card=exchange.joker.code)
        freed.add(exchange.joker)
    used: set[Card] = set()
    for card in play.cards():
        if card in used:
            raise IllegalAction("card_used_twice", card=card.code)
        used.add(card)
        if card not in hand_set and card not in freed:
            raise IllegalAction("card_not_in_hand", card=card.code)

    # New melds.
    arranged = [arrange_meld(meld) for meld in play.melds]

    # The opening: new melds of cards from the own hand only; lay-offs never count.
    opening_value: int | None = None
    if not ctx.opened:
        if not play.melds:
            code = "exchange_before_opening" if play.exchanges else "layoff_before_opening"
            raise IllegalAction(code)
        own = [(cards, r) for cards, r in arranged if not any(c in freed for c in cards)]
        opening_value = sum(reading_value(r, rules) for _, r in own)
        if opening_value < rules.opening_min:
            raise IllegalAction(
                "opening_below_minimum", value=opening_value, minimum=rules.opening_min
            )
        if rules.opening_requires_run and not any(r.kind == "run" for _, r in own):
            raise IllegalAction("opening_needs_run")
        if rules.opening_without_jokers and any(c.is_joker for cards, _ in own for c in cards):
            raise IllegalAction("opening_with_joker")
        if not rules.layoff_on_opening_turn:
            if play.exchanges:
                raise IllegalAction("exchange_before_opening")
            if play.layoffs:
                raise IllegalAction("layoff_before_opening")

    table = dict(ctx.table)
    for exchange in play.exchanges:
        target = _target(table, exchange.meld)
        try:
            index = target.cards.index(exchange.joker)
        except ValueError:
            raise IllegalAction(
                "joker_not_in_meld", joker=exchange.joker.code, meld=exchange.meld
            ) from None
        faces = joker_stands_for(target.cards, index, target.reading())
        if not any(f.rank == exchange.card.rank and f.suit == exchange.card.suit for f in faces):
            raise IllegalAction(
                "wrong_exchange_card",
                card=exchange.card.code,
                joker=exchange.joker.code,
                meld=exchange.meld,
                stands_for=[f.face for f in faces],
            )
        cards = (*target.cards[:index], exchange.card, *target.cards[index + 1 :])
        table[target.id] = TableMeld(cards, target.kind, target.owner, target.id)

    next_id = ctx.next_meld_id
    new_melds: list[TableMeld] = []
    for cards, reading in arranged:
        meld = TableMeld(cards, reading.kind, ctx.seat, next_id)
        new_melds.append(meld)
        table[next_id] = meld
        next_id += 1

    for layoff in play.layoffs:
        target = _target(table, layoff.meld)
        table[target.id] = lay_off(target, layoff.card, layoff.end)

    for joker in freed:
        if joker not in used:
            raise IllegalAction("freed_joker_not_laid", joker=joker.code)

    hand = [card for card in ctx.hand if card not in used]
    goes_out = not hand
    if goes_out and rules.go_out == "discard":
        raise IllegalAction("last_card_melded")
    if ctx.picked is not None and len(hand) == 1 and hand[0] == ctx.picked:
        raise IllegalAction("no_card_to_discard", card=ctx.picked.code)
    if ctx.picked is not None and rules.discard_pickup == "must_use":
        if ctx.picked not in used:
            raise IllegalAction("picked_card_unused", card=ctx.picked.code)
        # Not opened before, the card must be part of the opening: one of its new melds
        # (a meld holding a freed joker is laid in the opening turn but does not count
        # towards the minimum).
        if not ctx.opened and not any(ctx.picked in cards for cards, _ in arranged):
            raise IllegalAction("picked_card_not_in_opening", card=ctx.picked.code)
    return PlayOutcome(hand, table, tuple(new_melds), opening_value, goes_out, next_id)


def _target(table: Mapping[int, TableMeld], meld_id: int) -> TableMeld:
    target = table.get(meld_id)
    if target is None:
        raise IllegalAction("unknown_meld", meld=meld_id)
    return target


def lay_off(meld: TableMeld, card: Card, end: str | None = None) -> TableMeld:
    """The meld with ``card`` added (a run at ``end``: the only end that fits, or the high end
    when both do), or ``IllegalAction("invalid_layoff")``.

    >>> from rummykit.cards import parse_cards, Card
    >>> run = TableMeld(tuple(parse_cards("J♣ Q♣ K♣")), "run", owner=2, id=0)
    >>> str(lay_off(run, Card.parse("A♣")))
    '#0 run J♣ Q♣ K♣ A♣ (seat 2)'
    """
    extended = try_lay_off(meld, card, end)
    if extended is None:
        raise IllegalAction("invalid_layoff", card=card.code, meld=meld.id, end=end)
    return extended


def try_lay_off(meld: TableMeld, card: Card, end: str | None = None) -> TableMeld | None:
    """`lay_off` that answers ``None`` instead of raising."""
    if not card.is_joker:
        # A natural card can only join a group of its rank or a run of its suit.
        natural = next((c for c in meld.cards if not c.is_joker), None)
        if natural is None:
            return None
        if meld.kind == "group" and natural.rank != card.rank:
            return None
        if meld.kind == "run" and natural.suit != card.suit:
            return None
    if meld.kind == "group":
        options = [(*meld.cards, card)]
    else:
        low, high = (card, *meld.cards), (*meld.cards, card)
        options = [high, low] if end is None else [low if end == "low" else high]
    for cards in options:
        if read_cards(cards, None, meld.kind) is not None:
            return TableMeld(cards, meld.kind, meld.owner, meld.id)
    return None


def meld_candidates(cards: Sequence[Card], max_jokers: int = 1) -> list[tuple[Card, ...]]:
    """Melds the cards can form, each in laying order, using at most ``max_jokers`` jokers
    per meld: groups of 3 or 4, then runs of 3 up to the longest available."""
    naturals: dict[tuple[int, int], Card] = {}
    jokers = [c for c in cards if c.is_joker]
    for card in cards:
        if card.rank is not None and card.suit is not None:
            naturals.setdefault((int(card.rank), int(card.suit)), card)
    limit = min(max_jokers, len(jokers))
    found: list[tuple[Card, ...]] = []
    for rank in range(1, 14):
        suits = [naturals[(rank, s)] for s in range(4) if (rank, s) in naturals]
        for size in (3, 4):
            # A meld holds at least one natural card.
            for used_jokers in range(min(limit, size - 1) + 1):
                for chosen in combinations(suits, size - used_jokers):
                    if chosen:
                        found.append((*chosen, *jokers[:used_jokers]))
    for suit in range(4):
        for start in range(1, 13):
            laid: list[Card] = []
            used = 0
            # The ace stands once: low (from 1) or high (14), never both.
            for number in range(start, 14 if start == 1 else 15):
                rank = 1 if number == 14 else number
                natural = naturals.get((rank, suit))
                if natural is None:
                    if used >= limit or (laid and laid[-1].is_joker):
                        break
                    laid.append(jokers[used])
                    used += 1
                else:
                    laid.append(natural)
                if len(laid) >= 3 and any(not c.is_joker for c in laid):
                    found.append(tuple(laid))
    return found


def layoff_options(card: Card, table: Sequence[TableMeld]) -> list[LayOff]:
    """Every lay-off of ``card`` onto the given melds (runs at each end that fits)."""
    found = []
    for meld in table:
        ends: tuple[RunEnd | None, ...] = (None,) if meld.kind == "group" else ("low", "high")
        for end in ends:
            if try_lay_off(meld, card, end) is not None:
                found.append(LayOff(card, meld.id, end))
    return found


def find_use(
    hand: Sequence[Card], card: Card, table: Sequence[TableMeld], rules: Rules, opened: bool
) -> Play | None:
    """A play that uses ``card`` taken from the discard pile this turn, found greedily, or
    ``None``. A play returned is legal (it passed `check_play`), so it proves the pickup
    legal; ``None`` proves nothing (the exact answer is the solver's).

    >>> from rummykit.cards import parse_cards, Card
    >>> str(find_use(parse_cards("J♣ Q♣ 2♠"), Card.parse("K♣"), [], Rules(), opened=False))
    'play [J♣ Q♣ K♣]'
    """
    held = [*hand, card]
    ctx = TurnContext(held, {m.id: m for m in table}, rules, 0, opened, card, _next_id(table))
    trials: list[Play] = []
    if opened:
        trials += [Play(layoffs=(layoff,)) for layoff in layoff_options(card, table)]
    candidates = meld_candidates([card, *hand], max_jokers=2)
    candidates.sort(key=lambda m: -sum(_face_value(c) for c in m))
    for meld in candidates:
        if card not in meld:
            continue
        melds = [meld]
        if not opened:
            taken = set(meld)
            for other in candidates:
                if taken.isdisjoint(other):
                    melds.append(other)
                    taken.update(other)
        trials.append(Play(tuple(NewMeld(m) for m in melds)))
        if not opened and len(melds) > 1:
            trials.append(Play(tuple(NewMeld(m) for m in melds[:2])))
    for trial in trials:
        try:
            check_play(trial, ctx)
        except IllegalAction:
            continue
        return trial
    return None


def _next_id(table: Sequence[TableMeld]) -> int:
    return max((m.id for m in table), default=-1) + 1


def _face_value(card: Card) -> int:
    if card.rank is None:
        return 10
    rank = int(card.rank)
    return 11 if rank == 1 else min(rank, 10)


def might_use_card(
    hand: Sequence[Card], card: Card, table: Sequence[TableMeld], rules: Rules, opened: bool
) -> bool:
    """A quick necessary condition for using ``card`` (taken from the discard pile) this turn:
    ``False`` only when no meld, lay-off or exchange can hold it whatever else is played.

    It looks at the card's neighbourhood only: other suits of its rank, nearby ranks of its
    suit, jokers (in hand, or on the table when exchanges are allowed), and, once opened, the
    ends of the melds and the jokers on the table. The exact answer is the solver's.

    >>> from rummykit.cards import parse_cards, Card
    >>> might_use_card(parse_cards("9♥ 9♦ 2♠"), Card.parse("K♣"), [], Rules(), opened=False)
    False
    >>> might_use_card(parse_cards("J♣ Q♣ 2♠"), Card.parse("K♣"), [], Rules(), opened=False)
    True
    """
    if not opened and not _opening_within_reach([*hand, card], rules):
        return False
    if card.rank is None or card.suit is None:
        return True
    jokers = sum(c.is_joker for c in hand)
    if opened or rules.layoff_on_opening_turn:
        # A joker freed by an exchange may join the card in a new meld.
        jokers += sum(c.is_joker for meld in table for c in meld.cards)
    if opened:
        spare = next((c for m in (hand, *(m.cards for m in table)) for c in m if c.is_joker), None)
        for meld in table:
            ends: tuple[str | None, ...] = (None,) if meld.kind == "group" else ("low", "high")
            if any(_lays_off_beyond(meld, card, end, hand, spare, jokers) for end in ends):
                return True
            if any(c.is_joker for c in meld.cards):
                reading = meld.reading()
                for index, joker in enumerate(meld.cards):
                    if joker.is_joker and any(
                        _same_face(card, f) for f in joker_stands_for(meld.cards, index, reading)
                    ):
                        return True
    if jokers >= 2:
        return True
    suits = {c.suit for c in hand if c.rank == card.rank and c.suit != card.suit}
    if len(suits) + jokers >= 2:
        return True
    # A run holding the card holds three consecutive places around it: the two others are
    # natural cards of its suit or jokers.
    rank = int(card.rank)
    positions = (1, 14) if rank == 1 else (rank,)
    numbers = {int(c.rank) for c in hand if c.suit == card.suit and c.rank is not None}
    if 1 in numbers:
        numbers.add(14)
    for position in positions:
        for start in range(position - 2, position + 1):
            if start < 1 or start + 2 > 14:
                continue
            others = [n for n in range(start, start + 3) if n != position]
            if sum(n not in numbers for n in others) <= jokers:
                return True
    return False


def _lays_off_beyond(
    meld: TableMeld,
    card: Card,
    end: str | None,
    hand: Sequence[Card],
    joker: Card | None,
    jokers: int,
) -> bool:
    """Whether ``card`` can be added at ``end`` of ``meld``, at once or once the places between
    are filled from the hand or by up to ``jokers`` jokers (K♥ joins a run ending in J♥ after
    the Q♥ in hand; 6♠ joins 8♠ 9♠ 10♠ once a freed joker stands for 7♠)."""
    unused = [c for c in hand if not c.is_joker]
    while try_lay_off(meld, card, end) is None:
        if end is None:
            return False
        longer = None
        for filler in unused:
            longer = try_lay_off(meld, filler, end)
            if longer is not None:
                unused.remove(filler)
                break
        if longer is None and joker is not None and jokers > 0:
            longer, jokers = try_lay_off(meld, joker, end), jokers - 1
        if longer is None:
            return False
        meld = longer
    return True


def _opening_within_reach(cards: Sequence[Card], rules: Rules) -> bool:
    """Whether the cards that can stand in some meld are worth the opening minimum at most:
    an opening lays own cards only, each in a meld."""
    if rules.opening_min == 0:
        return True
    jokers = sum(c.is_joker for c in cards)
    faces = {
        (c.rank, c.suit)
        for meld in meld_candidates(cards, max_jokers=jokers)
        for c in meld
        if not c.is_joker
    }
    bound = 11 * jokers + sum(_face_value(c) for c in cards if (c.rank, c.suit) in faces)
    return bound >= rules.opening_min


def arrange_meld(meld: NewMeld) -> tuple[tuple[Card, ...], Reading]:
    """The laying order and reading of a new meld, or ``IllegalAction("invalid_meld")``.

    The cards are read in the order given. When that is no meld of the asked kind, cards
    without a joker are put in run order; with jokers, the cards are laid as the jokers'
    stated meanings say, or in the only run order that works (``ambiguous_meld`` when
    several do).

    >>> from rummykit.cards import parse_cards
    >>> from rummykit.romme.actions import NewMeld
    >>> _codes(arrange_meld(NewMeld(tuple(parse_cards("K♥ A♥ Q♥"))))[0])
    'Q♥ K♥ A♥'
    >>> _codes(arrange_meld(NewMeld(tuple(parse_cards("7♥ JK 5♥"))))[0])
    '5♥ JK 7♥'
    """
    cards = meld.cards
    if meld.jokers:
        return _arrange_with_meanings(meld)
    reading = read_cards(cards, None, meld.kind)
    if reading is not None:
        return cards, reading
    if meld.kind != "group":
        found = _run_orders(cards)
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise IllegalAction("ambiguous_meld", cards=_codes(cards))
    raise IllegalAction("invalid_meld", cards=_codes(cards))


def new_meld_value(meld: NewMeld, rules: Rules) -> int:
    """What a new meld counts towards the opening, read and arranged as `check_play` lays it;
    raises ``IllegalAction`` (``invalid_meld``, ``ambiguous_meld``) for what it would refuse.

    >>> from rummykit.cards import parse_cards
    >>> new_meld_value(NewMeld(tuple(parse_cards("K♥ A♥ Q♥"))), Rules())
    31
    >>> new_meld_value(NewMeld(tuple(parse_cards("4♠ 4♠ 4♣"))), Rules())
    Traceback (most recent call last):
    ...
    rummykit.core.IllegalAction: invalid_meld: cards='4♠ 4♠#1 4♣'
    """
    return reading_value(arrange_meld(meld)[1], rules)


def _number(card: Card, ace_high: bool) -> int:
    assert card.rank is not None
    rank = int(card.rank)
    return 14 if ace_high and rank == 1 else rank


def _run_orders(cards: Sequence[Card]) -> list[tuple[tuple[Card, ...], Reading]]:
    """Every distinct ascending order of the cards that reads as a run."""
    naturals = [c for c in cards if not c.is_joker]
    jokers = [c for c in cards if c.is_joker]
    size = len(cards)
    if not naturals or size > 13:
        return []
    found: dict[tuple[int, ...], tuple[tuple[Card, ...], Reading]] = {}
    for ace_high in (False, True):
        ordered = sorted(naturals, key=lambda c: _number(c, ace_high))
        for slots in combinations(range(size), len(jokers)):
            laid: list[Card] = []
            joker_iter, natural_iter = iter(jokers), iter(ordered)
            for position in range(size):
                laid.append(next(joker_iter) if position in slots else next(natural_iter))
            reading = read_run(pieces(laid), CARD_MELDS)
            if reading is not None and reading.numbers not in found:
                found[reading.numbers] = (tuple(laid), reading)
            # Without jokers there is a single placement.
            if not jokers:
                break
    # The same numbers reached twice are one arrangement; different numbers are ambiguous.
    return list(found.values())


def _arrange_with_meanings(meld: NewMeld) -> tuple[tuple[Card, ...], Reading]:
    cards = meld.cards
    meanings = dict(meld.jokers)
    for joker, face in meld.jokers:
        if not joker.is_joker or joker not in cards or face.is_joker:
            raise IllegalAction("bad_joker_meaning", joker=joker.code, face=face.code)
    if len(meanings) != len(meld.jokers):
        raise IllegalAction("bad_joker_meaning", reason="a joker named twice")
    missing = [c for c in cards if c.is_joker and c not in meanings]
    if missing:
        raise IllegalAction("bad_joker_meaning", joker=missing[0].code, reason="no meaning")
    kinds: list[MeldKind] = [meld.kind] if meld.kind else ["run", "group"]
    for kind in kinds:
        if kind == "run":
            for ace_high in (False, True):

                def number(card: Card, high: bool = ace_high) -> int:
                    return _number(meanings.get(card, card), high)

                laid = tuple(sorted(cards, key=number))
                reading = read_run(pieces(laid), CARD_MELDS)
                if reading is not None and all(
                    _same_face(meanings[c], _face_at(reading, i))
                    for i, c in enumerate(laid)
                    if c.is_joker
                ):
                    return laid, reading
        else:
            reading = read_group(pieces(cards), CARD_MELDS)
            if reading is None:
                continue
            present = {c.suit for c in cards if not c.is_joker}
            faces = [meanings[c] for c in cards if c.is_joker]
            rank = Rank(reading.numbers[0])
            if len({f.suit for f in faces}) == len(faces) and all(
                f.rank == rank and f.suit not in present for f in faces
            ):
                return cards, reading
    raise IllegalAction("invalid_meld", cards=_codes(cards))


def _face_at(reading: Reading, index: int) -> Card:
    """The natural card (copy 0) that position ``index`` of a run reading stands for."""
    number = reading.numbers[index]
    colour = reading.colours[index]
    assert colour is not None
    return Card(Rank(1 if number == 14 else number), Suit(colour))


def _same_face(a: Card, b: Card) -> bool:
    return a.rank == b.rank and a.suit == b.suit
