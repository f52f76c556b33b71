"""A hint for the seat on move: the strongest computer player's move and what it does, as a code.

Reason codes:

- ``play_tiles``, ``first_meld`` (the player's first meld), ``rework_table`` (the play moves
  tiles already on the table), each with ``tiles`` (the rack tiles played, in notation),
  ``value`` (their points), ``first_meld`` and ``reworks`` (how many steps change the table's
  sets, see `rummykit.tiles.describe_rework`);
- ``draw_tile``: no play found that helps, draw;
- ``next_round``; ``not_your_turn``, ``game_over`` (no action).

>>> from rummykit.tiles import Rules, new_game
>>> game = new_game(Rules(), 2, 3)
>>> advice = hint(game.view(game.to_move))
>>> advice.reason in ("first_meld", "draw_tile"), game.can_apply(advice.action)
(True, True)
"""

from __future__ import annotations

from rummykit.core import Hint as GenericHint
from rummykit.tiles.actions import Action, Draw, NextRound, Play
from rummykit.tiles.bots import make_bot
from rummykit.tiles.turn import describe_rework
from rummykit.tiles.view import View

Hint = GenericHint[Action]
"""A suggested tile-rummy action and the reason for it (see `rummykit.core.Hint`)."""

REWORK_STEPS = frozenset({"moved", "set_gone", "joker_moved"})
"""The steps of a play that change the sets already on the table."""


def hint(view: View, level: str = "hard") -> Hint:
    """The move the computer player of ``level`` would make for the seat of ``view``, and why."""
    if view.is_over:
        return Hint(None, "game_over")
    if view.phase == "round_over":
        return Hint(NextRound(), "next_round")
    if view.seat is None or view.to_move != view.seat:
        return Hint(None, "not_your_turn")
    action = make_bot(level, view.round * 1000 + len(view.log)).choose(view)
    if not isinstance(action, Play):
        return Hint(Draw(), "draw_tile")
    check = view.check(action.table)
    steps = describe_rework(view.table, check.table, check.played)
    reworks = sum(1 for step in steps if step["code"] in REWORK_STEPS)
    if check.first_meld:
        reason = "first_meld"
    elif reworks:
        reason = "rework_table"
    else:
        reason = "play_tiles"
    params = {
        "tiles": [t.code for t in check.played],
        "value": check.value,
        "first_meld": check.first_meld,
        "reworks": reworks,
    }
    return Hint(Play(check.table), reason, params)


__all__ = ["REWORK_STEPS", "Hint", "hint"]
