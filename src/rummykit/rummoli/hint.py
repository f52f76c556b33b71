"""A hint for the seat on move: the ``hard`` computer player's decision and why, as a stable code.

The hard player plays the rest of the hand out on imagined deals of the cards the seat cannot
see; the hint gives its decision with the figure it rests on, which the page words.

Reason codes:

- ``take_widow``, ``keep_hand`` (the dealer's choice; ``gain``: the chips the widow brings
  back on average, more or less than the own hand, one decimal);
- ``bid_for_widow`` (``chips``: the bid, ``most``: the most the widow is worth),
  ``pass_widow`` (``most``);
- ``bet_strong`` (``chips``, ``chance``: the chance in percent of winning the Poker box),
  ``check`` (``chance``), ``call_worth_it`` (``owed``, ``pot``, ``chance``), ``fold_weak``
  (``owed``, ``chance``);
- ``lead_only_card``, ``lead_best_card`` (``card``, ``choices``: every card that may lead);
- ``not_your_turn``, ``game_over`` (no action).

>>> from rummykit.rummoli import Rules, State
>>> game = State(Rules(), 3, seed=4)
>>> advice = hint(game.view(game.to_move))
>>> advice.reason in ("take_widow", "keep_hand"), advice.action in game.legal_actions()
(True, True)
>>> hint(game.view((game.to_move + 1) % 3)).reason
'not_your_turn'
"""

from __future__ import annotations

from rummykit.core import Hint as GenericHint
from rummykit.rummoli.actions import Action, Bet, Bid, Call, Check, Fold, Pass, Play, Raise
from rummykit.rummoli.bots import HardBot
from rummykit.rummoli.table import POKER
from rummykit.rummoli.view import Phase, View

Hint = GenericHint[Action]
"""A suggested Rummoli action and the reason for it (see `rummykit.core.Hint`)."""

SEED = 0
"""The hint's own imagined deals: the same view always gets the same advice."""


def hint(view: View, samples: int = 128) -> Hint:
    """The suggested action for the seat of ``view`` and its reason code (see the module)."""
    if view.is_over:
        return Hint(None, "game_over")
    if view.seat is None or view.to_move != view.seat or not view.legal:
        return Hint(None, "not_your_turn")
    bot = HardBot(SEED + view.hand_number * 1000 + len(view.plays), samples)
    if view.phase is Phase.WIDOW:
        gain = bot.swap_gain(view)
        action: Action = bot.choose(view)
        reason = "keep_hand" if action.t == "keep_hand" else "take_widow"
        return Hint(action, reason, {"gain": round(gain, 1)})
    if view.phase is Phase.AUCTION:
        most = max(0, int(bot.swap_gain(view)))
        action = bot.choose(view)
        if isinstance(action, Bid):
            return Hint(action, "bid_for_widow", {"chips": action.chips, "most": most})
        return Hint(Pass(), "pass_widow", {"most": most})
    if view.phase is Phase.LEAD:
        card = bot.lead(view)
        assert isinstance(card, Play)
        choices = [c.code for c in view.choices]
        reason = "lead_only_card" if len(choices) == 1 else "lead_best_card"
        return Hint(card, reason, {"card": card.card.code, "choices": choices})
    return _betting(view, bot)


def _betting(view: View, bot: HardBot) -> Hint:
    assert view.seat is not None
    equity = bot.equity(view)
    chance = round(100 * equity)
    action = bot.bet(view, equity)
    owed = view.bet_level - view.contributed[view.seat]
    if isinstance(action, Bet | Raise):
        return Hint(action, "bet_strong", {"chips": action.chips, "chance": chance})
    if isinstance(action, Check):
        return Hint(action, "check", {"chance": chance})
    if isinstance(action, Call):
        params = {"owed": owed, "pot": view.board[POKER], "chance": chance}
        return Hint(action, "call_worth_it", params)
    assert isinstance(action, Fold)
    return Hint(action, "fold_weak", {"owed": owed, "chance": chance})


__all__ = ["Hint", "hint"]
