"""Legal moves seen from a `View`: what a computer player (or a page) may do next.

Nothing here reads a game state. Draws and discards are listed exactly (`simple_actions`);
plays are too many to list, so `meld_candidates` enumerates melds a hand can form and
`random_play` builds a random legal play from them, checked by the engine's own `check_play`.
The exact best play is the solver's business (`rummykit.romme.solver`).

>>> from rummykit.cards import parse_cards
>>> [" ".join(c.code for c in m) for m in meld_candidates(parse_cards("5♥ 6♥ 7♥ 7♠ 7♦"))]
['7♠ 7♥ 7♦', '5♥ 6♥ 7♥']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from rummykit.cards import Card
from rummykit.core import IllegalAction
from rummykit.romme.actions import (
    Action,
    Discard,
    Draw,
    Exchange,
    LayOff,
    NewMeld,
    NextRound,
    Play,
    RunEnd,
)
from rummykit.romme.rules import Rules, TableMeld, joker_stands_for, meld_value
from rummykit.romme.turn import (
    TurnContext,
    check_play,
    meld_candidates,
    try_lay_off,
)
from rummykit.romme.view import View


def next_round_or_turn(view: View) -> NextRound | None:
    """What a computer player does before thinking: ``NextRound`` once a round is counted,
    None when its seat is on move; refused when the game is over or another seat is awaited."""
    if view.phase == "round_over":
        return NextRound()
    if view.phase == "game_over":
        raise IllegalAction("game_over")
    view.seat_on_move()
    return None


def simple_actions(view: View) -> list[Action]:
    """Every legal draw, discard or next-round step for the viewing seat (plays excluded)."""
    if view.phase == "round_over":
        return [NextRound()]
    if view.phase == "game_over" or view.seat is None or view.seat != view.to_move:
        return []
    if view.phase == "draw":
        found: list[Action] = [Draw("stock")]
        if view.discard_pile and (view.rules.discard_pickup == "free" or view.can_take_discard):
            found.append(Draw("discard"))
        return found
    if picked_unused(view):
        return []
    return [Discard(c) for c in view.hand if c != view.picked]


def picked_unused(view: View) -> bool:
    """Whether the card taken from the discard pile must still be used before discarding."""
    return (
        view.rules.discard_pickup == "must_use"
        and view.picked is not None
        and view.picked in view.hand
    )


def exchange_options(hand: Sequence[Card], table: Sequence[TableMeld]) -> list[Exchange]:
    """Every joker on the table that a natural card of the hand may replace."""
    found = []
    for meld in table:
        reading = meld.reading()
        for index, joker in enumerate(meld.cards):
            if not joker.is_joker:
                continue
            faces = {(f.rank, f.suit) for f in joker_stands_for(meld.cards, index, reading)}
            found += [
                Exchange(meld.id, joker, c)
                for c in hand
                if not c.is_joker and (c.rank, c.suit) in faces
            ]
    return found


def random_play(
    ctx: TurnContext, rng: random.Random, attempts: int = 6, require: Card | None = None
) -> Play | None:
    """A random legal play for the player on move, or ``None`` when none was found.

    Each attempt lays a random set of disjoint candidate melds, then random lay-offs and
    exchanges when the player may; the engine's `check_play` keeps only legal ones. With
    ``require``, only plays that use that card are tried.
    """
    hand = list(ctx.hand)
    candidates = meld_candidates(hand, max_jokers=2)
    if not ctx.opened:
        # An opening is new melds worth the minimum: give up at once when even every card
        # that appears in some candidate meld could not reach it.
        cards = {c for meld in candidates for c in meld}
        if not candidates or sum(_value_bound(c) for c in cards) < ctx.rules.opening_min:
            return None
    may_add = ctx.opened or ctx.rules.layoff_on_opening_turn
    exchanges = exchange_options(hand, list(ctx.table.values())) if may_add else []
    if require is not None:
        with_card = [m for m in candidates if require in m]
        others = [m for m in candidates if require not in m]
    for _ in range(attempts):
        melds: list[tuple[Card, ...]] = []
        taken: set[Card] = set()
        if require is not None:
            pool = rng.sample(with_card, len(with_card)) + rng.sample(others, len(others))
        else:
            pool = rng.sample(candidates, len(candidates))
        keep = rng.random()
        for meld in pool:
            if taken.isdisjoint(meld) and (not melds or rng.random() < keep + 0.3):
                melds.append(meld)
                taken.update(meld)
        if not ctx.opened and sum(meld_value(m) for m in melds) < ctx.rules.opening_min:
            continue
        play = Play(tuple(NewMeld(m) for m in melds))
        if may_add:
            play = _add_exchanges(play, ctx, exchanges, taken, rng)
            play = _add_layoffs(play, ctx, taken, rng)
        for candidate in _trimmed(play):
            try:
                check_play(candidate, ctx)
            except IllegalAction:
                continue
            return candidate
    return None


def _table_after(play: Play, ctx: TurnContext) -> dict[int, TableMeld] | None:
    """The table after a partial play, checked without the rules that only the finished play
    must meet (opening, keeping a card, using the picked card)."""
    try:
        return check_play(play, replace(ctx, rules=_lenient(ctx.rules), picked=None)).table
    except IllegalAction:
        return None


@lru_cache(maxsize=64)
def _lenient(rules: Rules) -> Rules:
    return rules.replace(
        go_out="meld",
        discard_pickup="free",
        opening_min=0,
        opening_requires_run=False,
        opening_without_jokers=False,
    )


def _add_exchanges(
    play: Play,
    ctx: TurnContext,
    options: list[Exchange],
    taken: set[Card],
    rng: random.Random,
) -> Play:
    """Add one exchange whose freed joker can be laid off onto a meld already on the table
    (exchanges come first in a play, so the table is the one before this turn)."""
    if not options or rng.random() < 0.5:
        return play
    for exchange in rng.sample(options, len(options)):
        if exchange.card in taken:
            continue
        meld = ctx.table[exchange.meld]
        index = meld.cards.index(exchange.joker)
        cards = (*meld.cards[:index], exchange.card, *meld.cards[index + 1 :])
        table = dict(ctx.table)
        table[meld.id] = replace(meld, cards=cards)
        spots = [
            layoff for target in table.values() for layoff, _ in _extensions(target, exchange.joker)
        ]
        if spots:
            taken.add(exchange.card)
            return replace(
                play,
                exchanges=(*play.exchanges, exchange),
                layoffs=(*play.layoffs, rng.choice(spots)),
            )
    return play


def _add_layoffs(play: Play, ctx: TurnContext, taken: set[Card], rng: random.Random) -> Play:
    rate = rng.random()
    if play.melds or play.exchanges:
        after = _table_after(play, replace(ctx, opened=True))
        if after is None:
            return play
        table = after
    else:
        table = dict(ctx.table)
    free = [c for c in ctx.hand if c not in taken]
    rng.shuffle(free)
    # Lay-offs apply one after the other, each onto the table as the previous ones left it.
    layoffs = list(play.layoffs)
    for card in free:
        if rng.random() > rate:
            continue
        options = [
            (layoff, extended)
            for meld in table.values()
            for layoff, extended in _extensions(meld, card)
        ]
        if not options:
            continue
        layoff, extended = rng.choice(options)
        layoffs.append(layoff)
        table[extended.id] = extended
        taken.add(card)
    return replace(play, layoffs=tuple(layoffs))


def _extensions(meld: TableMeld, card: Card) -> list[tuple[LayOff, TableMeld]]:
    ends: tuple[RunEnd | None, ...] = (None,) if meld.kind == "group" else ("low", "high")
    found = []
    for end in ends:
        extended = try_lay_off(meld, card, end)
        if extended is not None:
            found.append((LayOff(card, meld.id, end), extended))
    return found


def _value_bound(card: Card) -> int:
    """The most a card can be worth in a meld (a joker: an ace)."""
    if card.rank is None:
        return 11
    rank = int(card.rank)
    return 11 if rank == 1 else min(rank, 10)


def _trimmed(play: Play) -> list[Play]:
    """The play, then versions with fewer lay-offs and melds (to keep a card for the discard
    or to respect the opening rules)."""
    found = [play]
    layoffs = list(play.layoffs)
    # Lay-offs of freed jokers stay with their exchanges.
    freed = {x.joker for x in play.exchanges}
    plain = [lo for lo in layoffs if lo.card not in freed]
    for cut in range(1, len(plain) + 1):
        kept = tuple(lo for lo in layoffs if lo.card in freed) + tuple(plain[: len(plain) - cut])
        found.append(replace(play, layoffs=kept))
    if play.exchanges:
        found.append(Play(play.melds, tuple(plain)))
        found.append(Play(play.melds))
    for cut in range(1, len(play.melds)):
        found.append(Play(play.melds[: len(play.melds) - cut]))
    return [p for p in found if p.melds or p.layoffs or p.exchanges]
