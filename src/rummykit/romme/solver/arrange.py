"""The solver's questions about a hand, answered exactly, as arrangements of physical cards.

- `best_melds`: the new melds with the highest laid value (or the least penalty left);
- `best_opening`: the best first melding that reaches the opening minimum under the house rules;
- `best_turn`: the best melding of a whole turn, lay-offs and joker exchanges included;
- `going_out`: an arrangement that empties the hand this turn (but for the discard), if any;
- `can_use_card`: whether a card taken from the discard pile can be used this turn.

>>> from rummykit.cards import parse_cards, format_cards
>>> a = best_melds(parse_cards("J♣ Q♣ K♣ 9♥ 9♦ JK 4♠"))
>>> [format_cards(m) for m in a.melds], format_cards(a.left), a.value
(['J♣ Q♣ K♣', '9♥ 9♦ JK'], '4♠', 57)
>>> a.play()
Play.parse('play run[J♣ Q♣ K♣] group[9♥ 9♦ JK]')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rummykit.cards import Card, sort_cards
from rummykit.core import IllegalAction
from rummykit.romme.actions import Exchange, LayOff, NewMeld, Play
from rummykit.romme.rules import (
    DEFAULT_RULES,
    Rules,
    TableMeld,
    hand_penalty,
    meld_value,
    read_cards,
)
from rummykit.romme.solver.candidates import (
    JOKER,
    encode,
    face_of,
    join_runs,
    may_meld,
    meld_table,
)
from rummykit.romme.solver.search import Objective, Problem, Solution, solve, value_bound
from rummykit.romme.solver.table import (
    TABLE,
    exchangeable,
    option_cards,
    table_options,
    takes_face,
)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Cards of a hand arranged for one turn, ready to become a `Play` (`play()`).

    ``melds``: new melds, each in laying order (a run ascending). ``changed``: the table melds
    this turn changes, as ``(meld id, final cards)``; ``layoffs`` and ``exchanges`` are the
    same changes as the engine's actions. ``left``: the cards that stay in hand. ``value``: the
    value of the new melds; ``penalty``: what ``left`` would cost at the end of the round.
    """

    melds: tuple[tuple[Card, ...], ...]
    left: tuple[Card, ...]
    value: int
    penalty: int
    changed: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    layoffs: tuple[LayOff, ...] = ()
    exchanges: tuple[Exchange, ...] = ()

    @property
    def is_empty(self) -> bool:
        """Whether nothing is laid."""
        return not (self.melds or self.layoffs or self.exchanges)

    def play(self) -> Play | None:
        """The `Play` action of this arrangement (``None`` when nothing is laid)."""
        if self.is_empty:
            return None
        melds = []
        for cards in self.melds:
            reading = read_cards(cards)
            assert reading is not None
            melds.append(NewMeld(cards, reading.kind))
        return Play(tuple(melds), self.layoffs, self.exchanges)


def best_melds(
    cards: Sequence[Card],
    rules: Rules = DEFAULT_RULES,
    objective: Objective = "value",
    *,
    keep_one: bool = False,
) -> Arrangement:
    """The new melds with the highest total value (``objective="value"``), the lowest penalty
    left in hand (``"penalty"``) or the most cards laid (``"cards"``).

    ``keep_one`` keeps at least one card in hand (for the discard). Ties are broken by the
    other of value and penalty.

    >>> from rummykit.cards import parse_cards, format_cards
    >>> a = best_melds(parse_cards("5♥ 6♥ 7♥ 7♠ 7♣ JK"), objective="penalty", keep_one=True)
    >>> [format_cards(m) for m in a.melds], format_cards(a.left), a.penalty
    (['7♣ 7♠ 7♥ JK'], '5♥ 6♥', 11)
    """
    counts, jokers = encode(list(cards))
    problem = Problem(meld_table(rules), counts, jokers, objective, keep_one=keep_one)
    solution = solve(problem)
    assert solution is not None  # laying nothing is always possible
    return _arrangement(cards, solution, rules, (), None, split=False)


def best_opening(
    cards: Sequence[Card],
    rules: Rules = DEFAULT_RULES,
    objective: Objective = "value",
    *,
    must_include: Card | None = None,
    table: Sequence[TableMeld] = (),
    picked: Card | None = None,
) -> Arrangement | None:
    """The best first melding reaching ``rules.opening_min`` from new melds, or ``None``.

    House rules apply (``opening_requires_run``, ``opening_without_jokers``); under
    ``go_out="discard"`` a card is kept for the discard. ``must_include`` must be melded.
    ``picked`` is the card taken from the discard pile this turn (see `best_turn`). With
    ``layoff_on_opening_turn`` and a ``table``, lay-offs and joker exchanges may come with the
    opening; they do not count towards it, and neither does a new meld holding a freed joker.

    >>> from rummykit.cards import parse_cards
    >>> best_opening(parse_cards("9♥ 9♦ JK 2♣")) is None
    True
    >>> best_opening(parse_cards("J♣ Q♣ K♣ 2♣")).value
    30
    """
    return _turn(cards, rules, objective, False, table, must_include, picked, empty_ok=False)


