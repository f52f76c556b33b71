"""Rommé: 110 cards, groups and runs, an opening of 30, lay-offs and joker exchanges.

``rules`` holds the options, card values and meld readings every other module builds on;
``actions`` the moves and their notation; ``turn`` the check of one player's melding;
``game`` the state of a whole game of several rounds, views and replays; ``moves`` what a
seat may do next, seen from its view; ``bots`` the computer players.

>>> from rummykit import romme
>>> game = romme.State(romme.Rules.preset("computer"), players=3, seed=1)
>>> game.phase, game.to_move, len(game.hands[game.to_move])
('play', 1, 14)
"""

from __future__ import annotations

from rummykit.core import GameDescriptor, Hint, describe
from rummykit.romme import actions, bots
from rummykit.romme.actions import *  # noqa: F403 (the actions are the package's own API)
from rummykit.romme.game import Deal, State, new_game, replay, replay_states
from rummykit.romme.hint import hint
from rummykit.romme.rules import (
    CARD_MELDS,
    DEFAULT_RULES,
    Rules,
    TableMeld,
    card_value,
    hand_penalty,
    joker_stands_for,
    meld_kind,
    meld_value,
    piece,
    pieces,
    read_cards,
    reading_value,
)
from rummykit.romme.strategy import round_view
from rummykit.romme.turn import (
    PlayOutcome,
    TurnContext,
    arrange_meld,
    check_play,
    lay_off,
    new_meld_value,
)
from rummykit.romme.view import View

__all__ = [
    "CARD_MELDS",
    "DEFAULT_RULES",
    "GAME",
    "Deal",
    "Hint",
    "PlayOutcome",
    "Rules",
    "State",
    "TableMeld",
    "TurnContext",
    "View",
    "arrange_meld",
    "card_value",
    "check_play",
    "hand_penalty",
    "hint",
    "joker_stands_for",
    "lay_off",
    "meld_kind",
    "meld_value",
    "new_game",
    "new_meld_value",
    "piece",
    "pieces",
    "read_cards",
    "reading_value",
    "replay",
    "replay_states",
]
__all__ += actions.__all__

GAME: GameDescriptor[Rules, State, View, actions.Action] = describe(
    State,
    title="Rommé",
    computers=bots.COMPUTERS,
    hint=hint,
    parse_action=lambda text, rules: actions.parse_action(text),
    bot_view=round_view,
)
"""Rommé as the play layer, the command line and the arena see it."""
