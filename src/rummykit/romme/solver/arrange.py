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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummykit.cards import Card, sort_cards
from rummykit.romme.rules import DEFAULT_RULES, Rules, TableMeld, hand_penalty, meld_value
from rummykit.romme.solver.candidates import encode, face_of, join_runs, meld_table
from rummykit.romme.solver.search import Objective, Problem, Solution, solve
from rummykit.romme.solver.table import TABLE, option_cards, table_options


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Cards of a hand arranged for one turn.

    ``melds``: new melds, each in laying order (a run ascending). ``table``: the table melds
    this turn changes, as ``(meld id, final cards)`` — the lay-offs are the hand cards in the
    final meld, the exchanges the jokers missing from it. ``left``: the cards that stay in hand.
    ``value``: the value of the new melds (what counts for an opening); ``penalty``: what
    ``left`` would cost at the end of the round.
    """

    melds: tuple[tuple[Card, ...], ...]
    left: tuple[Card, ...]
    value: int
    penalty: int
    table: tuple[tuple[int, tuple[Card, ...]], ...] = ()

    def layoffs(self, table: Sequence[TableMeld]) -> list[tuple[int, Card]]:
        """``(meld id, card)`` for every card this arrangement adds to a table meld."""
        before = {m.id: set(m.cards) for m in table}
        return [(mid, c) for mid, cards in self.table for c in cards if c not in before[mid]]

    def exchanges(self, table: Sequence[TableMeld]) -> list[tuple[int, Card]]:
        """``(meld id, joker)`` for every joker this arrangement takes off a table meld."""
        after = {mid: set(cards) for mid, cards in self.table}
        return [
            (m.id, c)
            for m in table
            if m.id in after
            for c in m.cards
            if c.is_joker and c not in after[m.id]
        ]


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
    >>> a = best_melds(parse_cards("5♥ 6♥ 7♥ 7♠ 7♣ JK"), objective="penalty")
    >>> [format_cards(m) for m in a.melds], a.penalty
    ([...], 0)
    """
    counts, jokers = encode(list(cards))
    problem = Problem(meld_table(rules), counts, jokers, objective, keep_one=keep_one)
    solution = solve(problem)
    assert solution is not None  # laying nothing is always possible
    return _arrangement(cards, solution, rules, ())


def best_opening(
    cards: Sequence[Card],
    rules: Rules = DEFAULT_RULES,
    objective: Objective = "value",
    *,
    must_include: Card | None = None,
    table: Sequence[TableMeld] = (),
) -> Arrangement | None:
    """The best first melding reaching ``rules.opening_min`` from new melds, or ``None``.

    House rules apply (``opening_requires_run``, ``opening_without_jokers``); under
    ``go_out="discard"`` a card is kept for the discard. ``must_include`` must be melded (a
    card taken from the discard pile). With ``layoff_on_opening_turn`` and a ``table``, lay-offs
    may follow the opening (they do not count towards it).

    >>> from rummykit.cards import parse_cards
    >>> best_opening(parse_cards("9♥ 9♦ JK 2♣")) is None
    True
    >>> best_opening(parse_cards("J♣ Q♣ K♣ 2♣")).value
    30
    """
    return _solve(
        cards,
        rules,
        objective,
        opened=False,
        must_include=must_include,
        table=table,
        empty_ok=False,
    )


def best_turn(
    cards: Sequence[Card],
    rules: Rules = DEFAULT_RULES,
    objective: Objective = "penalty",
    *,
    opened: bool,
    table: Sequence[TableMeld] = (),
    must_include: Card | None = None,
) -> Arrangement | None:
    """The best melding of a whole turn: new melds, lay-offs and joker exchanges (once opened),
    or the best opening (not yet opened). ``None`` only when ``must_include`` cannot be used;
    an arrangement without melds means "lay nothing".
    """
    if not opened:
        found = best_opening(cards, rules, objective, must_include=must_include, table=table)
        if found is not None or must_include is not None:
            return found
        return _arrangement(cards, Solution(0), rules, table)
    return _solve(
        cards,
        rules,
        objective,
        opened=True,
        must_include=must_include,
        table=table,
        empty_ok=True,
    )


