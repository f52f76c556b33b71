"""Rummoli: a poker hand, then a stops sequence, with chips on a nine-box board.

>>> from rummykit import rummoli
>>> game = rummoli.State(rummoli.Rules(), players=4, seed=1)
>>> game.to_move == game.dealer, game.legal_actions()
(True, [SwapWidow(), KeepHand()])
>>> game.apply(rummoli.KeepHand())
>>> game.phase.value
'auction'
"""

from __future__ import annotations

from rummykit.core import GameDescriptor, describe
from rummykit.rummoli import actions, bots, poker
from rummykit.rummoli.actions import *  # noqa: F403 (the actions are the package's own API)
from rummykit.rummoli.demo import DemoHand, DemoStep, demo_hand
from rummykit.rummoli.game import Start, State, replay, replay_states
from rummykit.rummoli.hint import hint
from rummykit.rummoli.rules import (
    ANTE,
    BOXES,
    PAYING_CARDS,
    Box,
    Rules,
)
from rummykit.rummoli.view import Event, Phase, View


def _parse_action(text: str, rules: Rules) -> actions.Action:
    """A Rummoli action reads the same under any rules."""
    return actions.parse_action(text)


__all__ = [
    "ANTE",
    "BOXES",
    "GAME",
    "PAYING_CARDS",
    "Box",
    "DemoHand",
    "DemoStep",
    "Event",
    "Phase",
    "Rules",
    "Start",
    "State",
    "View",
    "demo_hand",
    "poker",
    "replay",
    "replay_states",
]
__all__ += actions.__all__

GAME: GameDescriptor[Rules, State, View, actions.Action] = describe(
    State, title="Rummoli", computers=bots.COMPUTERS, hint=hint, parse_action=_parse_action
)
"""Rummoli as the play layer, the command line and the arena see it."""
