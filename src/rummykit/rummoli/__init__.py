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

from rummykit.rummoli import poker
from rummykit.rummoli.actions import (
    Action,
    Bet,
    Bid,
    Call,
    Check,
    Fold,
    KeepHand,
    Pass,
    Play,
    Raise,
    SwapWidow,
    action_from_json,
    parse_action,
)
from rummykit.rummoli.demo import DemoHand, DemoStep, demo_hand
from rummykit.rummoli.game import Event, Phase, Start, State, View, replay, replay_states
from rummykit.rummoli.rules import ANTE, BOXES, PAYING_CARDS, Box, Rules

__all__ = [
    "ANTE",
    "BOXES",
    "PAYING_CARDS",
    "Action",
    "Bet",
    "Bid",
    "Box",
    "Call",
    "Check",
    "DemoHand",
    "DemoStep",
    "Event",
    "Fold",
    "KeepHand",
    "Pass",
    "Phase",
    "Play",
    "Raise",
    "Rules",
    "Start",
    "State",
    "SwapWidow",
    "View",
    "action_from_json",
    "demo_hand",
    "parse_action",
    "poker",
    "replay",
    "replay_states",
]