def best_turn(
    cards: Sequence[Card],
    rules: Rules = DEFAULT_RULES,
    objective: Objective = "penalty",
    *,
    opened: bool,
    table: Sequence[TableMeld] = (),
    must_include: Card | None = None,
    picked: Card | None = None,
    new_melds: bool = True,
) -> Arrangement | None:
    """The best melding of a whole turn: new melds, lay-offs and joker exchanges, or, not yet
    opened, the best opening (an empty arrangement when there is none). With ``new_melds=False``
    (once opened) only lay-offs and joker exchanges are considered.

    ``picked``: the card taken from the discard pile this turn. Under ``discard_pickup=
    "must_use"`` it must be used (as ``must_include``); in any case it may not be the one card
    left for the discard. ``None`` only when a card that must be used cannot be.
    """
    return _turn(
        cards,
        rules,
        objective,
        opened,
        table,
        must_include,
        picked,
        empty_ok=True,
        new_melds=new_melds or not opened,
    )


def going_out(
    cards: Sequence[Card],
    rules: Rules = DEFAULT_RULES,
    *,
    opened: bool,
    table: Sequence[TableMeld] = (),
    must_include: Card | None = None,
    picked: Card | None = None,
) -> Arrangement | None:
    """An arrangement that goes out this turn, or ``None``: every card laid but the one to
    discard (``go_out="discard"``), or every card or all but one (``"meld"``). Not yet
    opened, this is Hand-Rommé: the melds must also make the opening.

    >>> from rummykit.cards import parse_cards
    >>> going_out(parse_cards("J♣ Q♣ K♣ 9♥ 9♦ 9♠ 2♣"), opened=False).left
    (Card.parse('2♣'),)
    """
    found = _turn(cards, rules, "cards", opened, table, must_include, picked, empty_ok=False)
    if found is None or len(found.left) > 1:
        return None
    return found


def can_use_card(
    hand: Sequence[Card],
    card: Card,
    table: Sequence[TableMeld],
    rules: Rules,
    opened: bool,
) -> bool:
    """Whether ``card`` (the top of the discard pile) can be used this turn with ``hand``.

    Not yet opened, it must be part of the opening's new melds; once opened, it may go into a
    new meld, onto a table meld, or replace a joker (which must then be laid again). A card
    must remain for the discard under ``go_out="discard"``.

    >>> from rummykit.cards import Card, parse_cards
    >>> can_use_card(parse_cards("J♣ Q♣ 2♥"), Card.parse("K♣"), [], Rules(), opened=False)
    True
    >>> can_use_card(parse_cards("9♥ 9♦ 2♥"), Card.parse("JK"), [], Rules(), opened=False)
    False
    """
    cards = list(hand) if card in hand else [*hand, card]
    # What `_turn` would search for (the card both picked and to be used), only whether.
    return _feasible(_Ask(cards, rules, opened, table, card, None))


@dataclass(frozen=True, slots=True)
class _Ask:
    """What one turn's searches share: the hand, the rules and the table, the card that must
    be used and the one that may not be the card kept (settled once by `_turn`)."""

    cards: Sequence[Card]
    rules: Rules
    opened: bool
    table: Sequence[TableMeld]
    must_include: Card | None
    no_keep: Card | None
    new_melds: bool = True


def _turn(
    cards: Sequence[Card],
    rules: Rules,
    objective: Objective,
    opened: bool,
    table: Sequence[TableMeld],
    must_include: Card | None,
    picked: Card | None,
    *,
    empty_ok: bool,
    new_melds: bool = True,
) -> Arrangement | None:
    if picked is not None and picked not in cards:
        picked = None
    if picked is not None and rules.discard_pickup == "must_use" and must_include is None:
        must_include = picked
    no_keep = picked if picked is not None and picked != must_include else None
    ask = _Ask(cards, rules, opened, table, must_include, no_keep, new_melds)
    # Often nothing meets the constraints (no opening yet): that is quicker to prove first.
    found = _solve(ask, objective) if must_include is None or _feasible(ask) else None
    if (
        found is not None
        and no_keep is not None
        and rules.go_out == "meld"
        and found.left == (no_keep,)
    ):
        # Under "meld" the hand may empty, but the picked card may not be the one discarded:
        # either it is laid too, or another card is kept for the discard.
        laid = _solve(replace(ask, must_include=no_keep, no_keep=None), objective)
        kept = _solve(
            replace(ask, rules=rules.replace(go_out="discard"), must_include=None), objective
        )
        options = [a for a in (laid, kept) if a is not None]
        found = max(options, key=lambda a: _score(a, cards, rules, objective), default=None)
    if found is None and empty_ok and must_include is None:
        return _arrangement(cards, Solution(0), rules, table, None, split=False)
    return found


