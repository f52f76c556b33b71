"""Helpers for the tile-rummy tests: positions written in the notation, plays by face."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rummykit.core import IllegalAction
from rummykit.tiles.actions import Action, Play, resolve_play
from rummykit.tiles.game import State
from rummykit.tiles.rules import Rules


def position(
    racks: Sequence[str],
    table: str = "",
    *,
    rules: Rules | None = None,
    opened: Sequence[bool] | None = None,
    to_move: int = 0,
    pool: str | None = None,
    seed: int = 0,
) -> State:
    """A first round set up as written; by default everyone has opened when the table holds
    sets."""
    return State.from_position(
        list(racks), table, rules=rules, pool=pool, to_move=to_move, opened=opened, seed=seed
    )


def by_face(state: State, text: str) -> Play:
    """The play written by faces, its copies taken from the table, then the mover's rack."""
    assert state.to_move is not None
    return resolve_play(text, state.table, state.racks[state.to_move], state.rules)


def accepts(state: State, text: str) -> dict[str, object]:
    """Apply the play and return its public event."""
    state.apply(by_face(state, text))
    event = state.log[-1] if state.log[-1]["code"] == "play" else state.log[-2]
    for e in reversed(state.log):
        if e["code"] == "play":
            event = e
            break
    return dict(event)


def rejects(state: State, action: Action | str, code: str, seat: int | None = None) -> None:
    """The action is refused with ``code`` and the state, serialised whole, does not change."""
    before = state.dumps()
    if isinstance(action, str):
        try:
            action = by_face(state, action)
        except IllegalAction as err:  # a set that breaks the rules is refused when read
            assert err.code == code, err
            assert state.dumps() == before
            return
    assert not state.can_apply(action, seat)
    with pytest.raises(IllegalAction) as caught:
        state.apply(action, seat)
    assert caught.value.code == code, caught.value
    assert state.dumps() == before
