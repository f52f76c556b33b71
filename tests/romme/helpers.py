"""Shared helpers of the Rommé engine tests: forced deals, invariants, rejections."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest

from rummykit.cards import Card, parse_cards, romme_pack
from rummykit.core import IllegalAction
from rummykit.romme import Action, Rules, State, parse_action


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def card(text: str) -> Card:
    return Card.parse(text)


def act(state: State, text: str) -> None:
    """Apply an action written in the notation, by the seat on move."""
    state.apply(parse_action(text), seat=state.to_move)


def rejected(
    state: State, action: Action | str, code: str, seat: int | None = None
) -> IllegalAction:
    """Assert that the action is refused with ``code`` and that nothing changed at all."""
    if isinstance(action, str):
        action = parse_action(action)
    before = state.dumps()
    assert not state.can_apply(action, seat=seat)
    with pytest.raises(IllegalAction) as info:
        state.apply(action, seat=seat)
    assert info.value.code == code, info.value
    assert state.dumps() == before
    return info.value


def deal(
    hands: Sequence[str],
    *,
    rules: Rules | None = None,
    dealer: int | None = None,
    stock: str = "",
    discard_pile: str = "",
    table: Sequence[tuple[int, str]] = (),
    opened: Sequence[bool] | None = None,
) -> State:
    """A game whose first round is dealt as given. Without ``dealer``, the seat before the
    first hand deals, so that the first hand given plays first."""
    players = len(hands)
    return State.from_deal(
        hands,
        rules=rules,
        dealer=players - 1 if dealer is None else dealer,
        stock=stock,
        discard_pile=discard_pile,
        table=table,
        opened=opened,
    )


UPCARD = Rules(deal_style="upcard")
"""Standard rules, but the first player draws like everyone (handy for turn tests)."""


def turn(
    hand: str,
    *,
    rules: Rules = UPCARD,
    others: Sequence[str] = ("2♦#1 5♣#1 9♠#1 K♥#1 4♥#1",),
    stock: str = "",
    discard_pile: str = "3♠#1",
    table: Sequence[tuple[int, str]] = (),
    opened: Sequence[bool] | None = None,
) -> State:
    """Seat 0 on move before drawing, with the given hand (under upcard dealing unless the
    rules say otherwise)."""
    return deal(
        [hand, *others],
        rules=rules,
        stock=stock,
        discard_pile=discard_pile,
        table=table,
        opened=opened,
    )


def all_cards(state: State) -> list[Card]:
    found = [c for hand in state.hands for c in hand]
    found += state.stock + state.discard_pile
    found += [c for meld in state.table.values() for c in meld.cards]
    return found


@cache
def pack_ids(jokers: int) -> list[int]:
    return sorted(c.id for c in romme_pack(jokers))


def check_invariants(state: State) -> None:
    """Every card in exactly one place; melds valid; sizes and scores consistent."""
    everywhere = all_cards(state)
    ids = sorted(c.id for c in everywhere)
    if ids != pack_ids(state.rules.jokers):
        counts = Counter(everywhere)
        raise AssertionError(f"cards twice: {[c for c, n in counts.items() if n > 1]}")
    for meld in state.table.values():
        assert meld.reading().kind == meld.kind
    assert len(state.round_scores) in (state.round, state.round - 1)
    totals = [sum(r[s] for r in state.round_scores) for s in range(state.players)]
    assert totals == state.scores
    if state.phase == "draw":
        assert state.stock, "a turn never starts with an empty stock"
    if state.phase in ("draw", "play", "discard"):
        assert all(state.hands[s] for s in range(state.players))