def _score(arrangement: Arrangement, cards: Sequence[Card], rules: Rules, objective: str) -> int:
    if objective == "value":
        return arrangement.value
    if objective == "penalty":
        return -arrangement.penalty
    if objective == "fewest":
        return len(arrangement.left)
    return len(cards) - len(arrangement.left)


def _solve(ask: _Ask, objective: Objective) -> Arrangement | None:
    solution, split = _search(ask, objective)
    if solution is None:
        return None
    first = ask.must_include or ask.no_keep
    return _arrangement(
        ask.cards, solution, ask.rules, ask.table, first, split=split and not ask.opened
    )


def _feasible(ask: _Ask) -> bool:
    """Whether `_solve` finds anything, answered without looking for the best: new melds
    alone first (any such arrangement is one of the turn's too), then with the table."""
    cards, rules, opened, table = ask.cards, ask.rules, ask.opened, ask.table
    must_include, new_melds = ask.must_include, ask.new_melds
    may_touch_table = bool(table) and (opened or rules.layoff_on_opening_turn)
    if must_include is not None and not must_include.is_joker:
        # The card that must be used needs a new meld that can hold it (with every joker
        # the table could free) or, once opened, a table meld that can take it.
        counts, jokers = encode(list(cards))
        face = face_of(must_include)
        frees = exchangeable(table, counts) if may_touch_table else 0
        if not (new_melds and may_meld(meld_table(rules), counts, jokers + frees, face)) and not (
            opened and may_touch_table and takes_face(table, counts, jokers, rules, face)
        ):
            return False
    # Not yet opened, the table helps only with the jokers exchanges free (lay-offs never
    # help an opening): without any, the first pass was the whole question.
    helps = may_touch_table and (opened or exchangeable(table, encode(list(cards))[0]) > 0)
    for with_table in (False, True) if helps else (False,):
        solution, _split = _search(ask, "cards", with_table=with_table, first=True)
        if solution is not None:
            return True
    return False


def _search(
    ask: _Ask, objective: Objective, *, with_table: bool = True, first: bool = False
) -> tuple[Solution | None, bool]:
    """The solver's solution and whether freed jokers may not count for the opening."""
    cards, rules, opened, table = ask.cards, ask.rules, ask.opened, ask.table
    must_include, no_keep = ask.must_include, ask.no_keep
    if len(set(cards)) != len(cards):
        # Each physical card exists once; a card listed twice would overflow the face counts.
        twice = sorted({c.code for c in cards if list(cards).count(c) > 1})
        raise IllegalAction("duplicate_card", cards=" ".join(twice))
    counts, jokers = encode(list(cards))
    may_touch_table = (opened or rules.layoff_on_opening_turn) and with_table
    if not opened and rules.opening_min > 0:
        # Not even the best new melds would open (the melds that count hold only the hand's
        # own jokers): there is nothing to search, and the table's options need not be listed.
        usable = jokers if not rules.opening_without_jokers else 0
        if value_bound(meld_table(rules), counts, usable) < rules.opening_min:
            return None, False
    options = table_options(table, counts, jokers, rules) if may_touch_table and table else []
    split = not opened and any(o.jokers_out for o in options)
    must_joker = must_include is not None and must_include.is_joker
    problem = Problem(
        meld_table(rules),
        counts,
        jokers,
        objective,
        need=0 if opened else rules.opening_min,
        require_run=not opened and rules.opening_requires_run,
        require_meld=not opened,
        keep_one=rules.go_out == "discard",
        no_keep_face=face_of(no_keep) if no_keep is not None and not no_keep.is_joker else -1,
        no_keep_joker=no_keep is not None and no_keep.is_joker,
        must_face=face_of(must_include) if must_include is not None and not must_joker else -1,
        # Not yet opened, a card that must be used must be part of the opening's melds.
        must_on_table=opened,
        must_joker=must_joker and not opened,
        jokers_left_max=jokers - 1 if must_joker and opened else None,
        new_meld_jokers=opened or not rules.opening_without_jokers,
        table_options=options,
        freed_not_own=split,
        new_melds=ask.new_melds,
        first=first,
    )
    return solve(problem), split


