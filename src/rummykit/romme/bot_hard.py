"""The ``hard`` computer player: it remembers, holds back, and looks at the opponent's hand.

Seeing only its seat's `View`, it

- remembers every card seen this round (the discard pile, the table, the cards an opponent took
  from the discard pile and still holds) and counts the unseen copies of each face;
- once opened, holds its melds in hand instead of giving the opponents cards to lay off on,
  and lays everything at once when it can go out (which makes Hand-Rommé possible) or when an
  opponent gets close to going out;
- picks its discard by looking one draw ahead (`Prospects`: what each unseen card would let it
  lay next turn) and by sampling the next opponent's possible hands (determinized sampling):
  a discard the opponent could use at once is avoided;
- stays within its time ``budget`` per decision (samples are cut short when time runs out).
"""

from __future__ import annotations

from rummykit.cards import Card
from rummykit.romme.actions import Action, Draw
from rummykit.romme.bot_levels import MediumBot, penalty_weight
from rummykit.romme.game import View
from rummykit.romme.rules import card_value
from rummykit.romme.solver import (
    Arrangement,
    Objective,
    best_opening,
    best_turn,
    can_use_card,
    going_out,
)
from rummykit.romme.strategy import (
    Knowledge,
    Prospects,
    face,
    knowledge,
    neighbours,
    opponent_hands,
)

HOLD_UNTIL = 3
"""Once an opponent holds this many cards or fewer, everything is laid at once."""


class HardBot(MediumBot):
    """Card memory, held melds, one-draw lookahead and sampled opponent hands."""

    level = "hard"
    memory = True
    shortlist = 5
    samples = 8
    hold = True
    hold_until = HOLD_UNTIL
    opening: Objective = "penalty"

    def draw(self, view: View) -> Action:
        if not view.discard_pile:
            return Draw("stock")
        if self.usable_discard(view):
            return Draw("discard")
        return super().draw(view)

    def arrangement(self, view: View) -> Arrangement | None:
        assert view.seat is not None
        opened = view.opened[view.seat]
        out = going_out(view.hand, view.rules, opened=opened, table=view.table, picked=view.picked)
        if out is not None:
            return out
        if not opened:
            return best_opening(
                view.hand, view.rules, self.opening, table=view.table, picked=view.picked
            )
        # Held back: no new melds (they would give the opponents cards to lay off), but
        # lay-offs and exchanges, which only move the ends of melds already on the table.
        hold = self.hold and not self._threatened(view)
        return best_turn(
            view.hand,
            view.rules,
            "penalty",
            opened=True,
            table=view.table,
            picked=view.picked,
            new_melds=not hold,
        )

    def _threatened(self, view: View) -> bool:
        assert view.seat is not None
        return any(
            n <= self.hold_until and view.opened[s]
            for s, n in enumerate(view.hand_sizes)
            if s != view.seat
        )

    def discard(self, view: View) -> Card:
        assert view.seat is not None
        know = knowledge(view, memory=True)
        scores = self.discard_scores(view, know)
        ranked = sorted(scores, key=lambda c: (scores[c], -c.id))
        if len(ranked) <= 1:
            return ranked[0]
        prospects = Prospects(view, know, view.opened[view.seat])
        weight = penalty_weight(view)
        shortlist = [c for c in ranked[: self.shortlist] if not c.is_joker] or ranked[:1]
        danger = self._danger(view, know, shortlist)
        best: tuple[float, Card] | None = None
        for card in shortlist:
            rest = list(view.hand)
            rest.remove(card)
            value = prospects.value(rest)
            value += 0.01 * weight * card_value(card, view.rules) - 0.002 * scores[card]
            value -= 2.0 * danger.get(card, 0.0)
            if best is None or value > best[0]:
                best = (value, card)
            if self.time_left() < 0.3 * self.budget:
                break
        assert best is not None
        return best[1]

    def _danger(self, view: View, know: Knowledge, cards: list[Card]) -> dict[Card, float]:
        """For each card, the share of sampled hands of the next opponent that could lay it
        at once (a pickup they would make)."""
        assert view.seat is not None
        seat = (view.seat + 1) % view.players
        hands = opponent_hands(view, know, seat, self.samples, self._rng)
        danger: dict[Card, float] = {}
        opened = view.opened[seat]
        for card in cards:
            hits = 0
            tried = 0
            for hand in hands:
                if self.time_left() < 0.5 * self.budget:
                    break
                tried += 1
                hits += can_use_card(hand, card, view.table, view.rules, opened)
            danger[card] = hits / tried if tried else 0.0
            if not card.is_joker and any(
                face(card) in neighbours(face(c)) or face(card) == face(c)
                for c in know.known.get(seat, [])
                if not c.is_joker
            ):
                danger[card] += 0.25  # next to a card they chose to take
        return danger