def going_out(
    cards: Sequence[Card],
    rules: Rules = DEFAULT_RULES,
    *,
    opened: bool,
    table: Sequence[TableMeld] = (),
    must_include: Card | None = None,
) -> Arrangement | None:
    """An arrangement that goes out this turn, or ``None``: all cards laid but the one to
    discard (``go_out="discard"``), or all cards (``"meld"``, where a discard may still follow
    if one card is left). Not yet opened, this is Hand-Rommé: the melds must also open.
    """
    found = best_turn(cards, rules, "cards", opened=opened, table=table, must_include=must_include)
    if found is None:
        return None
    if len(found.left) <= 1:
        return found
    return None


def can_use_card(
    hand: Sequence[Card],
    card: Card,
    table: Sequence[TableMeld],
    rules: Rules,
    opened: bool,
) -> bool:
    """Whether ``card`` (the top of the discard pile) can be used this turn with ``hand``.

    Not yet opened, it must be part of an opening from new melds; once opened, it may go into a
    new meld, onto a table meld, or replace a joker (which must then be laid again). Under
    ``go_out="discard"`` a card must remain for the discard.

    >>> from rummykit.cards import Card, parse_cards
    >>> can_use_card(parse_cards("J♣ Q♣ 2♥"), Card.parse("K♣"), [], Rules(), opened=False)
    True
    >>> can_use_card(parse_cards("9♥ 9♦ 2♥"), Card.parse("JK"), [], Rules(), opened=False)
    False
    """
    cards = list(hand) if card in hand else [*hand, card]
    return (
        _solve(
            cards,
            rules,
            "cards",
            opened=opened,
            must_include=card,
            table=table if opened else (),
            empty_ok=False,
        )
        is not None
    )


def _solve(
    cards: Sequence[Card],
    rules: Rules,
    objective: Objective,
    *,
    opened: bool,
    must_include: Card | None,
    table: Sequence[TableMeld],
    empty_ok: bool,
) -> Arrangement | None:
    counts, jokers = encode(list(cards))
    use_table = opened or rules.layoff_on_opening_turn
    options = table_options(table, counts, jokers, rules) if use_table and table else []
    if not opened:
        # Before opening no joker may be exchanged; lay-offs only follow the opening.
        options = [o for o in options if o.jokers_out == 0]
    must_joker = must_include is not None and must_include.is_joker
    problem = Problem(
        meld_table(rules),
        counts,
        jokers,
        objective,
        need=0 if opened else max(rules.opening_min, 0),
        require_run=not opened and rules.opening_requires_run,
        keep_one=rules.go_out == "discard",
        must_face=face_of(must_include) if must_include is not None and not must_joker else -1,
        new_meld_jokers=opened or not rules.opening_without_jokers,
        table_options=options,
        # Not yet opened, the card must be part of the opening itself.
        must_joker=must_joker and not opened,
        must_on_table=opened,
        require_meld=not opened,
        jokers_left_max=jokers - 1 if must_joker and opened else None,
    )
    solution = solve(problem)
    if solution is None:
        return None
    if not opened and not solution.melds:
        return _arrangement(cards, solution, rules, table) if empty_ok else None
    return _arrangement(cards, solution, rules, table, must_include)


def _arrangement(
    cards: Sequence[Card],
    solution: Solution,
    rules: Rules,
    table: Sequence[TableMeld],
    must_include: Card | None = None,
) -> Arrangement:
    # Pools are popped from the end: the must-include card first; freed jokers before the
    # hand's own, so that a joker taken off the table is always laid again.
    naturals: dict[int, list[Card]] = {}
    own_jokers: list[Card] = []
    for card in sorted(cards, key=lambda c: (c == must_include, -c.id), reverse=False):
        if card.is_joker:
            own_jokers.append(card)
        else:
            naturals.setdefault(face_of(card), []).append(card)
    freed = [
        c
        for option in solution.options
        for i, c in enumerate(table[option.meld].cards)
        if c.is_joker and (TABLE, i) not in option.layout
    ]
    jokers = own_jokers + freed
    melds = [p.cards(naturals, jokers) for p in solution.melds]
    changed = [
        (table[o.meld].id, tuple(option_cards(o, table[o.meld], naturals, jokers)))
        for o in solution.options
    ]
    melds = join_runs(melds)
    left = sort_cards([c for cs in naturals.values() for c in cs] + jokers)
    return Arrangement(
        melds=tuple(tuple(m) for m in melds),
        left=tuple(left),
        value=sum(meld_value(m, rules) for m in melds),
        penalty=hand_penalty(left, rules),
        table=tuple(changed),
    )