def _arrangement(
    cards: Sequence[Card],
    solution: Solution,
    rules: Rules,
    table: Sequence[TableMeld],
    first: Card | None,
    *,
    split: bool,
) -> Arrangement:
    """Physical cards for a solution. ``first`` is laid before any other card of its face (a
    card that must be used, or that may not be kept); freed jokers are laid before the hand's
    own, and on an opening turn only into melds that do not count for the opening."""
    naturals: dict[int, list[Card]] = {}
    own: list[Card] = []
    # Pools are popped from the end.
    for card in sorted(cards, key=lambda c: (c == first, -c.id)):
        if card.is_joker:
            own.append(card)
        else:
            naturals.setdefault(face_of(card), []).append(card)
    freed = [
        c
        for option in solution.options
        for i, c in enumerate(table[option.meld].cards)
        if c.is_joker and (TABLE, i) not in option.layout
    ]
    meld_jokers = _assign_jokers(solution, own, freed, first, split)
    melds = [
        [pool.pop() if f == JOKER else naturals[f].pop() for f in p.layout]
        for p, pool in zip(solution.melds, meld_jokers[: len(solution.melds)], strict=True)
    ]
    changed: list[tuple[int, tuple[Card, ...]]] = []
    layoffs: list[LayOff] = []
    exchanges: list[Exchange] = []
    for option, pool in zip(solution.options, meld_jokers[len(solution.melds) :], strict=True):
        meld = table[option.meld]
        final = option_cards(option, meld, naturals, pool)
        changed.append((meld.id, tuple(final)))
        meld_exchanges, meld_layoffs = _changes(meld, final)
        exchanges += meld_exchanges
        layoffs += meld_layoffs
    freed_all = {c for m in table for c in m.cards if c.is_joker}
    melds = join_runs(melds, apart=freed_all)
    left = sort_cards([c for cs in naturals.values() for c in cs] + own + freed)
    return Arrangement(
        melds=tuple(tuple(m) for m in melds),
        left=tuple(left),
        value=sum(meld_value(m, rules) for m in melds),
        penalty=hand_penalty(left, rules),
        changed=tuple(changed),
        layoffs=tuple(layoffs),
        exchanges=tuple(exchanges),
    )


def _assign_jokers(
    solution: Solution, own: list[Card], freed: list[Card], first: Card | None, split: bool
) -> list[list[Card]]:
    """Which physical jokers go into each meld, then each table option (popped from the end).

    Jokers are taken out of ``own`` and ``freed``; what remains there stays in the hand.
    """
    needs = [p.jokers for p in solution.melds] + [o.jokers_in for o in solution.options]
    pools: list[list[Card]] = [[] for _ in needs]
    items = range(len(needs))
    melds = len(solution.melds)
    if split:
        counted = [i < melds and solution.own[i] for i in items]
        # The must-use joker goes into a meld (the opening's own melds are preferred).
        if first is not None and first.is_joker and first in own:
            targets = [i for i in items if i < melds and counted[i] and needs[i]]
            targets += [i for i in items if i < melds and not counted[i] and needs[i] > 1]
            if targets:
                own.remove(first)
                pools[targets[0]].append(first)
        for i in items:
            if counted[i]:
                while len(pools[i]) < needs[i]:
                    pools[i].append(own.pop())
        freed_set = set(freed)
        for i in items:
            if i < melds and not counted[i] and freed_set.isdisjoint(pools[i]):
                pools[i].append(freed.pop())
        for i in items:
            while len(pools[i]) < needs[i]:
                pools[i].append(freed.pop() if freed else own.pop())
    else:
        for i in items:
            while len(pools[i]) < needs[i]:
                pools[i].append(freed.pop() if freed else own.pop())
    return pools


def _changes(meld: TableMeld, final: list[Card]) -> tuple[list[Exchange], list[LayOff]]:
    """The exchanges and lay-offs (in an order the engine accepts) turning ``meld`` into
    ``final``."""
    removed = [c for c in meld.cards if c not in final]
    added = [c for c in final if c not in meld.cards]
    if meld.kind == "group":
        naturals = [c for c in added if not c.is_joker]
        exchanges = [
            Exchange(meld.id, joker, card) for joker, card in zip(removed, naturals, strict=False)
        ]
        swapped = {x.card for x in exchanges}
        return exchanges, [LayOff(c, meld.id) for c in added if c not in swapped]
    before = meld.reading()
    after = read_cards(final, None, "run")
    assert after is not None
    offset = before.numbers[0] - after.numbers[0]
    core = final[offset : offset + len(meld.cards)]
    exchanges = [
        Exchange(meld.id, old, new) for old, new in zip(meld.cards, core, strict=True) if old != new
    ]
    low = [LayOff(c, meld.id, "low") for c in reversed(final[:offset])]
    high = [LayOff(c, meld.id, "high") for c in final[offset + len(meld.cards) :]]
    return exchanges, low + high
