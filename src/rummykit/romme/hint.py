"""A hint for the seat on move: the action the solver suggests and why, as a stable code.

The page's hint button shows the action and translates the reason code (and its parameters)
into a sentence. The advice is the ``medium`` computer player's, except that it lays every meld
it can at once: that is easy to follow and to explain (holding melds back, as the computer
players do, is a matter of tactics that a hint cannot justify in one line).

Reason codes: ``next_round``; ``take_discard_to_open``, ``take_discard_to_meld``,
``take_discard_to_build`` (free pickup: it completes a meld in the hand, or is a joker),
``draw_from_stock``; ``go_out``, ``go_out_hand_romme``, ``open_with_best_melds``,
``use_picked_card``, ``exchange_joker``, ``lay_new_melds``, ``lay_off_cards``;
``discard_highest_dead_card``, ``discard_dead_card``, ``discard_least_useful_card``,
``discard_last_card``;
``not_your_turn``, ``game_over``.

>>> from rummykit.romme.game import State
>>> game = State.from_deal(
...     ["J♣ Q♣ K♣ 9♥ 9♦ 9♠ 2♣ 4♦ 7♠ 8♥ K♥ 3♠ 5♦ 6♣", "A♠ 2♠ 3♦ 4♣ 5♥ 6♠ 7♦ 8♣ 9♣ 10♦ J♥ Q♠ K♦"],
...     rules=Rules.preset("computer"),
...     dealer=1,
... )
>>> advice = hint(game.view(0))
>>> advice.reason, advice.params["value"]
('open_with_best_melds', 57)
"""

from __future__ import annotations

from rummykit.cards import Card
from rummykit.core import JSON, Hint
from rummykit.romme.actions import Action, Discard, Draw, NextRound, Play
from rummykit.romme.bot_levels import MediumBot
from rummykit.romme.moves import picked_unused
from rummykit.romme.rules import Rules, card_value, read_cards, reading_value
from rummykit.romme.strategy import face, hand_counts, neighbours
from rummykit.romme.view import View


class _Advisor(MediumBot):
    """The medium player, laying every meld at once."""

    hold = False


def hint(view: View, rules: Rules | None = None) -> Hint[Action]:
    """The suggested action for the seat of ``view`` and a reason code (see the module).

    ``rules`` defaults to the view's own rules (a page may pass the game's rules explicitly).
    """
    if rules is not None and rules != view.rules:
        from dataclasses import replace

        view = replace(view, rules=rules)
    if view.phase == "game_over":
        return Hint(None, "game_over")
    if view.phase == "round_over":
        return Hint(NextRound(), "next_round")
    if view.seat is None or view.seat != view.to_move:
        return Hint(None, "not_your_turn")
    advisor = _Advisor(seed=0)
    opened = view.opened[view.seat]
    if view.phase == "draw":
        action = advisor.draw(view)
        if isinstance(action, Draw) and action.source == "discard":
            top = view.discard_pile[-1]
            params: dict[str, JSON] = {"card": top.code}
            if advisor.usable_discard(view):
                reason = "take_discard_to_meld" if opened else "take_discard_to_open"
                return Hint(action, reason, params)
            return Hint(action, "take_discard_to_build", params)
        return Hint(action, "draw_from_stock")
    chosen = advisor.choose(view)
    if isinstance(chosen, Play):
        return Hint(chosen, *_play_reason(view, chosen))
    assert isinstance(chosen, Discard)
    return Hint(chosen, _discard_reason(view, chosen), {"card": chosen.card.code})


def _play_reason(view: View, play: Play) -> tuple[str, dict[str, JSON]]:
    assert view.seat is not None
    opened = view.opened[view.seat]
    laid = len(play.cards()) - len(play.exchanges)
    freed = len(play.exchanges)
    left = len(view.hand) - laid + freed
    value = 0
    for meld in play.melds:
        reading = read_cards(meld.cards, view.rules, meld.kind)
        if reading is not None:
            value += reading_value(reading, view.rules)
    params: dict[str, JSON] = {"cards": laid, "value": value}
    goes_out = left == 0 or (left == 1 and view.rules.go_out == "discard")
    if goes_out:
        return ("go_out" if opened else "go_out_hand_romme"), params
    if not opened:
        return "open_with_best_melds", params
    if picked_unused(view):
        return "use_picked_card", params
    if play.exchanges:
        return "exchange_joker", params
    if play.melds:
        return "lay_new_melds", params
    return "lay_off_cards", params


def _discard_reason(view: View, discard: Discard) -> str:
    if len(view.hand) == 1:
        return "discard_last_card"
    counts = hand_counts(view.hand)
    card = discard.card

    def dead(c: Card) -> bool:
        return not c.is_joker and not any(counts[g] for g in neighbours(face(c)))

    if not dead(card):
        return "discard_least_useful_card"
    highest = max(card_value(c, view.rules) for c in view.hand if dead(c) and c != view.picked)
    if card_value(card, view.rules) == highest:
        return "discard_highest_dead_card"
    return "discard_dead_card"
