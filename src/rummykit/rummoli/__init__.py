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

from typing import get_args

from rummykit.core import GameDescriptor, describe
from rummykit.rummoli import actions, bots, poker
from rummykit.rummoli.actions import *  # noqa: F403 (the actions are the package's own API)
from rummykit.rummoli.demo import DemoHand, DemoStep, demo_hand
from rummykit.rummoli.game import Start, State, replay, replay_states
from rummykit.rummoli.hint import hint
from rummykit.rummoli.rules import (
    ANTE,
    BOXES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PAYING_CARDS,
    PRESETS,
    Box,
    Rules,
)
from rummykit.rummoli.view import Event, Phase, View

GAME: GameDescriptor[Rules, State, View, actions.Action] = describe(
    title="Rummoli",
    rules=Rules,
    state=State,
    view=View,
    actions=get_args(actions.Action),
    players=(MIN_PLAYERS, MAX_PLAYERS),
    presets=PRESETS,
    levels=bots.LEVELS,
    default_level="hard",
    make_bot=bots.make_bot,
    fallback_action=bots.fallback_action,
    hint=hint,
    parse_action=lambda text, rules: actions.parse_action(text),
)
"""Rummoli as the play layer, the command line and the arena see it."""

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
